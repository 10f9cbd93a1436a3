#!/bin/sh
# stale-stack.sh RDB RDB_CC: record-check-stale-stack (tests/record/checks/).
# Reads of never-written stack slots see what the program's earlier
# frames left, never the runtime's: the whole replay and one from
# every boundary print the recorded hashes and pass --verify (before:
# the whole replay diverged, and 122 of 169 replays from a boundary).
. "$(dirname "$0")/lib.sh"
build stale-stack prog
"$RDB" record --checksum --every-sic 1000 -o t -- ./prog > rec.out 2> rec.err ||
	{ cat rec.err; fail "record"; }
n=$("$RDB" info --complete t)
[ "${n:-0}" -ge 50 ] || fail "only ${n:-0} intervals"
"$RDB" replay --verify t > w.out 2> w.err || { cat w.err; fail "replay"; }
cmp -s rec.out w.out || fail "the replay printed other hashes"
from_each t rec.out 0
pass
