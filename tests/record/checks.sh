#!/bin/sh
# checks.sh: rdb's trace checks beyond output equality (tests/record).
#   checks.sh RDB RDB_CC CASE
# CASE: divergence | truncated | info | truss | sigkill | rdbkill | spawn | children |
#       help | flowback | sigkill-intervals | execfail | snapfail | everysic-signals |
#       unhook | segv-retry | queued-sig | stale-stack | sic-overflow | restart |
#       sigstack-guard | altstack-from-k | green-threads | gdb | timing | reverse |
#       pipe-hup | refused | sig-at-start | callbacks | xstate-from-k.
# Exit 0 pass, 1 fail, 77 skipped (no instrumented musl yet, unless
# RDB_TEST_NO_SKIP=1; snapfail: no seccomp here, which no machine the
# README names lacks: tests/allowed-skips.txt does not list it).
set -u
RDB=$1 RDB_CC=$2 case=$3
SRC=$(cd "$(dirname "$0")" && pwd)/progs
W=$(mktemp -d "${TMPDIR:-/tmp}/rdb-check.XXXXXX")
status=1
trap 'if [ $status -eq 0 ] || [ $status -eq 77 ]; then rm -rf "$W"; else echo "work folder kept: $W" >&2; fi' EXIT
fail() { echo "FAIL ($case): $*" >&2; status=1; exit 1; }
cd "$W" || exit 1
# build NAME OUT [FLAGS]: progs/NAME.c built by rdb-cc (-O1 unless FLAGS).
# Skipped (77) only while the instrumented musl is not built (with
# RDB_TEST_NO_SKIP=1 that fails too); any other compile error fails.
build() {
	b_src=$SRC/$1.c b_out=$2
	shift 2
	[ $# -gt 0 ] || set -- -O1
	case $("$RDB_CC" --version 2>&1 | sed -n 's/^libc: //p') in
	"" | *"(not built)"*)
		[ "${RDB_TEST_NO_SKIP:-}" = 1 ] && fail "rdb-cc's instrumented musl is not built (RDB_TEST_NO_SKIP=1)"
		status=77; echo "SKIP: rdb-cc's instrumented musl is not built"; exit 77 ;;
	esac
	"$RDB_CC" "$@" "$b_src" -o "$b_out" 2>cc.err || { cat cc.err; fail "rdb-cc $* $b_src failed"; }
}
expect() { grep -q -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "no '$2' in $1"; }; }
# wait_for WHAT CMD...: runs CMD every 0.1 s until it succeeds (an event:
# a file, a line in one, a trace record), failing after 60 s: no check
# may assume how fast a loaded machine gets there.
wait_for() {
	w_what=$1 w_n=0
	shift
	until "$@"; do
		w_n=$((w_n + 1))
		[ $w_n -le 600 ] || fail "waited 60 s for $w_what"
		sleep 0.1
	done
}
# rec_pid TRACE: the recorded process's pid, from the trace's header (so
# a kill is by id, nothing broader); empty until the header is written
rec_pid() { "$RDB" info "$1" 2>/dev/null | sed -n 's/^started:.*pid \([0-9]*\)$/\1/p'; }
has_pid() { [ -n "$(rec_pid "$1")" ]; }
# from_each TRACE REC_OUT STATUS [whole]: replay --verify --from k, for
# every complete interval k: exit status STATUS, stdout the end of REC_OUT
# (with "whole", all of it: the program prints only at its end), exactly
# as long as what the trace's syscalls wrote to stdout from k's start on
# (rr.sh's printed.awk over rdb truss).
from_each() {
	k=1 last=$("$RDB" info --complete "$1")
	"$RDB" truss "$1" | awk -f "$SRC/../printed.awk" > "$1.printed" || fail "rdb truss $1"
	while [ $k -le "$last" ]; do
		"$RDB" replay --verify --from $k "$1" > f$k.out 2> f$k.err
		[ $? -eq "$3" ] || { cat f$k.err; fail "replay --from $k of $1"; }
		if [ "${4:-}" = whole ]; then cmp -s "$2" f$k.out; else
			tail -c "$(wc -c < f$k.out)" "$2" | cmp -s - f$k.out; fi ||
			{ cat f$k.out; fail "replay --from $k of $1: not the end of the recording"; }
		want=$(awk -v k=$k '$1 == k { print $2 }' "$1.printed")
		[ "$(wc -c < f$k.out)" = "${want:-?}" ] ||
			fail "replay --from $k of $1 printed $(wc -c < f$k.out) bytes, the recording ${want:-?} from there on"
		k=$((k + 1))
	done
}

case $case in
help)
	for c in record replay info truss flowback gdb; do
		"$RDB" $c --help > h.out || fail "rdb $c --help failed"
		expect h.out "usage: rdb $c"
	done
	"$RDB" info --help > h.out || fail "rdb info --help"
	expect h.out "^  --complete "
	"$RDB" --help > h.out || fail "rdb --help"
	expect h.out "usage: rdb"
	! "$RDB" frobnicate 2> e.err || fail "unknown command accepted"
	expect e.err "^rdb: unknown command"
	;;
unhook)
	# A replay without --verify, or with --verify-full, runs without the
	# read and write hooks (runtime/unhook.c); with --verify (the touched
	# hash needs the planes) and with a watch through shadow pages they
	# stay.
	build flowback prog
	"$RDB" record --checksum -o t -- ./prog > rec.out 2>&1 || fail "record"
	RDB_DEBUG=2 "$RDB" replay t > rep.out 2> rep.err || fail "replay"
	cmp -s rec.out rep.out || fail "replay output differs"
	expect rep.err "^rdb: replay without [1-9][0-9]* read hooks and [1-9][0-9]* write hooks ([1-9][0-9]* of them prefixes)$"
	RDB_DEBUG=2 "$RDB" replay --verify t > rep.out 2> rep.err || fail "replay --verify"
	! grep -q "replay without" rep.err || fail "replay --verify ran without hooks"
	RDB_DEBUG=2 "$RDB" replay --verify-full t > rep.out 2> rep.err || fail "replay --verify-full"
	expect rep.err "^rdb: replay without [1-9][0-9]* read hooks"
	! "$RDB" replay --verify-full --from 2 t > rep.out 2> rep.err || fail "--verify-full --from 2 accepted"
	expect rep.err "^rdb: t: --verify-full compares all of memory, which only a replay from the start"
	# The faults of a replay without hooks are the instructions' own: a
	# SIGSEGV handler gets the address the program touched, as recorded,
	# also where a hook became prefixes of the instruction.
	build ../../programs/sig_segv segv
	"$RDB" record --checksum -o ts -- ./segv > rec.out 2> rec.err || fail "record sig_segv"
	expect rec.out "^null read: signal 11, addr null 1"
	RDB_DEBUG=2 "$RDB" replay ts > rep.out 2> rep.err || fail "replay sig_segv"
	expect rep.err "^rdb: replay without [1-9][0-9]* read hooks .*([1-9][0-9]* of them prefixes)"
	cmp -s rec.out rep.out || { diff rec.out rep.out; fail "replay output differs"; }
	# A read hook with a check leaves the flags of an equal compare, also
	# when the read faults in it or after it: what a handler sees of them
	# is the same without hooks (docs/hooks.md "Read hook with a check").
	build fault-flags ff
	"$RDB" record -o tf -- ./ff > rec.out 2> rec.err || fail "record fault-flags"
	expect rec.out "^null read: flags 0x44$"
	expect rec.out "^PROT_NONE read: flags 0x44$"
	RDB_DEBUG=2 "$RDB" replay tf > rep.out 2> rep.err || fail "replay fault-flags"
	expect rep.err "^rdb: replay without [1-9][0-9]* read hooks"
	cmp -s rec.out rep.out || { diff rec.out rep.out; fail "fault-flags: replay output differs"; }
	;;
