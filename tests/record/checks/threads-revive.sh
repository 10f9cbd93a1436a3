#!/bin/sh
# threads-revive.sh RDB RDB_CC: record-check-threads-revive (issue 19).
# rdb replay --from K of an interval that began with thread 0 alive,
# parked in pthread_join, and a worker holding the token, which starts a
# thread of its own in K (progs/thnest.c).  The replay's first thread
# (thread 0) makes the worker again, which runs the program at once;
# rdb_threads_revive_start read RT->sched.top and each slot's alive flag
# as it went, so the worker's pthread_create in that window had it make
# the new slot's thread a second time: SIGSEGV or a hang (threvive.c).
# RDB_TEST_REVIVE_WAIT=2000 in the recorded environment has the first
# thread wait after each thread it makes, up to 2 s, for the program to
# start one (with the old loop 5 of 6 such replays failed: 3 SIGSEGV,
# 2 hung).  Each such interval is replayed with --verify three times,
# and every interval once (forkthr.sh checks the same for a worker's fork
# child, where no thread 0 lives).
. "$(dirname "$0")/lib.sh"
build thnest prog
# a replay that timeout ended leaves its program behind, hung, every
# signal but SIGKILL blocked: that program (here, by its executable)
reap() {
	r_here=$(pwd -P)
	for d in /proc/[0-9]*; do
		[ "$(readlink "$d/exe" 2>/dev/null)" = "$r_here/prog" ] && kill -9 "${d#/proc/}" 2>/dev/null
	done
}
./prog > native.out || fail "thnest unrecorded"
RDB_TEST_REVIVE_WAIT=2000 timeout 120 "$RDB" record --checksum --every-sic 10000 -o t -- ./prog \
	> t.out 2> t.err || { cat t.err; fail "record of thnest with RDB_TEST_REVIVE_WAIT=2000"; }
cmp -s native.out t.out || fail "thnest recorded printed something else"
last=$("$RDB" info --complete t) || fail "rdb info --complete t"
# intervals whose holder (the last switch's target before the interval's
# line) is not thread 0 and creates a thread before any switch
"$RDB" truss t > t.truss || fail "rdb truss t"
awk -v l="$last" '/^--- thread [0-9]* -> thread [0-9]* / { h = $6; sw = 1 }
	/^--- interval [0-9]* ---$/ { k = $3; sw = 0 }
	/^--- thread [0-9]* creates thread / {
		if (k && k <= l && !sw && h != 0 && $3 == h && !seen[k]++) print k }' t.truss > iv
[ -s iv ] || { cat t.truss; fail "no interval where a worker holding the token starts a thread"; }
for k in $(cat iv); do
	for i in 1 2 3; do
		timeout 120 "$RDB" replay --verify --from "$k" t > r.out 2> r.err
		s=$?
		[ $s != 124 ] || { reap; fail "replay --verify --from $k (run $i) hung (killed after 120 s)"; }
		[ $s = 0 ] || { cat r.err; fail "replay --verify --from $k (run $i): status $s"; }
		cmp -s t.out r.out || { cat r.out; fail "replay --from $k (run $i): not the recording's output"; }
	done
done
from_each t t.out 0 whole
pass
