#!/bin/sh
# threads.sh: gdb's view of threads on a replay, and rdb flowback naming
# the writing thread, on progs/threads.c (three workers and main, four
# threads alive at each worker's turn; docs/gdb.md "Threads").
#   threads.sh RDB RDB_CC gdb|flowback
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
"$RDB_CC" -O0 -g "$SRC/threads.c" -o prog -lpthread 2>cc.err ||
	{ status=77; echo "SKIP: rdb-cc cannot build threads.c (instrumented musl built?)"; cat cc.err; exit 77; }
./prog > native.out || fail "prog"
"$RDB" record -o t -- ./prog > rec.out 2>&1 || { cat rec.out; fail "record"; }
cmp -s native.out rec.out || { cat native.out rec.out; fail "the recording's output"; }
line() { grep -n "$1" "$SRC/threads.c" | head -n 1 | cut -d: -f1; }

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
*)
	fail "unknown case $case"
	;;
esac
status=0
