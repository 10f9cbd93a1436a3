# zstd (libzstd) from Debian's libzstd: plain Makefiles; the static
# library single-threaded (its default), the zstd program for the tests
# without threads too (rdb records one thread) and without the other
# formats (its lzma code needs zlib too, so it must not find liblzma alone).  The own tests are
# `make -C tests check`, zstd's shortest set: playTests.sh, the zstd
# program (on the same library sources) over generated data.  zstd's
# hand-written Huffman decoder (huf_decompress_amd64.S) uses %r13-%r15,
# which rdb reserves: ZSTD_NO_ASM=1 takes the C decoder.
pkg_source=libzstd
pkg_tarball='libzstd_*.orig.tar.*'
pkg_build() { make -j"$JOBS" -C lib libzstd.a libzstd.pc ZSTD_NO_ASM=1 PREFIX="$PREFIX"; }
pkg_check() { make -j"$JOBS" -C tests check HAVE_THREAD=0 HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0 ZSTD_NO_ASM=1; }
pkg_install() {
	make -C lib install-static install-includes install-pc PREFIX="$PREFIX"
}
