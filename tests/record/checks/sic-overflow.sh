#!/bin/sh
# sic-overflow.sh RDB RDB_CC: record-check-sic-overflow (tests/record/checks/).
# An interval that reaches the counter's limit (2^40 counts; here
# RDB_TEST_SIC_SPAN=100000) ends at an overflow boundary; without
# intervals no boundary is possible: the recording says so and stops
# there, valid up to that point, and the program runs on untraced
# (its counts used to wrap silently).
. "$(dirname "$0")/lib.sh"
build overflow prog
RDB_TEST_SIC_SPAN=100000 "$RDB" record -i 0 -o t -- ./prog > rec.out 2> rec.err
[ $? -eq 3 ] || { cat rec.err; fail "record -i 0: not the program's status 3"; }
expect rec.err "^rdb: interval 1 ran .* counts .* without a boundary (no intervals): the recording stops here"
[ "$(wc -l < rec.out)" -eq 10 ] || fail "the program did not run to its end untraced"
"$RDB" info t > i.out || fail "info"
expect i.out "^not traced: the rest of the run, after an interval reached"
expect i.out "^intervals:  1 "
"$RDB" replay t > p.out 2> p.err
[ $? -eq 3 ] || { cat p.err; fail "replay: not the recorded status 3"; }
expect p.err "^rdb: replay ends where the recording stopped"
n=$(wc -l < p.out)
[ "$n" -ge 1 ] && [ "$n" -lt 10 ] || fail "the replay printed $n lines, not the part before the stop"
head -n "$n" rec.out | cmp -s - p.out || fail "the replay's output is not the start of the recording's"
# with intervals: overflow boundaries, replayed from each
RDB_TEST_SIC_SPAN=100000 "$RDB" record --checksum -i 100000 -o t2 -- ./prog > rec2.out 2> rec2.err
[ $? -eq 3 ] || { cat rec2.err; fail "record -i 100000"; }
n=$("$RDB" info --complete t2)
[ "${n:-0}" -ge 3 ] || fail "only ${n:-0} intervals: no overflow boundaries"
from_each t2 rec2.out 3
pass
