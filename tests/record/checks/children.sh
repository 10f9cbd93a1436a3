#!/bin/sh
# children.sh RDB RDB_CC: record-check-children (tests/record/checks/).
# Fork children's output and shared memory (progs/kids.c), recorded with
# --no-forks (the children untraced): replayed
# byte for byte, shown by info and truss; the child that outlives the
# program does not hold rdb record up: it waits for the file
# $KIDS_RELEASE, which exists only once rdb record has returned (and
# then says it is gone); nor with --forks, where it records itself.
. "$(dirname "$0")/lib.sh"
build kids prog
KIDS_RELEASE=$W/release "$RDB" record --no-forks -i 1 --checksum -o t -- ./prog > rec.out 2> rec.err || fail "record --no-forks"
[ ! -e release.gone ] || fail "rdb record waited for a child that outlived the program"
: > release
wait_for "the child that outlived the program to end" test -e release.gone
expect rec.out "^child: hello$"
expect rec.out "^grandchild: hello$"
expect rec.out "^exec'd child E: argc 3$"
expect rec.out "^busy child line 1999$"
expect rec.out "^step 6: shared 150 128 138$"
[ "$(grep -c 'piped child line 1' rec.out)" = 1 ] || fail "the piped child's line is not in the output once"
printf "child: to stderr\nexec'd child E: on stderr\n" > want.err
cmp -s want.err rec.err || { cat rec.err; fail "record's stderr is not the children's lines alone"; }
"$RDB" replay --verify t > rep.out 2> rep.err || fail "replay"
cmp -s rec.out rep.out || { diff rec.out rep.out | head; fail "replay stdout differs"; }
cmp -s rec.err rep.err || { diff rec.err rep.err | head; fail "replay stderr differs"; }
# every process alone, the exec'd rdb-cc program (exec'd by
# /proc/self/exe: its replay execs itself by that string) too
"$RDB" check t > ck.out 2>&1 || { cat ck.out; fail "rdb check t"; }
[ "$(grep -c ' ok ' ck.out)" = 2 ] || { cat ck.out; fail "rdb check t: not 2 processes ok"; }
"$RDB" replay --quiet t > q.out 2> q.err || fail "replay --quiet"
[ ! -s q.out ] && [ ! -s q.err ] || fail "replay --quiet wrote the children's output"
"$RDB" info t > i.out || fail "info"
expect i.out "^not traced: 7 fork children"
expect i.out "^child output: [1-9][0-9]* writes, [1-9][0-9]* bytes"
expect i.out "^shared memory: [1-9][0-9]* changes by others"
"$RDB" truss t > tr.out || fail "truss"
expect tr.out '^--- child [0-9]* wrote 13 bytes to stdout: "child: hello\\n" ---$'
expect tr.out '^--- child [0-9]* wrote 17 bytes to stderr: "child: to stderr\\n" ---$'
expect tr.out '^--- shared memory changed by others: [0-9]* bytes at 0x'
# With --forks each child records itself; the one that outlives the
# program (polling for $KIDS_RELEASE: never quiet) must not hold rdb
# record up either: its trace ends, it runs on untraced.
rm -f release release.gone
KIDS_RELEASE=$W/release "$RDB" record --forks -i 1 --checksum -o f -- ./prog > frec.out 2> frec.err ||
	fail "record --forks"
[ ! -e release.gone ] || fail "rdb record --forks waited for a child that outlived the program"
: > release
wait_for "the child that outlived the program to end (--forks)" test -e release.gone
cmp -s rec.out frec.out || { diff rec.out frec.out | head; fail "record --forks: another output"; }
"$RDB" ps f > fps.out || fail "rdb ps f"
expect fps.out " ran on untraced "
"$RDB" check f > fck.out 2>&1 || { cat fck.out; fail "rdb check f"; }
# (the child that outlives the program may end its trace before its
# first complete interval: "none")
[ "$(grep -c -e ' ok ' -e ' none ' fck.out)" = "$(($(wc -l < fps.out) - 1))" ] ||
	{ cat fps.out fck.out; fail "rdb check f: not every process ok"; }
pass
