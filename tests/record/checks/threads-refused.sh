#!/bin/sh
# threads-refused.sh RDB RDB_CC: record-check-threads-refused.
# Until threads are recorded (issue 19), a recording refuses the clone
# of a thread: the message names it and says threads are not recorded
# yet, pthread_create returns EAGAIN and the program goes on (it does the
# work itself), the recording ends whole (rdb info: an exit status, not
# cut short, the refused clone counted) and replays with --verify.  The
# same build run unrecorded starts its thread (runtime/thread.c).
. "$(dirname "$0")/lib.sh"
build threads_refused prog
./prog > plain.out 2> plain.err || { cat plain.err; fail "unrecorded run"; }
expect plain.out "^pthread_create: a thread did the work$"
"$RDB" record --checksum -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
expect rec.err "^rdb: threads are not recorded yet: clone with CLONE_THREAD, .* fails with ENOSYS (pthread_create returns EAGAIN), and the recording goes on without it$"
[ "$(grep -c "threads are not recorded" rec.err)" = 1 ] || fail "the message is not said once"
expect rec.out "^pthread_create: EAGAIN, main does the work$"
expect rec.out "^sum 500500$"
"$RDB" info t > info.out 2>&1 || { cat info.out; fail "rdb info"; }
expect info.out "^ended: *exit status 0$"
expect info.out "^cut short: *no$"
expect info.out "1 clone call of a thread refused with ENOSYS"
"$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
cmp -s rec.out rep.out || fail "the replay printed something else"
! grep -q "threads are not recorded" rep.err || fail "the replay said the refusal again"
pass
