#!/bin/sh
# xz-utils.sh RDB_CC BUILD_DIR: xz-utils 5.4.1 (Debian's xz-utils source
# package) built once with CC=rdb-cc by its own autotools build, threads
# on (`./configure --disable-shared --enable-threads=posix && make`), then
# its own test suite, `make check`: liblzma's unit tests, the
# multithreaded ones (test_check, test_memlimit, test_hardware: a build
# without threads reports them SKIP) included, and the xz, xzdec and
# script tests over the shipped test files.  Then six of its unit tests
# recorded whole by rdb record (`make check TESTS=...`), each replayed
# alone (proj_record_tree), and the whole `make check` recorded, every
# process of it replayed alone (record_check below), its threaded cases
# included.  Last a threaded workload (threaded_workload below): `xz -T4`
# gives the gcc build's bytes, unrecorded and recorded, replayed with
# --verify (proj_record_threads, record-threads.sh).
# (Until this file did all of it, xz-threads.sh built the same source a
# second time for the threads; this one built it with --disable-threads.)
set -eu
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/record-threads.sh"
proj_init xz-utils "$@"

tarball=$(proj_fetch xz-utils 'xz-utils_*.orig.tar.xz')
proj_unpack "$tarball" "$work/src"
cd "$work/src"
proj_run configure ./configure CC="$CC" LDFLAGS="-Wl,$probe" \
	--disable-shared --enable-static --enable-threads=posix --disable-nls --disable-doc
grep -q '^#define MYTHREAD_POSIX 1' config.h || proj_die "configure did not enable POSIX threads"
proj_run make make -j2
export RDB_PROBE_LOG="$probe_log"
# check_sum LOG: automake's summary in LOG; no failure, at least 18 PASS
# (the 18 of 18 a threads build passes here; without threads 15, 3 SKIP).
count() { echo "$sum" | awk -v k="$1" '{ for (i = 1; i < NF; i += 2) if ($i == k) n = $(i + 1) } END { print n + 0 }'; }
check_sum() {
	sum=$(sed -n 's/^# \(TOTAL\|PASS\|SKIP\|FAIL\|XFAIL\|XPASS\|ERROR\): *\([0-9]*\)$/\1 \2/p' "$1" | tr '\n' ' ')
	[ "$(count FAIL)" -eq 0 ] && [ "$(count ERROR)" -eq 0 ] && [ "$(count XPASS)" -eq 0 ] ||
		proj_die "make check ($1): $sum"
	[ "$(count PASS)" -ge 18 ] || proj_die "make check ($1) passed only $(count PASS) tests: $sum"
}
t0=$(date +%s)
proj_run check make -j2 check
native_secs=$(( $(date +%s) - t0 ))
unset RDB_PROBE_LOG
check_sum "$work/check.log"
# the multithreaded cases ran (with --disable-threads they say SKIP)
for c in test_check test_memlimit; do
	grep -q "^PASS: $c\$" "$work/check.log" || proj_die "make check: $c did not pass: $(grep ": $c\$" "$work/check.log")"
done
proj_note "make check: $sum(${native_secs} s)"
# liblzma's unit tests, `make check` of them recorded whole with short
# intervals (each test program replayed alone, rdb check:
# proj_record_tree); the whole suite in record_check below
units="test_block_header test_vli test_stream_flags test_filter_flags test_index_hash test_bcj_exact_size"
(cd tests && proj_record_tree unit-tests 6 make check TESTS="$units")

