#!/bin/sh
# check.sh RDB RDB_CC: record-check-check (tests/record/checks/).
# rdb check DIR replays every complete interval of every process of a
# trace set on its own, with --verify (docs/process-trees.md): on a
# pipeline of three under sh, every process ok with as many intervals as
# rdb info --complete says; --list and --pid/--intervals (one job);
# --whole (each process also replayed whole and from its middle
# interval): every process ok, whole and from its middle;
# a set with one interval's context frame damaged: that process FAILED
# at that interval and the one before (whose end it is) only, the others
# ok, and with --whole its whole replay FAILED too, named; a replay that
# diverges (another
# run's header): FAILED with the runtime's "replay diverged" reason.
. "$(dirname "$0")/lib.sh"
build tree tree
build argdep pa
printf 'one\ntwo\nthree\n' > in.txt
"$RDB" record --checksum --every-sic 3000 -o t -- \
	sh -c './tree tag A < in.txt | ./tree tag B | ./tree tag C' > rec.out 2> rec.err ||
	{ cat rec.err; fail "record of the pipeline"; }
"$RDB" ps t > ps.out || fail "rdb ps"
"$RDB" check --jobs 2 t > c.out 2> c.err || { cat c.out c.err; fail "rdb check of a good set"; }
cat c.out
[ ! -s c.err ] || { cat c.err; fail "rdb check wrote to stderr"; }
sed -n 1p c.out | grep -q "^[0-9]*  *not recorded  sh$" || fail "the shell is not listed first, not recorded"
[ "$(grep -c ' ok ' c.out)" = 3 ] || fail "not 3 processes ok"
total=0
for id in $(awk 'NR > 2 { print $1 }' ps.out); do
	n=$("$RDB" info --pid "$id" --complete t) || fail "info --pid $id"
	[ "$n" -ge 2 ] || fail "process $id: $n complete intervals, too few"
	grep -q "^$id  *ok  *$n intervals verified (1-$n)  \./tree$" c.out || fail "process $id: not $n intervals verified"
	total=$((total + n))
done
"$RDB" check --jobs 2 --whole t > w.out 2> w.err || { cat w.out w.err; fail "rdb check --whole of a good set"; }
[ ! -s w.err ] || { cat w.err; fail "rdb check --whole wrote to stderr"; }
for id in $(awk 'NR > 2 { print $1 }' ps.out); do
	n=$("$RDB" info --pid "$id" --complete t)
	k=$(((1 + n) / 2))
	if [ "$k" -gt 1 ] && [ "$k" -lt "$n" ]; then m=" and from $k"; else m=; fi
	grep -q "^$id  *ok  *$n intervals verified (1-$n), whole$m  \./tree$" w.out ||
		{ cat w.out; fail "--whole: process $id not ok with $n intervals, whole$m"; }
done
"$RDB" check --whole --list t 2> e.err && fail "--whole with --list"
expect e.err "not with --list"
"$RDB" check --list t > l.out || fail "check --list"
[ "$(wc -l < l.out)" = 3 ] || fail "--list: not 3 jobs"
set -- $(sed -n 3p l.out)
"$RDB" check --pid "$1" --intervals 2-2 t > one.out || fail "check --pid $1 --intervals 2-2"
grep -q "^$1  *ok  *1 intervals verified (2-2) " one.out || { cat one.out; fail "one job: not interval 2 only"; }
"$RDB" check --pid 999999 t 2> e.err && fail "check of a pid not in the set"
expect e.err "no process 999999 in this trace set"
# interval 3 of the last stage: its context frame's magic overwritten
id=$(awk 'END { print $1 }' ps.out)
cp -a t d
off=$(od -An -tu8 -w32 -v "d/proc/$id/ivindex" | awk '$1 == 5 && $2 == 3 { print $3 }')
[ -n "$off" ] || fail "no ivindex entry for interval 3 of process $id's context"
printf 'XXXX' | dd of="d/proc/$id/context" bs=1 seek="$off" conv=notrunc 2> /dev/null
"$RDB" check d > d.out 2> d.err && { cat d.out; fail "rdb check passed a damaged set"; }
cat d.out
[ "$(grep -c ' ok ' d.out)" = 2 ] || fail "the other two processes are not ok"
n=$("$RDB" info --pid "$id" --complete t)
# interval 2's replay compares its end with that context too
grep -q "^$id  *FAILED  $((n - 2)) of $n intervals verified; interval 2: .*context: offset $off: bad frame magic" d.out ||
	fail "the damaged process is not FAILED at intervals 2 and 3 alone"
"$RDB" check --whole --pid "$id" d > dw.out 2> dw.err && { cat dw.out; fail "rdb check --whole passed a damaged set"; }
cat dw.out
grep -q "^$id  *FAILED  $((n - 2)) of $n intervals verified; interval 2: .*; whole replay: .*context: offset $off: bad frame magic" dw.out ||
	fail "--whole: the damaged process's whole replay is not FAILED"
# a diverging replay: the header of a run with other arguments
"$RDB" record --checksum -o ta -- ./pa pid > /dev/null 2>&1 || fail "record pid"
"$RDB" record --checksum -o tb -- ./pa uid > /dev/null 2>&1 || fail "record uid"
cp tb/header ta/header
"$RDB" check ta > v.out 2>&1 && { cat v.out; fail "rdb check passed a diverging replay"; }
cat v.out
grep -q "FAILED  0 of 1 intervals verified; interval 1: replay diverged at syscall #[0-9]*: a different syscall" v.out ||
	fail "no divergence reported"
echo "$total intervals verified"
pass
