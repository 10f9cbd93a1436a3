#!/bin/sh
# lib.sh: what every check of tests/record/checks/ shares; each NAME.sh
# sources it first and calls pass at its end.
#   NAME.sh RDB RDB_CC     (ctest: record-check-NAME)
# A check runs in a fresh work folder, kept when it fails.  Exit 0 pass,
# 1 fail, 77 skipped (no instrumented musl yet, unless RDB_TEST_NO_SKIP=1;
# snapfail: no seccomp here, which no machine the README names lacks:
# tests/allowed-skips.txt does not list it).
set -u
[ $# -eq 2 ] || { echo "usage: $0 RDB RDB_CC" >&2; exit 2; }
RDB=$1 RDB_CC=$2 case=$(basename "$0" .sh)
SRC=$(cd "$(dirname "$0")/../progs" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/rdb-check.XXXXXX")
status=1
trap 'if [ $status -eq 0 ] || [ $status -eq 77 ]; then rm -rf "$W"; else echo "work folder kept: $W" >&2; fi' EXIT
fail() { echo "FAIL ($case): $*" >&2; status=1; exit 1; }
cd "$W" || exit 1
# build NAME OUT [FLAGS]: progs/NAME.c built by rdb-cc (-O1 unless FLAGS).
# Skipped (77) only while the instrumented musl is not built (with
# RDB_TEST_NO_SKIP=1 that fails too); any other compile error fails.
build() {
	b_src=$SRC/$1.c b_out=$2
	shift 2
	[ $# -gt 0 ] || set -- -O1
	case $("$RDB_CC" --version 2>&1 | sed -n 's/^libc: //p') in
	"" | *"(not built)"*)
		[ "${RDB_TEST_NO_SKIP:-}" = 1 ] && fail "rdb-cc's instrumented musl is not built (RDB_TEST_NO_SKIP=1)"
		status=77; echo "SKIP: rdb-cc's instrumented musl is not built"; exit 77 ;;
	esac
	"$RDB_CC" "$@" "$b_src" -o "$b_out" 2>cc.err || { cat cc.err; fail "rdb-cc $* $b_src failed"; }
}
expect() { grep -q -- "$2" "$1" || { echo "--- $1:"; cat "$1"; fail "no '$2' in $1"; }; }
# wait_for WHAT CMD...: runs CMD every 0.1 s until it succeeds (an event:
# a file, a line in one, a trace record), failing after 60 s: no check
# may assume how fast a loaded machine gets there.
wait_for() {
	w_what=$1 w_n=0
	shift
	until "$@"; do
		w_n=$((w_n + 1))
		[ $w_n -le 600 ] || fail "waited 60 s for $w_what"
		sleep 0.1
	done
}
# rec_pid TRACE: the recorded process's pid, from the trace's header (so
# a kill is by id, nothing broader); empty until the header is written
rec_pid() { "$RDB" info "$1" 2>/dev/null | sed -n 's/^started:.*pid \([0-9]*\)$/\1/p'; }
has_pid() { [ -n "$(rec_pid "$1")" ]; }
# from_each TRACE REC_OUT STATUS [whole]: replay --verify --from k, for
# every complete interval k: exit status STATUS, stdout the end of REC_OUT
# (with "whole", all of it: the program prints only at its end), exactly
# as long as what the trace's syscalls wrote to stdout from k's start on
# (rr.sh's printed.awk over rdb truss).
from_each() {
	k=1 last=$("$RDB" info --complete "$1")
	"$RDB" truss "$1" | awk -f "$SRC/../printed.awk" > "$1.printed" || fail "rdb truss $1"
	while [ $k -le "$last" ]; do
		"$RDB" replay --verify --from $k "$1" > f$k.out 2> f$k.err
		[ $? -eq "$3" ] || { cat f$k.err; fail "replay --from $k of $1"; }
		if [ "${4:-}" = whole ]; then cmp -s "$2" f$k.out; else
			tail -c "$(wc -c < f$k.out)" "$2" | cmp -s - f$k.out; fi ||
			{ cat f$k.out; fail "replay --from $k of $1: not the end of the recording"; }
		want=$(awk -v k=$k '$1 == k { print $2 }' "$1.printed")
		[ "$(wc -c < f$k.out)" = "${want:-?}" ] ||
			fail "replay --from $k of $1 printed $(wc -c < f$k.out) bytes, the recording ${want:-?} from there on"
		k=$((k + 1))
	done
}

# pass: the end of a check that got there (the work folder goes).
pass() { status=0; exit 0; }