# record_check: the whole `make check` (from the top folder: liblzma's
# unit tests, test_files.sh's xz and xzdec on every test file,
# test_compress_*'s xz with every filter, test_scripts.sh's xzdiff and
# xzgrep) recorded by rdb record as one process tree
# (docs/process-trees.md), with 1,000,000-count intervals (--every-sic
# 3000 took over 20 minutes on a loaded machine, most of it xz
# compressing test_compress_generated_random; at 100,000, 5,185
# intervals, rdb check took 495 s of CPU, most of it starting replays;
# at 1,000,000, 839 intervals, 82 s).  The suite passes
# recorded; every process the native make check ran instrumented (the
# probe's log, per program) is in the set as a process of its own, and
# each ended with an exit status: the unit tests 0 (PASS) or 77 (SKIP)
# as their .trs says, xz and xzdec 0, or 1 or 2 where test_files.sh
# wants a bad file refused.  Every process replays alone with --verify:
# `rdb check --jobs 2 --whole` replays each of its intervals alone, and
# each process whole and from its middle interval to its end (check_set).
# The one with the most intervals of the unit tests, of xz and of xzdec
# (ties: the lowest ID) are replayed by rdb replay too, whole and from
# their middle: the exit status as recorded, the middle's output the end
# of the whole one's.
record_check() {
	t=$work/tree-check
	rm -rf "$t"
	t0=$(date +%s)
	"$rdb" record --checksum --every-sic 1000000 -o "$t" -- make -j2 check > "$t.rec.out" 2> "$t.rec.err" ||
		proj_die "rdb record make check failed (see $t.rec.err)"
	secs=$(( $(date +%s) - t0 ))
	check_sum "$t.rec.out"
	"$rdb" ps "$t" > "$t.ps" || proj_die "rdb ps $t failed"
	# columns: ID PPID EXIT (2 or 3 words) INTERVALS BYTES ARGV (from 66)
	awk 'NR > 1 && $5 != "not"' "$t.ps" > "$t.rec.ps"
	awk '{ print $2 }' "$probe_log" | sort | uniq -c > "$t.want"
	cut -c66- "$t.rec.ps" | awk '{ n = split($1, p, "/"); print p[n] }' | sort | uniq -c > "$t.got"
	cmp -s "$t.want" "$t.got" || { diff "$t.want" "$t.got" >&2 || :
		proj_die "the recorded processes (>) are not those make check ran instrumented (<)"; }
	awk '$3 != "status"' "$t.rec.ps" | grep . >&2 && proj_die "a recorded process did not end with an exit status ($t.ps)"
	awk '{ split(substr($0, 66), a, " "); print $4, a[1] }' "$t.rec.ps" > "$t.status"
	while read -r st prog; do
		case $prog in
		./test_*)
			r=$(sed -n 's/^:test-result: //p' "tests/${prog#./}.trs")
			[ "$st:$r" = 0:PASS ] || [ "$st:$r" = 77:SKIP ] ||
				proj_die "$prog ended with status $st, its result is $r" ;;
		*) case $st in 0 | 1 | 2) ;; *) proj_die "$prog ended with status $st" ;; esac ;;
		esac
	done < "$t.status"
	n_bad=$(awk '$1 != "0"' "$t.status" | wc -l)
	check_set "$t"
	sample=
	for p in ./test_ ../src/xz/xz ../src/xzdec/xzdec; do
		id=$(awk -v p="$p" '{ iv = 0
			for (i = 3; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+$/) { split($i, v, "/"); iv = v[2]; break }
			split(substr($0, 66), w, " ")
			if (index(w[1], p) == 1) print iv, $1 }' "$t.rec.ps" | sort -k1,1nr -k2,2n | awk 'NR == 1 { print $2 }')
		[ -n "$id" ] || proj_die "no recorded process of $p"
		want=$(awk -v id="$id" '$1 == id { print $4 }' "$t.rec.ps")
		r=$t.$id
		st=0
		"$rdb" replay --verify --pid "$id" "$t" < /dev/null > "$r.out" 2> "$r.err" || st=$?
		[ "$st" = "$want" ] || proj_die "replay --verify --pid $id: status $st, recorded $want: $(head -n 3 "$r.err")"
		n=$("$rdb" info --pid "$id" --complete "$t")
		[ "${n:-0}" -ge 3 ] || proj_die "process $id ($p) has ${n:-0} complete intervals, not several"
		k=$(( (n + 1) / 2 ))
		st=0
		"$rdb" replay --verify --from "$k" --pid "$id" "$t" < /dev/null > "$r.mid.out" 2> "$r.mid.err" || st=$?
		[ "$st" = "$want" ] || proj_die "replay --verify --from $k --pid $id: status $st, recorded $want: $(head -n 3 "$r.mid.err")"
		tail -c "$(wc -c < "$r.mid.out")" "$r.out" | cmp -s - "$r.mid.out" ||
			proj_die "the replay of $id from $k is not the end of its whole replay"
		sample="${sample:+$sample, }$(basename "$p")* $id ($n intervals, from $k)"
	done
	proj_note "make check recorded in ${secs} s (native ${native_secs} s): $(wc -l < "$t.rec.ps") processes, $n_bad of them ended non-zero as the suite wants, $(du -sm "$t" | cut -f1) MB; $checked; also by rdb replay, output compared: $sample"
	rm -rf "$t" "$t".[0-9]* # (hundreds of MB; kept when a check fails)
}

