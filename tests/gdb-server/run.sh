#!/bin/sh
# run.sh: rdb as gdb's target (rdb/gdbserver.c and its parts), in
# scripted gdb sessions on small programs of progs/.
#   run.sh RDB RDB_CC CASE
# CASE: forward | stepback | stepback-intervals | revcont | revstep |
#       gdbserver | garbage | writes | flowback | life | leaks (LEAKS_N: 10000
#       by default) | watch-many | watch-big | watch-stack |
#       watch-stack-pages | watch-stack-sys | rwatch-many | rwatch-stack |
#       break-ran.
# Exit 0 pass, 1 fail, 77 skipped (no instrumented musl yet).
set -u
RDB=$1 RDB_CC=$2 case=$3
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$HERE/progs
W=$(mktemp -d "${TMPDIR:-/tmp}/rdb-gdbserver.XXXXXX")
status=1
trap 'if [ $status -eq 0 ] || [ $status -eq 77 ]; then rm -rf "$W"; else echo "work folder kept: $W" >&2; fi' EXIT
fail() { echo "FAIL ($case): $*" >&2; status=1; exit 1; }
cd "$W" || exit 1
command -v gdb > /dev/null || fail "gdb is not installed (scripts/setup-debian.sh installs it)"
build() { "$RDB_CC" "${3:--O0}" -g "$SRC/$1.c" -o "$2" 2>cc.err || { status=77; echo "SKIP: rdb-cc cannot build $1 (instrumented musl built?)"; cat cc.err; exit 77; }; }
expect() { grep -q -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "no '$2' in $1"; }; }
# Where the debug registers do not fire (some virtual machines grant them
# and never trigger), rdb's server watches writes through the shadow pages
# (docs/gdb.md), and a write watch on the stack through the program's own
# page (stores through %rsp have no hook).
case $case in
watch-* | rwatch-*)
	cc -O1 -o hwbp "$HERE/../hwbp-probe.c" 2> hwbp.err || { cat hwbp.err; fail "cc hwbp-probe.c"; }
	if ! ./hwbp > hwbp.out 2>&1; then
		cat hwbp.out
		echo "the debug registers do not fire here: watchpoints through the shadow pages"
		nohw=1
	fi ;;
esac
# session FILE.gdb OUT [ARGS...]: rdb replay --gdb-batch FILE ARGS
session() { s=$1 o=$2; shift 2; timeout "${session_s:-300}" "$RDB" replay --gdb-batch "$s" "$@" > "$o" 2>&1; }
# clean OUT: no stop gdb should not have made, no runtime frame
clean() {
	! grep -q "SIGSEGV\|?? ()\|Couldn't write\|Cannot find bounds\|rdb: gdb server\|Traceback\|Error" "$1" ||
		{ cat "$1"; fail "gdb stopped where it should not, or failed: $1"; }
	! grep "^0x\|^[a-z_]* (.*) at " "$1" | grep -q "rdb_\|__rdb" ||
		{ cat "$1"; fail "a stop in the runtime: $1"; }
}
# no_orphans PROG: no process runs ./PROG (a name unique to this test)
# or has this work folder in its arguments (rdb, its feeder)
no_orphans() {
	sleep 0.2
	! ps -eo pid,args | grep -v grep | grep -q "\./$1\$\|$W" ||
		{ ps -eo pid,ppid,args | grep "$1\|$W"; fail "a process of $1 is left"; }
}

case $case in
forward)
	# breakpoints, continue, next, step, finish, a signal reported once,
	# backtrace in the handler, the program's output and exit status
	build steps prog
	./prog > native.out || fail "prog"
	"$RDB" record -o t -- ./prog > rec.out 2>&1 || fail "record"
	printf '%s\n' 'info registers rip' 'break work' continue bt 'printf "gdb: n %d\n", n' \
		finish next step 'break on_usr1' continue bt 'printf "gdb: sig %d\n", sig' \
		'break copy' continue finish 'printf "gdb: dst %s\n", dst' 'monitor where' \
		'delete' continue > f.gdb
	session f.gdb f.out t || { cat f.out; fail "replay --gdb-batch"; }
	clean f.out
	expect f.out "in __musl_start ()"
	expect f.out "^Breakpoint 1, work (n=5) at "
	expect f.out "^#1  0x[0-9a-f]* in main () at "
	expect f.out "^gdb: n 5\$"
	expect f.out "^Value returned is \$1 = 50\$"
	expect f.out "^Program received signal SIGUSR1"
	[ "$(grep -c "received signal SIGUSR1" f.out)" -eq 1 ] || { cat f.out; fail "SIGUSR1 reported more than once"; }
	expect f.out "^Breakpoint 2, on_usr1 (sig=10) at "
	expect f.out "<signal handler called>"
	expect f.out "^gdb: sig 10\$"
	expect f.out "^gdb: dst the quick brown fox\$"
	expect f.out "^interval 1 count [0-9]* pc 0x"
	expect f.out "exited normally"
	grep -q "^total 60 the quick brown fox\$" f.out || { cat f.out; fail "the replay's output"; }
	# from the middle: --every-sic makes intervals
	"$RDB" record --every-sic 40 -o m -- ./prog > rec.out 2>&1 || fail "record --every-sic"
	printf '%s\n' 'break main' continue 'break copy' continue 'printf "gdb: copy\n"' \
		continue > m.gdb
	k=$(( $("$RDB" info --complete m) / 2 ))
	[ "$k" -ge 2 ] || fail "too few intervals"
	session m.gdb m.out --from "$k" m || { cat m.out; fail "replay --gdb-batch --from $k"; }
	clean m.out
	;;
