#!/bin/sh
# threads.sh: gdb's view of threads on a replay, and rdb flowback naming
# the writing thread, on progs/threads.c (three workers and main, four
# threads alive at each worker's turn; docs/gdb.md "Threads").
#   threads.sh RDB RDB_CC gdb|flowback|fork|watch|bpwatch
# Exit 0 pass, 1 fail, 77 skipped (no instrumented musl yet).
set -u
RDB=$1 RDB_CC=$2 case=$3
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$HERE/progs
W=$(mktemp -d "${TMPDIR:-/tmp}/rdb-gdbthreads.XXXXXX")
status=1
trap 'if [ $status -eq 0 ] || [ $status -eq 77 ]; then rm -rf "$W"; else echo "work folder kept: $W" >&2; fi' EXIT
fail() { echo "FAIL ($case): $*" >&2; status=1; exit 1; }
expect() { grep -q -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "no '$2' in $1"; }; }
cd "$W" || exit 1
# (fork: intervals in the child, so that going back crosses boundaries)
case $case in fork | watch | bpwatch) prog=th$case every=20000 ;; *) prog=threads every= ;; esac
"$RDB_CC" -O0 -g "$SRC/$prog.c" -o prog -lpthread 2>cc.err ||
	{ status=77; echo "SKIP: rdb-cc cannot build $prog.c (instrumented musl built?)"; cat cc.err; exit 77; }
./prog > native.out || fail "prog"
"$RDB" record ${every:+--every-sic $every} -o t -- ./prog > rec.out 2>&1 || { cat rec.out; fail "record"; }
cmp -s native.out rec.out || { cat native.out rec.out; fail "the recording's output"; }
line() { grep -n "$1" "$SRC/$prog.c" | head -n 1 | cut -d: -f1; }

