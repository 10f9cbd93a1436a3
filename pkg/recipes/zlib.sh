# zlib: its own configure (not autoconf) reads CC and CFLAGS.
pkg_build() {
	./configure --static --prefix="$PREFIX" && make -j"$JOBS" libz.a
}
pkg_check() { make -j"$JOBS" test; }
pkg_install() { make install; }
