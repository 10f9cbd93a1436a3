#!/bin/sh
# pipe-hup.sh RDB RDB_CC: record-check-pipe-hup (tests/record/checks/).
# progs/pipe-hup.c: a boundary while a pipe is open, then its write
# end closed and its reader polls at once: a hang-up every time (a snapshot
# child kept the write end open: poll_select printed "hup 0" now and
# then).  Its seccomp filter takes close_range away from the snapshot
# children, which closed nothing then.
. "$(dirname "$0")/lib.sh"
build pipe-hup prog
./prog > plain.out || fail "plain run"
expect plain.out "^hangups 40 of 40$"
"$RDB" record --every-sic 20 -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
cmp -s plain.out rec.out || { diff plain.out rec.out; fail "the recording printed something else"; }
"$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
cmp -s rec.out rep.out || fail "replay differs"
pass
