#!/bin/sh
# threads-more.sh RDB RDB_CC: record-check-threads-more (issue 19).
# The tests/threads programs record-check-threads leaves out (threads.sh
# records nine of the twenty-three) are recorded with checksums and replayed
# whole with --verify: each must exit and print as it does unrecorded, and
# its replay must print a prefix of what the recording printed.  Kept apart
# from threads.sh so that boundary cases added there merge without conflict.
# thread_vfork's and thread_clonevm_share's CLONE_VM children (no
# CLONE_THREAD) run as threads of the recording: the words they write reach
# the parent recorded and replayed.  thread_manyalive asks for more threads
# than the runtime has slots: the clone's EAGAIN is recorded and replayed.
# thread_clonevm_exec, whose child execs, and thread_clonefiles (CLONE_FILES
# without CLONE_VM) are refused while recording and checked apart (below).
. "$(dirname "$0")/lib.sh"
for p in thread_callsig thread_exec thread_exit_group thread_exit_loop thread_pipe \
         thread_pool thread_procsig thread_racy thread_robust thread_vfork \
         thread_clonevm_share thread_manyalive; do
	build ../../threads/$p $p
	./$p > $p.plain 2>&1; st=$?
	timeout 120 "$RDB" record --checksum -o t-$p -- ./$p > $p.rec 2>&1
	[ $? -eq $st ] || { cat $p.rec; fail "record $p: another status than unrecorded ($st)"; }
	cmp -s $p.plain $p.rec || { diff $p.plain $p.rec; fail "record $p printed something else"; }
	timeout 120 "$RDB" replay --verify t-$p > $p.rep 2> $p.reperr
	[ $? -eq $st ] || { cat $p.reperr; fail "replay $p"; }
	head -c "$(wc -c < $p.rep)" $p.rec | cmp -s - $p.rep || fail "replay $p printed something else"
	"$RDB" info t-$p | grep -q "^threads: *[1-9]" || fail "rdb info t-$p shows no threads"
done
# thread_clonevm_exec's child execs: refused while recording (ENOSYS and a
# message), and the replay gives the program the same failure
p=thread_clonevm_exec
build ../../threads/$p $p
timeout 120 "$RDB" record --checksum -o t-$p -- ./$p > $p.rec 2>&1 || { cat $p.rec; fail "record $p"; }
expect $p.rec "exec failed (ENOSYS)"
expect $p.rec "rdb: exec from a process made with CLONE_VM but not CLONE_THREAD"
timeout 120 "$RDB" replay --verify t-$p > $p.rep 2> $p.reperr || { cat $p.reperr; fail "replay $p"; }
expect $p.rep "exec failed (ENOSYS)"
# thread_clonefiles' clone(CLONE_FILES) without CLONE_VM: refused while
# recording (ENOSYS and a message), replayed as refused
p=thread_clonefiles
build ../../threads/$p $p
./$p > $p.plain 2>&1 || { cat $p.plain; fail "$p unrecorded"; }
expect $p.plain "the child's dup2 is in our fd table"
timeout 120 "$RDB" record --checksum -o t-$p -- ./$p > $p.rec 2>&1 || { cat $p.rec; fail "record $p"; }
expect $p.rec "clone(CLONE_FILES) failed (ENOSYS)"
expect $p.rec "rdb: clone with CLONE_SIGHAND, CLONE_FILES or CLONE_FS whose child"
timeout 120 "$RDB" replay --verify t-$p > $p.rep 2> $p.reperr || { cat $p.reperr; fail "replay $p"; }
expect $p.rep "clone(CLONE_FILES) failed (ENOSYS)"
# the recording refused a clone (no slot left), and said so
"$RDB" info t-thread_manyalive | grep -q "^threads refused: *[1-9]" ||
	fail "rdb info t-thread_manyalive shows no refused clone"
"$RDB" truss t-thread_manyalive | grep -q "clone failed, no thread made" ||
	fail "rdb truss t-thread_manyalive shows no refused clone"
pass
