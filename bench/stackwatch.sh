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
# a change's before and after under the same load.  KIND=rwatch or
# KIND=awatch times that watchpoint instead of `watch` (the page then
# inaccessible: every read faults too), and also with
# RDB_GDB_STEP_LOADS=1 (every load on the page run alone, none done by
# rdb); a session with RDB_GDB_DEBUG=1, not timed, counts the faults.
# No time is asserted.
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
kind=${KIND:-watch}
case $kind in watch | rwatch | awatch) ;; *) die "KIND=$kind: watch, rwatch or awatch" ;; esac
printf '%s\n' "break prog.c:$st" continue delete "$kind -l buf[4]" continue continue continue > w.gdb  # (read, memset, exit: the page reused)
printf '%s\n' "break prog.c:$st" continue delete continue > n.gdb
echo "load before: $(uptime | sed 's/.*load average: //')"
base=${BASE:-}
[ -z "$base" ] || [ -x "$base" ] || die "BASE=$base is not an executable"
cp w.gdb b.gdb
loads=; [ "$kind" = watch ] || { loads=l; cp w.gdb l.gdb; }
for i in $(seq "$rounds"); do
	for c in w n ${base:+b} $loads; do
		r=$rdb
		[ $c != b ] || r=$base
		step=; [ $c != l ] || step=RDB_GDB_STEP_LOADS=1
		# bash's `times` after the session: the children's user and system time
		env $step RDB_GDB_WATCH=shadow bash -c '"$1" replay --gdb-batch "$2" t > "$3.out" 2>&1; times' \
			sh "$r" "$c.gdb" "$c" | tail -1 | awk '{
				split($1, u, "m"); split($2, s, "m")
				printf "%.3f\n", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' >> "$c.cpu"
	done
done
for c in w ${base:+b} $loads; do
	grep -q 'Hardware .*watchpoint.*buf\[4\]' $c.out || die "no watchpoint in the session: $(cat $c.out)"
	[ "$kind" != watch ] || [ "$(grep -c "^Old value" $c.out)" = 3 ] ||
		die "not the three hits (read, memset, after main): $(cat $c.out)"
	[ "$kind" = watch ] || grep -q "^Value = 120 'x'" $c.out ||
		die "no stop at main's read of buf[4]: $(cat $c.out)"
done
RDB_GDB_DEBUG=1 RDB_GDB_WATCH=shadow "$rdb" replay --gdb-batch w.gdb t > d.out 2>&1 || true
echo "faults on the watched page (one session): $(grep -c 'shadow page fault' d.out)"
echo "load after: $(uptime | sed 's/.*load average: //')"
set -- $(bench_stats w.cpu); w=$1
echo "$kind -l buf[4] (stack page): $1 s CPU (min $2, max $3)"
set -- $(bench_stats n.cpu); n=$1
echo "no watchpoint:                $1 s CPU (min $2, max $3)"
echo "ratio: $(bench_ratio "$w" "$n")"
if [ -n "$loads" ]; then
	set -- $(bench_stats l.cpu)
	echo "$kind, every load run alone: $1 s CPU (min $2, max $3)"
	echo "rdb's loads against running them: $(bench_ratio "$w" "$1")"
fi
if [ -n "$base" ]; then
	set -- $(bench_stats b.cpu)
	echo "watch with BASE's rdb:        $1 s CPU (min $2, max $3)"
	echo "this rdb against BASE's: $(bench_ratio "$w" "$1")"
fi