stepback | stepback-intervals)
	# stepi forward N times, then reverse-stepi N times: the same
	# registers at every stop, back through calls into the runtime
	# (syscalls), a signal handler, rep movsb, setjmp/longjmp, printf;
	# with --every-sic 50, across interval boundaries too
	build steps prog
	if [ "$case" = stepback ]; then
		"$RDB" record -o t -- ./prog > rec.out 2>&1 || fail "record"
		n=1200
	else
		"$RDB" record --every-sic 50 -o t -- ./prog > rec.out 2>&1 || fail "record"
		[ "$("$RDB" info --complete t)" -ge 20 ] || fail "too few intervals"
		n=1200
	fi
	printf '%s\n' 'break main' continue "set \$n = $n" "source $HERE/stepback.py" > sb.gdb
	session sb.gdb sb.out t || { cat sb.out; fail "replay --gdb-batch"; }
	expect sb.out "^rdb-test: $n steps back and forth: the same registers\$"
	for f in on_usr1 copy longjmp getpid printf_core; do
		expect sb.out "^rdb-test: functions stepped: .* $f"
	done
	;;
revcont)
	# reverse-continue from the 5th hit of a breakpoint: the 4th, 3rd,
	# 2nd, 1st (intervals apart), then the start of history; continue
	# goes forward again
	build hits prog
	"$RDB" record --every-sic 3000 -o t -- ./prog > rec.out 2>&1 || fail "record"
	[ "$("$RDB" info --complete t)" -ge 10 ] || fail "too few intervals"
	{ printf '%s\n' 'break hit' continue continue continue continue continue \
		'printf "gdb: at %d\n", n' 'monitor where'
	  for i in 1 2 3 4; do printf '%s\n' reverse-continue 'printf "gdb: back %d\n", n' 'monitor where'; done
	  printf '%s\n' reverse-continue 'monitor where' continue 'printf "gdb: on %d\n", n' \
		continue 'printf "gdb: on %d\n", n'; } > rc.gdb
	session rc.gdb rc.out t || { cat rc.out; fail "replay --gdb-batch"; }
	clean rc.out
	expect rc.out "^gdb: at 5\$"
	[ "$(sed -n 's/^gdb: back //p' rc.out | tr '\n' ' ')" = "4 3 2 1 " ] ||
		{ cat rc.out; fail "reverse-continue from the 5th hit: not 4 3 2 1"; }
	expect rc.out "^No more reverse-execution history."
	[ "$(sed -n 's/^gdb: on //p' rc.out | tr '\n' ' ')" = "1 2 " ] ||
		{ cat rc.out; fail "continue after going back: not 1, 2"; }
	# the hits are in different intervals, going down
	sed -n 's/^interval \([0-9]*\) count .*/\1/p' rc.out > iv
	[ "$(sed -n 1p iv)" -gt "$(sed -n 5p iv)" ] || { cat rc.out; fail "the 1st hit is not in an earlier interval"; }
	expect rc.out "^interval 1 count 0 pc "
	# all in one interval: the last hit before here, not the first
	"$RDB" record -i 0 -o one -- ./prog > rec1.out 2>&1 || fail "record -i 0"
	session rc.gdb r1.out one || { cat r1.out; fail "replay --gdb-batch (one interval)"; }
	clean r1.out
	[ "$(sed -n 's/^gdb: back //p' r1.out | tr '\n' ' ')" = "4 3 2 1 " ] ||
		{ cat r1.out; fail "reverse-continue in one interval: not 4 3 2 1"; }
	[ "$(sed -n 's/^gdb: on //p' r1.out | tr '\n' ' ')" = "1 2 " ] ||
		{ cat r1.out; fail "continue after going back (one interval): not 1, 2"; }
	;;
revstep)
	# reverse-next, reverse-step and reverse-finish: the lines next and
	# step went through, in the reverse order
	build hits prog
	"$RDB" record --every-sic 3000 -o t -- ./prog > rec.out 2>&1 || fail "record"
	{ printf '%s\n' 'break hit if n == 3' continue finish
	  for i in 1 2 3 4 5 6 7 8; do echo next; done
	  for i in 1 2 3 4 5 6 7 8; do echo reverse-next; done
	  printf '%s\n' reverse-step reverse-step 'printf "gdb: in hit %d\n", n' reverse-finish; } > rs.gdb
	session rs.gdb rs.out t || { cat rs.out; fail "replay --gdb-batch"; }
	clean rs.out
	# the line numbers printed at each stop: the breakpoint's, finish's,
	# 8 nexts', 8 reverse-nexts'.  Reverse-next i stops where next 8 - i
	# did, the 8th where finish did.
	grep "^[0-9][0-9]*	" rs.out | cut -f1 > lines
	sed -n 3,10p lines > fw
	sed -n 11,18p lines > bw
	{ head -n 7 fw | tac; sed -n 2p lines; } > want
	{ cat fw; echo --; cat bw; } > both
	[ "$(wc -l < fw)" -eq 8 ] && cmp -s want bw || { cat rs.out both; fail "reverse-next: not next's lines backwards"; }
	expect rs.out "^gdb: in hit 3\$"
	# reverse-finish runs back into hit's breakpoint (the call's start)
	[ "$(grep -c '^Breakpoint 1, hit (n=3)' rs.out)" -eq 2 ] || { cat rs.out; fail "reverse-finish"; }
	;;