case $case in
gdb)
	# A breakpoint in a worker stops with that thread; info threads lists
	# the four, named by slot and birth; bt shows the worker's function;
	# reverse-stepi there goes back one instruction in beta's thread (its
	# count reached by a replay from the interval's start: the runtime
	# arms beta's window for it whenever beta goes on), stepi forward again;
	# the main thread (blocked in pthread_join) shows its own stack;
	# reverse-continue to a breakpoint another thread hit before selects
	# that thread; continue goes on from there.
	command -v gdb > /dev/null || fail "gdb is not installed"
	printf '%s\n' 'break in_beta' continue 'echo gdb: at beta\n' 'info threads' bt \
		'printf "gdb: beta v %ld\n", v' 'echo gdb: rsi\n' 'printf "gdb: pc %#lx\n", $pc' \
		reverse-stepi 'printf "gdb: pc %#lx\n", $pc' 'info threads' stepi \
		'printf "gdb: pc %#lx\n", $pc' 'disassemble in_beta' \
		'echo gdb: main\n' 'thread 1' bt \
		'echo gdb: back\n' 'break in_alpha' reverse-continue 'info threads' bt \
		'printf "gdb: alpha v %ld\n", v' 'echo gdb: on\n' continue 'info threads' \
		'printf "gdb: beta again %ld\n", v' 'echo gdb: step\n' finish \
		'echo gdb: end\n' delete continue > s.gdb
	timeout 300 "$RDB" replay --gdb-batch s.gdb t > s.out 2>&1 || { cat s.out; fail "replay --gdb-batch"; }
	! grep -q "rdb: gdb server\|Couldn't\|Cannot\|Traceback" s.out || { cat s.out; fail "gdb or the server failed"; }
	sed -n '/^gdb: at beta$/,/^gdb: rsi$/p' s.out > beta.out
	sed -n '/^gdb: rsi$/,/^gdb: main$/p' s.out > rsi.out
	sed -n '/^gdb: main$/,/^gdb: back$/p' s.out > main.out
	sed -n '/^gdb: back$/,/^gdb: on$/p' s.out > back.out
	sed -n '/^gdb: on$/,/^gdb: step$/p' s.out > on.out
	# the stop names the worker: gdb says which thread hit it
	expect s.out "Thread [0-9]* .*hit Breakpoint 1, in_beta (v=[0-9]*) at .*threads.c:$(line 'in_beta(long v)')"
	# four threads, each with its slot and birth; the one stopped is beta's
	[ "$(grep -c '^[* ] *[0-9][0-9]* *Thread ' beta.out)" -eq 4 ] || { cat beta.out; fail "info threads at beta: not 4 threads"; }
	expect beta.out "^\* *[0-9]* *Thread [0-9]* (slot 2, born at syscall [0-9]*, running)  *in_beta "
	expect beta.out "^  *[0-9]* *Thread [0-9]* (slot 0, the main thread, blocked in a call)"
	# (alpha gave the token up at the barrier's futex wait, or at a time
	# slice's end just before it)
	expect beta.out "^  *[0-9]* *Thread [0-9]* (slot 1, born at syscall [0-9]*, \(blocked in syscall 202\|waiting for its turn (after a time slice)\))"
	expect beta.out "^  *[0-9]* *Thread [0-9]* (slot 3, born at syscall [0-9]*, blocked in syscall 202)"
	expect beta.out "^#1  0x[0-9a-f]* in beta (a=0x0) at .*threads.c:"
	expect beta.out "^gdb: beta v 20[0-6]\$"
	# reverse-stepi: the instruction just before the breakpoint's in
	# in_beta's listing, still slot 2's thread; stepi: the breakpoint again
	pcs=$(sed -n 's/^gdb: pc \(0x[0-9a-f]*\)$/\1/p' rsi.out | tr '\n' ' ')
	set -- $pcs
	[ $# -eq 3 ] || { cat rsi.out; fail "reverse-stepi at beta: not 3 pcs ($pcs)"; }
	bp=$1 back=$2 fwd=$3
	# (the listing's address before the breakpoint's)
	prev=$(sed -n 's/^[=> ]*\(0x[0-9a-f]*\) <+[0-9]*>:.*/\1/p' rsi.out |
		while read -r a; do [ "$((a))" -eq "$((bp))" ] && { echo "${last:-}"; break; }; last=$a; done)
	[ -n "$prev" ] && [ "$((back))" -eq "$((prev))" ] ||
		{ cat rsi.out; fail "reverse-stepi from beta's breakpoint ($bp) went to $back, not $prev"; }
	[ "$((fwd))" -eq "$((bp))" ] || { cat rsi.out; fail "stepi after reverse-stepi: $fwd, not $bp"; }
	expect rsi.out "^\* *[0-9]* *Thread [0-9]* (slot 2, born at syscall [0-9]*, running)  *0x0*${back#0x} in in_beta "
	# main, waiting in pthread_join: its saved registers unwind to main
	expect main.out "in main () at .*threads.c:$(line 'pthread_join(t\[i\]')"
	# back to alpha's breakpoint: alpha's thread (slot 1) selected
	expect back.out "hit Breakpoint 2, in_alpha (v=[0-9]*) at "
	expect back.out "^\* *[0-9]* *Thread [0-9]* (slot 1, born at syscall [0-9]*, running)  *in_alpha "
	[ "$(grep -c '^[* ] *[0-9][0-9]* *Thread ' back.out)" -eq 4 ] || { cat back.out; fail "info threads at alpha: not 4 threads"; }
	expect back.out "^#1  0x[0-9a-f]* in alpha (a=0x0) at .*threads.c:"
	expect back.out "^gdb: alpha v 10[0-6]\$"
	# the same thread ids whatever the replay: gdb's numbers stay
	a=$(sed -n 's/^\* *\([0-9]*\) *Thread \([0-9]*\) (slot 1.*/\2/p' back.out)
	b=$(sed -n 's/^  *[0-9]* *Thread \([0-9]*\) (slot 1.*/\1/p' beta.out)
	[ -n "$a" ] && [ "$a" = "$b" ] || { cat beta.out back.out; fail "slot 1's thread id changed ($b, then $a)"; }
	# forward again: beta's breakpoint, with beta selected
	expect on.out "hit Breakpoint 1, in_beta "
	expect on.out "^\* *[0-9]* *Thread [0-9]* (slot 2, born at syscall [0-9]*, running)  *in_beta "
	# finish: back in beta, the same thread
	sed -n '/^gdb: step$/,/^gdb: end$/p' s.out > fin.out
	# (the call's line, or the next when the call ends it)
	l=$(line 'in_beta(200')
	expect fin.out "^\(0x[0-9a-f]* in \)\?beta (a=0x0) at .*threads.c:\($l\|$((l + 1))\)\$"
	expect s.out "exited normally"
	;;
flowback)
	# the last write of `shared` is gamma's (slot 3): named with its birth,
	# the clone that made it (rdb truss: the clone after "creates thread 3")
	"$RDB" flowback t shared > fb.out 2>&1 || { cat fb.out; fail "rdb flowback"; }
	expect fb.out "by:  *in_gamma+0x[0-9a-f]* (.*threads.c:$(line 'in_gamma(long v)'))"
	"$RDB" truss t > truss.out 2>&1 || { cat truss.out; fail "rdb truss"; }
	born=$(awk '/--- thread 0 creates thread 3 ---/ { on = 1; next } on && /clone/ { print $1; exit }' truss.out | tr -dc 0-9)
	[ -n "$born" ] || { cat truss.out; fail "no clone of thread 3 in rdb truss"; }
	expect fb.out "^  thread:      slot 3, born at syscall $born\$"
	# beta's write, before gamma's interval... all in one interval here:
	# an unthreaded recording says no thread (tests/record flowback)
	;;
