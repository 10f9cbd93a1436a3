#!/bin/sh
# zstd-tests.sh RDB_CC BUILD_DIR: zstd's own test programs on the libzstd
# that rdb-cc-pkg installed (pkg-libs-more adds it).  From the same Debian
# source package, tests/fuzzer, tests/zstreamtest and tests/decodecorpus
# are built by zstd's tests/Makefile with CC=rdb-cc, linked with the
# sysroot's instrumented libzstd.a instead of their own copy of the
# library's sources (so what they exercise is what rdb programs link),
# and run with a fixed seed for a bounded time: fuzzer's random round
# trips (compression levels and parameters, dictionaries, streaming);
# zstreamtest's random streaming round trips; decodecorpus's generated
# frames through the decoder.  Their unit tests, and zstreamtest's random
# tests of the new API, are left out: they set nbWorkers > 0, which the
# single-threaded library (rdb-cc-pkg builds it so) refuses.  zstd runs
# these for minutes (`make -C tests test`); here a few seconds each
# (FUZZ_S); the whole test took 4 min 48 s on 2 cores at load average
# 40-50, most of it compiling.  Each
# program must carry the library's code instrumented, and report a
# non-zero count through the probe; decodecorpus with a fixed number of
# frames is recorded and replayed with --verify, whole and from the
# middle (zstreamtest's bigger buffers make its recording minutes long).
# A failing check of zstd's exits non-zero, and so does this test.
set -eu
. "$(dirname "$0")/../projects/common.sh"
proj_init pkg-zstd-tests "$@"
FUZZ_S=${FUZZ_S:-10}

sysroot=$("$CC" -print-sysroot)
lib=$sysroot/lib/libzstd.a
[ -f "$sysroot/share/rdb-cc-pkg/zstd" ] && [ -f "$lib" ] ||
	proj_die "rdb-cc-pkg has not added zstd to $sysroot (pkg-libs-more does)"
# rdb-cc-pkg's download cache (its default: next to the sysroot)
tarball=$(ls "$(dirname "$sysroot")"/pkg/zstd/download/libzstd_*.orig.tar.* 2> /dev/null | head -n 1)
[ -n "$tarball" ] || proj_die "no libzstd source in rdb-cc-pkg's cache $(dirname "$sysroot")/pkg/zstd"
proj_unpack "$tarball" "$work/src"
cd "$work/src/tests"

# Single-threaded as the installed library (MULTITHREAD_*), no library
# objects of the Makefile's own (ZSTDMT_OBJECTS, ZSTD_OBJECTS, ZDICT_FILES:
# the archive has them all).  fuzzer and zstreamtest link their files in
# the order the Makefile lists them, the archive's first, so it is linked
# whole; decodecorpus compiles zstd_compress.c into itself and takes the
# rest from the archive, after its objects (LDLIBS).
common="CC=$CC MULTITHREAD_CPP= MULTITHREAD_LD= ZSTDMT_OBJECTS= ZSTD_OBJECTS= ZDICT_FILES="
# shellcheck disable=SC2086 # common is words
proj_run build-fuzzers make -j2 fuzzer zstreamtest $common \
	LDFLAGS="-Wl,$probe -Wl,--whole-archive $lib -Wl,--no-whole-archive"
# shellcheck disable=SC2086
proj_run build-decodecorpus make decodecorpus $common LDFLAGS="-Wl,$probe" LDLIBS="$lib -lm"
proj_check_bin fuzzer ZSTD_compressStream2
proj_check_bin zstreamtest ZSTD_decompressStream
proj_check_bin decodecorpus ZSTD_decompressDCtx

export RDB_PROBE_LOG="$probe_log"
# (-t1: from random test 1, past the unit tests)
proj_run fuzzer ./fuzzer -t1 -s5 -T"${FUZZ_S}s"
proj_run zstreamtest ./zstreamtest -t1 -s5 -T"${FUZZ_S}s"
proj_run decodecorpus ./decodecorpus -t -s5 -T"$FUZZ_S"
unset RDB_PROBE_LOG
# each prints its count of random tests last (after its unit tests): a
# run that tested nothing must not pass
for t in fuzzer zstreamtest decodecorpus; do
	c=$(tr '\r' '\n' < "$work/$t.log" | sed -n 's/^\([0-9][0-9]*\) \(fuzzer \)\{0,1\}tests completed.*/\1/p' | tail -n 1)
	[ "${c:-0}" -gt 0 ] || proj_die "$t did not say it completed tests: $(tail -c 200 "$work/$t.log")"
	counts="${counts:-}${counts:+, }$t $c"
done
proj_check_probe 3
proj_note "zstd's own tests passed on the instrumented libzstd.a (random tests in ${FUZZ_S} s each: $counts)"

proj_record_replay decodecorpus /dev/null ./decodecorpus -t -s5 -n15
echo "PASS pkg-zstd-tests"
