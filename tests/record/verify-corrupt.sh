#!/bin/sh
# verify-corrupt.sh: rdb replay --verify must catch every damage to a
# recording it is meant to see (docs/design.md invariant 4), at the start and
# from the middle, naming the boundary (or syscall, or the end) and what
# differed.  progs/verifyme.c is recorded with --checksum; trace-edit
# changes one field of one record in a copy, and the replay must exit 125
# with the expected message.  The undamaged trace must replay clean.
#   verify-corrupt.sh RDB RDB_CC TRACE_EDIT CASE
# CASE: clean | context | values | syscall | checksum | signal | ymm | xinuse |
#       x87 | stack | written | exit | nochecksum.
# Exit 0 pass, 1 fail, 77 skipped (no instrumented musl yet; no AVX: ymm).
set -u
RDB=$1 RDB_CC=$2 EDIT=$3 case=$4
SRC=$(cd "$(dirname "$0")" && pwd)/progs
W=$(mktemp -d "${TMPDIR:-/tmp}/rdb-verify.XXXXXX")
status=1
trap 'if [ $status -eq 0 ] || [ $status -eq 77 ]; then rm -rf "$W"; else echo "work folder kept: $W" >&2; fi' EXIT
fail() { echo "FAIL ($case): $*" >&2; status=1; exit 1; }
cd "$W" || exit 1
if [ ! -f "$(dirname "$RDB")/../libc-wrap/sysroot/lib/libc.a" ]; then
	[ "${RDB_TEST_NO_SKIP:-}" = 1 ] && fail "no instrumented musl (RDB_TEST_NO_SKIP=1: no skipping)"
	status=77; echo "SKIP: no instrumented musl"; exit 77
fi

avx=
grep -qw avx /proc/cpuinfo && avx=-DUSE_AVX
if [ "$case" = ymm ] && [ -z "$avx" ]; then status=77; echo "SKIP: no AVX on this processor"; exit 77; fi
"$RDB_CC" -O1 $avx "$SRC/verifyme.c" -o prog 2> cc.err || { cat cc.err; fail "rdb-cc verifyme.c"; }
rec="--checksum"
[ "$case" = nochecksum ] && rec=
"$RDB" record $rec --every-sic 100000 -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
grep -q "^verifyme ok" rec.out || fail "the recording did not run to its end"
last=$("$RDB" info --complete t)
[ "$last" -ge 5 ] || fail "only $last complete intervals (want 5 or more)"
table=$(sed -n 's/^table //p' rec.out)

# damage ARGS...: t copied to d, one field changed (trace-edit's args).
damage() {
	rm -rf d && cp -a t d || fail "copy"
	"$EDIT" d "$@" > edit.out 2>&1 || { cat edit.out; fail "trace-edit $*"; }
}
# diverges WHAT REGEX [REPLAY-ARGS]: replay --verify of d exits 125 and
# says REGEX on stderr.
diverges() {
	what=$1 re=$2
	shift 2
	"$RDB" replay --verify "$@" d > o.out 2> o.err
	st=$?
	[ $st -eq 125 ] || { cat o.err; fail "$what: replay --verify $* exited $st, not 125"; }
	grep -Eq -- "$re" o.err || { cat o.err; fail "$what: replay --verify $*: no '$re'"; }
	echo "ok: $what ($*): $(grep -E -- "$re" o.err | head -1)"
}
# The id of the n-th (from 1; "last") syscall NAME in truss's output.
sc_id() {
	"$RDB" truss t > truss.out || fail "truss"
	grep -E "^#[0-9]+ $1\(" truss.out | if [ "$2" = last ]; then tail -1; else sed -n "$2p"; fi |
		sed 's/^#\([0-9]*\) .*/\1/'
}
# The interval of a syscall id: the last boundary before it.
interval_of() {
	awk -v id="$1" '/^#[0-9]+ /{ n = substr($1, 2) + 0; if (n >= id) exit }
		/^--- interval [0-9]+/{ iv = $3 } END { print iv ? iv : 1 }' truss.out
}

