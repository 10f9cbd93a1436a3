#!/bin/sh
# run.sh [-k] CC1 CC2 [NAME...]: builds every test program (tests/programs/
# NAME.c, or the NAMEs given) with two compilers, runs each build in a
# fresh folder with the same arguments, environment and stdin (input.txt),
# and compares stdout, stderr and exit status byte for byte.  A CC is a
# command with optional flags ("gcc -O0"); -O2 -g come first, so the CC's
# own flags win.  A compiler whose --version says "(rdb)" is rdb-cc: its
# builds also link probe.c, which exits 99 if the hooks did not run.
# The first build's stdout must also hold the line "ok NAME" (self-checks).
#
# Prints a line per program and a summary; exit 0 when all match, 1
# otherwise, 77 (skipped) when rdb-cc is given but its instrumented musl,
# librdb or crt is not built (1 with RDB_TEST_NO_SKIP=1).  Keeps the work folder when anything failed
# (-k: always).  RUN_TIMEOUT (seconds, default 300) bounds each run.
# PROGRAMS_SRC: another folder of such programs (tests/threads).
set -u

keep=0
if [ "${1:-}" = -k ]; then keep=1; shift; fi
[ $# -ge 2 ] || { echo "usage: run.sh [-k] CC1 CC2 [NAME...]" >&2; exit 2; }
cc1=$1 cc2=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
timeout_s=${RUN_TIMEOUT:-300}
src=${PROGRAMS_SRC:-$here}

work=$(mktemp -d "${TMPDIR:-/tmp}/rdb-programs.XXXXXX") || exit 2
status=1
trap 'if [ $status -eq 0 ] && [ $keep -eq 0 ] || [ $status -eq 77 ]; then rm -rf "$work"; else echo "work folder kept: $work"; fi' EXIT
trap 'exit 130' INT TERM

is_rdbcc() { # CC's first word answers --version with "(rdb)"
	set -- $1
	"$1" --version 2>/dev/null | head -n 1 | grep -q '(rdb)'
}

# no_skip WHY: with RDB_TEST_NO_SKIP=1 (scripts/test.sh, which builds all
# of it first) what would be a skip is a failure.
no_skip() {
	[ "${RDB_TEST_NO_SKIP:-}" = 1 ] || return 0
	echo "FAIL: $1 (RDB_TEST_NO_SKIP=1: no skipping)"
	exit 1
}

# check_cc CC: the compiler exists; rdb-cc can link a program, or the
# comparison is skipped (exit 77) saying what is missing.
check_cc() {
	set -- $1
	command -v "$1" > /dev/null 2>&1 || { echo "FAIL: compiler not found: $1"; exit 1; }
	is_rdbcc "$1" || return 0
	libc=$("$1" --version 2>&1 | sed -n 's/^libc: //p')
	case $libc in *"not built"*)
		no_skip "rdb-cc's instrumented musl is not built ($libc)"
		echo "SKIP: rdb-cc's instrumented musl is not built ($libc):" \
		     "run 'cmake --build BUILD --target musl'"
		status=77; exit 77;;
	esac
	printf 'int main(void){return 0;}\n' > "$work/link-probe.c"
	if ! "$1" "$work/link-probe.c" -o "$work/link-probe" 2> "$work/link-probe.err"; then
		if grep -q "not found at\|not built" "$work/link-probe.err"; then
			no_skip "rdb-cc cannot link yet: $(head -n 3 "$work/link-probe.err")"
			echo "SKIP: rdb-cc cannot link yet: $(head -n 3 "$work/link-probe.err")"
			status=77; exit 77
		fi
		echo "FAIL: rdb-cc cannot link a trivial program:"; cat "$work/link-probe.err"
		exit 1
	fi
}
check_cc "$cc1"
check_cc "$cc2"

