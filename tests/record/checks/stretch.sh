#!/bin/sh
# stretch.sh RDB RDB_CC: record-check-stretch (tests/record/checks/).
# rdb record --stretch (the default without -i) makes the next interval
# longer when the interval before wrote pages whose copy-on-write faults
# cost more than a quarter of the program's own time in it (as much
# longer as brings them to a quarter, up to 8 times -i), and halves it
# again below a sixteenth (runtime/interval.c, stretch_next).
# progs/heapwrite.c writes all over 32 MiB in each pass, then computes
# without writing memory (the stretch comes down again).  With
# RDB_DEBUG=2 the runtime says, at each boundary, the pages written,
# their faults' estimated cost, its own time in the kernel, the
# program's time and the next stretch: each stretch must follow the rule
# from the one before, rdb info --json must show it, the next interval's
# CPU time must be that many times -i (plus the timer's allowance for the
# kernel's time), and the replays (whole and from every interval) must
# pass --verify.  Where faults are cheap the rule keeps every interval at
# -i and the check holds that too.  (Seen failing with the stretch left
# out of the timer: "interval 2 took 74 ms, less than 2 x 50 ms"; with a
# timer of 8 times -i for any stretch: "interval 2 took 432 ms, more than
# 6 x 50 ms + the kernel's 31 ms before + 50"; with no shrink: "the
# stretch after interval 6: 8, the rule says 4"; and, on a recorded line,
# with doubling for the proportional step: "the stretch after interval 1:
# 2, the rule says 7".)
. "$(dirname "$0")/lib.sh"
build heapwrite prog
./prog 60 1000 > native.out || fail "the program itself"
# (no --checksum: with RDB_DEBUG the runtime would dump every page's hash)
RDB_DEBUG=2 "$RDB" record -i 50 --stretch -o t -- ./prog 60 1000 > rec.out 2> rec.err ||
	{ tail -20 rec.err; fail "record"; }
cmp -s native.out rec.out || fail "recorded, it printed something else"
"$RDB" info t > info.out || fail "rdb info"
expect info.out "(--stretch)"
# interval N wrote P pages, F us of faults (a copy-on-write fault: C
# ns; the kernel's time S us) in U us of the program's: interval M is K
# times -i   ->   N F U M K S
sed -n 's/.*interval \([0-9]*\) wrote [0-9]* pages, \([0-9]*\) us of faults (.* the kernel.s time \([0-9]*\) us) in \([0-9]*\) us of the program.s: interval \([0-9]*\) is \([0-9]*\) times.*/\1 \2 \4 \5 \6 \3/p' rec.err > rule.txt
[ -s rule.txt ] || { tail -20 rec.err; fail "no stretch lines from the runtime"; }
[ "$(wc -l < rule.txt)" = "$(grep -c 'us of faults' rec.err)" ] || fail "unreadable stretch lines"
awk '
	# the stretch after k for faults of f us in u us of the program
	function rule(k, f, u,   x) {
		if (f > u / 4) {
			if (u <= 0) return 8
			x = k * 4 * f / u
			return x >= 8 ? 8 : (x == int(x) ? x : int(x) + 1)
		}
		if (f < u / 16 && k > 1) return k / 2
		return k
	}
	{
		k = NR == 1 ? 1 : prev; ok = 0
		# the runtime sees ns, the line whole us: either may be up to 1 more
		for (df = 0; df <= 1; df++)
			for (du = 0; du <= 1; du++)
				if ($5 == rule(k, $2 + df, $3 + du)) ok = 1
		if (!ok) {
			printf "the stretch after interval %d: %d, the rule says %d (%d us of faults, %d us of the program)\n", $1, $5, rule(k, $2, $3), $2, $3
			bad = 1
		}
		prev = $5
	}
	END { exit bad }' rule.txt || fail "a stretch broke the rule"
# rdb info --json's stretch (the text's x -i column) is the runtime's,
# and each interval the timer ended lasted that many times -i: at least
# nine tenths of it, at most that plus the kernel's time in the one
# before (the timer's allowance) and 50 ms
"$RDB" info --json t > info.json || fail "rdb info --json"
python3 -c '
import json, sys
for r in json.load(open(sys.argv[1]))["interval_table"]:
    print(r["interval"], r["stretch"], -1 if r["cpu_ms"] is None else int(r["cpu_ms"]))
' info.json > table.txt || fail "reading rdb info --json"
while read -r _ _ _ m k sys; do
	row=$(awk -v m="$m" '$1 == m' table.txt)
	[ -n "$row" ] || fail "rdb info --json has no interval $m"
	set -- $row
	[ "$2" = "$k" ] || fail "rdb info says interval $m is $2 times -i, the runtime $k"
	[ "$3" -ge 0 ] || continue # the last one ended with the program
	[ "$3" -ge $((k * 50 * 9 / 10)) ] || fail "interval $m took $3 ms, less than $k x 50 ms"
	[ "$3" -le $((k * 50 + sys / 1000 + 50)) ] ||
		fail "interval $m took $3 ms, more than $k x 50 ms + the kernel's $((sys / 1000)) ms before + 50"
done < rule.txt
"$RDB" replay --verify t > w.out 2> w.err || { tail -20 w.err; fail "replay"; }
cmp -s rec.out w.out || fail "the replay printed something else"
from_each t rec.out 0
# --no-stretch: no stretch (and rdb info does not claim one)
RDB_DEBUG=2 "$RDB" record -i 200 --no-stretch -o u -- ./prog 2 > u.out 2> u.err || fail "record --no-stretch"
! grep -q "us of faults" u.err || fail "--no-stretch stretched"
"$RDB" info u > uinfo.out || fail "rdb info u"
! grep -q -- "--stretch" uinfo.out || fail "rdb info says --stretch for --no-stretch"
# the default without -i stretches; with -i it does not
"$RDB" record -o d -- ./prog 1 > /dev/null 2>&1 || fail "record without -i"
"$RDB" info d | grep -q -- "(--stretch)" || fail "no stretching by default"
"$RDB" record -i 1000 -o e -- ./prog 1 > /dev/null 2>&1 || fail "record -i 1000"
! "$RDB" info e | grep -q -- "(--stretch)" || fail "stretching with -i"
pass
