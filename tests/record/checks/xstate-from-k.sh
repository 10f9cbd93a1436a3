#!/bin/sh
# xstate-from-k.sh RDB RDB_CC: record-check-xstate-from-k (tests/record/checks/).
# Handlers print their frame's xsave image (XSTATE_BV and a hash of
# it) after the AVX upper halves were put in their initial state, in
# use with values or with zeros, or x87 code ran, with boundaries
# between that and the signal: a replay from every interval rebuilds
# the frames the recording saw (the xsave "in use" bits come back from
# the boundary's image).  Both kinds of image must occur.
. "$(dirname "$0")/lib.sh"
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
pass
