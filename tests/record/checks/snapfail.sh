#!/bin/sh
# snapfail.sh RDB RDB_CC: record-check-snapfail (tests/record/checks/).
# progs/snapfail.c: the snapshot fork fails mid-run (seccomp).  That
# boundary is not taken: the interval runs on to the end, complete,
# and the signals in it replay at their counts.
. "$(dirname "$0")/lib.sh"
build snapfail prog
"$RDB" record --every-sic 100000 --checksum -o t -- ./prog > rec.out 2> rec.err ||
	{ cat rec.err; fail "record"; }
if ! grep -q "cannot fork the interval snapshot" rec.err &&
	! grep -q '^Seccomp_filters:' /proc/self/status; then
	status=77; echo "SKIP: no seccomp filters here to make the fork fail"; exit 77
fi
expect rec.err "cannot fork the interval snapshot (error 11)"
expect rec.out "^after [0-9]* ticks"
"$RDB" info t > i.out || fail "info"
total=$(sed -n 's/^intervals: *\([0-9]*\) .*/\1/p' i.out)
n=$("$RDB" info --complete t)
[ "${total:-0}" -ge 3 ] && [ "$n" = "$total" ] ||
	fail "$n complete intervals of ${total:-0}: the last one is not"
expect i.out "^ *$total .* 20$" # its signals
"$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
cmp -s rec.out rep.out || { diff rec.out rep.out | head; fail "replay output differs"; }
for from in $((n - 1)) "$n"; do
	"$RDB" replay --verify --from "$from" t > from.out 2> from.err ||
		{ cat from.err; fail "replay --from $from"; }
	tail -c "$(wc -c < from.out)" rec.out | cmp -s - from.out ||
		fail "replay --from $from's output is not the end of the recording's"
done
pass
