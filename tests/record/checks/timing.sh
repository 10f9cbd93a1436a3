#!/bin/sh
# timing.sh RDB RDB_CC: record-check-timing (tests/record/checks/).
# replay --timing says, on stderr, when the program resumed (its first
# instruction, or interval K's): a time, once, and nothing else changes.
. "$(dirname "$0")/lib.sh"
build altstack prog
"$RDB" record --every-sic 3000 -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
n=$("$RDB" info --complete t)
[ "${n:-0}" -ge 3 ] || fail "only ${n:-0} complete intervals"
for k in 1 2 "$n"; do
	"$RDB" replay --timing --from "$k" t > rep.out 2> rep.err || { cat rep.err; fail "replay --timing --from $k"; }
	[ "$(grep -c '^rdb: replay resumed' rep.err)" = 1 ] || { cat rep.err; fail "--from $k: not one timing line"; }
	expect rep.err "^rdb: replay resumed the program at interval $k's start [0-9][0-9]*\.[0-9] ms after rdb started$"
	grep -v '^rdb: replay resumed' rep.err > rest.err
	"$RDB" replay --from "$k" t > plain.out 2> plain.err || fail "replay --from $k"
	cmp -s plain.out rep.out && cmp -s plain.err rest.err || fail "--from $k: --timing changed the replay's output"
done
"$RDB" replay t > plain.out 2> plain.err || fail "replay"
! grep -q 'replay resumed' plain.err || fail "a timing line without --timing"
pass