gdbserver)
	# rdb replay --gdbserver waits; a gdb started apart connects
	p=gs$$prog
	build steps $p
	"$RDB" record -o "$W/t" -- ./$p > rec.out 2>&1 || fail "record"
	"$RDB" replay --gdbserver 127.0.0.1:0 "$W/t" > srv.out 2> srv.err &
	srv=$!
	i=0
	while ! grep -qs "waiting for gdb on" srv.err && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	port=$(sed -n 's/^rdb: waiting for gdb on 127.0.0.1:\([0-9]*\) .*/\1/p' srv.err)
	[ -n "$port" ] || { cat srv.err; kill $srv; fail "no port"; }
	timeout 120 gdb -q -batch -ex "target extended-remote 127.0.0.1:$port" -ex 'break work' \
		-ex continue -ex 'printf "gdb: n %d\n", n' -ex reverse-stepi -ex 'monitor where' \
		-ex continue ./$p > g.out 2>&1
	wait $srv; s=$?
	[ $s -eq 0 ] || { cat g.out srv.err; fail "rdb replay --gdbserver: status $s"; }
	clean g.out
	expect g.out "^gdb: n 5\$"
	expect g.out "^interval 1 count [0-9]* pc 0x"
	no_orphans $p
	;;
garbage)
	# a connection that sends garbage, or ends in the middle of a packet:
	# the session ends with a message, the replay is killed, nothing left
	p=gs$$prog
	build steps $p
	"$RDB" record -o "$W/t" -- ./$p > rec.out 2>&1 || fail "record"
	for what in garbage cut; do
		# (not the last server's srv.err: the new one may not have
		# opened it yet when the loop below reads it)
		rm -f srv.err
		"$RDB" replay --gdbserver 127.0.0.1:0 "$W/t" > srv.out 2> srv.err &
		srv=$!
		i=0
		while ! grep -qs "waiting for gdb on" srv.err && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
		port=$(sed -n 's/^rdb: waiting for gdb on 127.0.0.1:\([0-9]*\) .*/\1/p' srv.err)
		[ -n "$port" ] || { cat srv.err; kill $srv; fail "no port"; }
		if [ $what = garbage ]; then data='$qSupported#37+hello'; else data='$qSupported#37+$m1234,'; fi
		gdb -q -batch -ex "python import socket; s = socket.create_connection(('127.0.0.1', $port)); s.sendall(b'$data'); import time; time.sleep(0.3); s.close()" > c.out 2>&1
		wait $srv; s=$?
		[ $s -eq 125 ] || { cat srv.err c.out; fail "$what: rdb's status $s, not 125"; }
		if [ $what = garbage ]; then
			expect srv.err "gdb sent garbage (byte 0x68 outside a packet)"
		else
			expect srv.err "the connection ended in the middle of a packet"
		fi
		expect srv.err "the replay is killed"
		no_orphans $p
	done
	;;
writes)
	# gdb's writes are refused with an error gdb shows; the replay goes on
	build steps prog
	"$RDB" record -o t -- ./prog > rec.out 2>&1 || fail "record"
	printf '%s\n' 'break work' continue python \
		'for c in ("set var n = 7", "print $rax = 1"):' \
		'    try:' '        gdb.execute(c)' '    except gdb.error as e:' \
		'        print("gdb: error: %s" % e)' end \
		'printf "gdb: n %d\n", n' continue continue > w.gdb
	session w.gdb w.out t
	expect w.out "gdb asked to write memory: refused"
	expect w.out "gdb asked to write registers: refused"
	expect w.out "^gdb: error: Cannot access memory at address 0x"
	expect w.out "^gdb: error: Could not write register"
	expect w.out "^gdb: n 5\$"
	expect w.out "exited normally"
	;;
flowback)
	# monitor flowback ADDRESS [SIZE]: the last write before here, in
	# this interval (a write in the current count before here, not one
	# after it) or before it; bad input ends no session
	build steps prog
	"$RDB" record -o t -- ./prog > rec.out 2>&1 || fail "record"
	rep=$(grep -n 'rep movsb' "$SRC/steps.c" | cut -d: -f1)
	sig=$(grep -n 'got += sig' "$SRC/steps.c" | cut -d: -f1)
	printf '%s\n' 'handle SIGUSR1 nostop noprint pass' 'break work' continue \
		'monitor flowback got' 'break steps.c:22' continue next \
		'echo gdb: s\n' 'eval "monitor flowback %p 4", &s' \
		delete 'break steps.c:46' continue 'echo gdb: got\n' 'monitor flowback got' \
		'echo gdb: dst\n' 'monitor flowback dst 20' 'monitor flowback nosuchsym' \
		'monitor where' 'info record' 'monitor info' > fb.gdb
	session fb.gdb fb.out t || { cat fb.out; fail "replay --gdb-batch"; }
	# before the signal: got never written
	expect fb.out "^got (0x[0-9a-f]*, 4 bytes), before interval 1 count [0-9]* pc 0x"
	sed -n '/^got (/,/^Breakpoint 2,/p' fb.out | grep -q "not written since the program started" ||
		{ cat fb.out; fail "got before the signal: not 'not written'"; }
	# s in the loop's first round, after i++: line 22's write, in this count
	sed -n '/^gdb: s$/,/^Breakpoint 3,/p' fb.out > s.out
	expect s.out "by:  *work+0x[0-9a-f]* (.*steps.c:22)"
	c=$(sed -n 's/.*, before interval 1 count \([0-9]*\) pc .*/\1/p' s.out)
	expect s.out "when:  *interval 1, SIC count $c "
	sed -n '/^gdb: got$/,/^gdb: dst$/p' fb.out > got.out
	expect got.out "by:  *on_usr1+0x[0-9a-f]* (.*steps.c:$sig)"
	sed -n '/^gdb: dst$/,$p' fb.out > dst.out
	expect dst.out "by:  *copy+0x[0-9a-f]* (.*steps.c:$rep)"
	expect fb.out "no symbol 'nosuchsym' in the recorded executable"
	expect fb.out "^interval 1 count [0-9]* pc 0x"
	# gdb asks no remote target for `info record` (docs/gdb.md): monitor info
	expect fb.out "^No recording is currently active."
	expect fb.out "^intervals: 1 complete"
	expect fb.out "^now: interval 1 count [0-9]* pc 0x"
	expect fb.out "^checkpoints: [0-9]"
	;;
