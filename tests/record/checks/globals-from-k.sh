#!/bin/sh
# globals-from-k.sh RDB RDB_CC: record-check-globals-from-k (tests/record/checks/).
# A program reading and writing its globals (.bss and .data) at random
# (progs/globalsrand.c): every interval's values are tens of thousands of
# ranges in the image's writable segments, which the snapshot child
# copies directly (runtime/interval.c, vdirect).  Recorded with
# --checksum, the whole replay and one from every boundary print what
# the recording printed and pass --verify.  A replay from an interval
# gets its values from rdb in batches, not a write a record: rdb's own
# writes to the channel (strace, rdb alone) stay under 200 for an
# interval of more than 10,000 ranges.  (Seen failing: with vdirect
# copying zeros for the image, replay --verify --from 2 diverged; with
# the batching taken out of rdb/replay.c, rdb wrote 69,778 times for
# 34,878 ranges.)
. "$(dirname "$0")/lib.sh"
command -v strace > /dev/null || fail "strace is not installed (scripts/setup-debian.sh installs it)"
build globalsrand prog -O2
"$RDB" record --checksum --every-sic 60000 -o t -- ./prog > rec.out 2> rec.err ||
	{ cat rec.err; fail "record"; }
n=$("$RDB" info --complete t)
[ "${n:-0}" -ge 4 ] || fail "only ${n:-0} intervals"
./prog > native.out || fail "the program itself"
cmp -s native.out rec.out || fail "recorded, it printed another hash"
"$RDB" replay --verify t > w.out 2> w.err || { cat w.err; fail "replay"; }
cmp -s rec.out w.out || fail "the replay printed another hash"
from_each t rec.out 0 whole
k=$((n / 2 + 1))
[ "$k" -le "$n" ] || k=$n
# (RDB_DEBUG=2: the runtime names each range it loads)
ranges=$(RDB_DEBUG=2 "$RDB" replay --quiet --from $k --to $k t 2>&1 > /dev/null |
	grep -c "^rdb: interval $k value ")
[ "$ranges" -gt 10000 ] || fail "interval $k has only $ranges value ranges: the check needs more"
strace -o st.txt -e trace=write,sendto,sendmsg,writev "$RDB" replay --quiet --from $k --to $k t \
	> /dev/null 2> st.err || { cat st.err; fail "replay --from $k --to $k under strace"; }
writes=$(grep -c '^[a-z]' st.txt)
[ "$writes" -lt 200 ] || fail "rdb wrote to the channel $writes times for interval $k's $ranges value ranges"
pass
