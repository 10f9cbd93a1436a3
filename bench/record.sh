#!/bin/sh
# record.sh [BUILD_DIR]: what recording and replay cost, in one run, for
# the paper's life and mesh (examples/) and two real projects built from
# Debian's sources (cached like the project tests'): bzip2 -9 and zlib's
# minigzip -9, on the same generated file.  For each:
#   native   gcc -O2 -static (glibc)
#   rdb      rdb-cc -O2, run without rdb (hooks and SIC only)
#   record   rdb record -i INTERVAL_MS (default 250) --checksum off
#   replay   rdb replay (the whole run; without --verify, so without the
#            read and write hooks: runtime/unhook.c)
#   verify   rdb replay --verify of a recording made with --checksum
#            (hooks kept: the hashes need the planes)
#   from K   rdb replay --from K --to K, K the middle interval (wall)
#   start    how long that replay took to resume the program at interval
#            K's start, in ms (rdb replay --timing; the best of REPS)
# and the trace: bytes, KB per second of recording, bytes per interval.
# Each time is the best wall time of REPS (default 5) rounds, a round
# running every column once: this machine's speed drifts by 20-40% from run
# to run, and in rounds a slow minute costs every column alike (record and
# replay are multi-process: CPU time would leave out the snapshot children
# and rdb).  Ratios are to native.  A report, not a
# test: it asserts nothing about the numbers, but a replay that prints
# something else fails the run.
set -eu

die() { echo "bench/record: $*" >&2; exit 1; }

repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/bench/lib.sh"
bench_tools "${1:-}" rdb
reps=${REPS:-5}
iv=${INTERVAL_MS:-250}
life_gens=${LIFE_GENS:-40000}
mesh_args=${MESH_ARGS:-1000 250}
bz_mb=${BZIP2_MB:-20}

bench_work record
gcc -O2 -Wall -o timeit "$repo/bench/timeit.c" || die "cannot build timeit"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }

. "$repo/bench/bzip2-workload.sh"
bzip2_workload "$build" "$bz_mb"
. "$repo/bench/project-source.sh"
project_source zlib "$build" zsrc

echo "bench/record: building (gcc -static, rdb-cc)" >&2
for k in native rdb; do
	mkdir -p $k
	cc=gcc static=-static
	[ $k = rdb ] && cc=$rdbcc static=
	$cc -O2 $static -o $k/life "$repo/examples/life.c" || die "$k: life"
	$cc -O2 $static -o $k/mesh "$repo/examples/mesh.c" -lm || die "$k: mesh"
	rm -rf bz-$k && cp -r bzsrc bz-$k
	(cd bz-$k && make CC="$cc" LDFLAGS="$static" bzip2) > bz-$k.log 2>&1 || die "$k: bzip2"
	cp bz-$k/bzip2 $k/bzip2
	rm -rf zl-$k && cp -r zsrc zl-$k
	(cd zl-$k && CC="$cc" ./configure --static && make LDFLAGS="$static" minigzip) > zl-$k.log 2>&1 ||
		die "$k: zlib (log: zl-$k.log)"
	cp zl-$k/minigzip $k/zlib
done

args() {
	case $1 in
	life) echo "$life_gens" ;;
	mesh) echo "$mesh_args" ;;
	bzip2 | zlib) echo "-9" ;;
	esac
}
input() { case $1 in bzip2 | zlib) echo bz.input ;; *) echo /dev/null ;; esac; }

echo "rdb record and replay vs native (gcc -O2 -static), wall seconds; intervals of $iv ms CPU"
echo "workloads: life $life_gens generations; mesh $mesh_args; bzip2 -9 and zlib's minigzip -9 on $bz_mb MB"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
best() { ./timeit "$reps" "$@" | awk '{ print $1 }'; }
once() { ./timeit 1 "$@" | awk '{ print $1 }'; }
least() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'; }
printf '%-6s %8s %8s %8s %8s %8s %8s %6s %9s %9s %9s %9s %10s %9s\n' program native rdb record replay \
	verify "from K" K start rec/nat rep/nat ver/nat "trace KB/s" "B/intvl"
