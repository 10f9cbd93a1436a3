#!/bin/sh
# tree.sh RDB RDB_CC: record-check-tree (tests/record/checks/).
# A process tree under rdb record (docs/process-trees.md): a pipeline of
# three rdb-cc programs and one that fails under sh -c (sh not built with
# rdb-cc: not recorded), and an exec chain (an rdb-cc program execs
# itself twice), and a fork tree (3 children, each forks 2: each child
# records itself from its fork).  rdb ps must list every process with its parent and how
# it ended; each recorded process must replay alone with --verify, whole
# and from every complete interval, printing what it printed when
# recorded (its stdout was a pipe: the pipeline's native stages say what).
. "$(dirname "$0")/lib.sh"
build tree tree
printf 'one\ntwo\nthree\n' > in.txt
./tree tag A < in.txt > a.want
./tree tag B < a.want > b.want
./tree tag C < b.want > c.want
script='./tree tag A < in.txt | ./tree tag B | ./tree tag C; ./tree bad x; exit 0'
"$RDB" record --checksum --every-sic 3000 -o t -- sh -c "$script" > rec.out 2> rec.err ||
	{ cat rec.err; fail "record of the pipeline"; }
cmp -s c.want rec.out || { diff c.want rec.out; fail "the pipeline's output differs under rdb record"; }
"$RDB" ps t > ps.out || fail "rdb ps"
cat ps.out
shpid=$(sed -n '2s/^\([0-9]*\) .*/\1/p' ps.out)
[ -n "$shpid" ] || fail "rdb ps: no first process"
sed -n 2p ps.out | grep -q "not recorded .* sh -c" || fail "rdb ps: sh is not listed first as not recorded"
[ "$(grep -c " $shpid  *status 0  .* \./tree tag [ABC]$" ps.out)" = 3 ] ||
	fail "rdb ps: not three pipeline stages, child of sh $shpid, status 0"
grep -q " $shpid  *status 2 FAILED .* \./tree bad x$" ps.out || fail "rdb ps: the failing process is not marked"
[ "$(ls t/proc | wc -l)" = 4 ] || fail "not 4 processes in t/proc"
# replay_each SET ID WANT: replay --pid ID whole and from each complete
# interval with --verify; stdout the end of WANT (all of it when whole).
replay_each() {
	d=$(cd "$1/proc/$2" 2>/dev/null && pwd) || d=$1 # the set's own process
	last=$("$RDB" info --pid "$2" --complete "$1") || fail "info --pid $2"
	[ "$last" -ge 2 ] || fail "process $2 has $last complete intervals: --every-sic made too few"
	"$RDB" replay --verify --pid "$2" "$1" > r.out 2> r.err || { cat r.err; fail "replay --pid $2"; }
	# an image that exec'd ends its replay at the exec, and says so
	grep -v "the recorded program exec'd another one\|^rdb: the program it exec'd " r.err > r.err2
	[ ! -s r.err2 ] || { cat r.err; fail "replay --pid $2 wrote to stderr"; }
	cmp -s "$3" r.out || { diff "$3" r.out; fail "replay --pid $2 printed other bytes"; }
	k=2
	while [ $k -le "$last" ]; do
		"$RDB" replay --verify --from $k --pid "$2" "$1" > r.out 2> r.err ||
			{ cat r.err; fail "replay --pid $2 --from $k"; }
		tail -c "$(wc -c < r.out)" "$3" | cmp -s - r.out || fail "replay --pid $2 --from $k: not the end of its output"
		k=$((k + 1))
	done
	echo "process $2: whole and from 2..$last verified"
}
for x in A B C; do
	id=$(sed -n "s/^\([0-9.]*\) .* \.\/tree tag $x$/\1/p" ps.out)
	want=$(echo $x | tr ABC abc).want
	replay_each t "$id" "$want"
done
# info, truss and flowback read one process of the set with --pid too:
# stage B's facts, not the set's own (sh) nor another stage's
idb=$(sed -n 's/^\([0-9.]*\) .* \.\/tree tag B$/\1/p' ps.out)
"$RDB" info --pid "$idb" t > info.out || fail "info --pid $idb"
grep -q '^argv: *\./tree tag B$' info.out || { cat info.out; fail "info --pid $idb: not stage B's argv"; }
"$RDB" truss --pid "$idb" t > truss.out || fail "truss --pid $idb"
# what B read is A's output, what it wrote B's (write or writev to fd 1)
# (truss: "#ID read(0, ADDR, LEN) = N <...>")
ret() { awk -v re="$1" '$0 ~ re && match($0, /\) = [0-9]+/) { n += substr($0, RSTART + 4, RLENGTH - 4) } END { print n + 0 }' truss.out; }
got=$(ret '^#[0-9]+ read\\(0, ')
[ "$got" = "$(wc -c < a.want)" ] || { cat truss.out; fail "truss --pid $idb: reads from fd 0 return $got bytes, not $(wc -c < a.want)"; }
got=$(ret '^#[0-9]+ writev?\\(1, ')
[ "$got" = "$(wc -c < b.want)" ] || { cat truss.out; fail "truss --pid $idb: writes to fd 1 return $got bytes, not $(wc -c < b.want)"; }
"$RDB" flowback --pid "$idb" t tag_lines > fb.out 2>&1 || { cat fb.out; fail "flowback --pid $idb"; }
grep -q 'by: *main+0x' fb.out && grep -q 'value now: *03 00 00 00 00 00 00 00 ' fb.out ||
	{ cat fb.out; fail "flowback --pid $idb tag_lines: not written by main, or not 3 lines"; }
