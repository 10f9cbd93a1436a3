#!/bin/sh
# demo.sh [BUILD_DIR]: the main job.  Builds the toolchain and the
# instrumented musl, compiles examples/life.c with rdb-cc (gcc -S, altr with
# rules/trace.rules, static-pie against librdb and musl), runs it beside a
# plain gcc build, records it with `rdb record`, replays it from the trace
# alone with `rdb replay`, and prints what happened.  Replay from the middle
# of a run (intervals) is not built yet: see the issues.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
say() { printf '\n== %s\n' "$*"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

say "installing packages (skipped when present)"
"$repo/scripts/setup-debian.sh"

say "building the toolchain in $build"
"$repo/libc-wrap/fetch-musl.sh" "$build/musl" >/dev/null
cmake -S "$repo" -B "$build" >/dev/null
log=$build/demo-build.log
{ cmake --build "$build" -j "$(nproc)" && cmake --build "$build" --target musl; } >"$log" 2>&1 ||
	{ tail -n 30 "$log"; echo "demo: build failed (full log: $log)" >&2; exit 1; }
echo "altr, rdb-cc, librdb, rdb and the instrumented musl are built (log: $log)"

w=$build/demo
rm -rf "$w"
mkdir -p "$w"
cd "$w"
rdbcc=$build/driver/rdb-cc
rdb=$build/rdb/rdb

say "what altr does to life.c (gcc -S -O2, then altr -r rules/trace.rules)"
gcc -S -O2 -ffixed-r12 -ffixed-r13 -ffixed-r14 -ffixed-r15 -mno-red-zone \
	-o life.s "$repo/examples/life.c"
"$build/altr/altr" -r "$repo/rules/trace.rules" --stats -o life.rdb.s life.s 2>stats.txt
grep -v '^altr: rule .* 0$' stats.txt
diff -u life.s life.rdb.s > life.diff || true
awk '/^@@/ { n++ } n == 2' life.diff | head -n 24
echo "... ($(grep -c '^+[^+]' life.diff) lines added in total)"

say "build life with gcc and with rdb-cc, run both"
gcc -O2 -static -o life.gcc "$repo/examples/life.c"
"$rdbcc" -O2 -o life "$repo/examples/life.c"
t0=$(now); ./life.gcc > gcc.out; t1=$(now)
./life > rdbcc.out; t2=$(now)
tail -n 3 rdbcc.out
cmp -s gcc.out rdbcc.out ||
	{ diff gcc.out rdbcc.out | head; echo "demo: rdb-cc's life prints something else" >&2; exit 1; }
echo "same output ($(wc -l < gcc.out) lines); gcc build $(secs "$t0" "$t1") s," \
	"instrumented $(secs "$t1" "$t2") s"

say "rdb record -o trace -- ./life"
t0=$(now); "$rdb" record -o trace -- ./life > record.out; t1=$(now)
cmp -s gcc.out record.out || { echo "demo: recorded run prints something else" >&2; exit 1; }
echo "recorded in $(secs "$t0" "$t1") s; trace $(du -sb trace | cut -f1) bytes" \
	"($(ls trace | wc -l) files)"

say "rdb replay trace (from the trace alone)"
t0=$(now); "$rdb" replay trace > replay.out; t1=$(now)
if cmp -s record.out replay.out; then
	echo "replay printed the recorded output byte for byte in $(secs "$t0" "$t1") s"
else
	diff record.out replay.out | head
	echo "demo: replay differs from the recording" >&2
	exit 1
fi

say "rdb info trace"
"$rdb" info trace
