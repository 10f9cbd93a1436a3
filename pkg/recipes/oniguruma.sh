# oniguruma (libonig): a git snapshot, so autoreconf first (automake and
# libtool); the own tests are test/'s `make check` (the UTF-8, syntax,
# options, EUC-JP, POSIX, UTF-16, regset and backward-search programs, and
# sample/'s programs).
pkg_source=libonig
pkg_tarball='libonig_*.orig.tar.*'
pkg_build() {
	autoreconf -fi &&
	./configure --prefix="$PREFIX" --disable-shared --enable-static &&
	make -j"$JOBS"
}
pkg_check() {
	make -j"$JOBS" check && pkg_automake_passed 20 test/test-suite.log sample/test-suite.log
}
pkg_install() {
	make -C src install && make install-pkgconfigDATA
}