divergence)
	# The trace names the executable by build-id: another build at the
	# same path is refused.
	build hello prog
	"$RDB" record -o t -- ./prog > /dev/null 2>&1 || fail "record"
	"$RDB" replay t > r.out 2> r.err || fail "replay of the same file"
	build exit3 prog
	! "$RDB" replay t > r.out 2> r.err || fail "replay of another executable accepted"
	expect r.err "^rdb: t: recorded from .*/prog with build-id [0-9a-f]*, but that file now has build-id"
	# The same executable asking for another syscall than recorded: the
	# header (argv) of one run with the streams of another.
	build argdep pa
	"$RDB" record -o ta -- ./pa pid > /dev/null 2>&1 || fail "record pid"
	"$RDB" record -o tb -- ./pa uid > /dev/null 2>&1 || fail "record uid"
	cp tb/header ta/header
	! "$RDB" replay ta > r.out 2> r.err || fail "a diverging replay succeeded"
	expect r.err "^rdb: replay diverged at syscall #[0-9]*: a different syscall: recorded getpid(.*) = [0-9]*, the program asked for getuid("
	;;
truncated)
	build readfile prog
	printf 'abc\n' > input.txt
	"$RDB" record -o t -- ./prog input.txt > /dev/null 2>&1 || fail "record"
	size=$(wc -c < t/syscalls)
	head -c $((size - 5)) t/syscalls > s && mv s t/syscalls
	! "$RDB" replay t > r.out 2> r.err || fail "replay of a truncated trace succeeded"
	expect r.err "^rdb: t/syscalls: offset [0-9]*: truncated frame"
	! "$RDB" info t > i.out 2> i.err || fail "info of a truncated trace succeeded"
	expect i.err "t/syscalls: offset [0-9]*: truncated frame"
	head -c 11 t/header > h && mv h t/header
	! "$RDB" info t > i.out 2> i.err || fail "info with a truncated header"
	expect i.err "^rdb: t/header: offset 0: truncated record header\|^rdb: t/header: offset 0: record of"
	printf 'garbage' > t/header
	! "$RDB" info t > i.out 2> i.err || fail "info with a garbage header"
	expect i.err "^rdb: t/header: offset 0"
	;;
spawn)
	# system(), posix_spawn and vfork run their children as forks: the
	# output of /bin/sh ("hi"), not built with rdb-cc, is in the recording,
	# not in the replay.
	build spawn prog
	"$RDB" record -o t -- ./prog > rec.out 2> rec.err || fail "record"
	[ ! -s rec.err ] || { cat rec.err; fail "record wrote to stderr"; }
	expect rec.out "^hi$"
	expect rec.out "^system: status 0, exited 1, exit status 0$"
	expect rec.out "^system exit 3: exit status 3$"
	expect rec.out "^posix_spawn /bin/true: 0, pid > 0: 1$"
	expect rec.out "^true: exited 1, exit status 0$"
	expect rec.out "^posix_spawn /nonexistent/prog: 2$"
	expect rec.out "^vfork child: exit status 5$"
	"$RDB" replay t > rep.out 2> rep.err || fail "replay"
	[ ! -s rep.err ] || { cat rep.err; fail "replay wrote to stderr"; }
	grep -v '^hi$' rec.out > want.out
	cmp -s want.out rep.out || { diff want.out rep.out; fail "replay output is not the recording's without the children's"; }
	"$RDB" info t > i.out || fail "info"
	expect i.out "^not traced: 5 fork children"
	;;
children)
	# Fork children's output and shared memory (progs/kids.c): replayed
	# byte for byte, shown by info and truss; the child that outlives the
	# program does not hold rdb record up: it waits for the file
	# $KIDS_RELEASE, which exists only once rdb record has returned (and
	# then says it is gone).
	build kids prog
	KIDS_RELEASE=$W/release "$RDB" record -i 1 --checksum -o t -- ./prog > rec.out 2> rec.err || fail "record"
	[ ! -e release.gone ] || fail "rdb record waited for a child that outlived the program"
	: > release
	wait_for "the child that outlived the program to end" test -e release.gone
	expect rec.out "^child: hello$"
	expect rec.out "^grandchild: hello$"
	expect rec.out "^exec'd child E: argc 3$"
	expect rec.out "^busy child line 1999$"
	expect rec.out "^step 6: shared 150 128 138$"
	[ "$(grep -c 'piped child line 1' rec.out)" = 1 ] || fail "the piped child's line is not in the output once"
	printf "child: to stderr\nexec'd child E: on stderr\n" > want.err
	cmp -s want.err rec.err || { cat rec.err; fail "record's stderr is not the children's lines alone"; }
	"$RDB" replay --verify t > rep.out 2> rep.err || fail "replay"
	cmp -s rec.out rep.out || { diff rec.out rep.out | head; fail "replay stdout differs"; }
	cmp -s rec.err rep.err || { diff rec.err rep.err | head; fail "replay stderr differs"; }
	"$RDB" replay --quiet t > q.out 2> q.err || fail "replay --quiet"
	[ ! -s q.out ] && [ ! -s q.err ] || fail "replay --quiet wrote the children's output"
	"$RDB" info t > i.out || fail "info"
	expect i.out "^not traced: 7 fork children"
	expect i.out "^child output: [1-9][0-9]* writes, [1-9][0-9]* bytes"
	expect i.out "^shared memory: [1-9][0-9]* changes by others"
	"$RDB" truss t > tr.out || fail "truss"
	expect tr.out '^--- child [0-9]* wrote 13 bytes to stdout: "child: hello\\n" ---$'
	expect tr.out '^--- child [0-9]* wrote 17 bytes to stderr: "child: to stderr\\n" ---$'
	expect tr.out '^--- shared memory changed by others: [0-9]* bytes at 0x'
	;;
