#!/bin/sh
# threads-stack.sh RDB RDB_CC: record-check-threads-stack (issue 19).
# progs/thstack.c: two workers whose stack mappings the kernel merged with
# 4 MiB of data mapped above them (as xz -T4's encoder buffers), reading
# stack slots they never wrote.  Boundaries fall while they live (--every-sic): each saves every
# thread's own stack up to the page past its clone's stack, not to the
# mapping's end (before: about 7.5 MB of STACK a boundary here, 90 MB with
# xz -T4), so the STACK stream stays under 1 MiB a boundary; the thread
# that takes a boundary has its stack saved whole too, so replays from
# every interval print the recorded stale hashes (--verify).
. "$(dirname "$0")/lib.sh"
build thstack prog
timeout 120 "$RDB" record --checksum --every-sic 100000 -o t -- ./prog > rec.out 2> rec.err ||
	{ cat rec.err; fail "record thstack"; }
[ ! -s rec.err ] || { cat rec.err; fail "record of thstack wrote to stderr"; }
[ "$(grep -c '^worker [12]: stack mapping holds the data above it$' rec.out)" = 2 ] ||
	{ head -n 3 rec.out; fail "the workers' stack mappings did not take in the data above them"; }
"$RDB" info t > info.txt || fail "rdb info"
b=$(sed -n 's/^boundaries while threads lived: \([0-9]*\) .*/\1/p' info.txt)
[ "${b:-0}" -ge 4 ] || { cat info.txt; fail "fewer than 4 boundaries while the workers lived (${b:-none})"; }
n=$(sed -n 's/^intervals: *\([0-9]*\).*/\1/p' info.txt)
raw=$(awk '$1 == "stack" && $3 ~ /^[0-9]+$/ { print $3 }' info.txt)
echo "thstack: $n intervals ($b while the workers lived), STACK $raw bytes raw"
[ -n "$raw" ] && [ "$raw" -lt $((n * 1048576)) ] ||
	{ cat info.txt; fail "STACK holds ${raw:-?} bytes for $n intervals: more than 1 MiB a boundary"; }
timeout 120 "$RDB" replay --verify t > w.out 2> w.err || { cat w.err; fail "replay --verify"; }
cmp -s rec.out w.out || { diff rec.out w.out; fail "the replay printed something else"; }
from_each t rec.out 0
pass
