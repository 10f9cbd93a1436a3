#!/bin/sh
# bzip2.sh RDB_CC BUILD_DIR: bzip2 1.0.8 (Debian's bzip2 source package)
# built with `make CC=rdb-cc` from its own Makefile, whose default target
# runs its own tests (compress and decompress sample1-3 at -1 and -2, cmp
# against the shipped references), then a workload the tests lack:
# bzip2 -9 on about 4 MB of generated text gives the same bytes as a gcc
# build, bzip2 -t accepts it and bzip2 -d restores the input.
# bzip2recover is built and checked for instrumentation but not run: it
# prints with "%Lu", which musl rejects (EINVAL; glibc takes it as %llu),
# so it fails under musl with or without rdb.
set -eu
. "$(dirname "$0")/common.sh"
proj_init bzip2 "$@"

tarball=$(proj_fetch bzip2 'bzip2_*.orig.tar.*')
proj_unpack "$tarball" "$work/src"
cd "$work/src"
export RDB_PROBE_LOG="$probe_log"
proj_run make make CC="$CC" LDFLAGS="-Wl,$probe"
unset RDB_PROBE_LOG
n=$(grep -c '^cmp ' "$work/make.log" || true)
[ "$n" -eq 6 ] || proj_die "make ran $n of the 6 cmp checks of its tests"
proj_note "make (with its tests): 6 of 6 cmp checks passed"
proj_check_bin "$work/src/bzip2" BZ2_compressBlock
proj_check_bin "$work/src/bzip2recover" main

proj_unpack "$tarball" "$work/native"
(cd "$work/native" && make CC=gcc bzip2) > "$work/native.log" 2>&1 ||
	proj_die "the gcc build failed (log: $work/native.log)"
i=0
: > "$work/input"
while [ $i -lt 6 ]; do
	cat "$work"/src/*.c "$work"/src/*.h "$work"/src/sample*.ref >> "$work/input"
	seq $((i * 7919)) 3 $((i * 7919 + 60000)) >> "$work/input"
	i=$((i + 1))
done
"$work/native/bzip2" -9 < "$work/input" > "$work/input.native.bz2"
export RDB_PROBE_LOG="$probe_log"
"$work/src/bzip2" -9 < "$work/input" > "$work/input.bz2" || proj_die "instrumented bzip2 -9 failed"
cmp "$work/input.native.bz2" "$work/input.bz2" || proj_die "instrumented bzip2 -9 output differs from gcc's"
"$work/src/bzip2" -t "$work/input.bz2" || proj_die "bzip2 -t rejects its own output"
"$work/src/bzip2" -d < "$work/input.bz2" > "$work/input.back" || proj_die "bzip2 -d failed"
cmp "$work/input" "$work/input.back" || proj_die "bzip2 -d did not give the input back"
unset RDB_PROBE_LOG
proj_note "workload: bzip2 -9 on $(wc -c < "$work/input") bytes: same output as gcc's build; -t and -d agree"
proj_record_replay bzip2-9 "$work/input" "$work/src/bzip2" -9
proj_check_probe 9
echo "PASS bzip2"