fork)
	# The child of a thread other than the main one (progs/thfork.c),
	# replayed alone (--pid): its replay makes the forking thread again in
	# its slot (1) while the replay's first thread idles, which is no
	# thread of the program's.  gdb's first stop is the child's first
	# instruction, in that thread (the return from fork); info threads
	# lists it alone, then it and the child's own thread; breakpoints in
	# both stop; continue to the end; reverse-continue back through the
	# same stops.
	command -v gdb > /dev/null || fail "gdb is not installed"
	"$RDB" ps t > ps.out || fail "rdb ps"
	kid=$(awk 'NR == 3 { print $1 }' ps.out)
	[ -n "$kid" ] || { cat ps.out; fail "the fork child is not recorded"; }
	last=$("$RDB" info --pid "$kid" --complete t) || fail "rdb info --pid $kid"
	[ "$last" -ge 3 ] || fail "the child has $last complete intervals (going back crosses none)"
	printf '%s\n' 'echo gdb: first\n' 'info threads' bt 'break in_child' 'break in_kid' \
		'echo gdb: c1\n' continue 'info threads' 'echo gdb: c2\n' continue \
		'echo gdb: c3\n' continue 'info threads' 'echo gdb: c4\n' continue \
		'echo gdb: rc1\n' reverse-continue 'info threads' 'echo gdb: rc2\n' reverse-continue \
		'info threads' 'echo gdb: rc3\n' reverse-continue 'info threads' 'echo gdb: rc4\n' \
		reverse-continue 'echo gdb: end\n' delete continue > s.gdb
	timeout 300 "$RDB" replay --gdb-batch s.gdb --pid "$kid" t > s.out 2>&1 ||
		[ $? = 7 ] || { cat s.out; fail "replay --gdb-batch --pid $kid"; }
	! grep -q "rdb: gdb server\|Couldn't\|Cannot\|Traceback" s.out || { cat s.out; fail "gdb or the server failed"; }
	for p in first c1 c2 c3 c4 rc1 rc2 rc3 rc4 end; do
		sed -n "/^gdb: $p\$/,/^gdb: /p" s.out > $p.out
	done
	# the first stop: the forking thread, back from fork, alone
	expect first.out "^#[0-9]  0x[0-9a-f]* in forker (a=0x0) at .*thfork.c:$(line 'pid_t p = fork()')"
	[ "$(grep -c '^[* ] *[0-9][0-9]* *Thread ' first.out)" -eq 1 ] || { cat first.out; fail "info threads at the first stop: not 1 thread"; }
	expect first.out "^\* *[0-9]* *Thread [0-9]* (slot 1, the thread that forked, running) "
	# its breakpoints, in order, each in its thread
	expect c1.out "Breakpoint 1, in_child (v=1) at "
	[ "$(grep -c '^[* ] *[0-9][0-9]* *Thread ' c1.out)" -eq 1 ] || { cat c1.out; fail "info threads at in_child(1): not 1 thread"; }
	expect c1.out "^\* *[0-9]* *Thread [0-9]* (slot 1, the thread that forked, running)  *in_child "
	expect c2.out "Breakpoint 1, in_child (v=2) at "
	expect c3.out "hit Breakpoint 2, in_kid (a=0x28) at "
	[ "$(grep -c '^[* ] *[0-9][0-9]* *Thread ' c3.out)" -eq 2 ] || { cat c3.out; fail "info threads at in_kid: not 2 threads"; }
	expect c3.out "^  *[0-9]* *Thread [0-9]* (slot 1, the thread that forked, blocked in syscall 202) "
	expect c3.out "^\* *[0-9]* *Thread [0-9]* (slot 2, born at syscall [0-9]*, running)  *in_kid "
	expect c4.out "hit Breakpoint 1, in_child (v=3) at "
	# back: the same stops in reverse order, each thread selected
	expect rc1.out "hit Breakpoint 2, in_kid (a=0x28) at "
	expect rc1.out "^\* *[0-9]* *Thread [0-9]* (slot 2, born at syscall [0-9]*, running)  *in_kid "
	expect rc2.out "hit Breakpoint 1, in_child (v=2) at "
	expect rc2.out "^\* *[0-9]* *Thread [0-9]* (slot 1, the thread that forked, running)  *in_child "
	expect rc3.out "hit Breakpoint 1, in_child (v=1) at "
	[ "$(grep -c '^[* ] *[0-9][0-9]* *Thread ' rc3.out)" -eq 1 ] || { cat rc3.out; fail "info threads back at in_child(1): not 1 thread"; }
	# before the first: the start of the child's history
	expect rc4.out "No more reverse-execution history"
	expect end.out "exited with code 07"
	;;
