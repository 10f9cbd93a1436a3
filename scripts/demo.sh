#!/bin/sh
# demo.sh [BUILD_DIR]: the main job.  Builds the toolchain and the
# instrumented musl, compiles examples/life.c with rdb-cc (gcc -S, altr with
# rules/trace.rules, static-pie against librdb and musl), runs it beside a
# plain gcc build, records it with `rdb record`, replays it from the trace
# alone with `rdb replay --verify`, replays it again from its middle
# interval, and prints what happened.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
mkdir -p "$build"
build=$(cd "$build" && pwd) # the demo works in a folder below it
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
"$rdbcc" -O2 -g -o life "$repo/examples/life.c"
gens=${LIFE_GENS:-20000} # about a second: enough for a dozen intervals
t0=$(now); ./life.gcc "$gens" > gcc.out; t1=$(now)
./life "$gens" > rdbcc.out; t2=$(now)
g0=$t0 g1=$t1
tail -n 3 rdbcc.out
cmp -s gcc.out rdbcc.out ||
	{ diff gcc.out rdbcc.out | head; echo "demo: rdb-cc's life prints something else" >&2; exit 1; }
echo "same output ($(wc -l < gcc.out) lines); gcc build $(secs "$t0" "$t1") s," \
	"instrumented $(secs "$t1" "$t2") s"

say "rdb record -i 100 --checksum -o trace -- ./life $gens"
t0=$(now); "$rdb" record -i 100 --checksum -o trace -- ./life "$gens" > record.out; t1=$(now)
cmp -s gcc.out record.out || { echo "demo: recorded run prints something else" >&2; exit 1; }
n=$("$rdb" info --complete trace)
rec=$(secs "$t0" "$t1")
echo "recorded in $rec s, $(awk -v r="$rec" -v g="$(secs "$g0" "$g1")" 'BEGIN { printf "%.2f", r / g }')x" \
	"the gcc build: $n intervals of 100 ms CPU, trace $(find trace -type f -printf '%s\n' | awk '{ s += $1 } END { print s }') bytes" \
	"($(ls trace | wc -l) files)"

say "rdb replay --verify trace (the whole run, from the trace alone)"
t0=$(now); "$rdb" replay --verify trace > replay.out; t1=$(now)
if cmp -s record.out replay.out; then
	echo "replay printed the recorded output byte for byte in $(secs "$t0" "$t1") s;" \
		"registers and memory matched the recording at all $((n - 1)) boundaries"
else
	diff record.out replay.out | head
	echo "demo: replay differs from the recording" >&2
	exit 1
fi

mid=$(( (n + 1) / 2 ))
[ "$mid" -ge 2 ] || mid=1
say "rdb replay --verify --from $mid trace (start in the middle)"
t0=$(now); "$rdb" replay --verify --timing --from "$mid" --to "$mid" trace > one.out 2> one.err; t1=$(now)
start=$(sed -n 's/^rdb: replay resumed .* start \([0-9.]*\) ms after .*/\1/p' one.err)
"$rdb" replay --verify --from "$mid" trace > from.out
tail -c "$(wc -c < from.out)" record.out | cmp -s - from.out ||
	{ echo "demo: replay from interval $mid is not the end of the recording" >&2; exit 1; }
echo "replay from interval $mid printed the last $(wc -l < from.out) lines of the recording;" \
	"starting there and replaying that one interval took $(secs "$t0" "$t1") s" \
	"(the program resumed at interval $mid's start ${start:-?} ms after rdb started)"

say "rdb info trace"
"$rdb" info trace

say "rdb flowback --at $mid --size 1 trace board+100 (who last wrote this cell before interval $mid?)"
"$rdb" flowback --at "$mid" --size 1 trace board+100 ||
	{ echo "demo: rdb flowback failed" >&2; exit 1; }
