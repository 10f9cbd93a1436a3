#!/bin/sh
# threads.sh RDB RDB_CC: record-check-threads (docs/threads.md).
# A recording runs the threads one at a time and records every switch;
# the replay follows them, so a racy program replays its recorded, racy
# total (8 threads increment one counter without a lock; the load and the
# store lie on both sides of a SIC check, where a time slice may end).
# tests/threads/ programs (mutex, condition variables, 200 short-lived
# and detached threads, TLS and keys, barrier, rwlock and semaphore,
# pthread_cancel of a thread blocked in read(), sigwait and pthread_kill
# to one thread, fork from a thread and exit from a thread) are recorded with checksums and
# replayed whole with --verify, printing what they print unrecorded.
# With RDB_THREAD_BOUNDARIES=0 boundaries wait while threads run: with intervals
# of 1000 counts (main reaches them before, while and after its threads
# run), none falls between the first thread's creation and
# the last one's end, the recording says so once, and replay --from K
# works for every complete interval.  A damaged switch (its target
# thread changed) makes the replay diverge; one moved by a loop iteration
# changes the racy total, which --verify catches.
. "$(dirname "$0")/lib.sh"
EDIT=$(dirname "$RDB")/trace-edit # (built beside rdb: tests/record/CMakeLists.txt)
build threads_racy racy
"$RDB" record --checksum --slice 10001 -o t -- ./racy > rec.out 2> rec.err ||
	{ cat rec.err; fail "record racy"; }
expect rec.out "^threads 8, increments 1600000, counter [0-9]* (racy\|no race seen), loads hash [0-9a-f]*$"
"$RDB" info t > info.out 2>&1 || { cat info.out; fail "rdb info"; }
expect info.out "^threads: *8 created, 8 exited; [0-9]* switches ([1-9][0-9]* at the end of a time slice"
# rdb info --json counts the same threads and switches as the text
"$RDB" info --json t > info.json || fail "rdb info --json"
text=$(sed -n 's/^threads: *\([0-9]*\) created, \([0-9]*\) exited; \([0-9]*\) switches (\([0-9]*\) at the end of a time slice, \([0-9]*\) at a syscall that may block, \([0-9]*\) at a.*/\1 \2 \3 \4 \5 \6/p' info.out)
json=$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["threads"]; print(*(t[k] for k in ("created","exited","switches","slice_ends","may_block","thread_ends")))' info.json) ||
	fail "info.json: no threads object"
[ -n "$text" ] && [ "$text" = "$json" ] || fail "threads: text says '$text', --json '$json'"
"$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay racy"; }
cmp -s rec.out rep.out || { cat rec.out rep.out; fail "the racy total replayed differently"; }
"$RDB" truss t > truss.out || fail "rdb truss"
expect truss.out "^#[0-9]* clone(.*) = [0-9]* <1 region written> \[thread 0\]$"
expect truss.out "^--- thread [0-9] -> thread [0-9] (time slice, at count [0-9]*) ---$"
expect truss.out "^#[0-9]* .* \[thread [1-8]\]$"

# A switch to another thread than the recording's: the replay diverges.
[ -x "$EDIT" ] || fail "no trace-edit at $EDIT"
cp -r t bad
"$EDIT" bad syscalls 39 -n 20 -o 44 -w 4 -x 1 > edit.out 2>&1 || { cat edit.out; fail "trace-edit"; }
timeout 60 "$RDB" replay --verify bad > bad.out 2> bad.err && fail "a damaged switch replayed"
expect bad.err "^rdb: replay diverged"
# A time-slice switch moved one loop iteration later, at the check between
# the load and the store of the counter (the lower of the loop's two check
# pcs): the values the threads load differ (so may the total), and
# --verify says so at the print.
best=
for n in 30 31 32 33; do
	pc=$("$EDIT" t syscalls 39 -n $n -o 16 -p | sed 's/ .*//')
	[ -z "$best" ] || [ $((pc)) -lt $((bestpc)) ] && best=$n bestpc=$pc
done
cp -r t late
sic=$("$EDIT" t syscalls 39 -n $best -o 8 -p | sed 's/ .*//')
"$EDIT" late syscalls 39 -n $best -o 8 -s $((sic + 2)) > edit2.out 2>&1 || { cat edit2.out; fail "trace-edit late"; }
timeout 60 "$RDB" replay --verify late > late.out 2> late.err && fail "a moved switch replayed"
expect late.err "^rdb: replay diverged .*--verify: in interval 1 the bytes it wrote differ from the recording's: recorded writev(1, "

for p in thread_mutex thread_condvar thread_many thread_tls thread_barrier thread_sync thread_cancel \
         thread_signals thread_fork_exit; do
	build ../../threads/$p $p
	./$p > $p.plain 2>&1; st=$?
	"$RDB" record --checksum -o t-$p -- ./$p > $p.rec 2>&1
	[ $? -eq $st ] || { cat $p.rec; fail "record $p: another status than unrecorded ($st)"; }
	cmp -s $p.plain $p.rec || { diff $p.plain $p.rec; fail "record $p printed something else"; }
	"$RDB" replay --verify t-$p > $p.rep 2> $p.reperr
	[ $? -eq $st ] || { cat $p.reperr; fail "replay $p"; }
	head -c "$(wc -c < $p.rep)" $p.rec | cmp -s - $p.rep || fail "replay $p printed something else"
	"$RDB" info t-$p | grep -q "^threads: *[1-9]" || fail "rdb info t-$p shows no threads"
done

# Boundaries only where the main thread is alone (RDB_THREAD_BOUNDARIES=0,
# the opt-out: by default they fall while threads live, threads-from.sh).
RDB_THREAD_BOUNDARIES=0 "$RDB" record --checksum --every-sic 1000 --slice 10001 -o ti -- ./racy > ri.out 2> ri.err ||
	{ cat ri.err; fail "record racy with intervals"; }
expect ri.err "^rdb: threads run: interval boundaries wait until the main thread is alone again"
[ "$(grep -c "interval boundaries wait" ri.err)" = 1 ] || fail "the wait is not said once"
"$RDB" truss ti > ti.truss || fail "rdb truss ti"
awk '/creates thread 1 ---$/ { on = 1 } /^--- interval / && on && !done { bad = 1 }
     /exits ---$/ { n++; if (n == 8) done = 1 } END { exit bad || n != 8 }' ti.truss ||
	fail "a boundary while threads ran, or not 8 thread ends"
[ "$("$RDB" info --complete ti)" -ge 2 ] || fail "no intervals around the threads"
from_each ti ri.out 0
pass
