#!/bin/sh
# run-golden.sh ALTR [CASE.s...]: run altr's golden tests. Each case file
# (default: every tests/altr/*.s) holds the rules, the input and the
# expected output in marked sections; see tests/altr/README.md. Each case runs
# in its own work folder, kept (and named) when the case fails.
# Exit 0 if all pass, 1 if any fails, 2 on usage errors.
set -eu

die() { echo "golden: $*" >&2; exit 2; }

[ $# -ge 1 ] || die "usage: run-golden.sh ALTR [CASE.s...]"
altr=$1
shift
[ -x "$altr" ] || die "altr '$altr' is not an executable"
altr=$(cd "$(dirname "$altr")" && pwd)/$(basename "$altr")
here=$(cd "$(dirname "$0")" && pwd)
rulesdir=${RULES_DIR:-$here/../../rules}
[ -d "$rulesdir" ] && rulesdir=$(cd "$rulesdir" && pwd)
[ $# -gt 0 ] || set -- "$here"/*.s
[ -f "$1" ] || die "no golden cases found (looked for $1)"

root=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$root"' EXIT
pass=0 fail=0 failed=

for case in "$@"; do
	name=$(basename "$case" .s)
	w=$root/$name
	mkdir -p "$w"
	# Split the case: "# @NAME [value]" starts section NAME; text before the
	# first marker is a description. @args/@expect-exit/@rules-file take
	# their value on the marker line.
	if ! awk -v w="$w" '
		/^# @[a-z-]+([ \t]|$)/ {
			sec = substr($2, 2); val = $0
			sub(/^# @[a-z-]+[ \t]*/, "", val)
			if (sec == "args") { print val > (w "/args"); next }
			if (sec == "expect-exit") { print val > (w "/exit"); next }
			if (sec == "rules-file") { print val >> (w "/rules-files"); next }
			if (sec == "rules") file = w "/rules.rules"
			else if (sec == "input") file = w "/input.s"
			else if (sec == "expect") file = w "/expect.s"
			else if (sec == "expect-stderr") file = w "/expect-stderr"
			else { print FILENAME ":" NR ": unknown section @" sec > "/dev/stderr"; bad = 1; exit 1 }
			printf "" > file
			next
		}
		file != "" { print > file }
		END { exit bad }' "$case"; then
		fail=$((fail + 1)) failed="$failed $name"
		echo "FAIL $name: malformed case file"
		continue
	fi

	why=
	[ -f "$w/input.s" ] || why="no @input section"
	set --
	if [ -f "$w/rules-files" ]; then
		while read -r rf; do
			[ -n "$rf" ] && set -- "$@" -r "$rulesdir/$rf"
		done < "$w/rules-files"
	fi
	[ -f "$w/rules.rules" ] && set -- "$@" -r rules.rules
	[ $# -gt 0 ] || why="${why:-no @rules or @rules-file section}"
	args=$(cat "$w/args" 2>/dev/null || true)
	want=$(cat "$w/exit" 2>/dev/null || echo 0)

	if [ -z "$why" ]; then
		echo "cd $w && $altr $* $args -o out.s input.s" > "$w/cmd"
		# shellcheck disable=SC2086 # @args is a word list
		(cd "$w" && exec "$altr" "$@" $args -o out.s input.s) >"$w/stdout" 2>"$w/stderr" && rc=0 || rc=$?
		if [ "$rc" -ne "$want" ]; then
			why="exit status $rc, expected $want"
		elif [ "$want" -ne 0 ] && [ -e "$w/out.s" ]; then
			why="failed (exit $rc) but wrote out.s anyway"
		elif [ -f "$w/expect.s" ] && ! diff -u "$w/expect.s" "$w/out.s" >"$w/diff" 2>&1; then
			why="output differs from @expect (diff -u below)"
		fi
		if [ -z "$why" ] && [ -f "$w/expect-stderr" ]; then
			if [ ! -s "$w/expect-stderr" ]; then
				[ ! -s "$w/stderr" ] || why="stderr not empty: $(head -n 1 "$w/stderr")"
			else
				while IFS= read -r line; do
					[ -n "$line" ] || continue
					grep -qF -- "$line" "$w/stderr" || { why="stderr lacks '$line'"; break; }
				done < "$w/expect-stderr"
			fi
		fi
	fi

	if [ -z "$why" ]; then
		pass=$((pass + 1))
		echo "PASS $name"
		rm -rf "$w"
	else
		fail=$((fail + 1)) failed="$failed $name"
		echo "FAIL $name: $why"
		[ -f "$w/diff" ] && [ -s "$w/diff" ] && head -n 30 "$w/diff" | sed 's/^/    /'
		[ -s "$w/stderr" ] && head -n 5 "$w/stderr" | sed 's/^/    stderr: /'
	fi
done

echo "golden: $((pass + fail)) cases, $pass passed, $fail failed"
if [ "$fail" -gt 0 ]; then
	keep=$(mktemp -d "${TMPDIR:-/tmp}/golden-failures.XXXXXX")
	for n in $failed; do mv "$root/$n" "$keep/"; done
	echo "golden: work folders of failing cases kept in $keep (CASE/cmd reruns altr)"
	exit 1
fi
exit 0
