#!/bin/sh
# rr.sh: record each program, replay it, and require that the replay's
# stdout, stderr and exit status equal the recording's byte for byte.
#
#   rr.sh RDB RDB_CC PROG.c...     (or PROG executables built with rdb-cc)
#
# A .c file is built with RDB_CC first.  Its comment may say, one per line:
#   rr-args: ARGS            arguments (shell words)
#   rr-stdin: TEXT           stdin for the recording (printf format); else
#                            the file $RR_STDIN if set, else empty
#   rr-setup: SHELL          run in the work folder before recording
#   rr-before-replay: SHELL  run before replay (e.g. delete the input file)
# and, for the ground truth the recording itself must meet:
#   rr-expect-status: N      the program's exit status (default 0; 128+S
#                            for death by signal S)
#   rr-expect-out: REGEX     a line of its stdout (grep's basic regexps;
#                            as many as needed); without any, its stdout
#                            must not be empty
#   rr-expect-err: REGEX     the same for its stderr
#   rr-native: differs: WHY  its output differs from RR_NATIVE_CC's build
# With RR_NATIVE_CC (a compiler: gcc), a .c file is also built with it
# and run first, in the same folder with the same arguments and stdin:
# its stdout, stderr and status must be the recording's (unless the
# program says rr-native: differs), and its status the expected one.
# RR_EXPECT_OUT: one more expected stdout line for every program, %n
# standing for its name (tests/programs: '^ok %n$').
# Each program runs in its own work folder; a failing one keeps its folder
# and prints where it is.  Exit status: the number of failures (0: all pass).
# RR_CFLAGS: more flags for RDB_CC; RR_TIMEOUT: seconds a replay may take
# (default 120); RR_INTERVAL: CPU milliseconds per interval (default 1); a
# run with fewer than 4 intervals is recorded again with --every-sic
# RR_EVERY_SIC (default 2000), then 100, so that every run has several.
#
# The recording stores checksums; the whole replay runs with --verify and
# once more with --verify-full (then without hooks), and replays from three
# middle intervals run with --verify (the second, the middle and the
# last complete one): their exit status must be the recording's and their
# stdout and stderr the end of the recording's, exactly as long as what
# the trace's syscalls (rdb truss) wrote to fds 1 and 2 from that
# interval's start on (a replay that printed nothing passed before).
set -u
RDB=$1 RDB_CC=$2 RR_CFLAGS=${RR_CFLAGS:-}
RR_DIR=$(cd "$(dirname "$0")" && pwd)
shift 2
fails=0
for prog in "$@"; do
	name=$(basename "$prog" .c)
	W=$(mktemp -d "${TMPDIR:-/tmp}/rr-$name.XXXXXX")
	tags() { sed -n "s/^.*$1: //p" "$prog" | sed "s/ *\*\/ *$//"; }
	tag() { tags "$1" | head -n 1; }
	args="" stdin="" setup="" before="" native=""
	case $prog in
	*.c)
		args=$(tag rr-args) stdin=$(tag rr-stdin) setup=$(tag rr-setup)
		before=$(tag rr-before-replay)
		if ! "$RDB_CC" -O1 $RR_CFLAGS "$prog" -o "$W/$name" 2>"$W/cc.err"; then
			echo "FAIL $name: rdb-cc failed (see $W/cc.err)"
			fails=$((fails + 1))
			continue
		fi
		exe=$W/$name
		tags rr-expect-out > "$W/expect.out"
		tags rr-expect-err > "$W/expect.err"
		want=$(tag rr-expect-status)
		if [ -n "${RR_NATIVE_CC:-}" ] && [ -z "$(tag rr-native)" ]; then
			if ! $RR_NATIVE_CC -O1 $RR_CFLAGS "$prog" -o "$W/$name.native" -lm 2>"$W/native-cc.err"; then
				echo "FAIL $name: $RR_NATIVE_CC failed (see $W/native-cc.err)"
				fails=$((fails + 1))
				continue
			fi
			native=$W/$name.native
		fi ;;
	*) exe=$(cd "$(dirname "$prog")" && pwd)/$(basename "$prog")
		: > "$W/expect.out"; : > "$W/expect.err"; want= ;;
	esac
	[ -n "${RR_EXPECT_OUT:-}" ] && printf '%s\n' "$RR_EXPECT_OUT" | sed "s/%n/$name/g" >> "$W/expect.out"
	echo "${want:-0}" > "$W/expect.status"
	(
		cd "$W" || exit 1
		[ -n "$setup" ] && sh -c "$setup"
		if [ -n "$stdin" ]; then printf "$stdin" > stdin.txt
		elif [ -n "${RR_STDIN:-}" ]; then cp "$RR_STDIN" stdin.txt
		else : > stdin.txt; fi
		eval "set -- $args"
		# run BASE IN CMD...: CMD's stdout, stderr and exit status in
		# BASE.out, .err, .status; in a subshell, so that the shell's note
		# on a death by signal ("Terminated") is not in BASE.err
		run() {
			b=$1 in=$2
			shift 2
			{ (exec "$@" < "$in" > "$b.out" 2> "$b.err"); echo $? > "$b.status"; } 2> /dev/null
		}
		# the native build's run: the truth the recording must print
		[ -n "$native" ] && run native stdin.txt timeout "${RR_TIMEOUT:-120}" "$native" "$@"
		record() {
			rm -rf trace
			run rec stdin.txt "$RDB" record "$@"
			mv rec.err rec.all
			# rdb's refusals (an unrecordable call) are the recording's
			# messages, not the program's output: the replay has none
			grep -v '^rdb: refused ' rec.all > rec.err || true
			n=$("$RDB" info --complete trace)
		}
		record -i "${RR_INTERVAL:-1}" --checksum -o trace -- "$exe" "$@"
		# a run of a few ms: intervals by instruction count instead
		[ "${n:-0}" -ge 4 ] || record --every-sic "${RR_EVERY_SIC:-2000}" --checksum -o trace -- "$exe" "$@"
		[ "${n:-0}" -ge 4 ] || record --every-sic 100 --checksum -o trace -- "$exe" "$@"
		[ -n "$before" ] && sh -c "$before"
		# a replay that hangs (e.g. waiting for a signal that never comes)
		# fails after RR_TIMEOUT seconds instead of hanging the suite
		run rep /dev/null timeout "${RR_TIMEOUT:-120}" "$RDB" replay --verify trace
		# and with --verify-full: the replay then runs without the read and
		# write hooks (runtime/unhook.c), as one without --verify does, and
		# compares all memory before each boundary's values are loaded
		# (they would mend a byte it got wrong)
		run plain /dev/null timeout "${RR_TIMEOUT:-120}" "$RDB" replay --verify-full trace
		echo "${n:-0}" > intervals
		# what the recorded syscalls wrote to stdout and stderr from each
		# interval's start on: "K OUT ERR" lines (K from 1)
		"$RDB" truss trace 2> truss.err | awk -f "$RR_DIR/printed.awk" > printed
		for k in $(printf '%s\n' 2 $(( (${n:-0} + 1) / 2 )) "${n:-0}" | awk -v n="${n:-0}" '$1 >= 2 && $1 <= n' | sort -un); do
			run "from$k" /dev/null timeout "${RR_TIMEOUT:-120}" "$RDB" replay --verify --from "$k" trace
		done
	)
	ok=1
	# the program's own output on stderr: without rdb's messages (a
	# refusal, a call it makes fail), which no syscall of the trace wrote
	for f in "$W"/rec.err "$W"/from*.err; do
		[ -f "$f" ] && grep -v '^rdb: ' "$f" > "${f%.err}.perr"
	done
	# the ground truth: the recorded run did what the program does
	if [ "$(cat "$W/rec.status")" != "$(cat "$W/expect.status")" ]; then
		ok=0
		echo "FAIL $name: the recording ended with status $(cat "$W/rec.status"), expected $(cat "$W/expect.status"):"
		tail -n 5 "$W/rec.err"
	fi
	for f in out err; do
		if [ ! -s "$W/expect.$f" ] && [ $f = out ] && [ ! -s "$W/rec.out" ]; then
			ok=0
			echo "FAIL $name: the recording printed nothing to stdout"
		fi
		rf=$W/rec.$f
		[ $f = err ] && rf=$W/rec.perr
		while IFS= read -r re; do
			if ! grep -q -- "$re" "$rf"; then
				ok=0
				echo "FAIL $name: no line '$re' in the recording's std$f:"
				tail -n 5 "$W/rec.$f"
			fi
		done < "$W/expect.$f"
	done
	if [ -n "$native" ]; then
		if [ "$(cat "$W/native.status")" != "$(cat "$W/expect.status")" ]; then
			ok=0
			echo "FAIL $name: the $RR_NATIVE_CC build ended with status $(cat "$W/native.status"), expected $(cat "$W/expect.status")"
		fi
		for f in out perr; do
			if ! cmp -s "$W/native.${f#p}" "$W/rec.$f"; then
				ok=0
				echo "FAIL $name: the recording's std${f#p} differs from the $RR_NATIVE_CC build's:"
				diff "$W/native.${f#p}" "$W/rec.$f" | head -n 10
			fi
		done
	fi
	if [ -s "$W/truss.err" ] || [ ! -s "$W/printed" ]; then
		ok=0
		echo "FAIL $name: rdb truss of the recording failed:"
		head -n 5 "$W/truss.err"
	fi
	for r in rep plain; do
		for f in out err status; do
			if ! cmp -s "$W/rec.$f" "$W/$r.$f"; then
				ok=0
				echo "FAIL $name: replay$([ $r = plain ] && echo " --verify-full") $f differs from the recording's:"
				diff "$W/rec.$f" "$W/$r.$f" | head -n 20
			fi
		done
	done
	for st in "$W"/from*.status; do
		[ -f "$st" ] || continue
		k=$(basename "$st" .status)
		if ! cmp -s "$W/rec.status" "$st"; then
			ok=0
			echo "FAIL $name: replay --$k ended with status $(cat "$st"), the recording $(cat "$W/rec.status"):"
			head -n 5 "$W/$k.err"
		fi
		for f in out err; do
			if ! tail -c "$(wc -c < "$W/$k.$f")" "$W/rec.$f" | cmp -s - "$W/$k.$f"; then
				ok=0
				echo "FAIL $name: replay --$k's $f is not the end of the recording's:"
				head -n 5 "$W/$k.$f"
			fi
		done
		# as long as what the recording wrote after boundary K
		set -- $(awk -v k="${k#from}" '$1 == k { print $2, $3 }' "$W/printed")
		if [ "${1:-x}" != "$(wc -c < "$W/$k.out")" ] || [ "${2:-x}" != "$(wc -c < "$W/$k.perr")" ]; then
			ok=0
			echo "FAIL $name: replay --$k printed $(wc -c < "$W/$k.out") bytes to stdout and $(wc -c < "$W/$k.perr") to stderr; the recording wrote ${1:-?} and ${2:-?} from there on"
		fi
	done
	froms=$(cd "$W" && ls from*.status 2>/dev/null | sed 's/from\(.*\)\.status/\1/' | sort -n | tr '\n' ' ')
	if [ $ok = 1 ]; then
		echo "ok   $name (status $(cat "$W/rec.status"), $(cat "$W/intervals") intervals, from ${froms:-none})"
		rm -rf "$W"
	else
		echo "     work folder kept: $W"
		fails=$((fails + 1))
	fi
done
exit $fails
