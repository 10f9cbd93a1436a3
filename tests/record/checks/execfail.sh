#!/bin/sh
# execfail.sh RDB RDB_CC: record-check-execfail (tests/record/checks/).
# progs/execfail.c: an execve that fails (ENOENT) does not end the
# intervals: the rounds after it span many, each replayable.
. "$(dirname "$0")/lib.sh"
build execfail prog
"$RDB" record --every-sic 300000 --checksum -o t -- ./prog > rec.out 2> rec.err ||
	{ cat rec.err; fail "record"; }
expect rec.out "^execve: -1 (No such file or directory)$"
n=$("$RDB" info --complete t)
[ "${n:-0}" -ge 6 ] || fail "${n:-0} complete intervals: the failed execve ended them"
"$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
cmp -s rec.out rep.out || fail "replay output differs"
for from in 2 $((n / 2)) "$n"; do
	"$RDB" replay --verify --from "$from" t > from.out 2> from.err ||
		{ cat from.err; fail "replay --from $from"; }
	tail -c "$(wc -c < from.out)" rec.out | cmp -s - from.out ||
		fail "replay --from $from's output is not the end of the recording's"
done
# Then an execve that succeeds (/bin/sh): rdb's values socket (fd
# 1001) is not open in the new program, and the snapshot child sends
# the last interval's values once the old image is gone.
"$RDB" record --every-sic 300000 --checksum -o t2 -- ./prog sh > rec2.out 2> rec2.err ||
	{ cat rec2.err; fail "record with an exec"; }
expect rec2.out "^fd 1001: closed$"
"$RDB" info t2 > i2.out || fail "info"
expect i2.out "the program exec'd another program"
total=$(sed -n 's/^intervals: *\([0-9]*\) .*/\1/p' i2.out)
[ "$("$RDB" info --complete t2)" = "$total" ] ||
	fail "the interval that ended with the exec is not complete ($total intervals)"
grep -v '^fd 1001' rec2.out > want2.out
"$RDB" replay --verify --from "$total" t2 > from.out 2> from.err ||
	{ cat from.err; fail "replay --from $total (the exec's interval)"; }
tail -c "$(wc -c < from.out)" want2.out | cmp -s - from.out ||
	fail "replay --from $total's output is not the end of the recording's"
pass