case $case in
clean)
	# The undamaged trace replays with --verify from every interval.
	"$RDB" replay --verify t > o.out 2> o.err || { cat o.err; fail "replay --verify"; }
	cmp -s rec.out o.out || fail "replay output differs"
	k=2
	while [ $k -le "$last" ]; do
		"$RDB" replay --verify --from $k t > o.out 2> o.err || { cat o.err; fail "replay --verify --from $k"; }
		k=$((k + 1))
	done
	"$RDB" replay --verify-full t > o.out 2> o.err || { cat o.err; fail "replay --verify-full"; }
	;;
context)
	# %rbx (gregs[11]) in boundary 3's CONTEXT.
	damage context 11 -m 0=3 -o $((8 + 11 * 8)) -x 0x10
	diverges "a register" "in interval 2: --verify: at boundary 3 %rbx is 0x[0-9a-f]+, the recording had"
	diverges "a register" "in interval 2: --verify: at boundary 3 %rbx is" --from 2
	;;
values)
	# A traced start value of interval 3: a byte of the table it reads.
	damage values 14 -m 0=3 -a $((table + 100)) -o 0 -w 1 -x 0xff
	# (sum, which it feeds, may be in a register: either check names it)
	diverges "a VALUES byte" "in interval 3: --verify: at boundary 4 (the memory interval 3 read or wrote|%r[a-z0-9]+ is)" --from 3
	;;
syscall)
	# The 12th getpid's result (about 5 rounds an interval): pid_sum
	# differs from then on.
	id=$(sc_id getpid 12)
	iv=$(interval_of "$id")
	[ "$iv" -ge 2 ] && [ "$iv" -lt "$last" ] || fail "the 12th getpid (#$id) is in interval $iv"
	damage syscalls 3 -m 0="$id" -o 64 -x 1
	diverges "a syscall's result" "in interval $iv: --verify: at boundary $((iv + 1)) the memory interval $iv read or wrote"
	diverges "a syscall's result" "in interval $iv: --verify: at boundary $((iv + 1)) the memory" --from "$iv"
	;;
checksum)
	damage syscalls 10 -m 0=3 -o 56 -x 1 # hash_full
	diverges "the full checksum" "in interval 2: --verify: at boundary 3 the program's writable memory differs"
	damage syscalls 10 -m 0=4 -o 48 -x 1 # hash_touched
	diverges "the touched checksum" "in interval 3: --verify: at boundary 4 the memory interval 3 read or wrote" --from 3
	diverges "the touched checksum" "in interval 3: --verify: at boundary 4 the memory interval 3 read or wrote"
	;;
signal)
	# The SIGUSR1 the program raises: its SIC count, one more.
	iv=$("$EDIT" t syscalls 27 -o 0 -p | sed 's/.* -> //')
	[ -n "$iv" ] || fail "no SIGNAL record" 
	iv=$(printf '%d' "$iv")
	damage syscalls 27 -o 8 -x 1
	diverges "a SIGNAL's count" "in interval $iv: the program reached count [0-9]+ at pc 0x[0-9a-f]+; the recording's signal is at count"
	[ "$iv" -ge 2 ] && diverges "a SIGNAL's count" "in interval $iv: the program reached count" --from "$iv"
	;;
ymm)
	# %ymm15's upper half (xsave component 2 at offset 576, 16 bytes a
	# register) in boundary 3's CONTEXT: no other check sees it.
	damage context 11 -m 0=3 -o $((2344 + 576 + 15 * 16)) -w 1 -x 1
	diverges "a YMM upper half" "in interval 2: --verify: at boundary 3 the upper half of %ymm15 differs"
	diverges "a YMM upper half" "at boundary 3 the upper half of %ymm15 differs" --from 2
	;;
