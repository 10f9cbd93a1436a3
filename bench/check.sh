#!/bin/sh
# check.sh [BUILD_DIR]: how long `rdb check` takes with one job and with
# two (issue 22: the time of --jobs 2 about half of --jobs 1's) on a
# recording of examples/life.c (rdb-cc -O0 -g) of at least 200 intervals
# (LIFE_GENS generations, default 20000, at INTERVAL ms, default 5, with
# --checksum: every interval is replayed alone with --verify).  The two
# columns are timed interleaved, REPS times each (default 5), so a load
# that comes and goes weighs on both; reported: the interval count and,
# per column, the median, min and max wall seconds and their ratio, and
# the CPU seconds each column used (its waited-for processes' user + sys,
# /proc/$$/stat).  The control rows time the same split for a plain CPU
# loop (awk), one run after the other against two at once: the gain the
# machine gives this session's second process right now.  On a machine
# loaded by other sessions, with the kernel's autogroup scheduling
# (/proc/sys/kernel/sched_autogroup_enabled), all processes of a session
# share one group's share of the CPUs, so a second job gains only what the
# others leave idle, for rdb check as for the loop (docs/process-trees.md).
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
# cpu: this shell's waited-for children's user + sys, in clock ticks
cpu() { sed 's/.*) //' /proc/$$/stat | awk '{ print $14 + $15 }'; }
# spin: a CPU loop of about a second (the control)
spin() { awk 'BEGIN { for (i = 0; i < 10000000; i++) x += i % 7; exit x < 0 }'; }
for f in j1 j2 s1 s2; do : > $f.ms; : > $f.cpu; done
i=0
while [ $i -lt "$reps" ]; do
	for j in 1 2; do
		t0=$(ms) c0=$(cpu)
		"$rdb" check --jobs $j t > c$j.out || { cat c$j.out >&2; die "rdb check --jobs $j failed"; }
		echo $(($(ms) - t0)) >> j$j.ms
		echo $(($(cpu) - c0)) >> j$j.cpu
		t0=$(ms) c0=$(cpu)
		if [ $j = 1 ]; then spin; spin; else spin & spin; wait; fi
		echo $(($(ms) - t0)) >> s$j.ms
		echo $(($(cpu) - c0)) >> s$j.cpu
	done
	i=$((i + 1))
done
# stats FILE: "median min max" of its numbers, in seconds
stats() { sort -n "$1" | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
	printf "%.2f %.2f %.2f\n", m / 1000, v[1] / 1000, v[NR] / 1000 }'; }
# ticks FILE: the median of its clock ticks, in seconds
ticks() { sort -n "$1" | awk -v hz="$(getconf CLK_TCK)" '{ v[NR] = $1 }
	END { printf "%.2f\n", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) / hz }'; }
echo "life $gens generations, -i $iv: $n intervals, each replayed alone with --verify; $(nproc) cores;" \
	"autogroup $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo ?); load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-30s %8s %8s %8s %8s  (s, %d runs each, interleaved)\n' column median min max cpu "$reps"
row() { label=$1; set -- $(stats $2.ms) $(ticks $2.cpu); printf '%-30s %8s %8s %8s %8s\n' "$label" "$@"; }
row "check --jobs 1" j1
row "check --jobs 2" j2
row "control: 2 loops, 1 at a time" s1
row "control: 2 at once" s2
ratio() { awk -v a="$(stats $1.ms | cut -d' ' -f1)" -v b="$(stats $2.ms | cut -d' ' -f1)" 'BEGIN { printf "%.2f", b / a }'; }
echo "ratio of the medians, 2 at once / 1 at a time: rdb check $(ratio j1 j2), control $(ratio s1 s2)"
sed -n 1p c1.out
