#!/bin/sh
# mapchurn.sh RDB RDB_CC: record-check-mapchurn (tests/record/checks/).
# A boundary scans and clears the read planes of each mapping in one
# pass (runtime/planes.c, rdb_planes_take) while mappings come, grow and
# go: recorded at short intervals, the whole replay and one from every
# boundary print what the recording printed and pass --verify.  (Seen
# failing with take's zeroing of the R plane removed.)
. "$(dirname "$0")/lib.sh"
build mapchurn prog
"$RDB" record --checksum --every-sic 40000 -o t -- ./prog > rec.out 2> rec.err ||
	{ cat rec.err; fail "record"; }
n=$("$RDB" info --complete t)
[ "${n:-0}" -ge 20 ] || fail "only ${n:-0} intervals"
./prog > native.out || fail "the program itself"
cmp -s native.out rec.out || fail "recorded, it printed other hashes"
"$RDB" replay --verify t > w.out 2> w.err || { cat w.err; fail "replay"; }
cmp -s rec.out w.out || fail "the replay printed other hashes"
from_each t rec.out 0
pass
