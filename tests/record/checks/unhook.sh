#!/bin/sh
# unhook.sh RDB RDB_CC: record-check-unhook (tests/record/checks/).
# A replay without --verify, or with --verify-full, runs without the
# read and write hooks (runtime/unhook.c); with --verify (the touched
# hash needs the planes) and with a watch through shadow pages they
# stay.
. "$(dirname "$0")/lib.sh"
build flowback prog
"$RDB" record --checksum -o t -- ./prog > rec.out 2>&1 || fail "record"
RDB_DEBUG=2 "$RDB" replay t > rep.out 2> rep.err || fail "replay"
cmp -s rec.out rep.out || fail "replay output differs"
expect rep.err "^rdb: replay without [1-9][0-9]* read hooks and [1-9][0-9]* write hooks ([1-9][0-9]* of them prefixes)$"
RDB_DEBUG=2 "$RDB" replay --verify t > rep.out 2> rep.err || fail "replay --verify"
! grep -q "replay without" rep.err || fail "replay --verify ran without hooks"
RDB_DEBUG=2 "$RDB" replay --verify-full t > rep.out 2> rep.err || fail "replay --verify-full"
expect rep.err "^rdb: replay without [1-9][0-9]* read hooks"
! "$RDB" replay --verify-full --from 2 t > rep.out 2> rep.err || fail "--verify-full --from 2 accepted"
expect rep.err "^rdb: t: --verify-full compares all of memory, which only a replay from the start"
# The faults of a replay without hooks are the instructions' own: a
# SIGSEGV handler gets the address the program touched, as recorded,
# also where a hook became prefixes of the instruction.
build ../../programs/sig_segv segv
"$RDB" record --checksum -o ts -- ./segv > rec.out 2> rec.err || fail "record sig_segv"
expect rec.out "^null read: signal 11, addr null 1"
RDB_DEBUG=2 "$RDB" replay ts > rep.out 2> rep.err || fail "replay sig_segv"
expect rep.err "^rdb: replay without [1-9][0-9]* read hooks .*([1-9][0-9]* of them prefixes)"
cmp -s rec.out rep.out || { diff rec.out rep.out; fail "replay output differs"; }
# A read hook with a check leaves the flags of an equal compare, also
# when the read faults in it or after it: what a handler sees of them
# is the same without hooks (docs/hooks.md "Read hook with a check").
build fault-flags ff
"$RDB" record -o tf -- ./ff > rec.out 2> rec.err || fail "record fault-flags"
expect rec.out "^null read: flags 0x44$"
expect rec.out "^PROT_NONE read: flags 0x44$"
RDB_DEBUG=2 "$RDB" replay tf > rep.out 2> rep.err || fail "replay fault-flags"
expect rep.err "^rdb: replay without [1-9][0-9]* read hooks"
cmp -s rec.out rep.out || { diff rec.out rep.out; fail "fault-flags: replay output differs"; }
pass
