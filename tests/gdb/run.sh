#!/bin/sh
# run.sh: scripted gdb sessions on replays, compared with gdb's own
# `record full` on the same program built natively (tests/gdb/README.md).
#   run.sh native NAME...             each NAME.c built with musl-gcc
#       -static -O0 -g, NAME.gdb run under record full from main; the
#       transcript must equal expected/NAME.out (reviewed by hand)
#   run.sh rdb RDB RDB_CC NAME...     NAME.c built with rdb-cc -O0 -g,
#       recorded with `rdb record`, NAME.gdb run by `rdb replay
#       --gdb-batch` from main; the transcript must equal the native one
#   run.sh update NAME...             rewrite expected/NAME.out
#   run.sh show native|rdb ... NAME   print the transcript, compare nothing
# NAME may be a path or end in .c.  Exit 0 pass, 1 fail, 77 skipped.
set -u
# The programs print descriptor numbers (sys_pipe): none inherited, from
# ctest or a terminal, may shift them.
exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
T=$(cd "$(dirname "$0")" && pwd)
mode=$1
shift
show=
if [ "$mode" = show ]; then show=1 mode=$1; shift; fi
case $mode in
rdb) RDB=$(realpath "$1") RDB_CC=$(realpath "$2"); shift 2 ;;
native|update) ;;
*) echo "usage: run.sh native|update NAME... | run.sh rdb RDB RDB_CC NAME..." >&2; exit 2 ;;
esac
W=$(mktemp -d "${TMPDIR:-/tmp}/rdb-gdbtest.XXXXXX")
status=1
trap 'if [ $status -eq 0 ] || [ $status -eq 77 ]; then rm -rf "$W"; else echo "work folder kept: $W" >&2; fi' EXIT
skip() { echo "SKIP: $*"; status=77; exit 77; }
command -v gdb > /dev/null || skip "no gdb (scripts/setup-debian.sh installs it)"
command -v musl-gcc > /dev/null || skip "no musl-gcc (Debian: musl-tools)"
# Both builds: -O0 -g, and no column entries, so that gdb 13 sees one
# line-table entry per line in both (rdb-cc's hooks would otherwise make
# more of them, and gdb steps back through a line's entries one by one).
CFLAGS="-O0 -g -gno-column-info"

# prologue SIDE [PORT] > FILE: gdb's commands up to main, where both
# sides begin the same session; with PORT (gdb/MI sessions), the rdb side
# connects to `rdb replay --gdbserver PORT` itself.
prologue() {
	[ -n "${2:-}" ] && echo "target extended-remote 127.0.0.1:$2"
	echo "set pagination off"
	echo "set confirm off"
	echo "set width 0"
	echo "set print inferior-events off"
	echo "source $T/stops.py"
	# the test programs' signals go to their handlers (record full's
	# first run to _Exit would stop at them)
	echo "handle SIGUSR1 SIGUSR2 SIGALRM nostop noprint pass"
	# breakpoints 1 and 2 on both sides, so the script's are numbered alike
	echo "break main"
	echo "break _Exit"
	if [ "$1" = native ] && [ -n "$live" ]; then
		# "# native: live" in NAME.gdb: record full from main, going
		# forward live (its hardware watchpoints work only live)
		echo "run"
		echo "record full"
	elif [ "$1" = native ]; then
		# record full from main to _Exit, then back to main: a replay
		# knows the whole run, and record full going forward would
		# otherwise stop where its log ends ("No more reverse-execution
		# history") and then run live
		echo "run"
		echo "record full"
		echo "set record full insn-number-max 4000000"
		echo "continue"
		echo "record goto begin"
		# record full's hardware watchpoints never trigger while it
		# replays its log, software ones do (gdb single-steps the log)
		echo "set can-use-hw-watchpoints 0"
	else
		# rdb's replay stops before the program's first instruction
		echo "continue"
	fi
	echo "delete"
	printf '%s\n' 'echo === BEGIN\n'
}

