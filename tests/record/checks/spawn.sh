#!/bin/sh
# spawn.sh RDB RDB_CC: record-check-spawn (tests/record/checks/).
# system(), posix_spawn and vfork run their children as forks: the
# output of /bin/sh ("hi"), not built with rdb-cc, is in the recording,
# not in the replay.  Recorded with intervals, every child records itself
# to its exec or exit and replays.
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
# the vfork child, and the children of system() and posix_spawn (on a
# stack of their own) from the clone to their exec (sh, true; the one
# whose exec fails writes the error to the pipe and exits 127); every
# process replays with --verify (spawn-tree.sh: their rdb-cc programs).
"$RDB" record -i 1 --checksum -o f -- ./prog > frec.out 2> frec.err || fail "record -i 1"
"$RDB" ps f > ps.out || fail "rdb ps f"
[ "$(wc -l < ps.out)" = 7 ] || { cat ps.out; fail "not the program and its 5 children"; }
[ "$(grep -c " exec'd " ps.out)" = 3 ] || { cat ps.out; fail "not 3 children that exec'd"; }
expect ps.out "status 127 FAILED"
expect ps.out "status 5 FAILED"
"$RDB" check f > c.out 2>&1 || { cat c.out; fail "rdb check f"; }
[ "$(grep -c ' ok ' c.out)" = 6 ] || { cat c.out; fail "rdb check f: not 6 processes ok"; }
for id in $(awk 'NR > 2 { print $1 }' ps.out); do
	"$RDB" replay --verify --pid "$id" f > r.out 2> r.err
	st=$?
	want=$(awk -v id="$id" '$1 == id { print $3 == "status" ? $4 : 0 }' ps.out)
	[ "$st" = "$want" ] || { cat r.err; fail "replay --pid $id: status $st, not $want"; }
	[ ! -s r.out ] || fail "replay --pid $id printed something"
done
pass