life)
	# reverse-next over a call of a function called a million times
	# (examples/life.c's neighbours, at the end of an interval): gdb then
	# reverse-continues to a breakpoint at the callee's start, which a
	# replay from the interval's start would hit at every call.  Each
	# command must return within seconds, at the lines going forward
	# passed through.
	"$RDB_CC" -O0 -g "$HERE/../../examples/life.c" -o life 2> cc.err ||
		{ status=77; echo "SKIP: rdb-cc cannot build life.c"; cat cc.err; exit 77; }
	"$RDB" record -o t -- ./life 3000 > rec.out 2>&1 || fail "record"
	{ printf '%s\n' "source $HERE/timed.py" 'break show' continue delete 'break life.c:41' \
		'timed 20 reverse-continue' delete
	  for c in reverse-next reverse-next reverse-next reverse-next reverse-step \
		reverse-finish reverse-next reverse-next reverse-next reverse-next reverse-next; do
		echo "timed 5 $c"; done; } > life.gdb
	session life.gdb life.out t || { tail -20 life.out; fail "replay --gdb-batch"; }
	clean life.out
	grep "^rdb-test: " life.out
	! grep -q "^rdb-test: .* took " life.out || { tail -20 life.out; fail "too slow"; }
	[ "$(sed -n 's/^rdb-test: .* -> //p' life.out | tr '\n' ' ')" = \
	  "step:41 step:35 step:36 step:39 step:38 neighbours:30 step:37 step:37 step:36 step:39 step:38 step:37 " ] ||
		{ tail -30 life.out; fail "not the lines expected"; }
	;;
leaks)
	# going back 10,000 times in a row on one replay (leaks.py): no
	# process, open file or memory of rdb's more at the end than after
	# the first thousand
	build steps prog
	"$RDB" record -o t -- ./prog > rec.out 2>&1 || fail "record"
	printf '%s\n' 'break work' continue delete next next "set \$n = ${LEAKS_N:-10000}" \
		"source $HERE/leaks.py" > l.gdb
	# (over 300 s at load 7 on a VM with slow forks: ctest allows 900)
	session_s=800
	session l.gdb l.out t || { tail -20 l.out; fail "replay --gdb-batch"; }
	clean l.out
	grep "^rdb-test: " l.out
	grep -q "^rdb-test: [0-9]* times back: at interval 1 count" l.out &&
		grep -q "^rdb-test: no leak\$" l.out || { tail -20 l.out; fail "leaks"; }
	;;
watch-many | watch-big)
	# more watchpoints than the four debug registers (six longs), or one
	# of 64 bytes (eight pieces): every write stops, forward in the order
	# made, then back in the reverse order, across intervals
	build watches prog
	"$RDB" record --every-sic 3000 -o t -- ./prog > rec.out 2>&1 || fail "record"
	[ "$("$RDB" info --complete t)" -ge 10 ] || fail "too few intervals"
	if [ "$case" = watch-many ]; then
		w='watch a
watch b
watch c
watch d
watch e
watch f'
		n=7 want_f="a b c d e f a " want_b="a f e d c b a " at="a 0 f 0 big 0 0"
	else
		# (a and f: what a replay from the interval has of them)
		w='watch big'
		n=2 want_f="big big " want_b="big big " at="a [0-9]* f [0-9]* big 0 0"
	fi
	{ printf '%s\n' 'break main' continue delete "$w"
	  i=0; while [ $i -lt $n ]; do printf '%s\n' continue 'monitor where'; i=$((i + 1)); done
	  echo 'echo gdb: back\n'
	  i=0; while [ $i -lt $n ]; do printf '%s\n' reverse-continue 'monitor where'; i=$((i + 1)); done
	  printf '%s\n' 'printf "gdb: a %ld f %ld big %ld %ld\n", a, f, big.x[1], big.x[6]'; } > w.gdb
	session w.gdb w.out t || { cat w.out; fail "replay --gdb-batch"; }
	clean w.out
	# a stop: "Hardware watchpoint N: NAME", then its old value
	hits() { awk '/^Hardware watchpoint [0-9]*: / { w = $4 } /^Old value = / { printf "%s ", w }'; }
	sed '/^gdb: back/q' w.out | hits > fw
	sed -n '/^gdb: back/,$p' w.out | hits > bw
	[ "$(cat fw)" = "$want_f" ] || { cat w.out; fail "forward stops: '$(cat fw)', not '$want_f'"; }
	[ "$(cat bw)" = "$want_b" ] || { cat w.out; fail "backward stops: '$(cat bw)', not '$want_b'"; }
	expect w.out "^gdb: $at\$"
	if [ "$case" = watch-big ]; then
		expect w.out "^New value = {x = {0, 0, 0, 0, 0, 0, 7, 0}}\$"
		expect w.out "^New value = {x = {0, 9, 0, 0, 0, 0, 7, 0}}\$"
	fi
	# the stops are intervals apart
	sed -n 's/^interval \([0-9]*\) count .*/\1/p' w.out > iv
	[ "$(sed -n 1p iv)" -lt "$(sed -n ${n}p iv)" ] || { cat w.out; fail "the writes are not in different intervals"; }
	;;
