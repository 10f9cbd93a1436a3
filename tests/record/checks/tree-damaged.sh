#!/bin/sh
# tree-damaged.sh RDB RDB_CC: record-check-tree-damaged (tests/record/checks/).
# Bad input on a recorded tree (a pipeline of three under sh), never a
# crash: a pid not in the set (replay, info, check); one process's
# syscalls stream cut in the middle (replay says where, rdb check marks
# that process FAILED from the first interval it cannot replay, the
# others ok); another process's header cut (rdb ps lists it as damaged
# and the others as before, exit 1; rdb check FAILED, damaged).
. "$(dirname "$0")/lib.sh"
build tree tree
printf 'one\ntwo\nthree\n' > in.txt
"$RDB" record --checksum --every-sic 3000 -o t -- \
	sh -c './tree tag A < in.txt | ./tree tag B | ./tree tag C' > rec.out 2> rec.err ||
	{ cat rec.err; fail "record of the pipeline"; }
for c in "replay" "info" "check"; do
	"$RDB" $c --pid 424242 t > /dev/null 2> p.err
	[ $? = 2 ] || { cat p.err; fail "$c --pid 424242: not exit status 2"; }
	expect p.err "^rdb: t: no process 424242 in this trace set (rdb ps t lists them)$"
done
"$RDB" ps t > ps.out || fail "rdb ps"
set -- $(awk 'NR > 2 { print $1 }' ps.out)
[ $# = 3 ] || fail "not 3 processes"
# by their tags: rdb ps lists them in the order they joined, which the
# pipeline's start does not fix
a=$(awk '!/ sh -c / && $(NF - 2) == "./tree" && $NF == "A" { print $1 }' ps.out)
c=$(awk '!/ sh -c / && $(NF - 2) == "./tree" && $NF == "C" { print $1 }' ps.out)
[ -n "$a" ] && [ -n "$c" ] || { cat ps.out; fail "no ./tree tag A or C in rdb ps"; }
# C's syscalls stream cut in half
f=t/proc/$c/syscalls
head -c $(($(wc -c < "$f") / 2)) "$f" > cut && mv cut "$f"
"$RDB" replay --pid "$c" t > r.out 2> r.err
[ $? = 2 ] || { cat r.err; fail "replay of a cut stream: not exit status 2"; }
expect r.err "^rdb: t/proc/$c/syscalls: offset [0-9]*: truncated frame"
"$RDB" check t > c.out 2> c.err && fail "rdb check of a cut stream passed"
cat c.out
expect c.out "^$c  *FAILED  [0-9]* of [0-9]* intervals verified; interval [0-9]*: t/proc/$c/syscalls: offset [0-9]*: truncated frame"
[ "$(grep -c ' ok ' c.out)" = 2 ] || fail "the two others are not ok"
# A's header cut
head -c 30 "t/proc/$a/header" > cut && mv cut "t/proc/$a/header"
"$RDB" ps t > d.out 2> d.err
[ $? = 1 ] || { cat d.out d.err; fail "rdb ps of a damaged set: not exit status 1"; }
cat d.out
expect d.out "^$a  *?  *damaged: t/proc/$a/header: offset [0-9]*: truncated record header$"
[ "$(grep -c ' status 0  *[0-9]*/[0-9]* .*  \./tree tag [BC]$' d.out)" = 2 ] || fail "rdb ps does not list the two others"
"$RDB" check t > e.out 2>&1 && fail "rdb check of a damaged header passed"
expect e.out "^$a  *FAILED  damaged: t/proc/$a/header: offset [0-9]*: truncated record header$"
pass
