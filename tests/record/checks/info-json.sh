#!/bin/sh
# info-json.sh RDB RDB_CC: record-check-info-json (tests/record/checks/):
# rdb info --json is JSON (python3 -m json.tool reads it) and states the
# facts rdb info's text does, value by value (tests/record/info-json.py),
# for a tree with a fork child, timer signals and child output, a
# recording with checksums, an exit status and a death by a signal; the
# intervals' syscalls add up to each process's count, also in the
# timeline's bands.
. "$(dirname "$0")/lib.sh"
CMP=$SRC/../info-json.py
both() { # both NAME INFO-ARGS...: text and JSON of one trace set, compared
	n=$1
	shift
	"$RDB" info "$@" > $n.txt || fail "rdb info $*"
	"$RDB" info --json "$@" > $n.json || fail "rdb info --json $*"
	python3 -m json.tool $n.json > /dev/null || { cat $n.json; fail "rdb info --json $*: not JSON"; }
	python3 "$CMP" $n.txt $n.json || fail "rdb info --json $*: not the text's facts"
}
build timeline prog
"$RDB" record --forks -i 1 -o t -- ./prog > /dev/null 2>&1 || fail "record"
both top t
kid=$("$RDB" ps t | awk 'NR == 3 { print $1 }')
[ -n "$kid" ] || fail "no fork child in rdb ps t"
both kid --pid "$kid" t
# Per interval, the syscalls add up to the process's own, for the fork
# child too (its ids go on from its parent's; its interval 1 is the
# parent's run up to the fork, with none of its syscalls), in rdb info
# and in rdb timeline's interval bands.
sums() { # sums NAME: the interval table's sum, then the total
	python3 -c 'import json,sys; j = json.load(open(sys.argv[1]))
t = [r["syscalls"] for r in j["interval_table"]]
print(sum(x for x in t if x is not None) if None not in t else "unknown", j["syscalls"])' $1.json
}
for n in top kid; do
	set -- $(sums $n)
	[ "$1" = "$2" ] && [ "$2" -gt 0 ] || fail "rdb info ($n): the intervals' syscalls add up to $1, not $2"
done
python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1]))["interval_table"][0]["syscalls"] != 0)' kid.json ||
	fail "rdb info --pid $kid: the fork child's interval 1 has syscalls"
"$RDB" timeline --pid "$kid" -o kid.html t 2> /dev/null || fail "rdb timeline --pid $kid"
bands=$(sed -n 's/.*<title>interval [0-9]*: .*, \([0-9]*\) syscalls,.*/\1/p' kid.html | awk '{ s += $1 } END { print s + 0 }')
[ "$bands" = "$2" ] || fail "rdb timeline --pid $kid: the bands' syscalls add up to $bands, not $2"
"$RDB" record --checksum --every-sic 100000 -o tc -- ./prog > /dev/null 2>&1 || fail "record --checksum"
both sums tc
expect sums.json '"checksums": true'
# more than 20 intervals: the text shows 20 rows, the JSON all of them
[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["interval_table"]))' sums.json)" -gt 20 ] ||
	fail "tc has 20 intervals or fewer"
build exit3 p3
"$RDB" record -o t3 -- ./p3 > /dev/null 2>&1
both exit3 t3
expect exit3.json '"ended": {"how": "exit", "value": 3'
build sigdeath ps
"$RDB" record -o ts -- ./ps > /dev/null 2>&1
both sig ts
expect sig.json '"ended": {"how": "signal", "value": 15'
pass