rwatch-many)
	# read and access watchpoints, more than the four debug registers:
	# plain loads of five globals, a rep movsb reading src, a movdqu
	# reading p, memcpy reading msg, an addq to d (read and written by
	# one instruction: one stop); forward in the program's order, then
	# back in the reverse order, across intervals.
	# Without debug registers that fire they need the replays' read
	# hooks: refused, with a message, under RDB_GDB_WATCH=writes.
	build reads prog
	"$RDB" record --every-sic 3000 -o t -- ./prog > rec.out 2>&1 || fail "record"
	[ "$("$RDB" info --complete t)" -ge 10 ] || fail "too few intervals"
	{ printf '%s\n' 'break main' continue delete 'rwatch a' 'rwatch b' 'rwatch c' 'rwatch src[8]' \
		'rwatch p.y' 'rwatch msg[20]' 'awatch d' 'rwatch e'
	  i=0; while [ $i -lt 9 ]; do printf '%s\n' continue 'monitor where'; i=$((i + 1)); done
	  echo 'echo gdb: back\n'
	  i=0; while [ $i -lt 9 ]; do printf '%s\n' reverse-continue 'monitor where'; i=$((i + 1)); done
	  printf '%s\n' 'printf "gdb: d %ld dst %d q %ld msg2 %d\n", d, dst[8], q.y, msg2[20]'; } > w.gdb
	if [ -n "${nohw:-}" ]; then
		RDB_GDB_WATCH=writes session w.gdb refused.out t || { cat refused.out; fail "replay --gdb-batch (refused)"; }
		expect refused.out "rwatch, awatch) need the replay's read hooks, which RDB_GDB_WATCH=writes"
	fi
	session w.gdb w.out t || { cat w.out; fail "replay --gdb-batch"; }
	clean w.out
	# a stop: "Hardware read watchpoint N: NAME" (or access), then its
	# value: "Value = V" for a read, "Old value = V" for a write
	hits() { awk '/^Hardware (read|access \(read\/write\)) watchpoint [0-9]*: / { sub(/^[^:]*: /, ""); w = $0 }
	              /^Value = / && w { printf "%s=%s ", w, $3; w = "" }
	              /^Old value = / && w { printf "%s:%s ", w, $4; w = "" }'; }
	sed '/^gdb: back/q' w.out | hits > fw
	sed -n '/^gdb: back/,$p' w.out | hits > bw
	want_f="a=1 b=2 c=3 src[8]=105 p.y=7 msg[20]=75 d:4 e=5 d=5 "
	want_b="d=5 e=5 d:5 msg[20]=75 p.y=7 src[8]=105 c=3 b=2 a=1 "
	[ "$(cat fw)" = "$want_f" ] || { cat w.out; fail "forward stops: '$(cat fw)', not '$want_f'"; }
	[ "$(cat bw)" = "$want_b" ] || { cat w.out; fail "backward stops: '$(cat bw)', not '$want_b'"; }
	expect w.out "^gdb: d 4 dst 0 q 0 msg2 0\$"
	sed -n 's/^interval \([0-9]*\) count .*/\1/p' w.out > iv
	[ "$(sed -n 1p iv)" -lt "$(sed -n 9p iv)" ] || { cat w.out; fail "the reads are not in different intervals"; }
	;;
rwatch-stack)
	# reads of the stack that no hook sees (-O1): a local of main read
	# through %rsp twice and written once with the value it has (rwatch,
	# then awatch: every access stops, the write too), a saved register's
	# slot read by `pop` and a return address read by `ret`; forward in
	# the program's order, back in the reverse order, across intervals
	build stackreads prog -O1
	"$RDB" record --every-sic 3000 -o t -- ./prog > rec.out 2>&1 || fail "record"
	at() { grep -n "$1" "$SRC/stackreads.c" | cut -d: -f1; }
	st=$(at 'the start') en=$(at 'the end') r1=$(at 'read 1') r2=$(at 'read 2')
	wr=$(at 'written, the same') aw=$(at 'after the write')
	# a stop: "r" (read watchpoint) or "a" (access) or "B" (breakpoint),
	# the value gdb shows ("=V", or ":OLD>NEW"), "@" the line it shows
	# and "/" the instruction there (x/i $pc after each stop)
	stops() { awk '/^Hardware read watchpoint [0-9]*: / { k = "r" } /^Hardware access .* watchpoint [0-9]*: / { k = "a" }
	               /^Breakpoint [0-9]*, / { k = "B"; v = "" }
	               /^Value = / && k { v = "=" $3 } /^Old value = / && k { o = $4 }
	               /^New value = / && k { v = ":" o ">" $4 }
	               /^[0-9]+\t/ && k { printf "%s%s@%s ", k, v, $1; k = ""; v = "" }
	               /^=> / { split($0, f, "\t"); split(f[2], m, " "); printf "/%s ", m[1] }'; }
	for kind in rwatch awatch; do
		# (rwatch: two reads, then the end; awatch: the write between)
		n=3; [ $kind = awatch ] && n=4
		{ printf '%s\n' "break stackreads.c:$st" "break stackreads.c:$en" continue "$kind -l local"
		  i=0; while [ $i -lt $n ]; do printf '%s\n' continue 'monitor where'; i=$((i + 1)); done
		  echo 'echo gdb: back\n'
		  i=0; while [ $i -lt $n ]; do printf '%s\n' reverse-continue 'monitor where'; i=$((i + 1)); done; } > $kind.gdb
		session $kind.gdb $kind.out t || { cat $kind.out; fail "replay --gdb-batch ($kind)"; }
		clean $kind.out
		sed '/^gdb: back/q' $kind.out | stops > fw
		sed -n '/^gdb: back/,$p' $kind.out | stops > bw
		if [ $kind = rwatch ]; then
			want_f="B@$st r=1@$r1 r=1@$r2 B@$en "
			want_b="r=1@$r2 r=1@$r1 B@$st "
		else
			# the write of the same value stops too, after it (on the
			# next line) going forward, before it going back
			want_f="B@$st a=1@$r1 a=1@$aw a=1@$r2 B@$en "
			want_b="a=1@$r2 a=1@$wr a=1@$r1 B@$st "
		fi
		[ "$(cat fw)" = "$want_f" ] || { cat $kind.out; fail "$kind: forward stops: '$(cat fw)', not '$want_f'"; }
		[ "$(cat bw)" = "$want_b" ] || { cat $kind.out; fail "$kind: backward stops: '$(cat bw)', not '$want_b'"; }
		sed -n 's/^interval \([0-9]*\) count .*/\1/p' $kind.out > iv
		[ "$(sed -n 1p iv)" -lt "$(sed -n 2p iv)" ] || { cat $kind.out; fail "$kind: the reads are not in different intervals"; }
	done
	# pop and ret: at work's entry, its saved %rbx's slot (read by its
	# pop) and twice's return address's (read by twice's ret)
	line=$(at "after twice's ret") ret=$(at "^} /. twice's ret") pop=$(at "work's pop") entry=$(at "work's entry")
	printf '%s\n' 'break *work' "break stackreads.c:$en" continue \
		'rwatch -l *(long *)($sp - 8)' 'rwatch -l *(long *)($sp - 16)' \
		continue 'monitor where' 'x/i $pc' 'printf "gdb: pc %ld\n", $pc' \
		continue 'monitor where' 'x/i $pc' continue 'monitor where' 'echo gdb: back\n' \
		reverse-continue 'monitor where' 'x/i $pc' reverse-continue 'monitor where' 'x/i $pc' \
		reverse-continue 'monitor where' > popret.gdb
	session popret.gdb popret.out t || { cat popret.out; fail "replay --gdb-batch (pop, ret)"; }
	clean popret.out
	sed '/^gdb: back/q' popret.out | stops | sed 's/=[0-9]*@/@/g' > fw
	sed -n '/^gdb: back/,$p' popret.out | stops | sed 's/=[0-9]*@/@/g' > bw
	want_f="B@$entry r@$line /add r@$pop /ret B@$en "
	want_b="r@$pop /pop r@$ret /ret B@$entry "
	[ "$(cat fw)" = "$want_f" ] || { cat popret.out; fail "pop, ret: forward stops: '$(cat fw)', not '$want_f'"; }
	[ "$(cat bw)" = "$want_b" ] || { cat popret.out; fail "pop, ret: backward stops: '$(cat bw)', not '$want_b'"; }
	# the ret read its return address: where it stopped
	back=$(sed -n 's/^gdb: pc //p' popret.out)
	[ -n "$back" ] && grep -q "^Value = $back\$" popret.out || { cat popret.out; fail "pop, ret: the return address read is not $back"; }
	sed -n 's/^interval \([0-9]*\) count .*/\1/p' popret.out > iv
	[ "$(sed -n 6p iv)" -lt "$(sed -n 5p iv)" ] || { cat popret.out; fail "pop, ret: work's entry and twice's ret are not in different intervals"; }
	;;
watch-stack)
	# a local written through %rsp (no hook: the trace's WRITTEN records
	# do not have it), intervals back: reverse-continue finds it (-l: gdb
	# sets no scope breakpoint, so intervals may be left out by the trace)
	build watches prog
	"$RDB" record --every-sic 3000 -o t -- ./prog > rec.out 2>&1 || fail "record"
	line=$(grep -n 'big.x\[1\] = 9;' "$SRC/watches.c" | cut -d: -f1)
	printf '%s\n' "break watches.c:$line" continue delete 'monitor where' 'watch -l local' \
		reverse-continue 'monitor where' 'printf "gdb: local %ld\n", local' > w.gdb
	session w.gdb w.out t || { cat w.out; fail "replay --gdb-batch"; }
	clean w.out
	expect w.out "^Old value = 8\$"
	expect w.out "^New value = 1\$"
	expect w.out "^gdb: local 1\$"
	sed -n 's/^interval \([0-9]*\) count .*/\1/p' w.out > iv
	[ "$(sed -n 2p iv)" -le "$(($(sed -n 1p iv) - 2))" ] || { cat w.out; fail "the write is not 2 intervals back or more"; }
	;;
