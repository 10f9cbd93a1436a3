#!/bin/sh
# restart.sh RDB RDB_CC: record-check-restart (tests/record/checks/).
# A blocking read a signal interrupts, with SA_RESTART: cut short,
# the handler, the read again.  info counts the cut call apart, truss
# shows it, replay prints the same.
. "$(dirname "$0")/lib.sh"
build restart prog
"$RDB" record -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
expect rec.out "^read 1 'x', handler ran 1, child status 0"
"$RDB" info t > i.out || fail "info"
expect i.out "^syscalls: .*(1 of them cut short by a signal, then run again after its handler)"
"$RDB" truss t > tr.out || fail "truss"
expect tr.out "read(.*) = ? <cut short by a signal: run again after its handler>"
"$RDB" replay t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
cmp -s rec.out rep.out || fail "the replay printed something else"
pass
