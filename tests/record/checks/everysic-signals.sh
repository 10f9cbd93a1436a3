#!/bin/sh
# everysic-signals.sh RDB RDB_CC: record-check-everysic-signals (tests/record/checks/).
# Self-sent signals wait for SIC checks; with --every-sic the limit
# stands near the guard, and a poke used to overshoot it.
. "$(dirname "$0")/lib.sh"
build altstack prog
./prog > plain.out || fail "plain run"
for n in 300 3000; do
	"$RDB" record --checksum --every-sic $n -o t$n -- ./prog > r$n.out 2> r$n.err ||
		{ cat r$n.err; fail "record --every-sic $n"; }
	cmp -s plain.out r$n.out || fail "--every-sic $n: the recorded run printed something else"
	"$RDB" replay --verify t$n > p$n.out 2> p$n.err || { cat p$n.err; fail "replay --every-sic $n"; }
	cmp -s r$n.out p$n.out || fail "--every-sic $n: replay differs"
	k=$(( $("$RDB" info --complete t$n) / 2 ))
	"$RDB" replay --verify --from $k t$n > f$n.out 2> f$n.err || { cat f$n.err; fail "replay --from $k"; }
	tail -c "$(wc -c < f$n.out)" r$n.out | cmp -s - f$n.out || fail "--from $k: not the end of the recording"
done
pass
