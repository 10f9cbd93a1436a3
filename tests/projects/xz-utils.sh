#!/bin/sh
# xz-utils.sh RDB_CC BUILD_DIR: xz-utils 5.4.1 (Debian's xz-utils source
# package) built with CC=rdb-cc by its own autotools build
# (`./configure --disable-shared --disable-threads && make`), then its own
# test suite, `make check`: liblzma's unit tests and the xz, xzdec and
# script tests over the shipped test files.  Threads are off because rdb
# is single-threaded for now; the suite then reports its three
# multithreaded cases (test_check, test_hardware, test_memlimit) as SKIP,
# as it does for any build without threads.  Then six of its unit tests
# recorded whole by rdb record (`make check TESTS=...`), each replayed
# alone (proj_record_tree).
set -eu
. "$(dirname "$0")/common.sh"
proj_init xz-utils "$@"

tarball=$(proj_fetch xz-utils 'xz-utils_*.orig.tar.xz')
proj_unpack "$tarball" "$work/src"
cd "$work/src"
proj_run configure ./configure CC="$CC" LDFLAGS="-Wl,$probe" \
	--disable-shared --enable-static --disable-threads --disable-nls --disable-doc
proj_run make make -j2
export RDB_PROBE_LOG="$probe_log"
proj_run check make -j2 check
unset RDB_PROBE_LOG
sum=$(sed -n 's/^# \(TOTAL\|PASS\|SKIP\|FAIL\|XFAIL\|XPASS\|ERROR\): *\([0-9]*\)$/\1 \2/p' "$work/check.log" | tr '\n' ' ')
count() { echo "$sum" | awk -v k="$1" '{ for (i = 1; i < NF; i += 2) if ($i == k) n = $(i + 1) } END { print n + 0 }'; }
[ "$(count FAIL)" -eq 0 ] && [ "$(count ERROR)" -eq 0 ] && [ "$(count XPASS)" -eq 0 ] ||
	proj_die "make check: $sum"
[ "$(count PASS)" -ge 15 ] || proj_die "make check passed only $(count PASS) tests: $sum"
proj_note "make check: $sum"
# liblzma's unit tests, `make check` of them recorded whole (each test
# program replayed alone, rdb check: proj_record_tree); the whole suite
# (403 processes, with xz and xzdec on every test file) passes recorded
# too, but takes minutes (docs/process-trees.md)
units="test_block_header test_vli test_stream_flags test_filter_flags test_index_hash test_bcj_exact_size"
(cd tests && proj_record_tree unit-tests 6 make check TESTS="$units")
proj_check_bin "$work/src/src/xz/xz" lzma_code
proj_check_bin "$work/src/src/xzdec/xzdec" lzma_crc64
proj_check_bin "$work/src/tests/test_block_header" lzma_block_header_encode
cat "$work"/src/src/liblzma/*/*.c > "$work/input"
proj_record_replay xz-6 "$work/input" "$work/src/src/xz/xz" -6 -c
proj_check_probe 30
echo "PASS xz-utils"
