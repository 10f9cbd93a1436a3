#!/bin/sh
# green-threads.sh RDB RDB_CC: record-check-green-threads (tests/record/checks/).
# Threads that switch stacks with longjmp (green: from inside a signal
# handler, so handlers return in another order than they began;
# coro-switch: setjmp/longjmp), suspended across boundaries: each
# prints what it prints built by gcc, recorded, replayed whole and from
# every interval.
. "$(dirname "$0")/lib.sh"
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
pass
