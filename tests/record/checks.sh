#!/bin/sh
# checks.sh RDB RDB_CC CASE: runs tests/record/checks/CASE.sh, one of
# rdb's trace checks beyond output equality (ctest: record-check-CASE).
# Each check is a script of its own there, with lib.sh its shared helper.
[ $# -eq 3 ] || { echo "usage: checks.sh RDB RDB_CC CASE" >&2; exit 2; }
c=$(dirname "$0")/checks/$3.sh
[ "$3" != lib ] && [ -f "$c" ] || { echo "unknown case $3" >&2; exit 2; }
exec "$c" "$1" "$2"
