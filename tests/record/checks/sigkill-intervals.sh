#!/bin/sh
# sigkill-intervals.sh RDB RDB_CC: record-check-sigkill-intervals (tests/record/checks/).
# killed by SIGKILL after many intervals: every complete interval
# replays with --verify, from the start and from the last complete one,
# up to where the trace ends; info says cut short.
. "$(dirname "$0")/lib.sh"
build busy prog
"$RDB" record -i 5 --checksum -o t -- ./prog > rec.out 2> rec.err &
# intervals of 5 ms of CPU time: killed once 12 are complete
many() { [ "$("$RDB" info --complete t 2>/dev/null || echo 0)" -ge 12 ]; }
wait_for "12 complete intervals in the recording" many
wait_for "rdb info to show the recorded pid" has_pid t
kill -9 "$(rec_pid t)"
wait
"$RDB" info t > i.out || fail "info"
expect i.out "^cut short: *yes"
n=$("$RDB" info --complete t)
[ "${n:-0}" -ge 12 ] || fail "only ${n:-0} complete intervals, the recording had 12 before the kill"
for from in 1 $((n / 2)) "$n"; do
	"$RDB" replay --verify --from "$from" t > rep.out 2> rep.err; s=$?
	[ $s = 137 ] || { cat rep.err; fail "replay --from $from: status $s, expected 137"; }
	expect rep.err "cut short"
	! grep -q "diverged" rep.err || { cat rep.err; fail "replay --from $from diverged"; }
	# the whole replay prints a beginning of the recording's output (up to
	# the last complete interval), a later start the end of that
	if [ "$from" = 1 ]; then
		cp rep.out whole.out
		head -c "$(wc -c < whole.out)" rec.out | cmp -s - whole.out ||
			fail "replay's output is not a beginning of the recording's"
	else
		tail -c "$(wc -c < rep.out)" whole.out | cmp -s - rep.out ||
			fail "replay --from $from's output is not the end of the whole replay's"
	fi
done
[ "$(wc -l < whole.out)" -ge 10 ] || fail "the whole replay printed $(wc -l < whole.out) lines"
pass
