#!/bin/sh
# count-loads-cc.sh [gcc arguments]: a C compiler driver for tests: each .c
# input goes through gcc -S, then altr with rules/count-loads.rules, then
# is assembled and linked (static, glibc) with a counter whose destructor
# complains on stderr if no load was counted.  tests/programs/run.sh uses
# it to show that count-loads-instrumented programs print what gcc's print.
# ALTR and RULES_DIR come from the environment.
set -eu
: "${ALTR:?ALTR must name the altr binary}" "${RULES_DIR:?RULES_DIR must name rules/}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags= libs= objs= out=a.out n=0
while [ $# -gt 0 ]; do
	case $1 in
	-o) out=$2; shift ;;
	*.c)
		n=$((n + 1))
		src=$1
		gcc $flags -S -o "$work/$n.s" "$src"
		"$ALTR" -q -r "$RULES_DIR/count-loads.rules" -o "$work/$n.count.s" "$work/$n.s"
		objs="$objs $work/$n.count.s" ;;
	-l*) libs="$libs $1" ;;
	*) flags="$flags $1" ;;
	esac
	shift
done
cat > "$work/counter.c" <<'EOC'
#include <stdio.h>
unsigned long __altr_load_count;
__attribute__((destructor)) static void check(void)
{
	if (__altr_load_count == 0)
		fputs("count-loads-cc: no load was counted\n", stderr);
}
EOC
# shellcheck disable=SC2086
gcc $flags -o "$out" $objs "$work/counter.c" $libs
