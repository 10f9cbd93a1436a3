# libffi: autotools; its x86-64 assembly (unix64.S, win64.S) goes through
# altr like any .S.  Three tables there jump to fixed 8-byte slots
# (`.org BASE + X*8`, index scaled by 8) and unix64.S's hand-written unwind
# info advances by one byte; hooks overflow both, so pkg_build widens the
# slots to 128 bytes and the advances to two bytes.  win64.S scales its
# index between a compare and its jump, so by leas, which keep the flags
# (%r11 is free there: the call before it clobbers it).  No static
# trampolines: their code table must fill whole pages exactly; closures
# then write their trampolines at run time.  The own tests (DejaGnu's
# runtest, package dejagnu) are the call and closure sets at -O2 only,
# not the whole matrix of optimisation levels nor the bhaible, complex and
# go sets (each test is a program built by rdb-cc: the whole suite takes
# minutes); the closure set's two C++ tests go, rdb-cc builds C only.
pkg_build() {
	s=src/x86/unix64.S
	sed -e 's/^\(# define E(BASE, X)\t\.balign 8; \.org BASE + X \* \)8$/\1128/' \
		-e 's/^\(\tleaq\t(%r11, %r10, 8), %r10\)$/\tshll\t$4, %r10d\n\1/' \
		-e 's/^# define ADV(N, P)\t\.byte 2, L(N)-L(P)$/# define ADV(N, P)\t.byte 3; .2byte L(N)-L(P)/' \
		"$s" > "$s.rdb" && mv "$s.rdb" "$s"
	[ "$(grep -c 'X \* 128$' "$s")" = 1 ] && [ "$(grep -c 'shll	\$4, %r10d' "$s")" = 2 ] &&
		[ "$(grep -c '^# define ADV(N, P)	\.byte 3; \.2byte' "$s")" = 2 ] ||
		{ echo "libffi: $s is not as this recipe expects (the slot patch did not apply)"; return 1; }
	s=src/x86/win64.S
	sed -e 's/^\(# define E(BASE, X)\t\.balign 8; \.org BASE + (X) \* \)8$/\1128/' \
		-e 's/^\tleaq\t(%r10, %rcx, 8), %r10$/\tleaq\t(,%rcx,8), %r11\n\tleaq\t(,%r11,8), %r11\n\tleaq\t(%r10, %r11, 2), %r10/' \
		"$s" > "$s.rdb" && mv "$s.rdb" "$s"
	[ "$(grep -c '(X) \* 128$' "$s")" = 1 ] && [ "$(grep -c '(%r10, %r11, 2), %r10' "$s")" = 1 ] ||
		{ echo "libffi: $s is not as this recipe expects (the slot patch did not apply)"; return 1; }
	./configure --prefix="$PREFIX" --disable-shared --enable-static \
		--disable-docs --disable-multi-os-directory \
		--disable-exec-static-tramp &&
	make -j"$JOBS"
}
pkg_check() {
	command -v runtest > /dev/null || { echo "runtest (package dejagnu) is needed for libffi's tests"; return 1; }
	rm -f testsuite/libffi.closures/*.cc
	LIBFFI_TEST_OPTIMIZATION=-O2 make -j"$JOBS" check RUNTESTFLAGS="call.exp closure.exp" &&
	pkg_dejagnu_passed 400 "$(find . -name libffi.sum | head -n 1)"
}
pkg_install() { make install-exec install-data; }
