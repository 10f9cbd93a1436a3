# libffi: autotools; its x86-64 assembly (unix64.S) goes through altr like
# any .S.  No static trampolines: their code table must fill whole pages
# exactly, which hooks would break; closures then write their trampolines
# at run time.  The own tests (DejaGnu's runtest, from the dejagnu
# package) are the call and closure sets at -O2 only, not the whole matrix
# of optimisation levels (each test is a program built by rdb-cc).
pkg_build() {
	./configure --prefix="$PREFIX" --disable-shared --enable-static \
		--disable-docs --disable-multi-os-directory \
		--disable-exec-static-tramp &&
	make -j"$JOBS"
}
pkg_check() {
	command -v runtest > /dev/null || { echo "runtest (package dejagnu) is needed for libffi's tests"; return 1; }
	LIBFFI_TEST_OPTIMIZATION=-O2 make -j"$JOBS" check RUNTESTFLAGS="call.exp closures.exp" &&
	pkg_dejagnu_passed 100 "$(find . -name libffi.sum | head -n 1)"
}
pkg_install() { make install-exec install-data; }