watch-stack-sys)
	# a local buffer written by a syscall (the runtime copies read(2)'s
	# recorded bytes in) and by libc's memset, in intervals apart: the
	# write watchpoint stops after each going forward (the syscall's at
	# the first program instruction after it) and before each going back
	build stacksys prog
	"$RDB" record --every-sic 1500 -o t -- ./prog > rec.out 2>&1 || fail "record"
	st=$(grep -n 'the start' "$SRC/stacksys.c" | cut -d: -f1)
	en=$(grep -n 'the end' "$SRC/stacksys.c" | cut -d: -f1)
	printf '%s\n' "break stacksys.c:$st" continue delete 'watch -l buf[4]' \
		continue 'monitor where' bt continue 'monitor where' bt > f.gdb
	session f.gdb f.out t || { cat f.out; fail "replay --gdb-batch (forward)"; }
	clean f.out
	# (the hits: old and new value pairs, and the function that wrote)
	hits() { awk '/^Old value = / { o = $4 } /^New value = / { printf "%s>%s ", o, $4 }
	              /^#[0-9] .* in (read|memset) / { printf "%s ", $4 }'; }
	want="0>101 read 101>120 memset "
	[ "$(hits < f.out)" = "$want" ] || { cat f.out; fail "forward stops: '$(hits < f.out)', not '$want'"; }
	printf '%s\n' "break stacksys.c:$en" continue delete 'watch -l buf[4]' \
		reverse-continue 'monitor where' bt 'frame function main' 'printf "gdb: buf[4] %d\n", buf[4]' \
		reverse-continue 'monitor where' bt 'frame function main' 'printf "gdb: buf[4] %d\n", buf[4]' > b.gdb
	session b.gdb b.out t || { cat b.out; fail "replay --gdb-batch (back)"; }
	clean b.out
	want="120>101 memset 101>0 read "
	[ "$(hits < b.out)" = "$want" ] || { cat b.out; fail "backward stops: '$(hits < b.out)', not '$want'"; }
	[ "$(grep '^gdb: ' b.out | tr '\n' ' ')" = "gdb: buf[4] 101 gdb: buf[4] 0 " ] ||
		{ cat b.out; fail "the values before the writes going back"; }
	for o in f b; do
		sed -n 's/^interval \([0-9]*\) count .*/\1/p' $o.out > iv$o
		[ "$(sed -n 1p iv$o)" != "$(sed -n 2p iv$o)" ] || { cat $o.out; fail "the writes are not in different intervals ($o)"; }
	done
	;;
break-ran)
	# reverse-continue to a breakpoint in a function run only at the
	# start (ranbreak.c's early), and to one on a line run once after a
	# call that lasted several intervals returned (phase's: only the
	# return point's RAN record says phase ran there), leaves out the
	# intervals whose RAN records hold none of the function's code and
	# whose start is not in it and whose saved stack holds no return
	# address into it (spin's line: after each call of chunk, over many
	# intervals that begin in chunk, where spin is only resumed), and
	# stops where a full replay (RDB_GDB_RAN=0, which leaves none out)
	# stops
	build ranbreak prog
	"$RDB" record --every-sic 20000 -o t -- ./prog > rec.out 2>&1 || fail "record"
	expect rec.out '^ranbreak '
	end=$(grep -n 'the end' "$SRC/ranbreak.c" | cut -d: -f1)
	for fn in early phase spin; do
		line=$(grep -n "$fn's line" "$SRC/ranbreak.c" | cut -d: -f1)
		# (spin's k: the last of its loop; sink, a global only written,
		# which the interval replayed there neither reads nor writes
		# before the stop: its value comes from an earlier interval's,
		# docs/gdb.md "Memory after going back")
		last='printf "gdb: sink %ld\n", sink'
		[ $fn = spin ] && last='printf "gdb: k %ld sink %ld\n", k, sink'
		printf '%s\n' "break ranbreak.c:$end" continue delete "break ranbreak.c:$line" \
			reverse-continue 'monitor where' 'monitor info' "$last" bt > $fn.gdb
		for run in 0 1; do
			start=$(date +%s.%N)
			if [ $run = 1 ]; then
				RDB_GDB_RAN=0 session $fn.gdb $fn$run.out t || { cat $fn$run.out; fail "replay --gdb-batch ($fn $run)"; }
			else
				session $fn.gdb $fn$run.out t || { cat $fn$run.out; fail "replay --gdb-batch ($fn $run)"; }
			fi
			echo "$fn run $run: $(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s" >> times
			clean $fn$run.out
			expect $fn$run.out "^[0-9]*	.*$fn's line"
			grep '^interval [0-9]* count' $fn$run.out | tail -n 1 > where$fn$run
			[ -s where$fn$run ] || { cat $fn$run.out; fail "no stop going back ($fn $run)"; }
		done
		cmp -s where${fn}0 where${fn}1 || { cat ${fn}0.out ${fn}1.out; fail "$fn: the stop is not the full replay's: $(cat where${fn}0) / $(cat where${fn}1)"; }
		expect ${fn}1.out "^last reverse-continue: [0-9]* intervals replayed, 0 left out\$"
		grep -H '^last reverse-continue' ${fn}0.out ${fn}1.out
		left=$(sed -n 's/^last reverse-continue: [0-9]* intervals replayed, \([0-9]*\) left out$/\1/p' ${fn}0.out)
		[ "${left:-0}" -ge 5 ] || { cat ${fn}0.out; fail "$fn: only ${left:-0} intervals left out going back"; }
	done
	expect early0.out '^gdb: sink 1$'
	expect phase0.out '^gdb: sink 2$'
	expect spin0.out '^gdb: k 39 sink 38$'
	expect spin1.out '^gdb: k 39 sink 38$'
	cat times
	;;
