#!/bin/sh
# tree-sigkill.sh RDB RDB_CC: record-check-tree-sigkill (tests/record/checks/).
# One process of a recorded tree killed by SIGKILL mid-run
# (docs/process-trees.md): the processes before and after it under the
# same sh are recorded whole and replay with --verify; rdb ps shows the
# killed one as signal 9, cut, FAILED; its replay runs to its last
# complete interval and dies the same, printing a prefix of its output.
. "$(dirname "$0")/lib.sh"
build tree tree
mkfifo in
( "$RDB" record --checksum --every-sic 500 -o t -- sh -c './tree hi a; ./tree tag K < in; ./tree hi b' \
	> rec.out 2> rec.err; echo $? > rec.status ) &
exec 3> in
printf 'one\n' >&3
wait_for "the tag stage to print its first line" grep -q '^K .* one$' rec.out
find_k() { kpid=$("$RDB" ps t 2>/dev/null | sed -n 's/^\([0-9]*\) .*\.\/tree tag K$/\1/p'); [ -n "$kpid" ]; }
wait_for "rdb ps to show the tag stage" find_k
kill -9 "$kpid"
exec 3>&-
wait
[ "$(cat rec.status)" = 0 ] || { cat rec.err; fail "record status $(cat rec.status), expected sh's 0"; }
expect rec.out "^hi b$"
"$RDB" ps t > ps.out || fail "rdb ps"
cat ps.out
grep -q "^$kpid .* signal 9 (cut) FAILED .* \./tree tag K$" ps.out || fail "ps: the killed process is not signal 9, cut, FAILED"
for w in a b; do
	id=$(grep -v "sh -c" ps.out | sed -n "s/^\([0-9]*\) .* status 0 .* \.\/tree hi $w$/\1/p")
	[ -n "$id" ] || fail "ps: no 'tree hi $w' with status 0"
	"$RDB" replay --verify --pid "$id" t > r.out 2> r.err || { cat r.err; fail "replay of tree hi $w"; }
	[ "$(cat r.out)" = "hi $w" ] || fail "replay of tree hi $w printed '$(cat r.out)'"
done
"$RDB" replay --verify --pid "$kpid" t > k.out 2> k.err; s=$?
[ $s = 137 ] || { cat k.err; fail "replay of the killed process: status $s, expected 137"; }
# up to its last complete interval: a prefix of what it printed
grep '^K ' rec.out | head -c "$(wc -c < k.out)" | cmp -s - k.out ||
	fail "replay of the killed process printed what it did not print"
expect k.err "cut short"
pass
