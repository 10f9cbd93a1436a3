#!/bin/sh
# sigstack-guard.sh RDB RDB_CC: record-check-sigstack-guard (tests/record/checks/).
# The program's munmap, mprotect and mmap(MAP_FIXED) over the
# runtime's signal stack are refused, recorded or not; the replay
# returns the same.
. "$(dirname "$0")/lib.sh"
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
pass