info)
	build pipechild prog
	"$RDB" record -o t -- ./prog > /dev/null 2>&1 || fail "record"
	"$RDB" info t > i.out || fail "info"
	expect i.out "^syscalls: *[1-9]"
	expect i.out "^ended: *exit status 0"
	expect i.out "^cut short: *no"
	expect i.out "^not traced: 1 fork child"
	expect i.out "syscalls *[1-9][0-9]* *[1-9]"
	# --complete: the last complete interval alone, as "(M complete)" counts
	c=$("$RDB" info --complete t) || fail "info --complete"
	expect i.out "^intervals: *[0-9]* ($c complete"
	[ "$("$RDB" info t --complete)" = "$c" ] || fail "info DIR --complete differs"
	build exit3 p3
	"$RDB" record -o t3 -- ./p3 > /dev/null 2>&1; [ $? = 3 ] || fail "record exit status"
	"$RDB" info t3 > i.out || fail "info"
	expect i.out "^ended: *exit status 3"
	build sigdeath ps
	"$RDB" record -o ts -- ./ps > /dev/null 2>&1; [ $? = 143 ] || fail "record did not die by SIGTERM"
	"$RDB" info ts > i.out || fail "info"
	expect i.out "^ended: *killed by signal 15"
	expect i.out "^cut short: *no"
	# -o: an old trace is replaced, another folder with files is refused
	"$RDB" record -o t -- ./p3 > /dev/null 2>&1; [ $? = 3 ] || fail "record over a trace"
	"$RDB" info t > i.out || fail "info of the new trace"
	expect i.out "^ended: *exit status 3"
	mkdir other && : > other/notes
	! "$RDB" record -o other -- ./p3 > /dev/null 2> e.err || fail "record into a non-trace folder"
	expect e.err "^rdb: other: exists and holds no trace"
	# interval numbers out of range are refused, --from and --to alike
	n=$("$RDB" info --complete t)
	for a in "--from 0" "--to 0" "--from $((n + 1))" "--to $((n + 1))"; do
		# shellcheck disable=SC2086
		! "$RDB" replay $a t > /dev/null 2> e.err || fail "replay $a accepted"
		expect e.err "^rdb: .*\(intervals count from 1\|the trace has\)"
	done
	;;
truss)
	build readfile prog
	printf 'abc\n' > input.txt
	"$RDB" record -o t -- ./prog input.txt > /dev/null 2>&1 || fail "record"
	"$RDB" truss t > t.out || fail "truss"
	expect t.out "^#[0-9]* open(0x[0-9a-f]*, [0-9]*, [0-9]*) = [0-9]*$"
	expect t.out "^#[0-9]* read([0-9]*, 0x[0-9a-f]*, [0-9]*) = 4 <1 region written>$"
	expect t.out "^#[0-9]* writev(1, 0x[0-9a-f]*, 2) = 7$"
	expect t.out "^#[0-9]* close([0-9]*) = 0$"
	expect t.out "^+++ exited with 0 +++$"
	"$RDB" record -o t2 -- ./prog missing.txt > /dev/null 2>&1
	"$RDB" truss t2 > t.out || fail "truss"
	expect t.out "= -1 ENOENT (No such file or directory)"
	;;
sigkill)
	# PROG killed by SIGKILL mid-run: the trace keeps what was sent, info
	# says the run was cut short, replay runs up to there and dies the same.
	build stdin prog
	mkfifo in
	( "$RDB" record -o t -- ./prog < in > rec.out 2> rec.err; echo $? > rec.status ) &
	exec 3> in
	printf 'one\n' >&3
	# killed once it has read and printed the line (musl writes the first
	# line of stdout at once), waiting for more
	wait_for "the program to print its first line" grep -q '^read: one$' rec.out
	wait_for "rdb info to show the recorded pid" has_pid t
	kill -9 "$(rec_pid t)"
	exec 3>&-
	wait
	[ "$(cat rec.status)" = 137 ] || fail "record status $(cat rec.status), expected 137"
	"$RDB" info t > i.out || fail "info"
	expect i.out "^cut short: *yes"
	expect i.out "^ended: *killed by signal 9"
	"$RDB" replay t > rep.out 2> rep.err; s=$?
	[ $s = 137 ] || fail "replay status $s"
	cmp -s rec.out rep.out || fail "replay output differs"
	expect rep.out "^read: one$"
	expect rep.err "cut short"
	;;
flowback)
	# progs/flowback.c writes `target` at the FLOWBACK lines, in this
	# order: store1, read (a syscall), memset, store2; `rec` (48 bytes:
	# watched through its shadow page, not the debug registers) at fill.
	# Each answer's interval is the next question's --at, so the chain
	# walks every write back to the start.
	build flowback prog -O1 -g
	line() { grep -n "FLOWBACK $1 " "$SRC/flowback.c" | cut -d: -f1; }
	"$RDB" record --every-sic 3000000 -o t -- ./prog > rec.out 2>&1 || fail "record"
	ask() { # ask OUT [ARGS...]: the query, and the interval it names
		out=$1; shift
		"$RDB" flowback "$@" > "$out" 2> "$out.err" || { cat "$out" "$out.err"; fail "flowback $*"; }
		iv=$(sed -n 's/^  last written in interval \([0-9]*\).*/\1/p' "$out")
	}
	ask q1.out t target
	expect q1.out "by: *main+0x[0-9a-f]* (.*flowback.c:$(line store2))"
	expect q1.out "value now: *d2 04 00 00 (1234 "
	ask q2.out --at "$iv" t target
	expect q2.out "by: *main+0x[0-9a-f]* (.*flowback.c:$(line memset))"
	expect q2.out "value now: *11 11 11 11 "
	ask q3.out --at "$iv" t target
	expect q3.out "by: *the kernel, in syscall #[0-9]* read([0-9]*, 0x[0-9a-f]*, 4) = 4"
	expect q3.out "value now: *7f 45 4c 46 "
	ask q4.out --at "$iv" t target
	expect q4.out "by: *main+0x[0-9a-f]* (.*flowback.c:$(line store1))"
	expect q4.out "value now: *2a 00 00 00 (42 "
	ask q5.out --at "$iv" t target
	expect q5.out "not written since the program started"
	rec=$(sed -n 's/^rec at //p' rec.out)
	ask q6.out --size 48 t "$rec"
	expect q6.out "by: *fill+0x[0-9a-f]* (.*flowback.c:$(line fill))"
	# of the 48 bytes asked for, interval 4 touched only the 15 it wrote
	expect q6.out "value now: *68 65 6c 6c 6f 2c 20 66 6c 6f 77 62 61 63 6b ?? "
	ask q8.out t op
	expect q8.out "by: *set_op+0x[0-9a-f]* (.*flowback.c:$(line op))"
	ask q7.out --no-replay t target+2
	expect q7.out "^  last written in interval"
	! grep -q "by:" q7.out || fail "--no-replay replayed"
	! "$RDB" flowback t no_such_symbol 2> e.err || fail "an unknown symbol accepted"
	expect e.err "^rdb: t: no symbol 'no_such_symbol'"
	! "$RDB" flowback --at 100000 t target 2> e.err || fail "--at past the end accepted"
	expect e.err "^rdb: t: --at 100000: the trace has [0-9]* intervals"
	"$RDB" record -i 0 -o t0 -- ./prog > /dev/null 2>&1 || fail "record -i 0"
	! "$RDB" flowback t0 target 2> e.err || fail "flowback without intervals"
	expect e.err "no written ranges"
	# progs/flowback2.c: writes in a handler, under a full mask, with
	# SIGTRAP ignored, by wide stores, by a big read(2); then abort().
	build flowback2 prog2 -O2 -g
	line2() { grep -n "FLOWBACK $1 " "$SRC/flowback2.c" | cut -d: -f1; }
	! "$RDB" record --every-sic 200000 -o t2 -- ./prog2 > /dev/null 2>&1 || fail "record flowback2"
	for v in handler:flag crit:crit ign:ign; do
		ask f-${v%%:*}.out t2 "${v#*:}"
		expect f-${v%%:*}.out "by: *[a-z_0-9.]*+0x[0-9a-f]* (.*flowback2.c:$(line2 ${v%%:*}))"
	done
	ask f-copy.out --size 8 t2 dst+24
	expect f-copy.out "by: *copy[.a-z0-9]*+0x[0-9a-f]* (.*flowback2.c:$(line2 copy))"
	expect f-copy.out "value now: *04 00 00 00 00 00 00 00 "
	ask f-wide.out t2 dst
	expect f-wide.out "by: *copy[.a-z0-9]*+0x[0-9a-f]* (.*flowback2.c:$(line2 copy))"
	ask f-read.out --size 4 t2 buf+200000
	expect f-read.out "by: *the kernel, in syscall #[0-9]* read([0-9]*, 0x[0-9a-f]*, 262144) = 0x40000"
	# progs/flowback3.c: a stack write below the %rsp its interval began with
	build flowback3 prog3 -O0 -g
	"$RDB" record --every-sic 10000 -o t3 -- ./prog3 > r3.out 2>&1 || fail "record flowback3"
	local3=$(sed -n 's/^local at \(0x[0-9a-f]*\):.*/\1/p' r3.out)
	ask f-local.out --at 3 --size 4 t3 "$local3"
	expect f-local.out "by: *main+0x[0-9a-f]* (.*flowback3.c:$(grep -n 'FLOWBACK local' "$SRC/flowback3.c" | cut -d: -f1))"
	;;
