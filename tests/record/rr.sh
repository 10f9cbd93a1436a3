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
# stdout and stderr the end of the recording's.
set -u
RDB=$1 RDB_CC=$2 RR_CFLAGS=${RR_CFLAGS:-}
shift 2
fails=0
for prog in "$@"; do
	name=$(basename "$prog" .c)
	W=$(mktemp -d "${TMPDIR:-/tmp}/rr-$name.XXXXXX")
	tag() { sed -n "s/^.*$1: //p" "$prog" | sed "s/ *\*\/ *$//" | head -n 1; }
	args="" stdin="" setup="" before=""
	case $prog in
	*.c)
		args=$(tag rr-args) stdin=$(tag rr-stdin) setup=$(tag rr-setup)
		before=$(tag rr-before-replay)
		if ! "$RDB_CC" -O1 $RR_CFLAGS "$prog" -o "$W/$name" 2>"$W/cc.err"; then
			echo "FAIL $name: rdb-cc failed (see $W/cc.err)"
			fails=$((fails + 1))
			continue
		fi
		exe=$W/$name ;;
	*) exe=$(cd "$(dirname "$prog")" && pwd)/$(basename "$prog") ;;
	esac
	(
		cd "$W" || exit 1
		[ -n "$setup" ] && sh -c "$setup"
		if [ -n "$stdin" ]; then printf "$stdin" > stdin.txt
		elif [ -n "${RR_STDIN:-}" ]; then cp "$RR_STDIN" stdin.txt
		else : > stdin.txt; fi
		eval "set -- $args"
		record() {
			rm -rf trace
			"$RDB" record "$@" < stdin.txt > rec.out 2> rec.all
			echo $? > rec.status
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
		timeout "${RR_TIMEOUT:-120}" "$RDB" replay --verify trace < /dev/null \
			> rep.out 2> rep.err
		echo $? > rep.status
		# and with --verify-full: the replay then runs without the read and
		# write hooks (runtime/unhook.c), as one without --verify does, and
		# compares all memory before each boundary's values are loaded
		# (they would mend a byte it got wrong)
		timeout "${RR_TIMEOUT:-120}" "$RDB" replay --verify-full trace < /dev/null > plain.out 2> plain.err
		echo $? > plain.status
		echo "${n:-0}" > intervals
		for k in $(printf '%s\n' 2 $(( (${n:-0} + 1) / 2 )) "${n:-0}" | awk -v n="${n:-0}" '$1 >= 2 && $1 <= n' | sort -un); do
			timeout "${RR_TIMEOUT:-120}" "$RDB" replay --verify --from "$k" trace \
				< /dev/null > "from$k.out" 2> "from$k.err"
			echo $? > "from$k.status"
		done
	)
	ok=1
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