# check_set T: rdb check --jobs 2 --whole on set T passes: every recorded
# process (T.rec.ps) listed ok, each interval verified alone, the process
# whole (one of one interval: that interval's replay) and, when it has
# three or more, from its middle; a process that did not is named.  Its
# wall and CPU seconds (this shell's waited-for children's user + sys,
# /proc/$$/stat) and the load go in $checked.
check_set() {
	cpu() { sed 's/.*) //' /proc/$$/stat | awk '{ print $14 + $15 }'; }
	c0=$(cpu) t0=$(date +%s) l0=$(cut -d' ' -f1 /proc/loadavg)
	st=0
	"$rdb" check --jobs 2 --whole "$1" > "$1.check" 2> "$1.check.err" || st=$?
	csecs=$(( $(date +%s) - t0 ))
	ccpu=$(awk -v t="$(( $(cpu) - c0 ))" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.0f", t / hz }')
	bad=$(grep -v '^[^ ]*  *\(ok\|not recorded\) ' "$1.check" | cut -c1-300)
	[ "$st" = 0 ] && [ -z "$bad" ] ||
		proj_die "rdb check --whole $1 (status $st): processes that did not verify:
$bad
$(head -n 3 "$1.check.err")"
	awk '{ print $1 }' "$1.rec.ps" | sort > "$1.ids"
	awk '$2 == "ok" { print $1 }' "$1.check" | sort | cmp -s - "$1.ids" ||
		proj_die "rdb check --whole $1: not every recorded process listed ok ($1.check)"
	# ok lines: "ID ok N intervals verified (A-B), whole[ and from K]  ARGV0"
	grep -v ', whole' "$1.check" | awk '$2 == "ok"' | grep . &&
		proj_die "rdb check --whole $1: a process was not replayed whole"
	nint=$(awk '$2 == "ok" { s += $3 } END { print s + 0 }' "$1.check")
	nmid=$(grep -c ', whole and from ' "$1.check")
	checked="rdb check --jobs 2 --whole: $(wc -l < "$1.ids") processes ok, $nint intervals alone, each process whole, $nmid from the middle, in $csecs s ($ccpu s CPU; load $l0 at the start)"
}
record_check

proj_check_bin "$work/src/src/xz/xz" lzma_code
proj_check_bin "$work/src/src/xzdec/xzdec" lzma_crc64
proj_check_bin "$work/src/tests/test_block_header" lzma_block_header_encode
cat "$work"/src/src/liblzma/*/*.c > "$work/input"
# At 100 ms intervals: xz -6's match finder writes about 100 MB of hash
# tables all over, and at 20 ms each boundary (its copy-on-write faults,
# the checksums' hash of that memory) cost more than the interval, so
# the recording of a 0.6 s run took 744 intervals and 61 s (at 100 ms: 12
# intervals, 2.7 s; docs/perf.md).
rr_interval=100 proj_record_replay xz-6 "$work/input" "$work/src/src/xz/xz" -6 -c
proj_check_probe 30

# threaded_workload: liblzma's sources, several times over (about 5 MB),
# compressed by `xz -T4` with 256 KiB blocks (each block a job of the
# encoder's four threads; `xz -T4 -d` decodes them on four threads too):
# unrecorded the same bytes as a gcc build's xz -T4, and the input back;
# then recorded and replayed with --verify, compressing and decompressing
# (proj_record_threads).
threaded_workload() {
	# (not $in: proj_record_threads sets it, to its own input)
	mt=$work/input-mt
	: > "$mt"
	for i in 1 2 3 4; do
		cat "$work"/src/src/liblzma/*/*.c "$work"/src/src/liblzma/*/*.h >> "$mt"
		seq $((i * 7919)) 3 $((i * 7919 + 300000)) >> "$mt"
	done
	xz=$work/src/src/xz/xz
	opts="-T4 --block-size=262144 -3"
	proj_unpack "$tarball" "$work/native"
	# CC=gcc: configure would take proj_init's exported CC, rdb-cc
	(cd "$work/native" && ./configure CC=gcc --disable-shared --enable-static --disable-nls --disable-doc &&
		make -j2 -C src/liblzma && make -j2 -C src/xz) > "$work/native.log" 2>&1 ||
		proj_die "building xz with gcc failed (log: $work/native.log)"
	readelf -SW "$work/native/src/xz/xz" | grep -q '\.rdb_iot' &&
		proj_die "the gcc build of xz has an .rdb_iot section: built by rdb-cc"
	# shellcheck disable=SC2086
	"$work/native/src/xz/xz" $opts -c < "$mt" > "$mt.native.xz"
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	"$xz" $opts -c < "$mt" > "$mt.xz" || proj_die "instrumented xz $opts failed"
	end=$(date +%s.%N)
	cmp -s "$mt.native.xz" "$mt.xz" || proj_die "instrumented xz $opts output differs from gcc's"
	"$xz" -T4 -d -c < "$mt.xz" | cmp -s - "$mt" || proj_die "xz -T4 -d did not give the input back"
	proj_note "workload: xz $opts on $(wc -c < "$mt") bytes in $(awk "BEGIN { printf \"%.1f\", $end - $start }") s: same output as gcc's build; -T4 -d gives it back"

	# shellcheck disable=SC2086
	rt_intervals="-i 200" proj_record_threads compress "$mt" "$xz" $opts -c
	cmp -s "$mt.native.xz" "$work/rr-compress.rec.out" ||
		proj_die "xz $opts recorded gave other bytes than gcc's build"
	rt_intervals="-i 20" proj_record_threads decompress "$mt.native.xz" "$xz" -T4 -d -c
	cmp -s "$mt" "$work/rr-decompress.rec.out" ||
		proj_die "xz -T4 -d recorded did not give the input back"
}
threaded_workload
echo "PASS xz-utils"