everysic-signals)
	# Self-sent signals wait for SIC checks; with --every-sic the limit
	# stands near the guard, and a poke used to overshoot it.
	build altstack prog
	./prog > plain.out || fail "plain run"
	for n in 300 3000; do
		"$RDB" record --checksum --every-sic $n -o t$n -- ./prog > r$n.out 2> r$n.err ||
			{ cat r$n.err; fail "record --every-sic $n"; }
		cmp -s plain.out r$n.out || fail "--every-sic $n: the recorded run printed something else"
		"$RDB" replay --verify t$n > p$n.out 2> p$n.err || { cat p$n.err; fail "replay --every-sic $n"; }
		cmp -s r$n.out p$n.out || fail "--every-sic $n: replay differs"
		k=$(( $("$RDB" info --complete t$n) / 2 ))
		"$RDB" replay --verify --from $k t$n > f$n.out 2> f$n.err || { cat f$n.err; fail "replay --from $k"; }
		tail -c "$(wc -c < f$n.out)" r$n.out | cmp -s - f$n.out || fail "--from $k: not the end of the recording"
	done
	;;
timing)
	# replay --timing says, on stderr, when the program resumed (its first
	# instruction, or interval K's): a time, once, and nothing else changes.
	build altstack prog
	"$RDB" record --every-sic 3000 -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
	n=$("$RDB" info --complete t)
	[ "${n:-0}" -ge 3 ] || fail "only ${n:-0} complete intervals"
	for k in 1 2 "$n"; do
		"$RDB" replay --timing --from "$k" t > rep.out 2> rep.err || { cat rep.err; fail "replay --timing --from $k"; }
		[ "$(grep -c '^rdb: replay resumed' rep.err)" = 1 ] || { cat rep.err; fail "--from $k: not one timing line"; }
		expect rep.err "^rdb: replay resumed the program at interval $k's start [0-9][0-9]*\.[0-9] ms after rdb started$"
		grep -v '^rdb: replay resumed' rep.err > rest.err
		"$RDB" replay --from "$k" t > plain.out 2> plain.err || fail "replay --from $k"
		cmp -s plain.out rep.out && cmp -s plain.err rest.err || fail "--from $k: --timing changed the replay's output"
	done
	"$RDB" replay t > plain.out 2> plain.err || fail "replay"
	! grep -q 'replay resumed' plain.err || fail "a timing line without --timing"
	;;
pipe-hup)
	# progs/pipe-hup.c: a boundary while a pipe is open, then its write
	# end closed and its reader polls at once: a hang-up every time (a snapshot
	# child kept the write end open: poll_select printed "hup 0" now and
	# then).  Its seccomp filter takes close_range away from the snapshot
	# children, which closed nothing then.
	build pipe-hup prog
	./prog > plain.out || fail "plain run"
	expect plain.out "^hangups 40 of 40$"
	"$RDB" record --every-sic 20 -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
	cmp -s plain.out rec.out || { diff plain.out rec.out; fail "the recording printed something else"; }
	"$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
	cmp -s rec.out rep.out || fail "replay differs"
	;;
segv-retry)
	# A SIGSEGV handler with interval boundaries inside it makes the page
	# readable and returns: the faulting read runs in a later interval
	# than its hook did, from a page that was PROT_NONE when that interval
	# started.  A replay from any interval prints the recorded sum (it
	# printed others when the hook did not run again or the snapshot could
	# not read the page; --verify did not see it: the planes never called
	# those bytes touched).
	build segv-retry prog
	"$RDB" record --checksum --every-sic 1000000 -o t -- ./prog > rec.out 2> rec.err ||
		{ cat rec.err; fail "record"; }
	expect rec.out "^faults 3 sum "
	n=$("$RDB" info --complete t)
	[ "${n:-0}" -ge 8 ] || fail "only ${n:-0} intervals"
	from_each t rec.out 0 whole
	;;
refused)
	# A syscall rdb cannot record (an unmodelled ioctl request) fails
	# with ENOSYS and a message naming it; the program goes on (natively
	# the call fails with ENOTTY), and the replay returns the recorded
	# ENOSYS without the message (docs/syscallgen.md).
	build refused prog
	"$RDB" record -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
	expect rec.err "^rdb: refused syscall ioctl (16) request 0x5412 .*: it fails with ENOSYS$"
	expect rec.out "^ioctl(TIOCSTI): -1, Function not implemented$"
	expect rec.out "^the program went on$"
	"$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
	cmp -s rec.out rep.out || fail "the replay printed something else"
	! grep -q refused rep.err || fail "the replay refused again"
	;;
