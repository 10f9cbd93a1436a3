#!/bin/sh
# xz-utils.sh RDB_CC BUILD_DIR: xz-utils 5.4.1 (Debian's xz-utils source
# package) built with CC=rdb-cc by its own autotools build
# (`./configure --disable-shared --disable-threads && make`), then its own
# test suite, `make check`: liblzma's unit tests and the xz, xzdec and
# script tests over the shipped test files.  Threads are off because rdb
# is single-threaded for now; the suite then reports its three
# multithreaded cases (test_check, test_hardware, test_memlimit) as SKIP,
# as it does for any build without threads.
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
proj_check_bin "$work/src/src/xz/xz" lzma_code
proj_check_bin "$work/src/src/xzdec/xzdec" lzma_crc64
proj_check_bin "$work/src/tests/test_block_header" lzma_block_header_encode
cat "$work"/src/src/liblzma/*/*.c > "$work/input"
proj_record_replay xz-6 "$work/input" "$work/src/src/xz/xz" -6 -c
proj_check_probe 30
echo "PASS xz-utils"
