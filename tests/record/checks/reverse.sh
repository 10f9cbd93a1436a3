#!/bin/sh
# reverse.sh RDB RDB_CC: record-check-reverse (tests/record/checks/).
# gdb's reverse-continue on rdb's gdb server (rdb replay --gdb): hit(n)
# is the n-th call, the calls intervals apart (--every-sic); from the
# 5th hit, back to the 4th, then the 3rd (each an earlier interval's,
# found by replaying intervals again); from the 1st, the start of
# history; continuing forward from there works.
. "$(dirname "$0")/lib.sh"
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
pass
