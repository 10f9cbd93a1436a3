#!/bin/sh
# progress.sh RDB RDB_CC: record-check-progress (tests/record/checks/):
# rdb replay and rdb flowback show an interval counter on stderr when it
# is a terminal (script gives them a pty), and nothing when it is not:
# stderr a file, with stdout on the terminal or not.
. "$(dirname "$0")/lib.sh"
command -v script > /dev/null || fail "no script (util-linux)"
build timeline prog
# many intervals whatever the machine's load: a count, not a timer
"$RDB" record --every-sic 200000 -o t -- ./prog > rec.out 2>&1 || { cat rec.out; fail "record"; }
n=$("$RDB" info --complete t)
[ "$n" -ge 5 ] || fail "only $n complete intervals: nothing to count"
# script -e: the command's status; -c: run it on a pty (stdin, stdout, stderr)
tty() { script -qec "$1" /dev/null < /dev/null > "$2"; }
tty "'$RDB' replay t" tty.out || { cat tty.out; fail "replay on a terminal"; }
grep -aq "rdb: replaying: interval [0-9]* of $n" tty.out ||
	{ od -c tty.out | tail -20; fail "replay on a terminal showed no interval counter"; }
expect tty.out "timeline ok"
tty "'$RDB' flowback t first_value" fb.out || { cat fb.out; fail "flowback on a terminal"; }
grep -aq "rdb: flowback: looking back at interval [0-9]* of $n" fb.out ||
	{ od -c fb.out | tail -20; fail "flowback on a terminal showed no interval counter"; }
expect fb.out "first_value"
# not a terminal: stderr a file (stdout on the pty, then a file too)
tty "'$RDB' replay t 2> '$W/r.err'" tty2.out || { cat r.err; fail "replay, stderr a file"; }
! grep -aq "replaying" r.err tty2.out || fail "replay showed progress with stderr not a terminal"
tty "'$RDB' flowback t first_value 2> '$W/f.err'" fb2.out || { cat f.err; fail "flowback, stderr a file"; }
! grep -aq "looking back" f.err fb2.out || fail "flowback showed progress with stderr not a terminal"
"$RDB" replay t > r3.out 2> r3.err || { cat r3.err; fail "replay"; }
[ ! -s r3.err ] || { cat r3.err; fail "replay wrote to stderr, not a terminal"; }
pass