for p in life mesh bzip2 zlib; do
	in=$(input $p)
	# shellcheck disable=SC2046
	"$rdb" record -i "$iv" --checksum -o $p.ctrace -- rdb/$p $(args $p) < "$in" > /dev/null
	# REPS rounds, each running every column once: a slow minute then
	# costs every column alike (columns timed one after the other put a
	# native run at 1.23 s and the instrumented one at 0.92 s)
	nat= ins= rec= rep= ver= r=0
	while [ $r -lt "$reps" ]; do
		# shellcheck disable=SC2046
		nat=$(least "$nat" "$(once "$in" $p.native.out native/$p $(args $p))")
		# shellcheck disable=SC2046
		ins=$(least "$ins" "$(once "$in" $p.rdb.out rdb/$p $(args $p))")
		# shellcheck disable=SC2046
		rec=$(least "$rec" "$(once "$in" $p.rec.out /bin/sh -c 'rm -rf "$1" && shift && exec "$@"' \
			sh $p.trace "$rdb" record -i "$iv" -o $p.trace -- rdb/$p $(args $p))")
		rep=$(least "$rep" "$(once /dev/null /dev/null "$rdb" replay --quiet $p.trace)")
		ver=$(least "$ver" "$(once /dev/null /dev/null "$rdb" replay --quiet --verify $p.ctrace)")
		r=$((r + 1))
	done
	"$rdb" replay $p.trace > $p.rep.out
	cmp -s $p.native.out $p.rec.out || die "$p: the recorded run printed something else"
	cmp -s $p.rec.out $p.rep.out || die "$p: the replay printed something else"
	n=$("$rdb" info --complete $p.trace)
	k=$(( (n + 1) / 2 ))
	[ "$k" -ge 1 ] || k=1
	from=$(best /dev/null /dev/null "$rdb" replay --quiet --from "$k" --to "$k" $p.trace)
	start= r=0
	while [ $r -lt "$reps" ]; do
		t=$("$rdb" replay --quiet --timing --from "$k" --to "$k" $p.trace 2>&1 > /dev/null |
			sed -n 's/^rdb: replay resumed .* start \([0-9.]*\) ms after .*/\1/p')
		[ -n "$t" ] || die "$p: replay --timing --from $k said no start time"
		start=$(least "$start" "$t")
		r=$((r + 1))
	done
	# the files' bytes (du -sb would add the folder's own 4 KiB)
	bytes=$(find $p.trace -type f -printf '%s\n' | awk '{ s += $1 } END { print s }')
	printf '%-6s %8s %8s %8s %8s %8s %8s %6s %9s %9s %9s %9s %10s %9s\n' $p "$nat" "$ins" "$rec" \
		"$rep" "$ver" "$from" "$k/$n" \
		"${start}ms" \
		"$(ratio "$rec" "$nat")" "$(ratio "$rep" "$nat")" "$(ratio "$ver" "$nat")" \
		"$(awk -v b="$bytes" -v t="$rec" 'BEGIN { printf "%.1f", b / 1024 / t }')" \
		"$(awk -v b="$bytes" -v n="$n" 'BEGIN { printf "%d", b / (n > 0 ? n : 1) }')"
	echo "$p $rec $nat $rep" >> ratios
done
# The goals are for life, mesh and one real project: each project's
# geomean is printed, and the one over all four.
echo
for set in "life mesh bzip2" "life mesh zlib" "life mesh bzip2 zlib"; do
	awk -v set=" $set " 'index(set, " " $1 " ") { r += log($2 / $3); p += log($4 / $3); n++ }
		END { printf "geomean of %-22s record %.2fx native (goal 1.5x), replay %.2fx (goal 1.2x)\n",
		      substr(set, 2, length(set) - 2) ":", exp(r / n), exp(p / n) }' ratios
done
