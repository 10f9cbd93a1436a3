#!/bin/sh
# zstd-tests.sh RDB_CC BUILD_DIR: zstd's own test programs on the libzstd
# that rdb-cc-pkg installed (pkg-libs-more adds it), multithreaded
# (ZSTD_MULTITHREAD, musl's pthreads).  From the same Debian source
# package, tests/fuzzer, tests/zstreamtest and tests/decodecorpus are
# built by zstd's tests/Makefile with CC=rdb-cc, linked with the
# sysroot's instrumented libzstd.a instead of their own copy of the
# library's sources (so what they exercise is what rdb programs link),
# and run with a fixed seed for a bounded time, as zstd's `make -C tests
# test` runs them (test-fuzzer, test-zstream, test-decodecorpus) but for
# a few seconds each (FUZZ_S) where zstd takes minutes: fuzzer's random
# round trips; zstreamtest's random streaming round trips; zstreamtest
# --newapi's random tests of the advanced API, nbWorkers 1 to 4 among
# their parameters (the run must have set workers); decodecorpus's
# generated frames through the decoder; poolTests (test-pool), the
# library's thread pool.  The unit tests (fuzzer and zstreamtest without
# -t1) are left out: two of them fill 2 GB hash tables, minutes
# instrumented.  Each program must carry the library's code instrumented
# and report a non-zero count through the probe.  Then
# tests/pkg/zstdmt.c, compressing about 6 MB with ZSTD_c_nbWorkers 3
# (1 MiB jobs), must give the bytes nbWorkers 1 gives and decompress to
# its input, and is recorded and replayed with --verify, whole and from
# the middle (proj_record_threads, tests/projects/record-threads.sh);
# decodecorpus with a fixed number of
# frames is recorded and replayed the same way (one thread).  A failing
# check of zstd's exits non-zero, and so does this test.
set -eu
. "$(dirname "$0")/../projects/common.sh"
. "$(dirname "$0")/../projects/record-threads.sh"
proj_init pkg-zstd-tests "$@"
FUZZ_S=${FUZZ_S:-10}

sysroot=$("$CC" -print-sysroot)
lib=$sysroot/lib/libzstd.a
[ -f "$sysroot/share/rdb-cc-pkg/zstd" ] && [ -f "$lib" ] ||
	proj_die "rdb-cc-pkg has not added zstd to $sysroot (pkg-libs-more does)"
# ZSTD_MULTITHREAD: the library's thread pool starts threads (built by an
# older recipe, the library is single-threaded: rdb-cc-pkg add zstd
# builds it again)
nm "$lib" 2> /dev/null | grep -q ' U pthread_create$' ||
	proj_die "$lib is single-threaded (no pthread_create in it): not built with ZSTD_MULTITHREAD"
# rdb-cc-pkg's download cache (its default: next to the sysroot)
tarball=$(ls "$(dirname "$sysroot")"/pkg/zstd/download/libzstd_*.orig.tar.* 2> /dev/null | head -n 1)
[ -n "$tarball" ] || proj_die "no libzstd source in rdb-cc-pkg's cache $(dirname "$sysroot")/pkg/zstd"
proj_unpack "$tarball" "$work/src"
cd "$work/src/tests"

# Multithreaded as the installed library (the Makefile's MULTITHREAD_CPP,
# -DZSTD_MULTITHREAD, kept: the test programs' thread tests are compiled
# in), no library objects of the Makefile's own (ZSTDMT_OBJECTS,
# ZSTD_OBJECTS, ZDICT_FILES: the archive has them all).  fuzzer and
# zstreamtest link their files in the order the Makefile lists them, the
# archive's first, so it is linked whole; decodecorpus compiles
# zstd_compress.c into itself and takes the rest from the archive, after
# its objects (LDLIBS).  (LDFLAGS given here replaces the Makefile's
# -pthread, so it says it itself.)
common="CC=$CC ZSTDMT_OBJECTS= ZSTD_OBJECTS= ZDICT_FILES="
# shellcheck disable=SC2086 # common is words
proj_run build-fuzzers make -j2 fuzzer zstreamtest $common \
	LDFLAGS="-pthread -Wl,$probe -Wl,--whole-archive $lib -Wl,--no-whole-archive"