callbacks)
	# An instrumentation library that registers 40 signal and 40
	# termination callbacks (progs/callbacks-lib.c, built like librdb):
	# every one is taken and runs, unrecorded, recorded and replayed (the
	# runtime's tables held 16 of each and refused the rest).
	gcc -O2 -fPIE -fvisibility=hidden -fno-stack-protector -ffreestanding -fno-builtin \
		-mgeneral-regs-only -fcf-protection=none -ffixed-r12 -ffixed-r13 -ffixed-r14 \
		-ffixed-r15 -Wall -Wextra -I"$SRC/../../../runtime" -c "$SRC/callbacks-lib.c" \
		-o lib.o || fail "gcc callbacks-lib.c"
	build callbacks prog -O1 "$W/lib.o"
	./prog > nat.out 2> nat.err || { cat nat.err; fail "the unrecorded run"; }
	expect nat.out "^refused 0, signal callbacks ran 40, handler 1$"
	expect nat.out "^term callbacks: 40$"
	"$RDB" record --checksum -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
	cmp -s nat.out rec.out || { cat rec.out; fail "recorded, the program printed something else"; }
	"$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
	cmp -s rec.out rep.out || { cat rep.out; fail "the replay printed something else"; }
	;;
xstate-from-k)
	# Handlers print their frame's xsave image (XSTATE_BV and a hash of
	# it) after the AVX upper halves were put in their initial state, in
	# use with values or with zeros, or x87 code ran, with boundaries
	# between that and the signal: a replay from every interval rebuilds
	# the frames the recording saw (the xsave "in use" bits come back from
	# the boundary's image).  Both kinds of image must occur.
	grep -qw avx /proc/cpuinfo || { status=77; echo "SKIP: no AVX on this processor"; exit 77; }
	build xstate-frames prog
	"$RDB" record --checksum --every-sic 4000 -o t -- ./prog > rec.out 2> rec.err ||
		{ cat rec.err; fail "record"; }
	expect rec.out "^sum "
	for bv in 3 7; do
		grep -q "^round .* signal 10: size .* bv [0-9a-f]*$bv " rec.out ||
			fail "no frame with XSTATE_BV ...$bv (AVX in use: 7): the case tests nothing"
	done
	from_each t rec.out 0
	;;
sig-at-start)
	# Signals at count 1 of an interval (a boundary on the stub's check
	# before a kill to itself), each with a nested one in its handler:
	# a replay from each such interval passes --verify and prints the end
	# of the recording.  The intervals are found in a replay's RDB_DEBUG
	# targets (the first target after a boundary's is the next interval's
	# first event): none would test nothing.
	build sig-at-start prog
	"$RDB" record --checksum --every-sic 400 -o t -- ./prog > rec.out 2> rec.err ||
		{ cat rec.err; fail "record"; }
	expect rec.out "^handlers 600 600, depth 2, "
	RDB_DEBUG=2 "$RDB" replay t 2> dbg.err > /dev/null || fail "replay with RDB_DEBUG"
	ks=$(awk 'BEGIN { iv = 1; first = 1 }
		/next event/ { if (first && $5 == 27 && $8 == 1) print iv; first = 0
			if ($5 == 10) { iv++; first = 1 } }' dbg.err)
	[ -n "$ks" ] || fail "no interval starts with a signal at count 1: the case tests nothing"
	for k in $ks; do
		"$RDB" replay --verify --from "$k" t > f$k.out 2> f$k.err || { cat f$k.err; fail "replay --from $k"; }
		tail -c "$(wc -c < f$k.out)" rec.out | cmp -s - f$k.out && [ -s f$k.out ] ||
			fail "replay --from $k: not the end of the recording"
	done
	;;
queued-sig)
	# Signals queued again together, three held back by the first one's
	# handler (its sa_mask) while boundaries pass inside it: a replay
	# from any interval queues them again (they are in the context) and
	# prints the recorded order and sum.  Without that, replays from 2 on
	# diverged.
	build queued-sig prog
	"$RDB" record --checksum --every-sic 300000 -o t -- ./prog > rec.out 2> rec.err ||
		{ cat rec.err; fail "record"; }
	expect rec.out "^handlers 16: "
	n=$("$RDB" info --complete t)
	[ "${n:-0}" -ge 5 ] || fail "only ${n:-0} intervals"
	from_each t rec.out 0 whole
	RDB_DEBUG=2 "$RDB" replay --from 2 t 2>&1 >/dev/null | grep -q "queued again, as at the boundary" ||
		fail "no signal was waiting at boundary 2: the case tests nothing"
	;;
stale-stack)
	# Reads of never-written stack slots see what the program's earlier
	# frames left, never the runtime's: the whole replay and one from
	# every boundary print the recorded hashes and pass --verify (before:
	# the whole replay diverged, and 122 of 169 replays from a boundary).
	build stale-stack prog
	"$RDB" record --checksum --every-sic 1000 -o t -- ./prog > rec.out 2> rec.err ||
		{ cat rec.err; fail "record"; }
	n=$("$RDB" info --complete t)
	[ "${n:-0}" -ge 50 ] || fail "only ${n:-0} intervals"
	"$RDB" replay --verify t > w.out 2> w.err || { cat w.err; fail "replay"; }
	cmp -s rec.out w.out || fail "the replay printed other hashes"
	from_each t rec.out 0
	;;
sic-overflow)
	# An interval that reaches the counter's limit (2^40 counts; here
	# RDB_TEST_SIC_SPAN=100000) ends at an overflow boundary; without
	# intervals no boundary is possible: the recording says so and stops
	# there, valid up to that point, and the program runs on untraced
	# (its counts used to wrap silently).
	build overflow prog
	RDB_TEST_SIC_SPAN=100000 "$RDB" record -i 0 -o t -- ./prog > rec.out 2> rec.err
	[ $? -eq 3 ] || { cat rec.err; fail "record -i 0: not the program's status 3"; }
	expect rec.err "^rdb: interval 1 ran .* counts .* without a boundary (no intervals): the recording stops here"
	[ "$(wc -l < rec.out)" -eq 10 ] || fail "the program did not run to its end untraced"
	"$RDB" info t > i.out || fail "info"
	expect i.out "^not traced: the rest of the run, after an interval reached"
	expect i.out "^intervals:  1 "
	"$RDB" replay t > p.out 2> p.err
	[ $? -eq 3 ] || { cat p.err; fail "replay: not the recorded status 3"; }
	expect p.err "^rdb: replay ends where the recording stopped"
	n=$(wc -l < p.out)
	[ "$n" -ge 1 ] && [ "$n" -lt 10 ] || fail "the replay printed $n lines, not the part before the stop"
	head -n "$n" rec.out | cmp -s - p.out || fail "the replay's output is not the start of the recording's"
	# with intervals: overflow boundaries, replayed from each
	RDB_TEST_SIC_SPAN=100000 "$RDB" record --checksum -i 100000 -o t2 -- ./prog > rec2.out 2> rec2.err
	[ $? -eq 3 ] || { cat rec2.err; fail "record -i 100000"; }
	n=$("$RDB" info --complete t2)
	[ "${n:-0}" -ge 3 ] || fail "only ${n:-0} intervals: no overflow boundaries"
	from_each t2 rec2.out 3
	;;
