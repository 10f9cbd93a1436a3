#!/bin/sh
# refused.sh RDB RDB_CC: record-check-refused (tests/record/checks/).
# A syscall rdb cannot record (an unmodelled ioctl request) fails
# with ENOSYS and a message naming it; the program goes on (natively
# the call fails with ENOTTY), and the replay returns the recorded
# ENOSYS without the message (docs/syscallgen.md).
. "$(dirname "$0")/lib.sh"
build refused prog
"$RDB" record -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
expect rec.err "^rdb: refused syscall ioctl (16) request 0x5412 .*: it fails with ENOSYS$"
expect rec.out "^ioctl(TIOCSTI): -1, Function not implemented$"
expect rec.out "^the program went on$"
"$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
cmp -s rec.out rep.out || fail "the replay printed something else"
! grep -q refused rep.err || fail "the replay refused again"
pass
