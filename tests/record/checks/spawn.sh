#!/bin/sh
# spawn.sh RDB RDB_CC: record-check-spawn (tests/record/checks/).
# system(), posix_spawn and vfork run their children as forks: the
# output of /bin/sh ("hi"), not built with rdb-cc, is in the recording,
# not in the replay.  Recorded with intervals, the vfork child records
# itself and replays; the others run untraced to their exec.
. "$(dirname "$0")/lib.sh"
build spawn prog
"$RDB" record -o t -- ./prog > rec.out 2> rec.err || fail "record"
[ ! -s rec.err ] || { cat rec.err; fail "record wrote to stderr"; }
expect rec.out "^hi$"
expect rec.out "^system: status 0, exited 1, exit status 0$"
expect rec.out "^system exit 3: exit status 3$"
expect rec.out "^posix_spawn /bin/true: 0, pid > 0: 1$"
expect rec.out "^true: exited 1, exit status 0$"
expect rec.out "^posix_spawn /nonexistent/prog: 2$"
expect rec.out "^vfork child: exit status 5$"
"$RDB" replay t > rep.out 2> rep.err || fail "replay"
[ ! -s rep.err ] || { cat rep.err; fail "replay wrote to stderr"; }
grep -v '^hi$' rec.out > want.out
cmp -s want.out rep.out || { diff want.out rep.out; fail "replay output is not the recording's without the children's"; }
"$RDB" info t > i.out || fail "info"
expect i.out "^not traced: 5 fork children"
# With intervals fork children record themselves (--forks, the default):
# the vfork child does; the children of system() and posix_spawn, on a
# stack of their own, run untraced to their exec; every process replays.
"$RDB" record -i 1 --checksum -o f -- ./prog > frec.out 2> frec.err || fail "record -i 1"
"$RDB" ps f > ps.out || fail "rdb ps f"
[ "$(wc -l < ps.out)" = 3 ] || { cat ps.out; fail "not the program and its vfork child"; }
expect ps.out "status 5 FAILED"
"$RDB" check f > c.out 2>&1 || { cat c.out; fail "rdb check f"; }
[ "$(grep -c ' ok ' c.out)" = 2 ] || { cat c.out; fail "rdb check f: not 2 processes ok"; }
pass
