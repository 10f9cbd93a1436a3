#!/bin/sh
# limits.sh BUILD RDB RDB_CC PROG.c [VARIANT]: a program that drives one
# of the runtime's tables past a size it once had fixed (issue 16).  The
# program exits 0 only if it saw what it would natively (every signal
# delivered, every mapping intact).  Its recording must end as its
# unrecorded run does (same stdout, status 0, nothing from rdb on stderr),
# then rr.sh replays it whole and from three intervals with --verify.
# Exit 77 (skipped) while the instrumented musl is not built.
#   A program whose comment says "limits (stop)" meets a limit that cannot
# be lifted (a kernel one): its recording must stop cleanly, with rdb's
# message, while the program runs on to the same output and status; rdb
# info says why, and the replay ends where the recording stopped.
#   VARIANT: the program runs with that argument, which its comment names
# in a line "limits-variant: VARIANT (stop)": a stop as above (the test
# record-limits-NAME-VARIANT; sigpending.c's "hard" lowers the hard limit).
set -u
RR_DIR=$(cd "$(dirname "$0")" && pwd)
B=$1 RDB=$2 RDB_CC=$3 PROG=$4 VARIANT=${5:-}
[ -f "$B/libc-wrap/sysroot/lib/libc.a" ] || { echo "SKIP: no instrumented musl in $B"; exit 77; }
prog=$(basename "$PROG" .c)
name=$prog${VARIANT:+-$VARIANT}
stop=0
if [ -n "$VARIANT" ]; then
	grep -q "limits-variant: $VARIANT (stop)" "$PROG" && stop=1
	# rr.sh, below, replays a run without arguments only
	[ $stop = 1 ] || { echo "FAIL $name: no 'limits-variant: $VARIANT (stop)' in $PROG"; exit 1; }
else
	grep -q 'limits (stop)' "$PROG" && stop=1
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/limits-$name.XXXXXX")
trap 'rm -rf "$W"' EXIT
"$RDB_CC" -O1 "$PROG" -o "$W/$prog" || { echo "FAIL $name: rdb-cc failed"; exit 1; }
cd "$W" || exit 1
# "limits-env: VAR=VALUE" in its comment: for both runs
envtag=$(sed -n 's/^.*limits-env: \([A-Z_]*=[0-9]*\).*$/\1/p' "$PROG" | head -n 1)
[ -n "$envtag" ] && export "$envtag"
"./$prog" $VARIANT > native.out 2> native.err
st=$?
[ $st = 0 ] || { echo "FAIL $name: the unrecorded run ended with status $st"; cat native.err; exit 1; }
"$RDB" record -i "${RR_INTERVAL:-1}" --checksum -o trace -- "./$prog" $VARIANT > rec.out 2> rec.err
st=$?
if [ $stop = 1 ]; then
	if [ $st != 0 ] || ! cmp -s native.out rec.out ||
	   ! grep -q 'the recording stops .*, the program runs on un' rec.err; then
		echo "FAIL $name: the recording did not stop cleanly (status $st):"
		diff native.out rec.out | head -n 5
		head -n 5 rec.err
		exit 1
	fi
	"$RDB" info trace > info.out 2>&1
	grep -q 'could not go on recording' info.out ||
		{ echo "FAIL $name: rdb info does not say the recording stopped:"; cat info.out; exit 1; }
	"$RDB" replay --verify trace > rep.out 2> rep.err
	st=$?
	if [ $st != 0 ] || ! grep -q 'replay ends where the recording stopped' rep.err; then
		echo "FAIL $name: the replay ended with status $st:"
		head -n 5 rep.err
		exit 1
	fi
	echo "ok   $name: the recording stopped cleanly, the program ran on: $(cat rec.out)"
	exit 0
fi
if [ $st != 0 ] || ! cmp -s native.out rec.out || [ -s rec.err ]; then
	echo "FAIL $name: recorded, it ended with status $st (unrecorded: 0):"
	diff native.out rec.out | head -n 5
	head -n 5 rec.err
	exit 1
fi
echo "ok   $name recorded as it runs unrecorded: $(cat rec.out)"
rm -rf trace
"$RR_DIR/rr.sh" "$RDB" "$RDB_CC" "$PROG"
