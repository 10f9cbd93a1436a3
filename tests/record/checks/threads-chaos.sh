#!/bin/sh
# threads-chaos.sh RDB RDB_CC: record-check-threads-chaos (docs/threads.md
# "--chaos").  rdb record --chaos draws each time slice's length and the
# next thread at random, so a race a fixed slice hides shows up while
# recording: 8 threads incrementing an unlocked counter
# (progs/threads_racy.c) are recorded five times with --chaos and must end
# with at least two different totals (with the default slice, which
# divides the loop's counts, a plain recording sees no race at all), each
# replayed with --verify to the recording's output.  A sixth --chaos
# recording has boundaries while the threads run (RDB_THREAD_BOUNDARIES=1,
# --every-sic), replayed whole with --verify too (its total is left out
# of the count: a boundary moves the slices' ends even without --chaos).
# The same program recorded without --chaos still records and replays
# (rdb info says which recordings used --chaos).
. "$(dirname "$0")/lib.sh"
build threads_racy racy
line="^threads 8, increments 1600000, counter [0-9]* (racy\|no race seen), loads hash [0-9a-f]*$"

# rec NAME ARGS...: records ./racy with ARGS, then replays it with --verify:
# the same output.
rec() {
	r_t=$1
	shift
	"$RDB" record --checksum "$@" -o "$r_t" -- ./racy > "$r_t.rec" 2> "$r_t.err" ||
		{ cat "$r_t.err"; fail "record $r_t ($*)"; }
	expect "$r_t.rec" "$line"
	"$RDB" replay --verify "$r_t" > "$r_t.rep" 2> "$r_t.rerr" ||
		{ cat "$r_t.rerr"; fail "replay --verify $r_t ($*)"; }
	cmp -s "$r_t.rec" "$r_t.rep" || { cat "$r_t.rec" "$r_t.rep"; fail "$r_t replayed another output"; }
}

rec plain
"$RDB" info plain > plain.info 2>&1 || fail "rdb info plain"
expect plain.info "^threads: *8 created, 8 exited; [0-9]* switches"
grep -q "recorded with --chaos" plain.info && fail "rdb info says a plain recording used --chaos"

for i in 1 2 3 4 5; do
	rec chaos$i --chaos
done
RDB_THREAD_BOUNDARIES=1 rec bound --chaos --every-sic 200000
"$RDB" info chaos1 > chaos.info 2>&1 || fail "rdb info chaos1"
expect chaos.info "^threads: *8 created, 8 exited; [0-9]* switches .*; recorded with --chaos$"
"$RDB" info bound > bound.info 2>&1 || fail "rdb info bound"
n5=$(sed -n 's/^intervals: *\([0-9]*\).*/\1/p' bound.info)
sed 's/, loads hash.*//' chaos*.rec | sort | uniq -c > totals
echo "chaos totals:"
cat totals
[ "$(wc -l < totals)" -ge 2 ] || fail "five --chaos recordings ended with one total: $(cat totals)"
[ "${n5:-0}" -ge 3 ] || fail "the recording with boundaries (--every-sic 200000) has ${n5:-0} intervals, not several"
echo "with boundaries: $n5 intervals"
pass
