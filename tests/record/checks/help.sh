#!/bin/sh
# help.sh RDB RDB_CC: record-check-help (tests/record/checks/).
. "$(dirname "$0")/lib.sh"
for c in record replay info truss flowback check pack ps timeline; do
	"$RDB" $c --help > h.out || fail "rdb $c --help failed"
	expect h.out "usage: rdb $c"
done
"$RDB" info --help > h.out || fail "rdb info --help"
expect h.out "^  --complete "
expect h.out "^  --json "
"$RDB" --help > h.out || fail "rdb --help"
expect h.out "^  rdb timeline "
expect h.out "usage: rdb"
! "$RDB" frobnicate 2> e.err || fail "unknown command accepted"
expect e.err "^rdb: unknown command"
pass