watch)
	# Three workers write `shared` in turns (progs/thwatch.c: 1, 2, 3,
	# 11, ...), each write in an interval of its own.  watch + continue
	# stops after each write in the thread that made it (the shadow
	# pages, or the debug registers, see every thread's); reverse-continue
	# goes back through the same writes in reverse order, each stop before
	# its write in its thread (gdb: the value going back to the one
	# before), the last one back at main's breakpoint.  Then
	# reverse-stepi back across a boundary in a worker.
	command -v gdb > /dev/null || fail "gdb is not installed"
	printf '%s\n' 'break main' continue 'watch shared' \
		'echo gdb: f1\n' continue 'info threads' 'echo gdb: f2\n' continue 'info threads' \
		'echo gdb: f3\n' continue 'info threads' 'echo gdb: f4\n' continue 'info threads' \
		'echo gdb: b4\n' reverse-continue 'info threads' 'echo gdb: b3\n' reverse-continue \
		'info threads' 'echo gdb: b2\n' reverse-continue 'info threads' \
		'echo gdb: b1\n' reverse-continue 'info threads' 'echo gdb: b0\n' reverse-continue \
		'echo gdb: end\n' delete continue > s.gdb
	timeout 300 "$RDB" replay --gdb-batch s.gdb t > s.out 2>&1 || { cat s.out; fail "replay --gdb-batch"; }
	! grep -q "rdb: gdb server\|Couldn't\|Cannot\|Traceback\|unreadable" s.out || { cat s.out; fail "gdb or the server failed"; }
	for p in f1 f2 f3 f4 b4 b3 b2 b1 b0 end; do
		sed -n "/^gdb: $p\$/,/^gdb: /p" s.out > $p.out
	done
	# writer: FILE OLD NEW SLOT: the stop's values, and the thread
	# selected is the worker of that slot, in worker (a=SLOT)
	writer() {
		expect $1.out "^Old value = $2\$"
		expect $1.out "^New value = $3\$"
		expect $1.out "^\* *[0-9]* *Thread [0-9]* (slot $4, born at syscall [0-9]*, running)  *\(0x[0-9a-f]* in \)\?worker (a=0x$4) at "
	}
	writer f1 0 1 1
	writer f2 1 2 2
	writer f3 2 3 3
	writer f4 3 11 1
	# back: before each write, the value the one before it left
	writer b4 11 3 1
	writer b3 3 2 3
	writer b2 2 1 2
	writer b1 1 0 1
	expect b0.out "Breakpoint 1, main () at "
	expect end.out "exited normally"
	# reverse-stepi across a boundary in a worker: interval 2 begins in
	# alpha's spin (the boundary's holder, slot 1); one step back is the
	# last position of interval 1 in that thread, stepi comes back
	printf '%s\n' 'monitor where' 'info threads' 'echo gdb: back\n' reverse-stepi 'monitor where' \
		'info threads' 'echo gdb: on\n' stepi 'monitor where' 'echo gdb: end\n' > r.gdb
	timeout 300 "$RDB" replay --from 2 --gdb-batch r.gdb t > r.out 2>&1 || { cat r.out; fail "replay --from 2 --gdb-batch"; }
	! grep -q "rdb: gdb server\|Couldn't\|Cannot\|Traceback" r.out || { cat r.out; fail "gdb or the server failed (reverse-stepi)"; }
	expect r.out "^\* *[0-9]* *Thread [0-9]* (slot 1, born at syscall [0-9]*, running) .* in spin "
	sed -n '/^gdb: back$/,/^gdb: on$/p' r.out > rb.out
	sed -n '/^gdb: on$/,/^gdb: end$/p' r.out > ro.out
	start=$(sed -n 's/^interval 2 count 0 pc \(0x[0-9a-f]*\)$/\1/p' r.out | head -n 1)
	[ -n "$start" ] || { cat r.out; fail "the replay from 2 is not at interval 2's count 0"; }
	expect rb.out "^interval 1 count [0-9]* pc 0x[0-9a-f]*\$"
	expect rb.out "^\* *[0-9]* *Thread [0-9]* (slot 1, born at syscall [0-9]*, running) .* in spin "
	expect ro.out "^interval 2 count 0 pc $start\$"
	;;