"$RDB" replay --pid 999999999 t > /dev/null 2> bad.err && fail "replay of a pid not in the set"
expect bad.err "no process 999999999 in this trace set"

# The exec chain: the set's own process, then its images 2 and 3.
"$RDB" record --checksum --every-sic 400 -o e -- ./tree exec 2 > erec.out 2> erec.err ||
	{ cat erec.err; fail "record of the exec chain"; }
"$RDB" ps e > eps.out || fail "rdb ps e"
cat eps.out
pid=$(sed -n '2s/^\([0-9]*\) .*/\1/p' eps.out)
grep -q "^$pid  .* exec'd .* \./tree exec 2$" eps.out || fail "ps: image 1 not exec'd"
grep -q "^$pid\.2  .* exec'd .* \./tree exec 1$" eps.out || fail "ps: image 2 not $pid.2, exec'd"
grep -q "^$pid\.3  .* status 0 .* \./tree exec 0$" eps.out || fail "ps: image 3 not $pid.3, status 0"
for n in 2 1 0; do grep "^exec $n:" erec.out > x$n.want; done
"$RDB" replay --verify e > r.out 2> r.err
cmp -s x2.want r.out || fail "replay of image 1 printed other bytes"
# the replay and rdb info name the image an exec made
grep -q "^rdb: the program it exec'd was recorded as process $pid\.2: rdb replay --pid $pid\.2 e$" r.err ||
	{ cat r.err; fail "the replay of image 1 does not name image 2"; }
"$RDB" info --pid "$pid.2" e > info.out || fail "info --pid $pid.2"
grep -q "^exec'd: *the program it exec'd is process $pid\.3 of the set" info.out ||
	{ cat info.out; fail "info of image 2 does not name image 3"; }
grep -q "^exec'd:" info.out && "$RDB" info --pid "$pid.3" e | grep -q "^exec'd:" &&
	fail "info of image 3 (it did not exec) names an image"
replay_each e "$pid.2" x1.want
replay_each e "$pid.3" x0.want
# The fork tree: 3 children, each forks 2; each records itself from its
# fork (docs/process-trees.md), and the root's replay still prints all
# of their output (CHILD_OUTPUT).
"$RDB" record --forks --checksum --every-sic 2000 -o f -- ./tree fork 2 > frec.out 2> frec.err ||
	{ cat frec.err; fail "record of the fork tree"; }
[ ! -s frec.err ] || { cat frec.err; fail "record of the fork tree wrote to stderr"; }
"$RDB" ps f > fps.out || fail "rdb ps f"
cat fps.out
root=$(sed -n '2s/^\([0-9]*\) .*/\1/p' fps.out)
kids=$(awk -v r="$root" 'NR > 1 && $2 == r { print $1 }' fps.out)
[ "$(echo $kids | wc -w)" = 3 ] || fail "ps: not 3 children of the root $root"
for c in $kids; do
	[ "$(awk -v r="$c" 'NR > 1 && $2 == r' fps.out | wc -l)" = 2 ] || fail "ps: child $c has not 2 children"
done
[ "$(grep -c ' status 0 ' fps.out)" = 10 ] || fail "ps: not 10 processes with status 0"
"$RDB" replay --verify f > r.out 2> r.err || { cat r.err; fail "replay of the root"; }
cmp -s frec.out r.out || fail "the root's replay does not print its children's output"
: > lines.got
for id in $(awk 'NR > 2 { print $1 }' fps.out); do
	"$RDB" replay --verify --pid "$id" f > one.out 2> r.err || { cat r.err; fail "replay --pid $id (fork child)"; }
	[ "$(wc -l < one.out)" = 1 ] && grep -qxF -f one.out frec.out ||
		{ cat one.out; fail "replay --pid $id: not one line of the recording's output"; }
	cat one.out >> lines.got
	cp one.out "w$id.want"
	replay_each f "$id" "w$id.want"
done
grep -v '^fork root:' frec.out | sort > lines.want
sort lines.got | cmp -s - lines.want || fail "the children's replays do not print the 9 children's lines"
pass