# shellcheck disable=SC2086
proj_run build-decodecorpus make decodecorpus $common LDFLAGS="-pthread -Wl,$probe" LDLIBS="$lib -lm"
# poolTests (zstd's test-pool): the library's thread pool (pool.c,
# threading.c), here from the archive rather than compiled in
proj_run build-poolTests "$CC" -O2 -g -DZSTD_MULTITHREAD -pthread -I../lib -I../lib/common \
	-I../programs ../programs/util.c ../programs/timefn.c poolTests.c -Wl,"$probe" "$lib" -o poolTests
proj_check_bin poolTests POOL_add
proj_check_bin fuzzer ZSTD_compressStream2
proj_check_bin zstreamtest ZSTD_decompressStream
proj_check_bin decodecorpus ZSTD_decompressDCtx

export RDB_PROBE_LOG="$probe_log"
# (-t1: from random test 1, past the unit tests: theirs allocate 2 GB
# tables and take minutes instrumented)
proj_run fuzzer ./fuzzer -t1 -s5 -T"${FUZZ_S}s"
proj_run zstreamtest ./zstreamtest -t1 -s5 -T"${FUZZ_S}s"
# (-t1: past the unit tests, as zstd's test-zstream; -vvv: each random
# test's parameters, nbThreads among them)
proj_run zstreamtest-newapi ./zstreamtest --newapi -t1 -vvv -s5 -T"${FUZZ_S}s"
proj_run decodecorpus ./decodecorpus -t -s5 -T"$FUZZ_S"
proj_run poolTests ./poolTests
unset RDB_PROBE_LOG
grep -q '^PASS: all POOL tests' "$work/poolTests.log" || proj_die "poolTests did not pass: $(tail -n 3 "$work/poolTests.log")"
# each prints its count of random tests last (after its unit tests): a
# run that tested nothing must not pass
for t in fuzzer zstreamtest zstreamtest-newapi decodecorpus; do
	c=$(tr '\r' '\n' < "$work/$t.log" | sed -n 's/^\([0-9][0-9]*\) \(fuzzer \)\{0,1\}tests completed.*/\1/p' | tail -n 1)
	[ "${c:-0}" -gt 0 ] || proj_die "$t did not say it completed tests: $(tail -c 200 "$work/$t.log")"
	counts="${counts:-}${counts:+, }$t $c"
done
mt=$(grep -c 'nbThreads : [1-9]' "$work/zstreamtest-newapi.log" || :)
[ "${mt:-0}" -gt 0 ] || proj_die "zstreamtest --newapi: no random test used workers (no 'nbThreads : N' in $work/zstreamtest-newapi.log)"
counts="$counts; workers in $mt of zstreamtest-newapi's"
proj_check_probe 5
proj_note "zstd's own tests passed on the instrumented libzstd.a, threads included (random tests in ${FUZZ_S} s each: $counts)"

# A multithreaded compression of a few MB: zstd's sources and numbers.
"$CC" -O1 -g -pthread "$proj_repo/tests/pkg/zstdmt.c" -I"$sysroot/include" "$lib" -Wl,"$probe" \
	-o "$work/zstdmt" || proj_die "building zstdmt.c against $lib failed"
proj_check_bin "$work/zstdmt" ZSTDMT_compressStream_generic
: > "$work/input"
for i in 1 2; do
	cat "$work"/src/lib/*/*.c >> "$work/input"
	seq $((i * 7919)) 3 $((i * 7919 + 300000)) >> "$work/input"
done
"$work/zstdmt" -c 3 < "$work/input" > "$work/input.zst" || proj_die "zstdmt -c 3 failed"
"$work/zstdmt" -c 1 < "$work/input" > "$work/input.1.zst" || proj_die "zstdmt -c 1 failed"
cmp -s "$work/input.zst" "$work/input.1.zst" || proj_die "zstdmt -c 3 and -c 1 gave different frames"
"$work/zstdmt" -d < "$work/input.zst" | cmp -s - "$work/input" || proj_die "zstdmt -d did not give the input back"
proj_note "workload: zstdmt -c 3 on $(wc -c < "$work/input") bytes: $(wc -c < "$work/input.zst") bytes, as -c 1; -d gives the input back"
proj_record_threads zstdmt "$work/input" "$work/zstdmt" -c 3
cmp -s "$work/input.zst" "$work/rr-zstdmt.rec.out" || proj_die "zstdmt -c 3 recorded gave other bytes than unrecorded"

proj_record_replay decodecorpus /dev/null ./decodecorpus -t -s5 -n15
echo "PASS pkg-zstd-tests"
