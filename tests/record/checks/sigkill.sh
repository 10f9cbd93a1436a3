#!/bin/sh
# sigkill.sh RDB RDB_CC: record-check-sigkill (tests/record/checks/).
# PROG killed by SIGKILL mid-run: the trace keeps what was sent, info
# says the run was cut short, replay runs up to there and dies the same.
. "$(dirname "$0")/lib.sh"
build stdin prog
mkfifo in
( "$RDB" record -o t -- ./prog < in > rec.out 2> rec.err; echo $? > rec.status ) &
exec 3> in
printf 'one\n' >&3
# killed once it has read and printed the line (musl writes the first
# line of stdout at once), waiting for more
wait_for "the program to print its first line" grep -q '^read: one$' rec.out
wait_for "rdb info to show the recorded pid" has_pid t
kill -9 "$(rec_pid t)"
exec 3>&-
wait
[ "$(cat rec.status)" = 137 ] || fail "record status $(cat rec.status), expected 137"
"$RDB" info t > i.out || fail "info"
expect i.out "^cut short: *yes"
expect i.out "^ended: *killed by signal 9"
"$RDB" replay t > rep.out 2> rep.err; s=$?
[ $s = 137 ] || fail "replay status $s"
cmp -s rec.out rep.out || fail "replay output differs"
expect rep.out "^read: one$"
expect rep.err "cut short"
pass
