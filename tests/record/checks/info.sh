#!/bin/sh
# info.sh RDB RDB_CC: record-check-info (tests/record/checks/).
. "$(dirname "$0")/lib.sh"
build pipechild prog
"$RDB" record -o t -- ./prog > /dev/null 2>&1 || fail "record"
"$RDB" info t > i.out || fail "info"
expect i.out "^syscalls: *[1-9]"
expect i.out "^ended: *exit status 0"
expect i.out "^cut short: *no"
expect i.out "^not traced: 1 fork child"
expect i.out "syscalls *[1-9][0-9]* *[1-9]"
# --complete: the last complete interval alone, as "(M complete)" counts
c=$("$RDB" info --complete t) || fail "info --complete"
expect i.out "^intervals: *[0-9]* ($c complete"
[ "$("$RDB" info t --complete)" = "$c" ] || fail "info DIR --complete differs"
build exit3 p3
"$RDB" record -o t3 -- ./p3 > /dev/null 2>&1; [ $? = 3 ] || fail "record exit status"
"$RDB" info t3 > i.out || fail "info"
expect i.out "^ended: *exit status 3"
build sigdeath ps
"$RDB" record -o ts -- ./ps > /dev/null 2>&1; [ $? = 143 ] || fail "record did not die by SIGTERM"
"$RDB" info ts > i.out || fail "info"
expect i.out "^ended: *killed by signal 15"
expect i.out "^cut short: *no"
# -o: an old trace is replaced, another folder with files is refused
"$RDB" record -o t -- ./p3 > /dev/null 2>&1; [ $? = 3 ] || fail "record over a trace"
"$RDB" info t > i.out || fail "info of the new trace"
expect i.out "^ended: *exit status 3"
mkdir other && : > other/notes
! "$RDB" record -o other -- ./p3 > /dev/null 2> e.err || fail "record into a non-trace folder"
expect e.err "^rdb: other: exists and holds no trace"
# interval numbers out of range are refused, --from and --to alike
n=$("$RDB" info --complete t)
for a in "--from 0" "--to 0" "--from $((n + 1))" "--to $((n + 1))"; do
	# shellcheck disable=SC2086
	! "$RDB" replay $a t > /dev/null 2> e.err || fail "replay $a accepted"
	expect e.err "^rdb: .*\(intervals count from 1\|the trace has\)"
done
pass
