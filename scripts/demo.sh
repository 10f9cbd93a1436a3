#!/bin/sh
# demo.sh [BUILD_DIR]: the main job, for now. Builds the toolchain, compiles
# examples/life.c to assembly, instruments it with altr and
# rules/count-loads.rules, links the instrumented assembly with a counter,
# and shows that both versions print the same thing and how many loads ran.
# Later issues replace this with record and replay.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
say() { printf '\n== %s\n' "$*"; }

say "installing packages (skipped when present)"
"$repo/scripts/setup-debian.sh"

say "building altr in $build"
cmake -S "$repo" -B "$build" >/dev/null
cmake --build "$build" --target altr -j "$(nproc)" >"$build/demo-build.log" 2>&1 ||
	{ tail -n 30 "$build/demo-build.log"; echo "demo: build failed (full log: $build/demo-build.log)" >&2; exit 1; }
altr=$build/altr/altr

w=$build/demo
rm -rf "$w"
mkdir -p "$w"
cd "$w"

say "gcc -S -O2 examples/life.c, then altr -r rules/count-loads.rules"
gcc -S -O2 -o life.s "$repo/examples/life.c"
"$altr" -r "$repo/rules/count-loads.rules" --stats -o life.rdb.s life.s 2>stats.txt
cat stats.txt
echo "(instructions instrumented: $(grep -o '[0-9]* instrumented' stats.txt | head -n 1 | cut -d' ' -f1) of" \
	"$(grep -o '[0-9]* instructions' stats.txt | head -n 1 | cut -d' ' -f1) in life.s)"

say "diff -u life.s life.rdb.s (excerpt)"
diff -u life.s life.rdb.s > life.diff || true
# The first two hunks (every hunk adds code: the rules only insert).
awk '/^@@/ { n++ } n >= 1 && n <= 2' life.diff
echo "... ($(grep -c '^+[^+]' life.diff) lines added in total)"

say "assemble and link both versions, run them"
cat > counter.c <<'EOF'
/* The counter count-loads.rules increments; printed when the program ends. */
#include <stdio.h>
unsigned long __altr_load_count;
__attribute__((destructor)) static void report(void)
{
	fprintf(stderr, "loads executed in life's own code: %lu\n", __altr_load_count);
}
EOF
gcc -o life life.s
gcc -o life.counted life.rdb.s counter.c
./life > life.out
./life.counted > life.counted.out 2> count.txt
tail -n 3 life.out
if cmp -s life.out life.counted.out; then
	echo "outputs identical ($(wc -l < life.out) lines)"
else
	diff life.out life.counted.out | head
	echo "demo: the instrumented program's output differs" >&2
	exit 1
fi
cat count.txt
