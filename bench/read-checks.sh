#!/bin/sh
# read-checks.sh [BUILD_DIR]: where the read hooks' cost goes on a
# read-heavy program (issue 20): bzip2 -9 on a text of words with a
# Zipf-like distribution, built several ways and timed in interleaved
# rounds:
#   native   gcc -O2 -static (glibc)
#   musl     musl-gcc -O2 -static (rdb-cc's libc, uninstrumented; left out
#            when musl-gcc is not installed)
#   ident    rdb-cc -O2 with rules/identity.rules: bzip2's own code has no
#            hook and no SIC, but %r12-%r15 are reserved, there is no red
#            zone and the libc is rdb-cc's instrumented musl
#   sic      as rdb, but neither reads nor writes have hooks (the SIC only)
#   rdb      rdb-cc -O2 with rules/trace.rules, not recording
#   idxhot   as rdb, but each indexed read's check (lea, cmp) compares a
#            byte of the stack, always in the cache, and has no branch:
#            the check's instructions without its misses in the R plane
#   noidx    as rdb, but indexed reads have no hook at all
#   noread   as rdb, but no read has a hook (writes and SIC as rdb)
# so rdb - idxhot is what the R-plane lines of indexed reads cost,
# idxhot - noidx the instructions of their checks, noidx - noread the
# checks of the other forms (base register, %rip), noread - sic the write
# hooks, sic - ident the SIC, ident - musl the reserved registers and
# the instrumented libc, and musl - native the libc.  The variants are
# measuring aids, not traces: they leave reads (sic: and writes)
# unmarked.  COUNT=1 also builds a counting variant once and prints how
# many read checks (base register, indexed, %rip or absolute), of them
# cold paths (bytes not marked yet), flags-live read stores and write
# hooks one run, not recording, executes in each of bzip2's source files.  Each cell is the median CPU
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
drop_rules() {
	awk -v re="$1" '$0 ~ re { skip = 1 }
		skip { d += gsub(/{/, "{"); d -= gsub(/}/, "}"); if (d == 0 && /}/) skip = 0; next }
		{ print }' "$rules"
}
drop_rules '^rule read-hook(-check)? ' > noread.rules
drop_rules '^rule (read|write)-hook(-check)? ' > sic.rules
cp "$repo/rules/identity.rules" ident.rules
# The counting variant: a flag-free increment (through %r12, the hooks'
# scratch, before the hook uses it) of one counter per kind of hook, the
# counters defined and printed at exit by counts.c.
count() { printf '            movq __rc_%s(%%rip), %%r12\n            lea 1(%%r12), %%r12\n            movq %%r12, __rc_%s(%%rip)\n' "$1" "$1"; }
awk -v cb="$(count base)" -v ci="$(count idx)" -v cr="$(count rip)" \
	-v cs="$(count store)" -v cw="$(count write)" '
	/^rule / { r = $2; n = 0 }
	r == "read-hook-check" && /^    when has_base/ {
		print "    when has_index {"; print "        before {"; print ci
		print "            lea ${addr}, %r12"
		print "            cmp${sfx} ${sreg:r13}, (%r12,%r14)"
		print "            jne ${label}"; print "${label1}:"
		print "            .pushsection .text.unlikely.rdb_hooks"; print "${label}:"
		print "            incq __rc_cold(%rip)"
		print "            mov${sfx} ${sreg:r13}, (%r12,%r14)"
		print "            cmp %r13, %r13"; print "            jmp ${label1}"
		print "            .popsection"; print "        }"; print "    }"
	}
	{ print }
	/^        before {$/ && r == "read-hook-check" { print (n++ ? cr : cb) }
	/^\$\{label\}:$/ && r == "read-hook-check" { print "            incq __rc_cold(%rip)" }
	/^        before {$/ && r == "read-hook" { print cs }
	/^        before {$/ && r == "write-hook" { print cw }' "$rules" > count.rules
grep -q __rc_idx count.rules && grep -q __rc_write count.rules || die "count.rules: no counters"
# One set of counters per source file of bzip2 (count-FILE.rules).
srcs="blocksort huffman crctable randtable compress decompress bzlib bzip2"
{
	echo '#include <stdio.h>'
	for f in $srcs; do
		echo "unsigned long __rc_${f}_base, __rc_${f}_idx, __rc_${f}_rip, __rc_${f}_cold, __rc_${f}_store, __rc_${f}_write;"
	done
	echo '__attribute__((destructor)) static void rc_print(void)'
	echo '{'
	for f in $srcs; do
		printf '%s\n' "	fprintf(stderr, \"counts: %-10s checks: base %11lu idx %11lu rip %9lu cold %9lu; flags-live read stores %6lu; write hooks %11lu\\n\","
		echo "	        \"$f\", __rc_${f}_base, __rc_${f}_idx, __rc_${f}_rip, __rc_${f}_cold, __rc_${f}_store, __rc_${f}_write);"
	done
	echo '}'
} > counts.c
for f in $srcs; do
	sed "s/__rc_/__rc_${f}_/g" count.rules > count-$f.rules
done
for v in noidx idxhot noread sic; do
	cmp -s "$rules" $v.rules && die "variant $v is the shipped rules"
done

. "$repo/bench/project-source.sh"
project_source bzip2 "$build" bzsrc
kinds="native musl ident sic noread noidx idxhot rdb"
command -v musl-gcc >/dev/null || kinds=$(echo "$kinds" | sed 's/musl //')
builds=$kinds
[ "${COUNT:-0}" = 0 ] || builds="$kinds count"
echo "bench/read-checks: building bzip2 $builds" >&2
for k in $builds; do
	rm -rf bz-$k && cp -r bzsrc bz-$k
	case $k in
	native) (cd bz-$k && make CC=gcc LDFLAGS=-static bzip2) ;;
	musl) (cd bz-$k && make CC=musl-gcc LDFLAGS=-static bzip2) ;;
	rdb) (cd bz-$k && make CC="$rdbcc" bzip2) ;;
	count) (cd bz-$k && "$rdbcc" -O2 -c -o counts.o ../counts.c &&
		for f in $srcs; do
			RDB_RULES=$work/count-$f.rules "$rdbcc" -Wall -Winline -O2 -g \
				-D_FILE_OFFSET_BITS=64 -c $f.c || exit 1
		done && make CC="$rdbcc" LDFLAGS=counts.o bzip2) ;;
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

if [ "${COUNT:-0}" != 0 ]; then
	bz-count/bzip2 -9 < text 2> counts > out.count || die "count: bzip2 failed"
	[ $(grep -c '^counts:' counts) = $(echo $srcs | wc -w) ] || die "count: no counts printed"
	cat counts
	cmp -s out.native out.count || die "count: output differs from native's"
fi
echo "bzip2 -9 on $(($(wc -c < text) / 1048576)) MB of Zipf-like words; CPU seconds," \
	"median [min-max] of $rounds interleaved rounds (load: $(cut -d' ' -f1-3 /proc/loadavg))"
nat=$(awk '$1 == "native" { print $3 }' times | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
for k in $kinds; do
	awk -v k=$k '$1 == k { print $3 }' times | sort -n |
		awk -v k=$k -v nat="$nat" '{ a[NR] = $1 } END {
			m = a[int((NR + 1) / 2)]
			printf "  %-7s %6.2f [%.2f-%.2f]  %.2fx\n", k, m, a[1], a[NR], m / nat }'
done
