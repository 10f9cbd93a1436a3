#!/bin/sh
# forkthr.sh RDB RDB_CC: record-check-forkthr (tests/record/checks/).
# A fork while another thread lives (progs/forkthr.c; in the child only
# the caller lives on, and it starts and joins a thread of its own).
# Run natively, a child of a thread started its thread in the forking
# thread's runtime slot and hung (thread.c rdb_thread_forked).  Recorded,
# the child of the main thread records itself (its replay alone with
# --verify, whole and from each interval, prints its line and exits 7);
# a child of another thread runs untraced (docs/threads.md).
. "$(dirname "$0")/lib.sh"
build forkthr prog
# (the hang did not come every time: about 2 runs in 5)
for i in 1 2 3 4 5 6 7 8; do
	timeout 20 ./prog thread > n$i.out || fail "native run $i of forkthr thread (124: hung)"
done
for m in main thread; do
	timeout 60 ./prog $m > $m.native || fail "native run of forkthr $m (124: hung)"
	timeout 60 "$RDB" record --checksum --every-sic 10000 -o $m -- ./prog $m > $m.rec 2> $m.err ||
		{ cat $m.err; fail "record of forkthr $m (124: hung)"; }
	[ ! -s $m.err ] || { cat $m.err; fail "record of forkthr $m wrote to stderr"; }
	cmp -s $m.native $m.rec || { diff $m.native $m.rec; fail "forkthr $m printed other bytes recorded"; }
	"$RDB" replay --verify $m > r.out 2> r.err || { cat r.err; fail "replay --verify of forkthr $m"; }
	cmp -s $m.rec r.out || { diff $m.rec r.out; fail "the replay of forkthr $m printed other bytes"; }
	"$RDB" ps $m > $m.ps || fail "rdb ps $m"
	cat $m.ps
done
expect main.ps "status 7 FAILED"
[ "$(awk 'NR > 1' main.ps | wc -l)" = 2 ] || fail "forkthr main: the child is not recorded"
[ "$(awk 'NR > 1' thread.ps | wc -l)" = 1 ] || fail "forkthr thread: the child of a thread is recorded"
"$RDB" info thread > i.out || fail "info thread"
expect i.out "^not traced: 1 fork child"
kid=$(awk 'NR == 3 { print $1 }' main.ps)
grep "^child of main: " main.rec > kid.want
last=$("$RDB" info --pid "$kid" --complete main) || fail "info --pid $kid"
[ "$last" -ge 3 ] || fail "the child has $last complete intervals"
"$RDB" replay --verify --pid "$kid" main > r.out 2> r.err
[ $? = 7 ] || { cat r.err; fail "replay --pid $kid: not exit status 7"; }
[ ! -s r.err ] || { cat r.err; fail "replay --pid $kid wrote to stderr"; }
cmp -s kid.want r.out || { diff kid.want r.out; fail "replay --pid $kid printed other bytes"; }
k=2
while [ $k -le "$last" ]; do
	"$RDB" replay --verify --from $k --pid "$kid" main > r.out 2> r.err
	[ $? = 7 ] || { cat r.err; fail "replay --pid $kid --from $k"; }
	tail -c "$(wc -c < r.out)" kid.want | cmp -s - r.out || fail "replay --pid $kid --from $k: not the end of its output"
	k=$((k + 1))
done
"$RDB" check main > c.out 2>&1 || { cat c.out; fail "rdb check main"; }
[ "$(grep -c ' ok ' c.out)" = 2 ] || { cat c.out; fail "rdb check main: not 2 processes ok"; }
pass