restart)
	# A blocking read a signal interrupts, with SA_RESTART: cut short,
	# the handler, the read again.  info counts the cut call apart, truss
	# shows it, replay prints the same.
	build restart prog
	"$RDB" record -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
	expect rec.out "^read 1 'x', handler ran 1, child status 0"
	"$RDB" info t > i.out || fail "info"
	expect i.out "^syscalls: .*(1 of them cut short by a signal, then run again after its handler)"
	"$RDB" truss t > tr.out || fail "truss"
	expect tr.out "read(.*) = ? <cut short by a signal: run again after its handler>"
	"$RDB" replay t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
	cmp -s rec.out rep.out || fail "the replay printed something else"
	;;
sigstack-guard)
	# The program's munmap, mprotect and mmap(MAP_FIXED) over the
	# runtime's signal stack are refused, recorded or not; the replay
	# returns the same.
	build sigstack-guard prog
	./prog > plain.out 2> plain.err || fail "plain run"
	expect plain.out "^munmap: -1 ENOMEM"
	expect plain.out "^mprotect: -1 ENOMEM"
	expect plain.out "^mmap MAP_FIXED: ENOMEM"
	expect plain.out "^mmap hint: elsewhere"
	expect plain.err "^rdb: refused munmap at .*: outside the covered range"
	"$RDB" record -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
	cmp -s plain.out rec.out || fail "the recorded run printed something else"
	"$RDB" replay t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
	cmp -s rec.out rep.out || fail "the replay printed something else"
	;;
altstack-from-k)
	# Boundaries inside SA_ONSTACK handlers, replayed from every interval
	# (an adversarial helper's programs): a handler that interrupted code
	# on a coroutine stack (its frames above the interrupted %rsp are saved
	# too; the replay crashed at pc 0 for 61 of 67 K), an alternate stack
	# in .bss right above globals the handler reads (they lost their values
	# as "dead stack": 43 of 46 K diverged), and never-written locals read
	# in a handler on the alternate stack (saved whole now: 26 of 90 K).
	for p in coro-alt bss-altstack uninit-alt; do
		build $p $p
		"$RDB" record --checksum --every-sic 2000 -o $p.t -- ./$p > $p.out 2> $p.err ||
			{ cat $p.err; fail "record $p"; }
		from_each $p.t $p.out 0
	done
	;;
gdb)
	# gdb on rdb-cc programs (rdb gdb, record --gdb, replay --gdb; the
	# shim: rdb/gdbshim.c): it continues from breakpoints (writes the
	# registers back), steps lines through the read checks' cold paths
	# without stopping in them, never stops at the instruction counter's
	# SIGSEGV, and prints what the program prints, in an unrecorded run,
	# while recording (the recording still replays) and in replays from
	# the start and from a middle interval.
	command -v gdb > /dev/null || fail "gdb is not installed (scripts/setup-debian.sh installs it)"
	build gdbwalk prog -O0 -g
	./prog > native.out || fail "prog"
	# h_of R FILE: round R's hash as the program printed it in FILE
	h_of() { sed -n "s/^round $1 h //p" "$2"; }
	# gdb_ok OUT: gdb made no stop it should not have, and wrote registers
	gdb_ok() {
		! grep -q "SIGSEGV\|?? ()\|Couldn't write\|Cannot find bounds" "$1" ||
			{ cat "$1"; fail "gdb stopped where it should not, or failed: $1"; }
	}
	printf '%s\n' 'handle SIGUSR1 nostop noprint pass' 'break checkpoint if round == 5' run next next \
		'printf "gdb: folded %lx\n", folded' 'printf "gdb: round %d h %lx\n", round, h' \
		delete continue > step.gdb
	"$RDB" gdb -batch -x step.gdb -- ./prog > g1.out 2>&1 || { cat g1.out; fail "rdb gdb"; }
	gdb_ok g1.out
	expect g1.out "last\[round % 8\] = folded;"
	expect g1.out 'printf("round %d h %lx'
	expect g1.out "^gdb: round 5 h $(h_of 5 native.out)\$"
	expect g1.out "^last "
	# a backtrace in a handler goes on into what the signal interrupted
	# (syscall.S: rdb_handler_return is gdb's __restore_rt)
	printf '%s\n' 'handle SIGUSR1 nostop noprint pass' 'break on_usr1' run bt delete continue \
		> sig.gdb
	"$RDB" gdb -batch -x sig.gdb -- ./prog > g2.out 2>&1 || { cat g2.out; fail "rdb gdb (signal)"; }
	gdb_ok g2.out
	expect g2.out "<signal handler called>"
	expect g2.out " poke () at "
	expect g2.out " main (.*) at "
	printf '%s\n' 'handle SIGUSR1 nostop noprint pass' 'break checkpoint if round == 9' continue \
		'printf "gdb: round %d h %lx\n", round, h' delete continue > at9.gdb
	"$RDB" record --checksum --every-sic 300000 --gdb-batch at9.gdb -o t -- ./prog \
		> rec.out 2>&1 || { cat rec.out; fail "record --gdb"; }
	gdb_ok rec.out
	expect rec.out "^gdb: round 9 h $(h_of 9 native.out)\$"
	grep "^round \|^last " rec.out > rec.lines
	cmp -s native.out rec.lines || { diff native.out rec.lines; fail "record --gdb: other output"; }
	"$RDB" replay --verify t > rep.out 2> rep.err ||
		{ cat rep.err; fail "replay of the recording made under gdb"; }
	cmp -s native.out rep.out || fail "replay of the recording made under gdb: other output"
	"$RDB" replay --gdb-batch at9.gdb t > r1.out 2>&1 || { cat r1.out; fail "replay --gdb"; }
	gdb_ok r1.out
	expect r1.out "^gdb: round 9 h $(h_of 9 native.out)\$"
	n=$("$RDB" info --complete t)
	[ "$n" -ge 6 ] || fail "only $n intervals"
	k=$((n / 2))
	printf '%s\n' 'handle SIGUSR1 nostop noprint pass' 'break checkpoint' continue \
		'printf "gdb: round %d h %lx\n", round, h' delete continue > any.gdb
	"$RDB" replay --gdb-batch any.gdb --from $k t > r2.out 2>&1 ||
		{ cat r2.out; fail "replay --gdb --from $k"; }
	gdb_ok r2.out
	r=$(sed -n 's/^gdb: round \([0-9]*\) h .*/\1/p' r2.out)
	[ -n "$r" ] || { cat r2.out; fail "replay --gdb --from $k: gdb printed no round"; }
	expect r2.out "^gdb: round $r h $(h_of "$r" native.out)\$"
	# stepping across boundaries (one every 40 counts, a count an
	# iteration): each event faults in a single-stepped check, and the
	# step ends after it, not in the runtime's handler
	"$RDB" record --every-sic 40 -o s -- ./prog 1 3000 > s.out 2>&1 || fail "record 1 3000"
	{ echo "break gdbwalk.c:$(grep -n 'h = mix' "$SRC/gdbwalk.c" | cut -d: -f1)"
	  echo continue; i=0; while [ $i -lt 150 ]; do echo next; i=$((i + 1)); done
	  printf '%s\n' 'printf "gdb: i %d\n", i' delete continue; } > steps.gdb
	"$RDB" replay --gdb-batch steps.gdb s > r3.out 2>&1 || { cat r3.out; fail "replay --gdb (steps)"; }
	gdb_ok r3.out
	! grep -v "rdb_gdb_wait\|waited++" r3.out | grep -q "runtime/\|rdb_" ||
		{ cat r3.out; fail "a step of gdb's stopped in the runtime"; }
	hits=$(grep -c "^Breakpoint 1, main" r3.out)
	[ "$hits" -ge 40 ] || { cat r3.out; fail "stepping reached only $hits iterations"; }
	expect r3.out "^gdb: i $((hits - 1))\$"
	# ... and while recording (the snapshot children are untraced: a step
	# that meets a boundary ended at their clone)
	"$RDB" record --every-sic 40 --gdb-batch steps.gdb -o s2 -- ./prog 1 3000 > r4.out 2>&1 ||
		{ cat r4.out; fail "record --gdb (steps)"; }
	gdb_ok r4.out
	! grep -v "rdb_gdb_wait" r4.out | grep -q "runtime/\|rdb_\|snap_" ||
		{ cat r4.out; fail "a step of gdb's stopped in the runtime while recording"; }
	hits=$(grep -c "^Breakpoint 1, main" r4.out)
	expect r4.out "^gdb: i $((hits - 1))\$"
	# a software watchpoint steps through the runtime's pushf/popf: the
	# trap flag must not stay set (the program then died of SIGTRAP); a
	# bare line number is the program's file, not the runtime's
	# (from round 2's checkpoint to round 3's table[5]: poke's syscalls)
	printf '%s\n' 'handle SIGUSR1 nostop noprint pass' 'set can-use-hw-watchpoints 0' \
		'break checkpoint if round == 2' continue \
		'watch table[5]' continue delete continue > soft.gdb
	"$RDB" replay --gdb-batch soft.gdb t > r5.out 2>&1 || { cat r5.out; fail "replay --gdb (soft watch)"; }
	gdb_ok r5.out
	! grep -q SIGTRAP r5.out || { cat r5.out; fail "soft watchpoint: SIGTRAP"; }
	expect r5.out "^Breakpoint 1, checkpoint "
	expect r5.out "New value = "
	expect r5.out "^last "
	# gdb gone at its first stop: the program goes on at once
	echo quit > quit.gdb
	"$RDB" replay --gdb-batch quit.gdb t > r6.out 2>&1 || { cat r6.out; fail "replay --gdb, gdb quits at once"; }
	expect r6.out "^last "
	;;
