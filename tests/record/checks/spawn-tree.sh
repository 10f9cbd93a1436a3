#!/bin/sh
# spawn-tree.sh RDB RDB_CC: record-check-spawn-tree (tests/record/checks/).
# posix_spawn and system() below rdb record (docs/process-trees.md): the
# child of each (musl: clone(CLONE_VM|CLONE_VFORK) on a stack of its own)
# records itself from the clone to its exec, the rdb-cc program
# posix_spawn execs is the child's image 2, and the one system()'s
# /bin/sh starts joins below the shell (not recorded).  Every process
# replays alone with --verify, whole and from each complete interval,
# printing what it printed; rdb check passes.  (The children's replay
# failed at their first call, a close of a garbage fd, until syscall.S
# moved the child onto its new stack before the check where its
# recording starts.)
. "$(dirname "$0")/lib.sh"
build spawntree prog
./prog > native.out || fail "native run"
"$RDB" record --checksum --every-sic 10000 -o s -- ./prog > rec.out 2> rec.err ||
	{ cat rec.err; fail "record"; }
[ ! -s rec.err ] || { cat rec.err; fail "record wrote to stderr"; }
cmp -s native.out rec.out || { diff native.out rec.out; fail "output differs under rdb record"; }
"$RDB" ps s > ps.out || fail "rdb ps"
cat ps.out
root=$(sed -n '2s/^\([0-9]*\) .*/\1/p' ps.out)
[ -n "$root" ] || fail "rdb ps: no first process"
# ids of the children, found by their columns (not their order)
sp=$(awk -v r="$root" '$2 == r && $3 == "exec'"'"'d" { print $1 }' ps.out | tr '\n' ' ')
[ "$(echo $sp | wc -w)" = 2 ] || fail "rdb ps: not two children of $root that exec'd (posix_spawn, system)"
leaf_sp=$(sed -n 's/^\([0-9.]*\) .* status 0 .* \.\/prog leaf spawn$/\1/p' ps.out)
leaf_sys=$(sed -n 's/^\([0-9.]*\) .* status 0 .* \.\/prog leaf system$/\1/p' ps.out)
[ -n "$leaf_sp" ] || fail "rdb ps: the program posix_spawn exec'd is not recorded with status 0"
[ -n "$leaf_sys" ] || fail "rdb ps: the program system() ran is not recorded with status 0"
spc=${leaf_sp%.2}
[ "$spc.2" = "$leaf_sp" ] || fail "rdb ps: posix_spawn's program is $leaf_sp, not image 2 of a child"
echo " $sp " | grep -q " $spc " || fail "rdb ps: posix_spawn's program $leaf_sp is not an image of a child of $root"
sysc=$(echo $sp | tr ' ' '\n' | grep -vx "$spc")
grep -q "^$leaf_sys  *$sysc " ps.out || fail "rdb ps: system()'s program is not a child of its sh ($sysc)"
[ "$(awk 'NR > 1' ps.out | wc -l)" = 5 ] || fail "rdb ps: not 5 processes"
# replay_each ID WANT: replay --pid ID whole and from each complete
# interval from 2 on, with --verify; stdout WANT (its end from K).
replay_each() {
	last=$("$RDB" info --pid "$1" --complete s) || fail "info --pid $1"
	"$RDB" replay --verify --pid "$1" s > r.out 2> r.err || { cat r.err; fail "replay --pid $1"; }
	grep -v "the recorded program exec'd another one\|^rdb: the program it exec'd " r.err > r.err2
	[ ! -s r.err2 ] || { cat r.err; fail "replay --pid $1 wrote to stderr"; }
	cmp -s "$2" r.out || { diff "$2" r.out; fail "replay --pid $1 printed other bytes"; }
	k=2
	while [ "$k" -le "$last" ]; do
		"$RDB" replay --verify --from $k --pid "$1" s > r.out 2> r.err ||
			{ cat r.err; fail "replay --pid $1 --from $k"; }
		tail -c "$(wc -c < r.out)" "$2" | cmp -s - r.out || fail "replay --pid $1 --from $k: not the end of its output"
		k=$((k + 1))
	done
	echo "process $1: whole and from 2..$last verified"
}
: > empty
grep "^leaf spawn: " rec.out > sp.want
grep "^leaf system: " rec.out > sys.want
# the root's replay has the output of posix_spawn's program (the child
# passed the channel of its output on), not that of one below sh
grep -v "^leaf system: " rec.out > root.want
[ "$("$RDB" info --pid "$leaf_sp" --complete s)" -ge 3 ] || fail "posix_spawn's program has too few intervals"
replay_each "$root" root.want
replay_each "$spc" empty
replay_each "$sysc" empty
replay_each "$leaf_sp" sp.want
replay_each "$leaf_sys" sys.want
"$RDB" check s > c.out 2>&1 || { cat c.out; fail "rdb check"; }
[ "$(grep -c ' ok ' c.out)" = 5 ] || { cat c.out; fail "rdb check: not 5 processes ok"; }
pass
