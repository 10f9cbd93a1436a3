#!/bin/sh
# lanes.sh RDB RDB_CC: record-check-lanes (tests/record/checks/).
# Big values frames hold their VALUES payloads as lanes when that is
# smaller (rdb/trace.c, docs/trace-format.md): progs/lanes.c's 32-bit
# indexes must get frames in lanes (4, or 8, which serves them about as
# well) and its doubles frames in 8, smaller than the raw bytes by at
# least a third, and each recording replays with
# --verify whole and from every interval, printing what it printed.
. "$(dirname "$0")/lib.sh"
build lanes prog
# frames FILE: "raw csize lanes" per frame of a stream file (after its
# 16-byte header; a frame header is magic, csize, raw, nrecords as 32-bit
# words, then two 64-bit words, the last the lanes)
frames() {
	f_at=16 f_len=$(wc -c < "$1")
	while [ "$f_at" -lt "$f_len" ]; do
		# shellcheck disable=SC2046 # the words of od
		set -- $(od -An -tu4 -j "$f_at" -N 32 "$1") "$1"
		echo "$3 $2 $7"
		f_at=$((f_at + 32 + $2))
		shift 8
	done
}
for kind in 4 8; do
	# (by count, not CPU time: each interval spans two rounds or more, so
	# it reads the whole array, on a slow machine too)
	"$RDB" record --every-sic 1100000 --checksum -o t$kind -- ./prog $kind 100 > rec$kind.out 2> rec$kind.err ||
		{ cat rec$kind.err; fail "record lanes $kind"; }
	expect rec$kind.out "^lanes $kind: 100 rounds, hash [0-9a-f]*$"
	n=$("$RDB" info --complete t$kind)
	[ "${n:-0}" -ge 3 ] || fail "lanes $kind: only ${n:-0} complete intervals"
	frames t$kind/values > frames$kind
	# every interval after the first (whose array is still zero) reads
	# its 2 MiB whole: two frames of about 1 MiB
	big=$(awk -v k=$kind '$1 > 900000 && ($3 == k || (k == 4 && $3 == 8)) && $2 * 3 < $1 * 2' frames$kind | wc -l)
	[ "$big" -ge $((2 * (n - 2))) ] && [ "$big" -ge 2 ] ||
		{ cat frames$kind; fail "lanes $kind: $big values frames of 1 MB in $kind lanes, a third smaller, in $n intervals"; }
	"$RDB" replay --verify t$kind > rep$kind.out 2> rep$kind.err || { cat rep$kind.err; fail "replay --verify lanes $kind"; }
	cmp -s rec$kind.out rep$kind.out || fail "replay of lanes $kind printed something else"
	from_each t$kind rec$kind.out 0 whole
done
pass