if [ $# -eq 0 ]; then
	for f in "$src"/*.c; do
		n=$(basename "$f" .c)
		[ "$n" = probe ] || set -- "$@" "$n"
	done
fi

# build SIDE CC NAME: the executable SIDE/NAME, messages in SIDE/NAME.cc
build() {
	side=$1 cc=$2 name=$3
	mkdir -p "$work/$side"
	set -- $cc
	c=$1; shift
	extra=
	if is_rdbcc "$cc"; then
		if [ ! -f "$work/$side/probe.o" ]; then
			"$c" -O2 -g "$@" -I"$here/../../runtime" -c "$here/probe.c" \
				-o "$work/$side/probe.o" > "$work/$side/probe.cc" 2>&1 || return 1
		fi
		extra=$work/$side/probe.o
	fi
	"$c" -O2 -g "$@" -o "$work/$side/$name" "$src/$name.c" $extra -lm \
		> "$work/$side/$name.cc" 2>&1
}

# execute SIDE NAME: runs it in SIDE/NAME.run/ with fixed arguments,
# environment and stdin; NAME.out, NAME.err, NAME.status
execute() {
	side=$1 name=$2
	dir=$work/$side/$name.run
	mkdir -p "$dir/tmp"
	# the braces' 2> keeps the shell's own "Terminated" notes quiet
	{
		(cd "$dir" && exec env -i PATH=/usr/bin:/bin HOME=/nonexistent LC_ALL=C TZ=UTC \
			TMPDIR="$dir/tmp" PROGTEST_GREETING=hello "PROGTEST_SPACED=a b  c" PROGTEST_EMPTY= \
			timeout -s KILL "$timeout_s" "../$name" first "two words" "" \
			< "$here/input.txt" > "../$name.out" 2> "../$name.err")
		echo $? > "$work/$side/$name.status"
	} 2> /dev/null
}

pass=0 fail=0 failed=
for name in "$@"; do
	if [ ! -f "$src/$name.c" ]; then
		echo "FAIL $name: no $name.c"; fail=$((fail + 1)); failed="$failed $name"; continue
	fi
	why=
	if ! build a "$cc1" "$name"; then
		why="does not build with $cc1: $(head -n 3 "$work/a/$name.cc" | tr '\n' ' ')"
	elif ! build b "$cc2" "$name"; then
		why="does not build with $cc2: $(head -n 3 "$work/b/$name.cc" | tr '\n' ' ')"
	else
		execute a "$name"
		execute b "$name"
		sa=$(cat "$work/a/$name.status") sb=$(cat "$work/b/$name.status")
		if [ "$sb" = 99 ] && [ "$sa" != 99 ]; then
			why="hooks did not run in the $cc2 build (probe: $(head -n 1 "$work/b/$name.err"))"
		elif [ "$sa" = 137 ] || [ "$sb" = 137 ]; then
			why="killed after ${timeout_s}s (status $sa / $sb)"
		elif ! grep -qx "ok $name" "$work/a/$name.out"; then
			why="$cc1 build did not print 'ok $name' (status $sa): $(tail -n 1 "$work/a/$name.out")"
		else
			for s in out err status; do
				if ! cmp -s "$work/a/$name.$s" "$work/b/$name.$s"; then
					why="${why:+$why; }$s differs"
				fi
			done
		fi
	fi
	if [ -z "$why" ]; then
		echo "PASS $name"
		pass=$((pass + 1))
	else
		echo "FAIL $name: $why"
		for s in out err status; do
			if [ -f "$work/b/$name.$s" ] && ! cmp -s "$work/a/$name.$s" "$work/b/$name.$s"; then
				diff "$work/a/$name.$s" "$work/b/$name.$s" | head -n 10 | sed "s/^/    $s: /"
			fi
		done
		fail=$((fail + 1))
		failed="$failed $name"
	fi
done
echo "programs: $pass passed, $fail failed ($cc1 vs $cc2)${failed:+; failed:$failed}"
[ $fail -eq 0 ] && status=0
exit $status
