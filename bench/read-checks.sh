#!/bin/sh
# read-checks.sh [BUILD_DIR]: where the read hooks' cost goes on a
# read-heavy program (issue 20): bzip2 -9 on a text of words with a
# Zipf-like distribution, built five ways and timed in interleaved rounds:
#   native   gcc -O2 -static (glibc)
#   rdb      rdb-cc -O2 with rules/trace.rules, not recording
#   idxhot   as rdb, but each indexed read's check (lea, cmp) compares a
#            byte of the stack, always in the cache, and has no branch:
#            the check's instructions without its misses in the R plane
#   noidx    as rdb, but indexed reads have no hook at all
#   noread   as rdb, but no read has a hook (writes and SIC as rdb)
# so rdb - idxhot is what the R-plane lines of indexed reads cost,
# idxhot - noidx the instructions of their checks, noidx - noread the
# checks of the other forms (base register, %rip), and noread - native
# the write hooks, the SIC and musl.  The variants are measuring aids,
# not traces: they leave reads unmarked.  Each cell is the median CPU
# time (user + system) of ROUNDS (default 5) rounds with its min and max,
# a round running every build once; ratios are to native's median.
# INPUT=FILE uses that file; else MB (default 10) megabytes are generated.
# A report, not a test: it asserts only that every build's output is
# native's.
set -eu

die() { echo "bench/read-checks: $*" >&2; exit 1; }

repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/bench/lib.sh"
bench_tools "${1:-}"
rounds=${ROUNDS:-5}
mb=${MB:-10}

bench_work read-checks
gcc -O2 -Wall -o timeit "$repo/bench/timeit.c" || die "cannot build timeit"

if [ -n "${INPUT:-}" ]; then
	cp "$INPUT" text
else
	bench_zipf_text "$mb" text
fi

# The variants, from the shipped rules: a case before read-hook-check's
# base-register case takes its indexed reads.
rules=$repo/rules/trace.rules
key='    when has_base \&\& !has_index \&\& !rip_relative {$'
grep -q "$key" "$rules" || die "rules/trace.rules changed: update the variants"
sed "0,/$key/s//    when has_index { }\n&/" "$rules" > noidx.rules
sed "0,/$key/s//    when has_index {\n        before {\n            lea \${addr}, %r12\n            cmp\${sfx} \${sreg:r13}, (%rsp)\n        }\n    }\n&/" "$rules" > idxhot.rules
awk '/^rule read-hook(-check)? / { skip = 1 }
	skip { d += gsub(/{/, "{"); d -= gsub(/}/, "}"); if (d == 0 && /}/) skip = 0; next }
	{ print }' "$rules" > noread.rules
for v in noidx idxhot noread; do
	cmp -s "$rules" $v.rules && die "variant $v is the shipped rules"
done

. "$repo/bench/project-source.sh"
project_source bzip2 "$build" bzsrc
kinds="native rdb idxhot noidx noread"
echo "bench/read-checks: building bzip2 $kinds" >&2
for k in $kinds; do
	rm -rf bz-$k && cp -r bzsrc bz-$k
	case $k in
	native) (cd bz-$k && make CC=gcc LDFLAGS=-static bzip2) ;;
	rdb) (cd bz-$k && make CC="$rdbcc" bzip2) ;;
	*) (cd bz-$k && RDB_RULES=$work/$k.rules make CC="$rdbcc" bzip2) ;;
	esac > bz-$k.log 2>&1 || die "$k: bzip2 (log: bz-$k.log)"
done

: > times
for r in $(seq "$rounds"); do
	for k in $kinds; do
		t=$(./timeit 1 text out.$k bz-$k/bzip2 -9) || die "$k: bzip2 failed"
		echo "$k $t" >> times
	done
	for k in $kinds; do
		cmp -s out.native out.$k || die "$k: output differs from native's"
	done
done

echo "bzip2 -9 on $(($(wc -c < text) / 1048576)) MB of Zipf-like words; CPU seconds," \
	"median [min-max] of $rounds interleaved rounds (load: $(cut -d' ' -f1-3 /proc/loadavg))"
nat=$(awk '$1 == "native" { print $3 }' times | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
for k in $kinds; do
	awk -v k=$k '$1 == k { print $3 }' times | sort -n |
		awk -v k=$k -v nat="$nat" '{ a[NR] = $1 } END {
			m = a[int((NR + 1) / 2)]
			printf "  %-7s %6.2f [%.2f-%.2f]  %.2fx\n", k, m, a[1], a[NR], m / nat }'
done
