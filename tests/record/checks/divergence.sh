#!/bin/sh
# divergence.sh RDB RDB_CC: record-check-divergence (tests/record/checks/).
# The trace names the executable by build-id: another build at the
# same path is refused.
. "$(dirname "$0")/lib.sh"
build hello prog
"$RDB" record -o t -- ./prog > /dev/null 2>&1 || fail "record"
"$RDB" replay t > r.out 2> r.err || fail "replay of the same file"
build exit3 prog
! "$RDB" replay t > r.out 2> r.err || fail "replay of another executable accepted"
expect r.err "^rdb: t: recorded from .*/prog with build-id [0-9a-f]*, but that file now has build-id"
# The same executable asking for another syscall than recorded: the
# header (argv) of one run with the streams of another.
build argdep pa
"$RDB" record -o ta -- ./pa pid > /dev/null 2>&1 || fail "record pid"
"$RDB" record -o tb -- ./pa uid > /dev/null 2>&1 || fail "record uid"
cp tb/header ta/header
! "$RDB" replay ta > r.out 2> r.err || fail "a diverging replay succeeded"
expect r.err "^rdb: replay diverged at syscall #[0-9]*: a different syscall: recorded getpid(.*) = [0-9]*, the program asked for getuid("
pass
