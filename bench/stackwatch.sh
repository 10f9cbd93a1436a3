#!/bin/sh
# stackwatch.sh [BUILD] [ROUNDS]: the cost of a write watchpoint on the
# stack where the debug registers do not fire (docs/gdb.md, "Cost on the
# stack"): every write to the watched 4 KiB page faults and rdb runs the
# instruction alone with the page writable.  A program like
# tests/gdb-server's progs/stacksys.c with 20,000-long loops (-O0: one
# store of the loop counter to the page per iteration) is recorded once;
# gdb-batch from its first loop runs to the end with `watch -l buf[4]`
# (RDB_GDB_WATCH=shadow, so it is the same on any machine) and without a
# watchpoint.  Prints the CPU time (user+sys of rdb, gdb and the replay)
# of each, median with min and max over ROUNDS (default 3) interleaved
# rounds, their ratio and the load.  BASE=PATH (another build's rdb, same
# tree otherwise) also times the watch with that rdb, in the same rounds:
# a change's before and after under the same load.  No time is asserted.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "stackwatch.sh: $*" >&2; exit 1; }
. "$repo/bench/lib.sh"
bench_tools "${1:-}" rdb
rounds=${2:-3}
command -v gdb > /dev/null || die "gdb is not installed"
bench_work stackwatch
sed 's/spin(4000)/spin(20000)/' "$repo/tests/gdb-server/progs/stacksys.c" > prog.c
"$rdbcc" -O0 -g prog.c -o prog || die "rdb-cc prog.c"
"$rdb" record -o t -- ./prog > rec.out 2>&1 || die "rdb record: $(cat rec.out)"
st=$(grep -n 'the start' prog.c | cut -d: -f1)
printf '%s\n' "break prog.c:$st" continue delete 'watch -l buf[4]' continue continue continue > w.gdb  # (read, memset, exit: the page reused)
printf '%s\n' "break prog.c:$st" continue delete continue > n.gdb
echo "load before: $(uptime | sed 's/.*load average: //')"
base=${BASE:-}
[ -z "$base" ] || [ -x "$base" ] || die "BASE=$base is not an executable"
cp w.gdb b.gdb
for i in $(seq "$rounds"); do
	for c in w n ${base:+b}; do
		r=$rdb
		[ $c != b ] || r=$base
		# bash's `times` after the session: the children's user and system time
		RDB_GDB_WATCH=shadow bash -c '"$1" replay --gdb-batch "$2" t > "$3.out" 2>&1; times' \
			sh "$r" "$c.gdb" "$c" | tail -1 | awk '{
				split($1, u, "m"); split($2, s, "m")
				printf "%.3f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' >> "$c.cpu"
	done
done
for c in w ${base:+b}; do
	grep -q 'Hardware watchpoint.*buf\[4\]' $c.out || die "no watchpoint in the session: $(cat $c.out)"
	[ "$(grep -c "^Old value" $c.out)" = 3 ] ||
		die "not the three hits (read, memset, after main): $(cat $c.out)"
done
echo "load after: $(uptime | sed 's/.*load average: //')"
set -- $(bench_stats w.cpu); w=$1
echo "watch -l buf[4] (stack page): $1 s CPU (min $2, max $3)"
set -- $(bench_stats n.cpu); n=$1
echo "no watchpoint:                $1 s CPU (min $2, max $3)"
echo "ratio: $(bench_ratio "$w" "$n")"
if [ -n "$base" ]; then
	set -- $(bench_stats b.cpu)
	echo "watch with BASE's rdb:        $1 s CPU (min $2, max $3)"
	echo "this rdb against BASE's: $(bench_ratio "$w" "$1")"
fi