# body NAME > FILE: NAME.gdb, its marks "@name" replaced by FILE:LINE of
# the line of NAME.c holding the comment "// @name".
# On the native side it ends at a line "# rdb only": the rest is what
# record full cannot do (expected/NAME.rdb.out, written by hand).
body() {
	awk -v side="$2" -v src="$1.c" -v file="$T/$1.c" '
		BEGIN { while ((getline l < file) > 0) { n++
			while (match(l, /\/\/ @[A-Za-z0-9_]+/)) {
				mark[substr(l, RSTART + 4, RLENGTH - 4)] = src ":" n
				l = substr(l, RSTART + RLENGTH) } } }
		/^# rdb only/ && side == "native" { exit }
		{ while (match($0, /@[A-Za-z0-9_]+/)) {
			m = substr($0, RSTART + 1, RLENGTH - 1)
			if (!(m in mark)) { print "run.sh: no // @" m " in " src > "/dev/stderr"; exit 1 }
			$0 = substr($0, 1, RSTART - 1) mark[m] substr($0, RSTART + RLENGTH) }
		  print }' "$T/$1.gdb"
}

# normalize < RAW > TRANSCRIPT: what both sides must print alike, from the
# prologue's end on: the commands (trace-commands), our STOP lines,
# values, watchpoint reports, frames, source lines, MI stop records (as
# reason, function and line); addresses and pids become "?".
normalize() {
	sed -e '/^~"/{s/^~"//;s/\\n"$//;s/\\t/\t/g;s/\\"/"/g;}' |
	sed -n '/^=== BEGIN$/,/^=== END$/p' | sed 1d |
	sed -e 's/0x[0-9a-f][0-9a-f]*/0x?/g' -e 's/process [0-9][0-9]*/process ?/g' \
	    -e 's| at /[^ ]*/\([^/ ]*:[0-9]\)| at \1|' \
	    -e 's#\(file\|fullname\)="/[^"]*/\([^/"]*\)"#\1="\2"#g' \
	    -e 's/^Hardware watchpoint/Watchpoint/' \
	    -e 's/^#[0-9][0-9]*  *\(0x? in \)\{0,1\}/# /' |
	awk '
	/^\*stopped/ {
		r = f = l = ""
		if (match($0, /reason="[^"]*"/)) r = substr($0, RSTART, RLENGTH)
		if (match($0, /func="[^"]*"/)) f = substr($0, RSTART, RLENGTH)
		if (match($0, /line="[^"]*"/)) l = substr($0, RSTART, RLENGTH)
		print "*stopped " r " " f " " l; next }
	/^\^(error|done|running)/ { print; next }
	/^\+\+/ { next }
	/^=== END$/ || /^\+/ || /^STOP / || /^EXIT / || /^VAL/ || /^\$[0-9]+ = / { print; next }
	/^(0x\? *)?[0-9]+\t/ { print; next }
	/^(Hardware )?(read |access \(read\/write\) )?[Ww]atchpoint [0-9]+: / { print; next }
	/^(Old|New) value = / || /^Value = / || /^Value returned is / { print; next }
	/^Run till exit from / || /^No more reverse-execution history/ { print; next }
	/^(Temporary )?[Bb]reakpoint [0-9]+, / { print; next }
	/^# .* at [^ ]+:[0-9]+$/ { print; next }
	/^[A-Za-z_][A-Za-z0-9_]* \(.*\) at [^ ]+:[0-9]+$/ { print; next }
	/^Num  *Type/ || /^[0-9]+  *(breakpoint|hw watchpoint|read watchpoint|acc watchpoint)/ { print; next }
	/^	breakpoint already hit/ { print; next }
	'
}

# side NAME SIDE > TRANSCRIPT: build, (record,) run the session.  The raw
# gdb output stays in $W/NAME.SIDE.raw.
side() {
	n=$1 d=$W/$1.$2
	mkdir -p "$d"
	case $n in mi*) mi=1 ;; *) mi= ;; esac
	live=
	grep -q '^# native: live' "$T/$n.gdb" && live=1
	if [ "$2" = native ]; then
		musl-gcc -static $CFLAGS "$T/$n.c" -o "$d/prog" 2> "$d/cc.err" ||
			{ cat "$d/cc.err" >&2; echo "FAIL: musl-gcc $n.c" >&2; return 1; }
	else
		"$RDB_CC" $CFLAGS "$T/$n.c" -o "$d/prog" 2> "$d/cc.err" ||
			{ cat "$d/cc.err" >&2; echo "FAIL: rdb-cc $n.c" >&2; return 1; }
		# "# rdb record: OPTIONS" in NAME.gdb: rdb record's options
		# (--every-sic N: a short run of many intervals)
		ropts=$(sed -n 's/^# rdb record: //p' "$T/$n.gdb")
		(cd "$d" && "$RDB" record $ropts -o trace -- ./prog < /dev/null > rec.out 2> rec.err) ||
			{ cat "$d/rec.err" >&2; echo "FAIL: rdb record $n" >&2; return 1; }
	fi
	if [ -n "$mi" ]; then
		# gdb/MI as an IDE runs it: MI commands on stdin, each read once
		# the previous one's stop is reported; the rdb side through
		# `rdb replay --gdbserver`, which gdb connects to
		port=
		[ "$2" = rdb ] && port=$((20000 + $$ % 20000))
		prologue "$2" $port > "$d/p.gdb"
		{ body "$n" "$2" || return 1; echo '-interpreter-exec console "echo === END\\n"'; echo '-gdb-exit'; } > "$d/mi.in"
		if [ "$2" = native ]; then
			(cd "$d" && timeout 120 gdb -i=mi -nx -x p.gdb ./prog < mi.in > raw 2>&1)
		else
			(cd "$d" && { timeout 300 "$RDB" replay --gdbserver 127.0.0.1:$port trace > server.out 2>&1 & echo $! > server.pid; }
			 sleep 1
			 # a server that is gone already: no gdb waiting for it
			 ! kill -0 "$(cat server.pid)" 2> /dev/null ||
			 timeout 120 gdb -i=mi -nx -x p.gdb ./prog < mi.in > raw 2>&1
			 kill "$(cat server.pid)" 2> /dev/null; wait
			 cat server.out >> raw)
		fi
	else
		{ prologue "$2"; echo "set trace-commands on"; body "$n" "$2" || return 1
		  printf '%s\n' 'echo === END\n'; } > "$d/s.gdb" || return 1
		if [ "$2" = native ]; then
			(cd "$d" && timeout 120 gdb -batch -nx -x s.gdb ./prog < /dev/null > raw 2>&1)
		else
			(cd "$d" && timeout 300 "$RDB" replay --gdb-batch s.gdb trace < /dev/null > raw 2>&1)
		fi
	fi
	normalize < "$d/raw"
}

# why RAW: the first gdb error in a raw transcript, with the command that
# got it (trace-commands echoes each command with a leading "+").
why() {
	awk '/^\+/ && !/^\+\+/ { c = substr($0, 2) }
	     /^=== BEGIN$/ { go = 1 }
	     go && /Error in sourced command file:$/ { getline m; print "\"" c "\": " m; exit }
	     go && /^\^error,msg=/ { print "\"" c "\": " $0; exit }' "$1"
}

# compare NAME WANT GOT WHAT: the diff and, for a short transcript, why.
compare() {
	if cmp -s "$2" "$3"; then
		echo "ok $1 ($(grep -c '^STOP' "$3") stops)"
		return 0
	fi
	echo "FAIL $1: $4"
	diff "$2" "$3" | head -20
	e=$(why "$W/$1.$5/raw")
	[ -n "$e" ] && echo "FAIL $1: $5 side, gdb error at $e"
	grep '^rdb: ' "$W/$1.$5/raw" | head -3 | sed "s/^/FAIL $1: $5 side says: /"
	return 1
}

# A sensible transcript: it went back at least once and reached the end.
sane() {
	grep -q '^# rdb only\|^-exec-.*--reverse' "$T/$1.gdb" ||
	grep -q '^+reverse-\|^+set exec-direction reverse\|--reverse' "$2" ||
		{ echo "FAIL $1: the session never goes back"; return 1; }
	grep -q '^STOP' "$2" || { echo "FAIL $1: no stop at all"; return 1; }
	[ -n "$live" ] || sed -e 's/^~"\(\\n\)*//' -e '/^=== BEGIN/q' "$W/$1.native/raw" | grep -q '^Breakpoint 2, .* _Exit ' ||
		{ echo "FAIL $1: record full did not record the run up to _Exit:"; sed '/^=== BEGIN$/q' "$W/$1.native/raw" | tail -5; return 1; }
	! grep -q "^Process record: \|^Process record does not support" "$W/$1.native/raw" ||
		{ echo "FAIL $1: record full could not record the whole run:"; grep "^Process record" "$W/$1.native/raw"; return 1; }
	e=$(why "$W/$1.native/raw")
	[ -z "$e" ] || { echo "FAIL $1: native side, gdb error at $e"; return 1; }
	grep -q '^\(~"\)\{0,1\}=== END' "$W/$1.native/raw" ||
		{ echo "FAIL $1: native session did not reach its end (=== END)"; tail -5 "$W/$1.native/raw"; return 1; }
}

# Watchpoints need debug registers that fire for record full: some
# virtual machines grant them and never trigger (record full's live
# watchpoints then miss every write).  rdb's server watches there through
# the shadow pages (docs/gdb.md; reads too: the replays keep their read
# hooks there): on such a machine the rdb side of a
# console session with watchpoints is compared with expected/NAME.out,
# record full's transcript from a machine where they fire (the native
# side's own check), and the rest skips.
hw_fires() {
	[ -n "${hw:-}" ] || { cc -O1 -o "$W/hwbp" "$T/../hwbp-probe.c" && "$W/hwbp" > "$W/hwbp.out" 2>&1 && hw=yes || hw=no; }
	[ "$hw" = yes ]
}

fails=0
for a in "$@"; do
	n=$(basename "$a" .c)
	[ -f "$T/$n.c" ] && [ -f "$T/$n.gdb" ] || { echo "FAIL: no $T/$n.c or $n.gdb"; fails=$((fails + 1)); continue; }
	reviewed=
	if grep -q '^[[:space:]]*\(watch\|rwatch\|awatch\|-break-watch\)[[:space:]]' "$T/$n.gdb" && ! hw_fires; then
		cat "$W/hwbp.out"
		if [ "$mode" = rdb ] && [ -z "$show" ] && [ -f "$T/expected/$n.out" ] &&
		   ! grep -q '^[[:space:]]*-break-watch[[:space:]]' "$T/$n.gdb"; then
			echo "the debug registers do not fire here: compared with expected/$n.out (record full's, reviewed)"
			reviewed=1
		elif [ "$mode" = rdb ]; then
			skip "the debug registers do not fire here: record full cannot run this session, and no reviewed expected/$n.out"
		else
			skip "the debug registers do not fire here: record full's watchpoints never stop"
		fi
	fi
	if [ -n "$show" ]; then
		side "$n" "$mode"
		continue
	fi
	if [ -n "$reviewed" ]; then
		cp "$T/expected/$n.out" "$W/$n.native.out"
	else
		side "$n" native > "$W/$n.native.out" || { fails=$((fails + 1)); continue; }
	fi
	case $mode in
	native)
		sane "$n" "$W/$n.native.out" &&
			compare "$n" "$T/expected/$n.out" "$W/$n.native.out" \
				"record full's transcript is not expected/$n.out" native ||
			fails=$((fails + 1)) ;;
	update)
		sane "$n" "$W/$n.native.out" || { fails=$((fails + 1)); continue; }
		mkdir -p "$T/expected"
		cp "$W/$n.native.out" "$T/expected/$n.out"
		echo "wrote expected/$n.out" ;;
	rdb)
		if [ ! -f "$(dirname "$(dirname "$RDB")")/libc-wrap/sysroot/lib/libc.a" ] &&
		   ! "$RDB_CC" -O0 "$T/$n.c" -o "$W/probe" 2> /dev/null; then
			skip "rdb-cc cannot build $n.c (instrumented musl built?)"
		fi
		side "$n" rdb > "$W/$n.rdb.out" || { fails=$((fails + 1)); continue; }
		if [ -f "$T/expected/$n.rdb.out" ]; then
			# the part record full cannot do: its stops and values
			# only, as expected/NAME.rdb.out says (written by hand)
			k=$(($(wc -l < "$W/$n.native.out") - 2))
			head -n $k "$W/$n.native.out" > "$W/$n.native.head"
			head -n $k "$W/$n.rdb.out" > "$W/$n.rdb.head"
			tail -n +$((k + 1)) "$W/$n.rdb.out" | grep '^STOP \|^\$[0-9]* = \|^=== END$' > "$W/$n.rdb.tail"
			compare "$n" "$W/$n.native.head" "$W/$n.rdb.head" \
				"rdb replay under gdb differs from record full (< native, > rdb)" rdb &&
			compare "$n" "$T/expected/$n.rdb.out" "$W/$n.rdb.tail" \
				"rdb replay --gdb-batch: not the stops of expected/$n.rdb.out (< expected, > rdb)" rdb
		else
			compare "$n" "$W/$n.native.out" "$W/$n.rdb.out" \
				"rdb replay under gdb differs from record full (< native, > rdb)" rdb
		fi || fails=$((fails + 1)) ;;
	esac
done
[ -n "$show" ] && { status=0; exit 0; }
[ $fails -eq 0 ] && status=0
exit $status
