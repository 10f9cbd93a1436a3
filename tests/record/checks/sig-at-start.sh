#!/bin/sh
# sig-at-start.sh RDB RDB_CC: record-check-sig-at-start (tests/record/checks/).
# Signals at count 1 of an interval (a boundary on the stub's check
# before a kill to itself), each with a nested one in its handler:
# a replay from each such interval passes --verify and prints the end
# of the recording.  The intervals are found in a replay's RDB_DEBUG
# targets (the first target after a boundary's is the next interval's
# first event): none would test nothing.
. "$(dirname "$0")/lib.sh"
build sig-at-start prog
# Where the boundaries fall depends on the counts before main (musl's
# start walks the environment), so some environments give no such
# interval at 400 counts: a few nearby lengths are tried until one does.
ks=
for every in 400 401 402 403 404 405 406 407; do
	rm -rf t
	"$RDB" record --checksum --every-sic $every -o t -- ./prog > rec.out 2> rec.err ||
		{ cat rec.err; fail "record"; }
	expect rec.out "^handlers 600 600, depth 2, "
	RDB_DEBUG=2 "$RDB" replay t 2> dbg.err > /dev/null || fail "replay with RDB_DEBUG"
	ks=$(awk 'BEGIN { iv = 1; first = 1 }
		/next event/ { if (first && $5 == 27 && $8 == 1) print iv; first = 0
			if ($5 == 10) { iv++; first = 1 } }' dbg.err)
	[ -z "$ks" ] || break
done
[ -n "$ks" ] || fail "no interval starts with a signal at count 1 (--every-sic 400 to 407): the case tests nothing"
for k in $ks; do
	"$RDB" replay --verify --from "$k" t > f$k.out 2> f$k.err || { cat f$k.err; fail "replay --from $k"; }
	tail -c "$(wc -c < f$k.out)" rec.out | cmp -s - f$k.out && [ -s f$k.out ] ||
		fail "replay --from $k: not the end of the recording"
done
pass
