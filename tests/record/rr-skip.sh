#!/bin/sh
# rr-skip.sh BUILD RDB RDB_CC PROG...: rr.sh, or exit 77 (skipped) while the
# instrumented musl (the `musl` target) is not built; with RDB_TEST_NO_SKIP=1
# (scripts/test.sh, which builds it first) that is a failure (exit 1).
B=$1
shift
if [ ! -f "$B/libc-wrap/sysroot/lib/libc.a" ]; then
	if [ "${RDB_TEST_NO_SKIP:-}" = 1 ]; then
		echo "FAIL: no instrumented musl in $B (RDB_TEST_NO_SKIP=1: no skipping)"
		exit 1
	fi
	echo "SKIP: no instrumented musl in $B"
	exit 77
fi
exec "$(dirname "$0")/rr.sh" "$@"
