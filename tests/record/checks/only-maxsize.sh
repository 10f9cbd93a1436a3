#!/bin/sh
# only-maxsize.sh RDB RDB_CC: record-check-only-maxsize (tests/record/checks/).
# rdb record --only PATTERN records only the processes whose argv[0] (or
# its last component) matches; the others run unrecorded, their output
# as native.  --max-size SIZE: once the set holds SIZE bytes, processes
# that start run unrecorded (rdb says so, and how many at the end), while
# one recorded before the limit (a pipeline stage that gets its input
# only after the limit was reached) is recorded to its end and replays
# whole with --verify.
. "$(dirname "$0")/lib.sh"
build tree tree
cp tree other
"$RDB" record --only 'tre*' -o o -- sh -c './tree hi a; ./other hi b; ./tree hi c | ./other tag X' \
	> o.out 2> o.err || { cat o.err; fail "record --only"; }
printf 'hi a\nhi b\nX 149 hi c\n' | cmp -s - o.out || { cat o.out; fail "--only: the output differs"; }
"$RDB" ps o > ps.out || fail "rdb ps o"
cat ps.out
[ "$(ls o/proc | wc -l)" = 2 ] || fail "--only 'tre*': not 2 processes recorded"
[ "$(grep -c '  \./tree hi [ac]$' ps.out)" = 2 ] || fail "--only: ./tree hi a and c are not the ones recorded"
"$RDB" record --only '*/other' -o o2 -- sh -c './tree hi a; ./other hi b' > /dev/null 2>&1 ||
	fail "record --only */other"
[ "$(ls o2/proc)" != "" ] && "$RDB" ps o2 | grep -q '  \./other hi b$' && [ "$(ls o2/proc | wc -l)" = 1 ] ||
	fail "--only '*/other': not only ./other recorded"
"$RDB" record --only nomatch -o o3 -- ./tree hi a > o3.out 2> o3.err || fail "record --only nomatch"
expect o3.out "^hi a$"
expect o3.err "no process matched --only nomatch: the trace set is empty"
"$RDB" record --max-size 0 -o x -- ./tree hi a 2> x.err && fail "--max-size 0 accepted"
expect x.err "--max-size 0: not a size"

seq 1 200 | sed 's/^/line /' > in.txt
./tree tag L < in.txt > l.want
"$RDB" record --checksum --max-size 20K -o m -- \
	sh -c '(while [ ! -f go ]; do sleep 0.1; done; cat in.txt) | ./tree tag L > l.out &
		sleep 0.5; for i in 1 2 3 4 5 6 7 8 9 10; do ./tree hi $i; done; touch go; wait' \
	> m.out 2> m.err || { cat m.err; fail "record --max-size"; }
cat m.err
seq 1 10 | sed 's/^/hi /' | cmp -s - m.out || fail "--max-size: the output of the unrecorded ones differs"
cmp -s l.want l.out || fail "--max-size: the long process's output differs"
expect m.err "^rdb: the trace set reached --max-size (20480 bytes): processes that start from now on run unrecorded"
left=$(sed -n 's/^rdb: \([0-9]*\) processes started after the trace set reached --max-size and ran unrecorded$/\1/p' m.err)
[ -n "$left" ] && [ "$left" -ge 1 ] || fail "no count of the processes left out"
"$RDB" ps m > mps.out || fail "rdb ps m"
cat mps.out
n=$(ls m/proc | wc -l)
[ $((n + left)) = 11 ] || fail "$n recorded and $left left out: not 11"
id=$(sed -n 's/^\([0-9]*\) .*status 0 .* \.\/tree tag L$/\1/p' mps.out)
[ -n "$id" ] || fail "the long process is not recorded, status 0"
"$RDB" replay --verify --pid "$id" m > r.out 2> r.err || { cat r.err; fail "replay of the long process"; }
cmp -s l.want r.out || fail "the long process's replay printed other bytes"
"$RDB" check m > c.out || { cat c.out; fail "rdb check of the limited set"; }
pass