watch-stack-pages)
	# a local of main written through %rsp, with the work between its
	# writes on pages below it: reverse-continue leaves out the intervals
	# whose STACK_WRITTEN pages miss the local's page, and stops where a
	# full replay of every interval stops (a breakpoint that is never
	# hit going back, on exit, turns the leaving out off; so does a
	# recording made with --no-stack-pages)
	build stackwatch prog
	"$RDB" record --every-sic 3000 -o t -- ./prog > rec.out 2>&1 || fail "record"
	"$RDB" record --every-sic 3000 --no-stack-pages -o tn -- ./prog > recn.out 2>&1 ||
		fail "record --no-stack-pages"
	"$RDB" info tn > infon.out || fail "rdb info tn"
	expect infon.out '^stack pages: not known (rdb record --no-stack-pages'
	"$RDB" info t > info.out || fail "rdb info t"
	if grep -q '^stack pages: not known' info.out; then
		# only a kernel older than 6.7 may say nothing: on a newer
		# one it is the runtime's failure, not a reason to skip
		kv=$(uname -r | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/')
		set -- $kv
		[ "${1:-0}" -lt 6 ] || { [ "$1" = 6 ] && [ "${2:-0}" -lt 7 ]; } ||
			{ cat info.out; fail "Linux $(uname -r) has PAGEMAP_SCAN, yet the recording has no STACK_WRITTEN"; }
		status=77
		echo "SKIP: the kernel does not tell the stack's written pages (userfaultfd write-protect-async and PAGEMAP_SCAN: Linux 6.7)"
		exit 77
	fi
	expect info.out '^stack pages: the main stack.s written pages known for [1-9][0-9]* of [0-9]* intervals$'
	line=$(grep -n 'sink = pad' "$SRC/stackwatch.c" | cut -d: -f1)
	for run in 0 1 n; do
		# (RDB_GDB_RAN=0: a breakpoint's function's RAN records
		# would let intervals be left out again)
		b=; [ $run = 1 ] && b='break exit'
		trace=t; [ $run = n ] && trace=tn
		printf '%s\n' "break stackwatch.c:$line" continue delete 'monitor where' 'watch -l local' \
			"$b" reverse-continue 'monitor where' 'monitor info' \
			'printf "gdb: local %ld\n", local' > w$run.gdb
		RDB_GDB_RAN=0 session w$run.gdb w$run.out $trace || { cat w$run.out; fail "replay --gdb-batch ($run)"; }
		clean w$run.out
		grep '^interval [0-9]* count' w$run.out | sed -n 2p > where$run
		[ -s where$run ] || { cat w$run.out; fail "no stop going back ($run)"; }
	done
	expect w1.out "^last reverse-continue: [0-9]* intervals replayed, 0 left out\$"
	expect wn.out "^last reverse-continue: [0-9]* intervals replayed, 0 left out\$"
	cmp -s where0 where1 || { cat w0.out w1.out; fail "the stop is not the full replay's: $(cat where0) / $(cat where1)"; }
	cmp -s where0 wheren || { cat w0.out wn.out; fail "the stop is not the one without stack pages: $(cat where0) / $(cat wheren)"; }
	expect w0.out "^Old value = 3\$"
	expect w0.out "^gdb: local 2\$"
	left=$(sed -n 's/^last reverse-continue: [0-9]* intervals replayed, \([0-9]*\) left out$/\1/p' w0.out)
	[ "${left:-0}" -ge 5 ] || { cat w0.out; fail "only ${left:-0} intervals left out going back"; }
	# the same work in a fork child recorded with --forks: its pages are
	# its own stack's (the child registers again), so the stop is again
	# the full replay's
	"$RDB" record --forks --every-sic 3000 -o tf -- ./prog fork > recf.out 2>&1 || fail "record --forks"
	kid=$("$RDB" ps tf | awk 'NR == 3 { print $1 }')
	[ -n "$kid" ] || { "$RDB" ps tf; fail "no fork child in tf"; }
	for run in 0 1; do
		session w$run.gdb wf$run.out tf --pid "$kid" || { cat wf$run.out; fail "replay --gdb-batch --pid $kid ($run)"; }
		clean wf$run.out
		grep '^interval [0-9]* count' wf$run.out | sed -n 2p > wheref$run
		[ -s wheref$run ] || { cat wf$run.out; fail "no stop going back in the fork child ($run)"; }
	done
	cmp -s wheref0 wheref1 || { cat wf0.out wf1.out; fail "fork child: the stop is not the full replay's: $(cat wheref0) / $(cat wheref1)"; }
	expect wf0.out "^gdb: local 2\$"
	left=$(sed -n 's/^last reverse-continue: [0-9]* intervals replayed, \([0-9]*\) left out$/\1/p' wf0.out)
	[ "${left:-0}" -ge 5 ] || { cat wf0.out; fail "fork child: only ${left:-0} intervals left out going back"; }
	# a fork child's history starts at its fork, its interval 2: going
	# back past it stops there (it replayed interval 1, which its trace
	# does not have, and rdb ended: "--to 1 is before")
	printf '%s\n' "break stackwatch.c:$line" continue delete reverse-continue 'monitor where' \
		'echo gdb: end\n' > wb.gdb
	session wb.gdb wfb.out tf --pid "$kid" || { cat wfb.out; fail "replay --gdb-batch --pid $kid (back)"; }
	expect wfb.out "No more reverse-execution history"
	expect wfb.out "^interval 2 count 0 pc 0x[0-9a-f]*\$"
	expect wfb.out "^gdb: end\$"
	;;
*) echo "unknown case $case" >&2; exit 2 ;;
esac
status=0
