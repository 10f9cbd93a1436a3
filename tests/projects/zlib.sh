#!/bin/sh
# zlib.sh RDB_CC BUILD_DIR: zlib 1.2.13 (Debian's zlib source package)
# built with CC=rdb-cc by its own `./configure --static && make`, then its
# own tests (`make test test64`: example and minigzip; then `make check`
# recorded whole by rdb record, each test program replayed alone and rdb
# check: proj_record_tree), then a workload the
# test suite lacks: minigzip -9 on about 15 MB of generated text gives the
# same bytes as a gcc build of the same source, and decompresses back.
set -eu
. "$(dirname "$0")/common.sh"
proj_init zlib "$@"

tarball=$(proj_fetch zlib 'zlib_*.orig.tar.*')
proj_unpack "$tarball" "$work/src"
cd "$work/src"
proj_run configure env CC="$CC" LDFLAGS="-Wl,$probe" ./configure --static
proj_run make make -j2 all
export RDB_PROBE_LOG="$probe_log"
proj_run test make test test64
unset RDB_PROBE_LOG
grep -q '\*\*\* zlib test OK \*\*\*' "$work/test.log" || proj_die "make test did not say OK"
grep -q '\*\*\* zlib 64-bit test OK \*\*\*' "$work/test.log" || proj_die "make test64 did not say OK"
proj_note "make test test64: $(grep -c 'test OK' "$work/test.log") OK lines"
# the same suite, `make check`, recorded whole: every test program
# (minigzip, minigzip -d, example, and their 64-bit builds) a process
proj_record_tree make-check 6 make check
grep -q '\*\*\* zlib 64-bit test OK \*\*\*' "$work/tree-make-check.rec.out" ||
	proj_die "make check under rdb record did not say OK"
proj_check_bin "$work/src/example" deflate
proj_check_bin "$work/src/minigzip" inflate

# The same source built by gcc, for a byte-for-byte comparison.
proj_unpack "$tarball" "$work/native"
(cd "$work/native" && CC=gcc ./configure --static && make -j2 minigzip) > "$work/native.log" 2>&1 ||
	proj_die "the gcc build failed (log: $work/native.log)"
i=0
: > "$work/input"
while [ $i -lt 12 ]; do
	cat "$work"/src/*.c "$work"/src/*.h >> "$work/input"
	seq $((i * 20000)) $((i * 20000 + 20000)) >> "$work/input"
	i=$((i + 1))
done
"$work/native/minigzip" -9 < "$work/input" > "$work/input.native.gz"
export RDB_PROBE_LOG="$probe_log"
"$work/src/minigzip" -9 < "$work/input" > "$work/input.rdb.gz" ||
	proj_die "instrumented minigzip -9 failed"
cmp "$work/input.native.gz" "$work/input.rdb.gz" ||
	proj_die "instrumented minigzip -9 output differs from gcc's"
"$work/src/minigzip" -d < "$work/input.rdb.gz" > "$work/input.back" ||
	proj_die "instrumented minigzip -d failed"
cmp "$work/input" "$work/input.back" || proj_die "minigzip -d did not give the input back"
unset RDB_PROBE_LOG
proj_note "workload: minigzip -9 on $(wc -c < "$work/input") bytes: same output as gcc's build; -d restores it"
proj_record_replay minigzip-9 "$work/input" "$work/src/minigzip" -9
proj_check_probe 6
echo "PASS zlib"
