#!/bin/sh
# altstack-from-k.sh RDB RDB_CC: record-check-altstack-from-k (tests/record/checks/).
# Boundaries inside SA_ONSTACK handlers, replayed from every interval
# (an adversarial helper's programs): a handler that interrupted code
# on a coroutine stack (its frames above the interrupted %rsp are saved
# too; the replay crashed at pc 0 for 61 of 67 K), an alternate stack
# in .bss right above globals the handler reads (they lost their values
# as "dead stack": 43 of 46 K diverged), and never-written locals read
# in a handler on the alternate stack (saved whole now: 26 of 90 K).
. "$(dirname "$0")/lib.sh"
for p in coro-alt bss-altstack uninit-alt; do
	build $p $p
	"$RDB" record --checksum --every-sic 2000 -o $p.t -- ./$p > $p.out 2> $p.err ||
		{ cat $p.err; fail "record $p"; }
	from_each $p.t $p.out 0
done
pass