xinuse)
	# Bit 9 of XSTATE_BV (PKRU's, byte 513 of the image) in boundary 3's
	# CONTEXT: which components are in use, which a handler's frame shows;
	# no register compared differs (PKRU is not one of them).
	damage context 11 -m 0=3 -o $((2344 + 513)) -w 1 -x 2
	diverges "an xsave in-use bit" "in interval 2: --verify: at boundary 3 the xsave in-use bitmap \(XSTATE_BV\) differs"
	diverges "an xsave in-use bit" "at boundary 3 the xsave in-use bitmap \(XSTATE_BV\) differs" --from 2
	;;
x87)
	# %st(0) (fxsave offset 32) and the x87 control word (offset 0).
	damage context 11 -m 0=3 -o $((2344 + 32)) -w 1 -x 1
	diverges "an x87 register" "in interval 2: --verify: at boundary 3 %st\(0\) differs"
	diverges "an x87 register" "at boundary 3 %st\(0\) differs" --from 2
	damage context 11 -m 0=4 -o 2344 -w 2 -x 0x0400
	diverges "the x87 control word" "at boundary 4 the x87 control word differs"
	;;
stack)
	# A byte of the program's path at the top of the main stack in
	# interval 3's STACK record: live (above %rsp), read by nobody, so
	# only the hash of the live stack sees it in a replay from 3.
	damage stack 13 -m 0=3 -n 0 -o -16 -w 1 -x 1
	diverges "a stack byte" "in interval 3: --verify: at boundary 4 the memory interval 3 read or wrote, or its live stack" --from 3
	;;
written)
	# The recorded hash of the 6th write to verifyme.out ...
	sc_id write 1 > /dev/null # (truss.out, for interval_of)
	fd=$(sed -n 's/^#[0-9]* open(.*) = \([0-9]*\)$/\1/p' truss.out | head -1)
	[ -n "$fd" ] || fail "no open of verifyme.out"
	damage syscalls 3 -m 8=1 -m 16="$fd" -n 5 -o 80 -x 1
	diverges "a write's hash" "at syscall #[0-9]+: --verify: in interval [0-9]+ the bytes it wrote differ from the recording's: recorded write\($fd,"
	iv=$("$EDIT" d syscalls 3 -m 8=1 -m 16="$fd" -n 5 -o 0 -p | sed 's/.* -> //')
	iv=$(interval_of "$(printf '%d' "$iv")")
	[ "$iv" -ge 2 ] && diverges "a write's hash" "the bytes it wrote differ" --from "$iv"
	# ... and the bytes themselves: getppid's result, which the program
	# writes to the file from a buffer it wipes at once.
	id=$(sc_id getppid 1)
	iv=$(interval_of "$id")
	damage syscalls 3 -m 0="$id" -o 64 -x 1
	diverges "the bytes written" "at syscall #$((id + 1)): --verify: in interval $iv the bytes it wrote differ from the recording's: recorded write\($fd,"
	[ "$iv" -ge 2 ] && diverges "the bytes written" "at syscall #$((id + 1)): --verify: in interval $iv the bytes it wrote differ" --from "$iv"
	;;
exit)
	# The last getpid's result, after the last boundary: only the check
	# at the end sees pid_sum differ.
	id=$(sc_id getpid last)
	iv=$(interval_of "$id")
	[ "$iv" -eq "$("$RDB" info t | sed -n 's/^intervals: *\([0-9]*\).*/\1/p')" ] ||
		fail "the last getpid (#$id) is in interval $iv, not the last one"
	damage syscalls 3 -m 0="$id" -o 64 -x 1
	diverges "after the last boundary" "in interval $iv: --verify: at the program's end \(after syscall #[0-9]+\) the memory interval $iv read or wrote"
	diverges "after the last boundary" "in interval $iv: --verify: at the program's end" --from "$iv"
	;;
nochecksum)
	# A trace without checksums: --verify says what it can compare.
	"$RDB" replay --verify t > o.out 2> o.err || { cat o.err; fail "replay --verify"; }
	grep "^rdb: t was recorded without --checksum: --verify compares the registers at each boundary only" o.err ||
		{ cat o.err; fail "no word that --verify compares registers only"; }
	cmp -s rec.out o.out || fail "replay output differs"
	;;
*)
	fail "unknown case"
	;;
esac
status=0
