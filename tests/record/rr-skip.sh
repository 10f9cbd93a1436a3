#!/bin/sh
# rr-skip.sh BUILD RDB RDB_CC PROG...: rr.sh, or exit 77 (skipped) while the
# instrumented musl (the `musl` target) is not built.
B=$1
shift
[ -f "$B/libc-wrap/sysroot/lib/libc.a" ] || { echo "SKIP: no instrumented musl in $B"; exit 77; }
exec "$(dirname "$0")/rr.sh" "$@"