bpwatch)
	# A breakpoint on the instruction after a watched write, where the
	# watchpoint's stop is (progs/thbpwatch.c: put() writes `shared`,
	# called by three workers one after the other, 1, 2, 3, then 4 by the
	# third in the interval of 3): going back, reverse-continue stops at
	# that breakpoint first (after the write, the value still the new
	# one), then before the write (the watchpoint, the value going back),
	# in the thread that wrote, as it does in the same program's recording
	# without threads (`thbpwatch one`: main makes the calls), which this
	# one is compared with.  From 4's stop, 3's breakpoint is in the
	# interval of here; 2's and 1's are in intervals before.
	command -v gdb > /dev/null || fail "gdb is not installed"
	# batch SCRIPT TRACE OUT LABEL: gdb runs SCRIPT on a replay of TRACE,
	# and neither it nor rdb's server says it failed
	batch() {
		timeout 300 "$RDB" replay --gdb-batch "$1" "$2" > "$3" 2>&1 || { cat "$3"; fail "replay --gdb-batch ($4)"; }
		! grep -q "rdb: gdb server\|Couldn't\|Cannot\|Traceback" "$3" || { cat "$3"; fail "gdb or the server failed ($4)"; }
	}
	"$RDB" record --every-sic $every -o one -- ./prog one > rec1.out 2>&1 || { cat rec1.out; fail "record (one)"; }
	{ printf '%s\n' 'break main' continue 'printf "gdb: stop %ld\n", shared' 'watch shared' \
		continue 'printf "gdb: stop %ld\n", shared' 'break *$pc' \
		continue 'printf "gdb: stop %ld\n", shared' continue 'printf "gdb: stop %ld\n", shared' \
		continue 'printf "gdb: stop %ld\n", shared' 'echo gdb: back\n'
	  for i in 1 2 3 4 5 6 7 8; do printf '%s\n' reverse-continue 'monitor where' 'printf "gdb: stop %ld\n", shared'; done
	  printf '%s\n' 'echo gdb: end\n'; } > s.gdb
	# a stop: M (main's breakpoint), W (the watchpoint, OLD>NEW), B (the
	# breakpoint after the write), put's argument (which worker's call)
	# and the value of `shared` there
	stops() { awk '/^Breakpoint 1, main|hit Breakpoint 1, main/ { k = k "M" }
	               /Hardware watchpoint 2: shared$/ { if (k !~ /W/) k = k "W" }
	               /^Old value = / { o = $4 } /^New value = / { v = o ">" $4 }
	               /Breakpoint 3, / { k = k "B" }
	               match($0, /put \(v=[0-9]+\)/) { a = "(" substr($0, RSTART + 7, RLENGTH - 8) ")" }
	               /^gdb: stop / { printf "%s%s%s=%s ", k, v, a, $3; k = v = a = "" }'; }
	for r in t one; do
		batch s.gdb $r $r.out "$r"
		sed '/^gdb: back$/q' $r.out | stops > $r.fw
		sed -n '/^gdb: back$/,$p' $r.out | stops > $r.bw
	done
	want_f="M=0 W0>1(1)=1 WB1>2(2)=2 WB2>3(3)=3 WB3>4(4)=4 "
	want_b="W4>3(4)=3 B(3)=3 W3>2(3)=2 B(2)=2 W2>1(2)=1 B(1)=1 W1>0(1)=0 M=0 "
	for r in one t; do
		[ "$(cat $r.fw)" = "$want_f" ] || { cat $r.out; fail "$r: forward stops: '$(cat $r.fw)', not '$want_f'"; }
		[ "$(cat $r.bw)" = "$want_b" ] || { cat $r.out; fail "$r: backward stops: '$(cat $r.bw)', not '$want_b'"; }
	done
	# t has threads: each stop in put names its writer's thread
	[ "$(grep -c "^Thread [0-9]* hit Breakpoint 3, put (v=" t.out)" -eq 6 ] || { cat t.out; fail "t: the breakpoint's stops do not name a thread"; }
	# the intervals of the stops back: 4's and 3's breakpoint in one, 2's
	# breakpoint in one before
	sed -n '/^gdb: back$/,$s/^interval \([0-9]*\) count .*/\1/p' t.out | tr '\n' ' ' > iv
	set -- $(cat iv)
	[ $# -eq 8 ] && [ "$1" -eq "$2" ] && [ "$4" -lt "$3" ] || { cat t.out; fail "t: the stops back are not in the intervals wanted ($(cat iv))"; }
	# The same writes in one interval (-i 0), watch and continue: each
	# worker is made in the slot the one before left, its stack where
	# that one's was, so 2's stop is at the position (interval, count,
	# pc, %rsp, slot) 1's was at; gdb's memory read there is read again
	# (it was 1's answer, kept for the position: gdb saw no change and
	# went on to 4, "Old value = 1").
	# (2's thread is made in 1's slot unless 1's is not free yet, about
	# one recording in twenty: recorded again then)
	for try in 1 2 3 4 5 6 7 8; do
		rm -rf big
		"$RDB" record -i 0 -o big -- ./prog > rec2.out 2>&1 || { cat rec2.out; fail "record -i 0"; }
		"$RDB" truss big > truss.out 2>&1 || { cat truss.out; fail "truss (-i 0)"; }
		slots=$(sed -n 's/^--- thread 0 creates thread \([0-9]*\) ---$/\1/p' truss.out | head -n 2 | tr '\n' ' ')
		[ "$slots" = "1 1 " ] && break
	done
	[ "$slots" = "1 1 " ] || { cat truss.out; fail "-i 0: 8 recordings, 1's and 2's threads never in one slot ($slots)"; }
	{ printf '%s\n' 'break main' continue 'printf "gdb: stop %ld\n", shared' 'watch shared'
	  for i in 1 2 3 4; do printf '%s\n' continue 'monitor where' 'printf "gdb: sp %#lx\n", $sp' \
		'printf "gdb: stop %ld\n", shared'; done; } > big.gdb
	batch big.gdb big big.out "-i 0"
	want="M=0 W0>1(1)=1 W1>2(2)=2 W2>3(3)=3 W3>4(4)=4 "
	[ "$(stops < big.out)" = "$want" ] || { cat big.out; fail "-i 0: stops '$(stops < big.out)', not '$want'"; }
	grep '^interval 1 count\|^gdb: sp ' big.out | paste -d ' ' - - > pos
	[ "$(wc -l < pos)" -eq 4 ] && [ "$(sed -n 1p pos)" = "$(sed -n 2p pos)" ] ||
		{ cat big.out; fail "-i 0: the first two writes' stops are not at one position (the case is not made)"; }
	# Back on that recording, with a breakpoint at put's first line too:
	# reverse-continue to each write's stop (before it) and each
	# breakpoint stop, and a reverse-stepi at 2's, in 2's thread, at the
	# very position 1's thread was at; each stop in the thread that made
	# the call (its id, rdb's name by slot and birth, as forward), put's
	# argument its own (1's thread was gone to: "W2>1(1)", or "cannot
	# step back" when the position was not reached again).
	{ printf '%s\n' 'break main' continue thread 'printf "gdb: stop %ld\n", shared' 'watch shared'
	  for i in 1 2 3 4; do printf '%s\n' continue thread 'printf "gdb: stop %ld\n", shared'; done
	  printf '%s\n' 'echo gdb: back\n' 'break put'
	  for i in W4 B4 W3 B3 W2 R2 B2 R2 W1 B1 M; do
		case $i in
		R*) printf '%s\n' reverse-stepi 'monitor where' thread 'printf "gdb: rsi v=%ld\n", $rdi' ;;
		*) printf '%s\n' reverse-continue 'monitor where' thread ;;
		esac
		printf '%s\n' 'printf "gdb: stop %ld\n", shared'
	  done; } > bigback.gdb
	batch bigback.gdb big bigback.out "-i 0, back"
	# a stop: its kind (W, B, R for a reverse-stepi, M), put's argument,
	# the value of `shared`, the thread selected (gdb's `thread`)
	tstops() { awk '/^Breakpoint 1, main|hit Breakpoint 1, main/ { k = "M" }
	                /Hardware watchpoint 2: shared$/ { k = "W" } /Breakpoint 3, / { k = "B" }
	                /^gdb: rsi v=/ { k = "R"; a = "(" substr($3, 3) ")" }
	                match($0, /put \(v=[0-9]+\)/) { a = "(" substr($0, RSTART + 7, RLENGTH - 8) ")" }
	                /^\[Current thread is / { th = $6; gsub(/[^0-9]/, "", th) }
	                /^gdb: stop / { printf "%s%s=%s@%s ", k, a, $3, th; k = a = "" }'; }
	sed '/^gdb: back$/q' bigback.out | tstops > bigback.fw
	sed -n '/^gdb: back$/,$p' bigback.out | tstops > bigback.bw
	# main's thread, then those of 1, 2, 3 and 4, from the stops forward
	set -- $(sed 's/[^ ]*@//g' bigback.fw)
	[ $# -eq 5 ] && [ "$2" != "$3" ] && [ $(($2 % 10000)) -eq $(($3 % 10000)) ] ||
		{ cat bigback.out; fail "-i 0: 1's and 2's threads are not two of one slot ($(cat bigback.fw))"; }
	want="W(4)=3@$4 B(4)=3@$4 W(3)=2@$4 B(3)=2@$4 W(2)=1@$3 R(2)=1@$3 B(2)=1@$3 R(2)=1@$3 W(1)=0@$2 B(1)=0@$2 M=0@$1 "
	[ "$(cat bigback.bw)" = "$want" ] || { cat bigback.out; fail "-i 0: back: '$(cat bigback.bw)', not '$want'"; }
	# 2's stops back are where 1's are
	sed -n '/^gdb: back$/,$s/^interval /&/p' bigback.out > wback
	[ "$(sed -n 5p wback)" = "$(sed -n 9p wback)" ] && [ "$(sed -n 7p wback)" = "$(sed -n 10p wback)" ] ||
		{ cat bigback.out; fail "-i 0: back: 2's stops are not at 1's positions (the case is not made)"; }
	;;
*)
	fail "unknown case $case"
	;;
esac
status=0
