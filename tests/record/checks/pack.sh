#!/bin/sh
# pack.sh RDB RDB_CC: record-check-pack (tests/record/checks/).
# A test suite (make check running three tests of progs/flaky.c, which
# print a random draw; FLAKY=t2 makes t2 fail) recorded whole: rdb ps
# marks t2 FAILED; rdb pack copies the executable into the set; the set
# moved to another folder and the suite's folder (executables included)
# deleted, t2 replays with --verify, whole and from the middle, ending
# as recorded (status 1) and printing exactly what it printed (draw and
# all), and rdb check passes on the moved set.  Bad input: the set's
# copy missing (and the executable gone), or replaced by another build:
# clear messages, no replay.
. "$(dirname "$0")/lib.sh"
mkdir -p work/suite
build flaky work/suite/flaky
printf 'check:\n\tfails=0; for t in t1 t2 t3; do ./flaky $$t || fails=1; done; exit $$fails\n' \
	> work/suite/Makefile
(cd work && FLAKY=t2 "$RDB" record --checksum --every-sic 20000 -o set -- make -s -C suite check) \
	> rec.out 2> rec.err
[ $? = 2 ] || { cat rec.err; fail "the recording of make check did not end with make's status 2"; }
grep -q '^t2: FAIL' rec.out || fail "t2 did not fail"
"$RDB" ps work/set > ps.out || fail "rdb ps"
cat ps.out
id=$(sed -n 's/^\([0-9.]*\) .* status 1 FAILED .* \.\/flaky t2$/\1/p' ps.out)
[ -n "$id" ] || fail "rdb ps does not show ./flaky t2 as status 1 FAILED"
[ "$(grep -c ' status 0 .* \./flaky t[13]$' ps.out)" = 2 ] || fail "t1 and t3 are not status 0"
"$RDB" pack work/set > pack.out || { cat pack.out; fail "rdb pack"; }
expect pack.out "^work/set: 1 executables copied ([0-9]* bytes) into work/set/exe$"
"$RDB" pack work/set > pack2.out || fail "rdb pack again"
expect pack2.out "^work/set: 0 executables copied"
mkdir moved
mv work/set moved/set
rm -rf work
grep '^t2: ' rec.out > t2.want
"$RDB" replay --verify --pid "$id" moved/set > r.out 2> r.err
[ $? = 1 ] || { cat r.err; fail "the replay of t2 did not end with status 1"; }
[ ! -s r.err ] || { cat r.err; fail "the replay of t2 wrote to stderr"; }
cmp -s t2.want r.out || { diff t2.want r.out; fail "the replay of t2 printed other bytes"; }
last=$("$RDB" info --pid "$id" --complete moved/set)
mid=$(((last + 1) / 2))
[ "$mid" -ge 2 ] || fail "t2 has $last complete intervals: too few"
"$RDB" replay --verify --from "$mid" --pid "$id" moved/set > m.out 2> m.err
[ $? = 1 ] || { cat m.err; fail "the replay of t2 from $mid did not end with status 1"; }
tail -c "$(wc -c < m.out)" t2.want | cmp -s - m.out || fail "the replay of t2 from $mid: not the end of its output"
"$RDB" check moved/set > c.out || { cat c.out; fail "rdb check of the moved set"; }
cat c.out
[ "$(grep -c '  ok  .* \./flaky$' c.out)" = 3 ] || fail "rdb check: not 3 processes ok"
# bad input: the copy gone (the executable is gone too)
cp -a moved/set nocopy
rm nocopy/exe/*
"$RDB" replay --pid "$id" nocopy > /dev/null 2> n.err && fail "a replay without the executable"
expect n.err "^rdb: nocopy/proc/$id: cannot replay: the recorded executable .*/work/suite/flaky (build-id [0-9a-f]*) is gone, and the set holds no copy of it"
"$RDB" check nocopy > nc.out 2>&1 && fail "rdb check without the executable"
expect nc.out "FAILED .*is gone, and the set holds no copy of it"
# bad input: another build in the copy's place
cp -a moved/set other
build hello h
cp h other/exe/*
"$RDB" replay --pid "$id" other > /dev/null 2> o.err && fail "a replay of another build"
expect o.err "^rdb: other/proc/$id: the set's copy of the executable, .* has build-id [0-9a-f]*: the set was altered; refusing"
pass
