#!/bin/sh
# threads-slow.sh RDB RDB_CC: record-check-threads-slow (issue 19).
# progs/thslow.c: a worker thread takes two boundaries (--every-sic), each
# followed by an interval of more than a second of wall time (it sleeps,
# main waits in pthread_join).  The snapshot child such a boundary forks
# checks its parent once a second; it took that timeout for its ranges and
# sent its values under a stale interval number, so rdb record warned
# "values of interval N after its VALUES_END" and an interval had no
# values (xz -T4 -i 200 in project-xz-utils, about 1 run in 19).  Here
# the recording must say nothing on stderr, every interval must be
# complete, and the replay from each with --verify prints the same line.
. "$(dirname "$0")/lib.sh"
build thslow prog
./prog > native.out || fail "thslow unrecorded"
for i in 1 2; do
	timeout 60 "$RDB" record --checksum --every-sic 200000 -o t$i -- ./prog > t$i.out 2> t$i.err ||
		{ cat t$i.err; fail "record $i of thslow"; }
	[ ! -s t$i.err ] || { cat t$i.err; fail "record $i of thslow wrote to stderr"; }
	cmp -s native.out t$i.out || fail "thslow recorded ($i) printed something else"
	"$RDB" info t$i > i$i.txt || fail "rdb info t$i"
	n=$(sed -n 's/^intervals: *\([0-9]*\).*/\1/p' i$i.txt)
	last=$("$RDB" info --complete t$i)
	[ "${n:-0}" -ge 3 ] || { cat i$i.txt; fail "recording $i has ${n:-no} intervals, not 3 or more"; }
	[ "$last" = "$n" ] || { cat i$i.txt; fail "recording $i: $last of $n intervals complete"; }
	grep -q "^boundaries while threads lived: [1-9]" i$i.txt ||
		{ cat i$i.txt; fail "recording $i: no boundary while the worker lived"; }
	from_each t$i t$i.out 0 whole
done
pass
