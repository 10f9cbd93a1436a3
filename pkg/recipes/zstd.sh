# zstd (libzstd) from Debian's libzstd: plain Makefiles; the static
# library multithreaded (ZSTD_MULTITHREAD, as zstd's lib-mt builds it: its
# default static library is single-threaded and refuses nbWorkers > 0),
# on musl's pthreads; its libzstd.pc says Libs.private: -pthread.  The
# zstd program for the tests with threads too, without the other formats
# (its lzma code needs zlib too, so it must not find liblzma alone).  The
# own tests are `make -C tests check`, zstd's shortest set: playTests.sh,
# the zstd program (on the same library sources) over generated data.
# zstd's hand-written Huffman decoder (huf_decompress_amd64.S) uses
# %r13-%r15, which rdb reserves: ZSTD_NO_ASM=1 takes the C decoder.
pkg_source=libzstd
pkg_tarball='libzstd_*.orig.tar.*'
pkg_build() {
	make -j"$JOBS" -C lib libzstd.a libzstd.pc ZSTD_NO_ASM=1 PREFIX="$PREFIX" \
		CPPFLAGS_STATLIB=-DZSTD_MULTITHREAD LDFLAGS_DYNLIB=-pthread
}
pkg_check() { make -j"$JOBS" -C tests check HAVE_THREAD=1 HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0 ZSTD_NO_ASM=1; }
pkg_install() {
	make -C lib install-static install-includes install-pc PREFIX="$PREFIX"
}
