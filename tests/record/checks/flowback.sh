#!/bin/sh
# flowback.sh RDB RDB_CC: record-check-flowback (tests/record/checks/).
# progs/flowback.c writes `target` at the FLOWBACK lines, in this
# order: store1, read (a syscall), memset, store2; `rec` (48 bytes:
# watched through its shadow page, not the debug registers) at fill.
# Each answer's interval is the next question's --at, so the chain
# walks every write back to the start.
. "$(dirname "$0")/lib.sh"
build flowback prog -O1 -g
line() { grep -n "FLOWBACK $1 " "$SRC/flowback.c" | cut -d: -f1; }
"$RDB" record --every-sic 3000000 -o t -- ./prog > rec.out 2>&1 || fail "record"
ask() { # ask OUT [ARGS...]: the query, and the interval it names
	out=$1; shift
	"$RDB" flowback "$@" > "$out" 2> "$out.err" || { cat "$out" "$out.err"; fail "flowback $*"; }
	iv=$(sed -n 's/^  last written in interval \([0-9]*\).*/\1/p' "$out")
}
# Most questions below watch a small variable on a page the program writes
# millions of times: only the debug registers make that fast.  Where they
# do not fire (a VM that grants perf_event_open breakpoints and never
# triggers them), ask only what the shadow pages answer quickly (rec, on
# pages of its own) and what needs no replay, then say what was not tested.
cc -O1 -o hwbp "$(dirname "$0")/../../hwbp-probe.c" 2> hwbp.err || { cat hwbp.err; fail "cc hwbp-probe.c"; }
if ! ./hwbp > hwbp.out 2>&1; then
	cat hwbp.out
	rec=$(sed -n 's/^rec at //p' rec.out)
	ask q6.out --size 48 t "$rec"
	expect q6.out "by: *fill+0x[0-9a-f]* (.*flowback.c:$(line fill))"
	ask q7.out --no-replay t target+2
	expect q7.out "^  last written in interval"
	! "$RDB" flowback t no_such_symbol 2> e.err || fail "an unknown symbol accepted"
	expect e.err "^rdb: t: no symbol 'no_such_symbol'"
	status=77
	echo "SKIP: the debug registers do not fire here: watches of small variables on busy pages not tested"
	exit 77
fi
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
pass
