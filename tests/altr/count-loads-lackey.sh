#!/bin/sh
# count-loads-lackey.sh ALTR RULES_DIR: altr's count-loads.rules against
# valgrind lackey.  The same freestanding program is built twice from one
# gcc -S output: plain (lackey counts its data loads) and instrumented
# with count-loads.rules (it prints its own counter).  Each optimization
# level must agree exactly.
set -eu
altr=$1
rules=$2/count-loads.rules
here=$(cd "$(dirname "$0")" && pwd)/lackey
command -v valgrind >/dev/null || { echo "valgrind missing: run scripts/setup-debian.sh" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
for opt in -O0 -O1 -O2 -O3; do
	flags="$opt -ffreestanding -fno-builtin -fno-stack-protector -fno-pie -no-pie -nostdlib -static"
	gcc $flags -S "$here/loads.c" -o "$work/loads.s"
	"$altr" -q -r "$rules" "$work/loads.s" -o "$work/loads.count.s"
	gcc $flags "$work/loads.s" "$here/start-plain.s" -o "$work/plain"
	gcc $flags "$work/loads.count.s" "$here/start-count.s" -o "$work/count"
	counted=$("$work/count")
	valgrind --tool=lackey --trace-mem=yes --log-file="$work/lackey.log" "$work/plain"
	# VEX turns a lock-prefixed read-modify-write into a load followed by
	# a compare-and-swap, which lackey prints as "L a" then "M a" in the
	# same instruction: one architectural load, counted once here.
	expected=$(awk '
		/^I/ { last = "" ; next }
		/^ [LM] / { key = $2; if ($1 == "M" && last == "L " key) { last = ""; next }
		            n++; last = $1 " " key; next }
		END { print n + 0 }' "$work/lackey.log")
	if [ "$counted" = "$expected" ] && [ "$counted" -gt 1000 ]; then
		echo "ok   $opt: $counted loads"
	else
		echo "FAIL $opt: altr counted $counted, lackey $expected"
		fail=1
	fi
done
exit $fail
