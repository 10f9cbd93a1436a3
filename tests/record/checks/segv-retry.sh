#!/bin/sh
# segv-retry.sh RDB RDB_CC: record-check-segv-retry (tests/record/checks/).
# A SIGSEGV handler with interval boundaries inside it makes the page
# readable and returns: the faulting read runs in a later interval
# than its hook did, from a page that was PROT_NONE when that interval
# started.  A replay from any interval prints the recorded sum (it
# printed others when the hook did not run again or the snapshot could
# not read the page; --verify did not see it: the planes never called
# those bytes touched).
. "$(dirname "$0")/lib.sh"
build segv-retry prog
"$RDB" record --checksum --every-sic 1000000 -o t -- ./prog > rec.out 2> rec.err ||
	{ cat rec.err; fail "record"; }
expect rec.out "^faults 3 sum "
n=$("$RDB" info --complete t)
[ "${n:-0}" -ge 8 ] || fail "only ${n:-0} intervals"
from_each t rec.out 0 whole
pass
