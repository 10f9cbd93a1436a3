#!/bin/sh
# altr.sh ALTR [RULES] [BUILD_DIR]: altr's translation speed on a large
# realistic input: sqlite3.c (Debian's sqlite3 source package, amalgamated
# with its own `make sqlite3.c`; fetched once and cached in
# BUILD_DIR/sqlite3 by scripts/sqlite3-amalgamation.sh) compiled with
# gcc -O2 -S and rdb-cc's flags.  Reports
# MB/s of assembly translated with RULES (default rules/trace.rules, else
# count-loads.rules)
# and the ratio of altr's time to gcc -O2 -S's, both measured in this run;
# then with assembling counted: `as` on altr's larger output against `as`
# on gcc's, and the whole rdb-cc compile (gcc -S, altr, as) against gcc's
# (gcc -S, as), so the share includes what the bigger output costs as.
# A report, not a test: it asserts nothing about the numbers.
set -eu

die() { echo "bench/altr: $*" >&2; exit 1; }

[ $# -ge 1 ] || die "usage: bench/altr.sh ALTR [RULES] [BUILD_DIR]"
repo=$(cd "$(dirname "$0")/.." && pwd)
altr=$1
[ -x "$altr" ] || die "altr '$altr' is not an executable"
# The runs below happen in the build folder: a relative path must not break.
case $altr in
/*) ;;
*/*) altr=$(cd "$(dirname "$altr")" && pwd)/$(basename "$altr") ;;
esac
rules=${2:-}
if [ -z "$rules" ]; then
	rules=$repo/rules/trace.rules
	[ -f "$rules" ] || rules=$repo/rules/count-loads.rules
fi
[ -r "$rules" ] || die "rules '$rules' not readable"
[ -x /usr/bin/time ] || die "/usr/bin/time missing (scripts/setup-debian.sh installs it)"
build=${3:-$repo/build}
d=$build/sqlite3
mkdir -p "$d"
d=$(cd "$d" && pwd)
reps=${REPS:-3}
# gcc takes a minute on sqlite3.c: once is precise enough for a ratio.
gcc_reps=${GCC_REPS:-1}

# Amalgamated sqlite3.c, cached (scripts/sqlite3-amalgamation.sh).
"$repo/scripts/sqlite3-amalgamation.sh" "$d" >/dev/null || die "no sqlite3.c"

# best N CMD...: run CMD N times; print "WALL CPU" (seconds) of the run
# with the least CPU time (user + system), which a loaded machine disturbs
# less than wall time.
best() {
	n=$1
	shift
	b=
	i=0
	while [ $i -lt "$n" ]; do
		/usr/bin/time -f '%e %U %S' -o "$d/time.out" "$@" || die "failed: $*"
		b=$(awk -v prev="${b:-}" '{ c = $2 + $3 } END {
			split(prev, p, " ")
			if (prev != "" && p[2] <= c) print prev; else printf "%.3f %.3f\n", $1, c }' "$d/time.out")
		i=$((i + 1))
	done
	echo "$b"
}

cd "$d/bld"
# The input is what rdb-cc hands altr: gcc -O2 with the flags rdb-cc adds
# (scripts/rdb-cc-flags.sh).  Without them gcc uses %r12-%r15, and
# trace.rules leaves such instructions unhooked (or puts a .error before
# them): less work than a real build, and output that does not assemble.
RDBCC_FLAGS=$(sh "$repo/scripts/rdb-cc-flags.sh")
cflags="-O2 $RDBCC_FLAGS"
echo "bench/altr: gcc $cflags -S sqlite3.c, best of $gcc_reps" >&2
# shellcheck disable=SC2086 # the flags are words
tgcc=$(best "$gcc_reps" gcc $cflags -S -o sqlite3.s sqlite3.c)
echo "bench/altr: altr -r $(basename "$rules"), best of $reps" >&2
# altr takes about 0.1 s: /usr/bin/time's 10 ms steps would be 10%;
# timeit reads wait4's rusage in microseconds.
gcc -O2 -Wall -o "$d/timeit" "$repo/bench/timeit.c" || die "cannot build timeit"
taltr=$("$d/timeit" "$reps" /dev/null /dev/null "$altr" -q -r "$rules" -o sqlite3.rdb.s sqlite3.s) ||
	die "failed: $altr -q -r $rules -o sqlite3.rdb.s sqlite3.s"
# as takes a few seconds on each: the best of AS_REPS (default REPS).
as_reps=${AS_REPS:-$reps}
echo "bench/altr: as on gcc's and on altr's output, best of $as_reps" >&2
command -v as > /dev/null 2>&1 || die "as missing (binutils)"
tas=$("$d/timeit" "$as_reps" /dev/null /dev/null "$(command -v as)" --64 -o sqlite3.o sqlite3.s) ||
	die "failed: as sqlite3.s"
tasr=$("$d/timeit" "$as_reps" /dev/null /dev/null "$(command -v as)" --64 -o sqlite3.rdb.o sqlite3.rdb.s) ||
	die "failed: as sqlite3.rdb.s (altr's output)"
size=$(wc -c < sqlite3.s)
osize=$(wc -c < sqlite3.rdb.s)
lines=$(wc -l < sqlite3.s)
# shellcheck disable=SC2086 # "WALL CPU" pairs
set -- $tgcc $taltr $tas $tasr
awk -v s="$size" -v o="$osize" -v l="$lines" -v gw="$1" -v gc="$2" -v aw="$3" -v ac="$4" \
	-v sw="$5" -v sc="$6" -v rw="$7" -v rc="$8" \
	-v r="$(basename "$rules")" 'BEGIN {
	printf "input:  sqlite3.c -> gcc -O2 (rdb-cc flags) -S: %.1f MB, %d lines\n", s / 1e6, l
	printf "output: %.1f MB with %s (%.2fx the input)\n", o / 1e6, r, o / s
	printf "gcc -O2 -S: %8.3f s wall, %8.4f s CPU\n", gw, gc
	printf "altr:       %8.4f s wall, %8.4f s CPU\n", aw, ac
	printf "altr speed: %.1f MB/s of CPU time (%.1f MB/s wall)\n", s / 1e6 / ac, s / 1e6 / aw
	printf "altr / gcc -O2 -S: %.4f in CPU time, %.4f wall (translation adds %.1f%% to compile time)\n",
		ac / gc, aw / gw, 100 * ac / gc
	printf "as on gcc -S output:  %8.4f s wall, %8.4f s CPU\n", sw, sc
	printf "as on altr output:    %8.4f s wall, %8.4f s CPU (%.2fx)\n", rw, rc, rc / sc
	printf "without assembling: altr / gcc -S = %.4f in CPU time (%.4f wall)\n", ac / gc, aw / gw
	printf "with assembling: (gcc -S + altr + as) / (gcc -S + as) = %.4f in CPU time (%.4f wall); " \
		"altr and the larger output add %.1f%% to compile time\n", (gc + ac + rc) / (gc + sc),
		(gw + aw + rw) / (gw + sw), 100 * ((gc + ac + rc) / (gc + sc) - 1)
}'
