#!/bin/sh
# xz-threads.sh RDB_CC BUILD_DIR: xz-utils 5.4.1 (Debian's xz-utils
# source package, the download xz-utils.sh caches) built with CC=rdb-cc
# and threads on (`./configure --disable-shared`, pthreads: xz-utils.sh
# builds it with --disable-threads), then its own test suite, `make
# check`, unrecorded: its multithreaded cases (test_check, test_hardware,
# test_memlimit) run instead of skipping.  Then a threaded workload,
# `xz -T4` with 256 KiB blocks on about 5 MB of liblzma's sources (each
# block a job of the encoder's four threads; xz -T4 -d decodes them on
# four threads too), unrecorded (same bytes as the gcc build's xz -T4),
# then recorded and replayed with --verify, compressing and decompressing
# (proj_record_threads, record-threads.sh).
set -eu
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/record-threads.sh"
proj_init xz-threads "$@"

# (its own download: project-xz-utils may be fetching its copy right now)
tarball=$(proj_fetch xz-utils 'xz-utils_*.orig.tar.xz')
proj_unpack "$tarball" "$work/src"
cd "$work/src"
proj_run configure ./configure CC="$CC" LDFLAGS="-Wl,$probe" \
	--disable-shared --enable-static --enable-threads=posix --disable-nls --disable-doc
grep -q '^#define MYTHREAD_POSIX 1' config.h || proj_die "configure did not enable POSIX threads"
proj_run make make -j2
export RDB_PROBE_LOG="$probe_log"
proj_run check make -j2 check
unset RDB_PROBE_LOG
sum=$(sed -n 's/^# \(TOTAL\|PASS\|SKIP\|FAIL\|XFAIL\|XPASS\|ERROR\): *\([0-9]*\)$/\1 \2/p' "$work/check.log" | tr '\n' ' ')
count() { echo "$sum" | awk -v k="$1" '{ for (i = 1; i < NF; i += 2) if ($i == k) n = $(i + 1) } END { print n + 0 }'; }
[ "$(count FAIL)" -eq 0 ] && [ "$(count ERROR)" -eq 0 ] && [ "$(count XPASS)" -eq 0 ] ||
	proj_die "make check: $sum"
[ "$(count PASS)" -ge 18 ] || proj_die "make check passed only $(count PASS) tests: $sum"
# the multithreaded cases ran (with --disable-threads they say SKIP)
for t in test_check test_memlimit; do
	grep -q "^PASS: $t\$" "$work/check.log" || proj_die "make check: $t did not pass: $(grep ": $t\$" "$work/check.log")"
done
proj_note "make check: $sum"
proj_check_bin "$work/src/src/xz/xz" lzma_code
proj_check_probe 18

# The workload: liblzma's sources, several times over (about 5 MB).
: > "$work/input"
for i in 1 2 3 4; do
	cat "$work"/src/src/liblzma/*/*.c "$work"/src/src/liblzma/*/*.h >> "$work/input"
	seq $((i * 7919)) 3 $((i * 7919 + 300000)) >> "$work/input"
done
xz=$work/src/src/xz/xz
opts="-T4 --block-size=262144 -3"
proj_unpack "$tarball" "$work/native"
(cd "$work/native" && ./configure --disable-shared --enable-static --disable-nls --disable-doc &&
	make -j2 -C src/liblzma && make -j2 -C src/xz) > "$work/native.log" 2>&1 ||
	proj_die "building xz with gcc failed (log: $work/native.log)"
# shellcheck disable=SC2086
"$work/native/src/xz/xz" $opts -c < "$work/input" > "$work/input.native.xz"
start=$(date +%s.%N)
# shellcheck disable=SC2086
"$xz" $opts -c < "$work/input" > "$work/input.xz" || proj_die "instrumented xz $opts failed"
end=$(date +%s.%N)
cmp -s "$work/input.native.xz" "$work/input.xz" || proj_die "instrumented xz $opts output differs from gcc's"
"$xz" -T4 -d -c < "$work/input.xz" | cmp -s - "$work/input" || proj_die "xz -T4 -d did not give the input back"
proj_note "workload: xz $opts on $(wc -c < "$work/input") bytes in $(awk "BEGIN { printf \"%.1f\", $end - $start }") s: same output as gcc's build; -T4 -d gives it back"

# shellcheck disable=SC2086
rt_intervals="-i 200" proj_record_threads compress "$work/input" "$xz" $opts -c
cmp -s "$work/input.native.xz" "$work/rr-compress.rec.out" ||
	proj_die "xz $opts recorded gave other bytes than gcc's build"
rt_intervals="-i 20" proj_record_threads decompress "$work/input.native.xz" "$xz" -T4 -d -c
cmp -s "$work/input" "$work/rr-decompress.rec.out" ||
	proj_die "xz -T4 -d recorded did not give the input back"
echo "PASS xz-threads"