green-threads)
	# Threads that switch stacks with longjmp (green: from inside a signal
	# handler, so handlers return in another order than they began;
	# coro-switch: setjmp/longjmp), suspended across boundaries: each
	# prints what it prints built by gcc, recorded, replayed whole and from
	# every interval.
	for p in green coro-switch; do
		build $p $p
		cc -O1 "$SRC/$p.c" -o $p.gcc || fail "cc $p"
		./$p.gcc > $p.gcc.out || fail "$p built by gcc"
		"$RDB" record --checksum --every-sic 10000 -o $p.t -- ./$p > $p.out 2> $p.err ||
			{ cat $p.err; fail "record $p"; }
		cmp -s $p.gcc.out $p.out || { diff $p.gcc.out $p.out; fail "record $p: other output"; }
		"$RDB" replay --verify $p.t > $p.rep 2> $p.rerr || { cat $p.rerr; fail "replay $p"; }
		cmp -s $p.out $p.rep || fail "replay $p: other output"
		from_each $p.t $p.out 0
	done
	;;
sigkill-intervals)
	# killed by SIGKILL after many intervals: every complete interval
	# replays with --verify, from the start and from the last complete one,
	# up to where the trace ends; info says cut short.
	build busy prog
	"$RDB" record -i 5 --checksum -o t -- ./prog > rec.out 2> rec.err &
	# intervals of 5 ms of CPU time: killed once 12 are complete
	many() { [ "$("$RDB" info --complete t 2>/dev/null || echo 0)" -ge 12 ]; }
	wait_for "12 complete intervals in the recording" many
	wait_for "rdb info to show the recorded pid" has_pid t
	kill -9 "$(rec_pid t)"
	wait
	"$RDB" info t > i.out || fail "info"
	expect i.out "^cut short: *yes"
	n=$("$RDB" info --complete t)
	[ "${n:-0}" -ge 12 ] || fail "only ${n:-0} complete intervals, the recording had 12 before the kill"
	for from in 1 $((n / 2)) "$n"; do
		"$RDB" replay --verify --from "$from" t > rep.out 2> rep.err; s=$?
		[ $s = 137 ] || { cat rep.err; fail "replay --from $from: status $s, expected 137"; }
		expect rep.err "cut short"
		! grep -q "diverged" rep.err || { cat rep.err; fail "replay --from $from diverged"; }
		# the whole replay prints a beginning of the recording's output (up to
		# the last complete interval), a later start the end of that
		if [ "$from" = 1 ]; then
			cp rep.out whole.out
			head -c "$(wc -c < whole.out)" rec.out | cmp -s - whole.out ||
				fail "replay's output is not a beginning of the recording's"
		else
			tail -c "$(wc -c < rep.out)" whole.out | cmp -s - rep.out ||
				fail "replay --from $from's output is not the end of the whole replay's"
		fi
	done
	[ "$(wc -l < whole.out)" -ge 10 ] || fail "the whole replay printed $(wc -l < whole.out) lines"
	;;
execfail)
	# progs/execfail.c: an execve that fails (ENOENT) does not end the
	# intervals: the rounds after it span many, each replayable.
	build execfail prog
	"$RDB" record --every-sic 300000 --checksum -o t -- ./prog > rec.out 2> rec.err ||
		{ cat rec.err; fail "record"; }
	expect rec.out "^execve: -1 (No such file or directory)$"
	n=$("$RDB" info --complete t)
	[ "${n:-0}" -ge 6 ] || fail "${n:-0} complete intervals: the failed execve ended them"
	"$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
	cmp -s rec.out rep.out || fail "replay output differs"
	for from in 2 $((n / 2)) "$n"; do
		"$RDB" replay --verify --from "$from" t > from.out 2> from.err ||
			{ cat from.err; fail "replay --from $from"; }
		tail -c "$(wc -c < from.out)" rec.out | cmp -s - from.out ||
			fail "replay --from $from's output is not the end of the recording's"
	done
	# Then an execve that succeeds (/bin/sh): rdb's values socket (fd
	# 1001) is not open in the new program, and the snapshot child sends
	# the last interval's values once the old image is gone.
	"$RDB" record --every-sic 300000 --checksum -o t2 -- ./prog sh > rec2.out 2> rec2.err ||
		{ cat rec2.err; fail "record with an exec"; }
	expect rec2.out "^fd 1001: closed$"
	"$RDB" info t2 > i2.out || fail "info"
	expect i2.out "the program exec'd another program"
	total=$(sed -n 's/^intervals: *\([0-9]*\) .*/\1/p' i2.out)
	[ "$("$RDB" info --complete t2)" = "$total" ] ||
		fail "the interval that ended with the exec is not complete ($total intervals)"
	grep -v '^fd 1001' rec2.out > want2.out
	"$RDB" replay --verify --from "$total" t2 > from.out 2> from.err ||
		{ cat from.err; fail "replay --from $total (the exec's interval)"; }
	tail -c "$(wc -c < from.out)" want2.out | cmp -s - from.out ||
		fail "replay --from $total's output is not the end of the recording's"
	;;
