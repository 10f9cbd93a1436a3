#!/bin/sh
# run.sh ALTR RULES CRT1_O LIBRDB_A: builds rt_test (a libc-free program,
# instrumented with the tracing rules, linked with our crt and runtime) in
# a temporary folder and runs it: the checks inside, then default signal
# actions seen from a shell.  Keeps the folder on failure.
set -u
altr=$1 rules=$2 crt=$3 lib=$4
here=$(cd "$(dirname "$0")" && pwd)
inc=$here/../../runtime
work=$(mktemp -d)
ok=0
trap 'if [ $ok = 1 ]; then rm -rf "$work"; else echo "rt_test: work kept in $work"; fi' EXIT
cd "$work" || exit 1

RDBCC_FLAGS=$(sh "$here/../../scripts/rdb-cc-flags.sh") || exit 1
CFLAGS="-O2 $RDBCC_FLAGS
        -ffreestanding -fno-builtin -fno-stack-protector -fcf-protection=none
        -fno-tree-loop-distribute-patterns"
set -e
gcc $CFLAGS -I"$inc" -S "$here/rt_test.c" -o rt_test.s
"$altr" -q -r "$rules" rt_test.s -o rt_test.rdb.s
"$altr" -q -r "$rules" "$here/asm_test.s" -o asm_test.rdb.s
gcc -c rt_test.rdb.s -o rt_test.o
gcc -c asm_test.rdb.s -o asm_test.o
gcc -c "$here/ministart.S" -o ministart.o
gcc $CFLAGS -c "$here/minireloc.c" -o minireloc.o
gcc -static-pie -nostdlib -o rt_test "$crt" ministart.o minireloc.o rt_test.o asm_test.o "$lib"
set +e

fail=0
./rt_test > out.txt 2>&1
st=$?
cat out.txt
if [ $st != 0 ] || grep -q FAIL out.txt || ! grep -q PASSED out.txt; then
	echo "FAIL rt_test: exit status $st"; fail=1
fi

expect_status() { # what the shell reports for a run, like without rdb
	want=$1; shift
	sh -c '"$@"; exit $?' sh "$@" > /dev/null 2>&1
	got=$?
	if [ "$got" = "$want" ]; then echo "ok $* -> status $got";
	else echo "FAIL $* -> status $got, want $want"; fail=1; fi
}
expect_status 143 ./rt_test t   # SIGTERM, default action: killed
expect_status 139 ./rt_test s   # SIGSEGV in a hook: killed (core)
expect_status 5 ./rt_test h     # SIGTERM ignored by the program

[ $fail = 0 ] && ok=1
exit $fail
