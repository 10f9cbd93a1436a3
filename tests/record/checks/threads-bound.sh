#!/bin/sh
# threads-bound.sh RDB RDB_CC: record-check-threads-bound (issue 19).
# Boundaries while threads live (RDB_THREAD_BOUNDARIES=1, docs/threads.md):
# thread_longpool's four workers live for the whole run; recorded with an
# interval every 200000 counts and a slice that does not divide its loop,
# boundaries fall while they are parked after a time slice and blocked in
# read() or futex waits.  rdb info must show such boundaries and parked threads of both
# kinds; the replay from the start with --verify (every parked thread's
# registers, count, pc and %fs compared at each boundary, THCTX) must print
# what the recording printed; so must replay --from K of every interval
# with --verify, at least 20 of them begun while the workers lived
# (tests/record/checks/threads-from.sh does the other programs).  Without the variable, boundaries wait as
# before (none while threads live).
. "$(dirname "$0")/lib.sh"
p=thread_longpool
build ../../threads/$p $p
./$p > $p.plain 2>&1 || fail "$p unrecorded"
RDB_THREAD_BOUNDARIES=1 timeout 120 "$RDB" record --checksum --every-sic 100000 --slice 10001 \
	-o t -- ./$p > $p.rec 2>&1 || { cat $p.rec; fail "record $p"; }
cmp -s $p.plain $p.rec || { diff $p.plain $p.rec; fail "record $p printed something else"; }
"$RDB" info t > info.txt || fail "rdb info"
n=$(sed -n 's/^boundaries while threads lived: \([0-9]*\) .*/\1/p' info.txt)
[ "${n:-0}" -ge 20 ] || { cat info.txt; fail "fewer than 20 boundaries while threads lived (${n:-none})"; }
grep -q "parked there: [1-9][0-9]* after a time slice, [1-9][0-9]* in a syscall" info.txt ||
	{ cat info.txt; fail "no boundary found threads parked both after a slice and in a call"; }
last=$("$RDB" info --complete t)
[ "$last" -gt "$n" ] || fail "only $last complete intervals of $((n + 1))"
timeout 120 "$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay --verify"; }
cmp -s $p.rec rep.out || { diff $p.rec rep.out; fail "the replay printed something else"; }
timeout 120 "$RDB" replay --verify --from 1 t > f1.out 2> f1.err || { cat f1.err; fail "replay --from 1"; }
cmp -s $p.rec f1.out || fail "replay --from 1 printed something else"
k=2 alone=0 threaded=0
"$RDB" truss t | awk '/^--- thread [0-9]* creates thread/ { n++ }
	/^--- thread [0-9]* \(tid [0-9]*\) exits ---$/ { n-- }
	/^--- interval [0-9]* ---$/ { if (n > 0) print $3 }' > threaded.iv
while [ $k -le "$last" ]; do
	# every interval, whether it began with main alone or while the
	# workers lived (threvive.c makes them again), with --verify
	timeout 60 "$RDB" replay --verify --from $k t > f$k.out 2> f$k.err ||
		{ cat f$k.err; fail "replay --verify --from $k"; }
	tail -c "$(wc -c < f$k.out)" $p.rec | cmp -s - f$k.out || fail "replay --from $k printed something else"
	if grep -qx "$k" threaded.iv; then threaded=$((threaded + 1)); else alone=$((alone + 1)); fi
	k=$((k + 1))
done
[ $threaded -ge 20 ] || fail "only $threaded intervals began while threads lived ($alone alone)"
# The interval timer (CPU time) instead: its boundaries fall at any
# moment, while a worker's read() may be under way (such a boundary waits:
# the kernel would write the buffer during it).  Three recordings, each
# replayed whole with --verify.
for i in 1 2 3; do
	RDB_THREAD_BOUNDARIES=1 timeout 120 "$RDB" record --checksum -i 0.2 -o ti$i -- ./$p > ti$i.rec 2>&1 ||
		{ cat ti$i.rec; fail "record -i 0.2 ($i)"; }
	"$RDB" info ti$i | grep -q "^boundaries while threads lived: [1-9]" ||
		{ "$RDB" info ti$i; fail "no boundary while threads lived with -i 0.2 ($i)"; }
	timeout 120 "$RDB" replay --verify ti$i > ti$i.out 2> ti$i.err || { cat ti$i.err; fail "replay --verify of -i 0.2 ($i)"; }
	cmp -s ti$i.rec ti$i.out || fail "the replay of -i 0.2 ($i) printed something else"
done
# RDB_THREAD_BOUNDARIES=0: no boundary while threads live; without the
# variable (the default) there are
RDB_THREAD_BOUNDARIES=0 timeout 120 "$RDB" record --every-sic 200000 -o t0 -- ./$p > t0.rec 2>&1 ||
	fail "record with RDB_THREAD_BOUNDARIES=0"
"$RDB" info t0 | grep -q "^boundaries while threads lived" && fail "boundaries while threads lived with RDB_THREAD_BOUNDARIES=0"
timeout 120 "$RDB" record --every-sic 200000 -o td -- ./$p > td.rec 2>&1 || fail "record without the variable"
"$RDB" info td | grep -q "^boundaries while threads lived: [1-9]" || fail "no boundary while threads lived by default"
pass
