# xz (liblzma) from Debian's xz-utils: autotools; the library only, no
# threads (rdb records one thread), no xz program, so the own tests are
# liblzma's unit tests (the script tests that need xz skip themselves;
# tests/projects/xz-utils.sh runs the whole suite with the programs).
pkg_source=xz-utils
pkg_tarball='xz-utils_*.orig.tar.*'
pkg_build() {
	./configure --prefix="$PREFIX" --disable-shared --enable-static \
		--disable-threads --disable-nls --disable-doc --disable-xz \
		--disable-xzdec --disable-lzmadec --disable-lzmainfo \
		--disable-lzma-links --disable-scripts &&
	make -j"$JOBS" -C src/liblzma
}
pkg_check() {
	make -j"$JOBS" -C tests check && pkg_automake_passed 8 tests/test-suite.log
}
pkg_install() { make -C src/liblzma install; }
