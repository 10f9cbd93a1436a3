#!/bin/sh
# rdbkill.sh RDB RDB_CC: record-check-rdbkill (tests/record/checks/).
# rdb record itself killed by SIGKILL: the frames it wrote stay valid
# (it flushes when the channel is quiet), info says cut short, replay
# runs up to the end of the trace; the program goes on unrecorded.
. "$(dirname "$0")/lib.sh"
build stdin prog
mkfifo in
"$RDB" record -o t -- ./prog < in > rec.out 2> rec.err &
rdbpid=$!
exec 3> in
printf 'one\n' >&3
# rdb is killed once the program's write of its first line is in the
# trace on disk (rdb writes it out when the channel goes quiet)
wait_for "the program to print its first line" grep -q '^read: one$' rec.out
written() { "$RDB" truss t 2>/dev/null | grep -q '^#[0-9]* writev*(1, .*) = 10$'; }
wait_for "the write of the first line in the trace" written
kill -9 "$rdbpid"
wait "$rdbpid" 2>/dev/null
printf 'two\n' >&3
exec 3>&-
# the program goes on unrecorded to its end (its last line)
wait_for "the program to end without rdb" grep -q '^sum ' rec.out
expect rec.out "^read: two$"
expect rec.err "lost its channel to rdb"
"$RDB" info t > i.out || fail "info"
expect i.out "^cut short: *yes: no exit file"
expect i.out "^syscalls: *[1-9]"
"$RDB" replay t > rep.out 2> rep.err; s=$?
[ $s = 137 ] || fail "replay status $s, expected 137 (cut short)"
expect rep.out "^read: one$"
expect rep.err "cut short"
pass
