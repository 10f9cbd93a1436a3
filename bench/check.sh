#!/bin/sh
# check.sh [BUILD_DIR]: how long `rdb check` takes with one job and with
# two (issue 22: the time of --jobs 2 about half of --jobs 1's) on a
# recording of examples/life.c (rdb-cc -O0 -g) of at least 200 intervals
# (LIFE_GENS generations, default 20000, at INTERVAL ms, default 5, with
# --checksum: every interval is replayed alone with --verify).  The two
# columns are timed interleaved, REPS times each (default 5), so a load
# that comes and goes weighs on both; reported: the interval count and,
# per column, the median, min and max wall seconds and their ratio.
# A report, not a test: it asserts nothing about the numbers.
set -eu

die() { echo "bench/check: $*" >&2; exit 1; }

repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/bench/lib.sh"
bench_tools "${1:-}" rdb
gens=${LIFE_GENS:-20000}
iv=${INTERVAL:-5}
reps=${REPS:-5}

bench_work check
"$rdbcc" -O0 -g "$repo/examples/life.c" -o life || die "rdb-cc life.c"
"$rdb" record --checksum -i "$iv" -o t -- ./life "$gens" > /dev/null 2> rec.err ||
	{ cat rec.err >&2; die "rdb record"; }
n=$("$rdb" info --complete t)
[ "$n" -ge 200 ] || die "only $n complete intervals (raise LIFE_GENS)"

# ms: milliseconds since some fixed point
ms() { echo $(($(date +%s%N) / 1000000)); }
: > j1.ms
: > j2.ms
i=0
while [ $i -lt "$reps" ]; do
	for j in 1 2; do
		t0=$(ms)
		"$rdb" check --jobs $j t > c$j.out || { cat c$j.out >&2; die "rdb check --jobs $j failed"; }
		echo $(($(ms) - t0)) >> j$j.ms
	done
	i=$((i + 1))
done
# stats FILE: "median min max" of its numbers, in seconds
stats() { sort -n "$1" | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
	printf "%.2f %.2f %.2f\n", m / 1000, v[1] / 1000, v[NR] / 1000 }'; }
set -- $(stats j1.ms)
m1=$1
echo "life $gens generations, -i $iv: $n intervals, each replayed alone with --verify; $(nproc) cores"
printf '%-14s %8s %8s %8s  (s, %d runs each, interleaved)\n' column median min max "$reps"
printf '%-14s %8s %8s %8s\n' "--jobs 1" "$1" "$2" "$3"
set -- $(stats j2.ms)
printf '%-14s %8s %8s %8s\n' "--jobs 2" "$1" "$2" "$3"
awk -v a="$m1" -v b="$1" 'BEGIN { printf "ratio of the medians (jobs 2 / jobs 1): %.2f\n", b / a }'
sed -n 1p c1.out
