#!/bin/sh
# forkshm.sh RDB RDB_CC: record-check-forkshm (tests/record/checks/).
# A parent and its fork child, recorded with --forks, take turns writing
# and reading two MAP_SHARED mappings (anonymous, and a file).  Each
# process's replay alone, whole and from every interval, must give it the
# other's stores from its own trace (the child keeps its parent's list of
# shared mappings and its first boundary copies them anew: runtime/
# shared.c rdb_shared_fork_child), print what it printed, and pass
# --verify; rdb check passes the set.
. "$(dirname "$0")/lib.sh"
build forkshm prog
./prog native.map > native.out || fail "the program itself"
"$RDB" record --forks --checksum --every-sic 20000 -o t -- ./prog rec.map > rec.out 2> rec.err ||
	{ cat rec.err; fail "record"; }
[ ! -s rec.err ] || { cat rec.err; fail "record wrote to stderr"; }
sort native.out > a; sort rec.out > b
cmp -s a b || { diff a b; fail "recorded, it printed other numbers"; }
"$RDB" ps t > ps.out || fail "rdb ps"
kid=$(awk 'NR == 3 { print $1 }' ps.out)
[ -n "$kid" ] && [ "$(wc -l < ps.out)" = 3 ] || { cat ps.out; fail "not a root and one fork child"; }
grep '^child' rec.out > kid.want
grep -v '^child' rec.out > root.want
[ "$(wc -l < kid.want)" -ge 5 ] || fail "the child printed $(wc -l < kid.want) lines"
for id in root "$kid"; do
	d=t; [ $id = root ] || d=t/proc/$id
	n=$("$RDB" info --complete "$d")
	[ "${n:-0}" -ge 6 ] || fail "$id: only ${n:-0} intervals"
	"$RDB" replay --quiet --verify "$d" > /dev/null 2> w.err || { cat w.err; fail "replay --verify of $id"; }
done
"$RDB" replay --verify --pid "$kid" t > w.out 2> w.err || { cat w.err; fail "replay --pid $kid"; }
cmp -s kid.want w.out || { diff kid.want w.out; fail "the child's replay printed another"; }
"$RDB" check t > c.out 2>&1 || { cat c.out; fail "rdb check"; }
[ "$(grep -c ' ok ' c.out)" = 2 ] || { cat c.out; fail "rdb check: not 2 processes ok"; }
from_each "t/proc/$kid" kid.want 0
pass