snapfail)
	# progs/snapfail.c: the snapshot fork fails mid-run (seccomp).  That
	# boundary is not taken: the interval runs on to the end, complete,
	# and the signals in it replay at their counts.
	build snapfail prog
	"$RDB" record --every-sic 100000 --checksum -o t -- ./prog > rec.out 2> rec.err ||
		{ cat rec.err; fail "record"; }
	if ! grep -q "cannot fork the interval snapshot" rec.err &&
		! grep -q '^Seccomp_filters:' /proc/self/status; then
		status=77; echo "SKIP: no seccomp filters here to make the fork fail"; exit 77
	fi
	expect rec.err "cannot fork the interval snapshot (error 11)"
	expect rec.out "^after [0-9]* ticks"
	"$RDB" info t > i.out || fail "info"
	total=$(sed -n 's/^intervals: *\([0-9]*\) .*/\1/p' i.out)
	n=$("$RDB" info --complete t)
	[ "${total:-0}" -ge 3 ] && [ "$n" = "$total" ] ||
		fail "$n complete intervals of ${total:-0}: the last one is not"
	expect i.out "^ *$total .* 20$" # its signals
	"$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
	cmp -s rec.out rep.out || { diff rec.out rep.out | head; fail "replay output differs"; }
	for from in $((n - 1)) "$n"; do
		"$RDB" replay --verify --from "$from" t > from.out 2> from.err ||
			{ cat from.err; fail "replay --from $from"; }
		tail -c "$(wc -c < from.out)" rec.out | cmp -s - from.out ||
			fail "replay --from $from's output is not the end of the recording's"
	done
	;;
rdbkill)
	# rdb record itself killed by SIGKILL: the frames it wrote stay valid
	# (it flushes when the channel is quiet), info says cut short, replay
	# runs up to the end of the trace; the program goes on unrecorded.
	build stdin prog
	mkfifo in
	"$RDB" record -o t -- ./prog < in > rec.out 2> rec.err &
	rdbpid=$!
	exec 3> in
	printf 'one\n' >&3
	# rdb is killed once the program's write of its first line is in the
	# trace on disk (rdb writes it out when the channel goes quiet)
	wait_for "the program to print its first line" grep -q '^read: one$' rec.out
	written() { "$RDB" truss t 2>/dev/null | grep -q '^#[0-9]* writev*(1, .*) = 10$'; }
	wait_for "the write of the first line in the trace" written
	kill -9 "$rdbpid"
	wait "$rdbpid" 2>/dev/null
	printf 'two\n' >&3
	exec 3>&-
	# the program goes on unrecorded to its end (its last line)
	wait_for "the program to end without rdb" grep -q '^sum ' rec.out
	expect rec.out "^read: two$"
	expect rec.err "lost its channel to rdb"
	"$RDB" info t > i.out || fail "info"
	expect i.out "^cut short: *yes: no exit file"
	expect i.out "^syscalls: *[1-9]"
	"$RDB" replay t > rep.out 2> rep.err; s=$?
	[ $s = 137 ] || fail "replay status $s, expected 137 (cut short)"
	expect rep.out "^read: one$"
	expect rep.err "cut short"
	;;
reverse)
	# gdb's reverse-continue on rdb's gdb server (rdb replay --gdb): hit(n)
	# is the n-th call, the calls intervals apart (--every-sic); from the
	# 5th hit, back to the 4th, then the 3rd (each an earlier interval's,
	# found by replaying intervals again); from the 1st, the start of
	# history; continuing forward from there works.
	command -v gdb > /dev/null || fail "gdb is not installed (scripts/setup-debian.sh installs it)"
	build revcont prog -O0 -g
	"$RDB" record --every-sic 5000 -o t -- ./prog > rec.out 2>&1 || { cat rec.out; fail "record"; }
	n=$("$RDB" info --complete t)
	[ "$n" -ge 20 ] || fail "only $n intervals"
	printf '%s\n' 'break hit' continue continue continue continue continue \
		'printf "gdb: at %d\n", n' 'monitor where' \
		reverse-continue 'printf "gdb: back %d\n", n' 'monitor where' \
		reverse-continue 'printf "gdb: back %d\n", n' \
		continue 'printf "gdb: on %d\n", n' > rev.gdb
	"$RDB" replay --gdb-batch rev.gdb t > r1.out 2>&1 || { cat r1.out; fail "replay --gdb"; }
	! grep -q "SIGSEGV\|?? ()\|Couldn't write\|Error\|Traceback\|rdb: gdb server" r1.out ||
		{ cat r1.out; fail "gdb failed"; }
	expect r1.out "^gdb: at 5\$"
	[ "$(sed -n 's/^gdb: back //p' r1.out | tr '\n' ' ')" = "4 3 " ] ||
		{ cat r1.out; fail "reverse-continue from the 5th hit: not the 4th, then the 3rd"; }
	expect r1.out "^gdb: on 4\$"
	i5=$(sed -n 's/^interval \([0-9]*\) count .*/\1/p' r1.out | sed -n 1p)
	i4=$(sed -n 's/^interval \([0-9]*\) count .*/\1/p' r1.out | sed -n 2p)
	[ "$i4" -lt "$i5" ] || { cat r1.out; fail "the 4th hit is not in an earlier interval"; }
	# one interval: the earlier hits are in the current one
	"$RDB" record -i 0 -o one -- ./prog > rec1.out 2>&1 || { cat rec1.out; fail "record -i 0"; }
	"$RDB" replay --gdb-batch rev.gdb one > r3.out 2>&1
	[ "$(sed -n 's/^gdb: back //p' r3.out | tr '\n' ' ')" = "4 3 " ] ||
		{ cat r3.out; fail "reverse-continue in one interval: not the 4th, then the 3rd"; }
	expect r3.out "^gdb: on 4\$"
	printf '%s\n' 'break hit' continue 'monitor where' reverse-continue 'monitor where' \
		'info symbol $pc' > none.gdb
	"$RDB" replay --gdb-batch none.gdb t > r2.out 2>&1 || { cat r2.out; fail "replay --gdb (none)"; }
	expect r2.out "^No more reverse-execution history."
	expect r2.out "^interval 1 count 0 pc "
	expect r2.out "^__musl_start in section"
	;;
*) echo "unknown case $case" >&2; exit 2 ;;
esac
status=0
