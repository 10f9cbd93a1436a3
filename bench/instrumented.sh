#!/bin/sh
# instrumented.sh [BUILD_DIR]: the cost of rdb's instrumentation (hooks and
# SIC live, no recording), in one run, for the paper's life and mesh
# (examples/) and one real program: bzip2 -9 compressing a generated 20 MB
# file (Debian's bzip2 source, cached in BUILD_DIR/projects/bzip2 like the
# project test's).  Each program is built three ways at -O2:
#   glibc: gcc -static        musl: musl-gcc -static (when musl-gcc exists)
#   rdb:   rdb-cc (instrumented program and instrumented musl, static-pie)
# and timed in REPS rounds (default 5), a round running every program of
# every build once, in an order that turns each round, so a slow minute of
# this shared machine costs every build alike.  CPU time (user + sys) and
# wall time are each reported as median [min-max] over the rounds, with
# the medians' ratios rdb/musl (same libc: the instrumentation's cost
# alone) and rdb/glibc, and their geomeans.
# Outputs of the builds are compared (cmp), so a wrong build fails the run.
# A report, not a test: it asserts nothing about the numbers.
#
# PROFILE=1 adds where the time goes: the programs (not libc) rebuilt with
# variants of rdb-cc's rules (RDB_RULES): all hooks and the SIC dropped
# (what remains: reserved registers, no red zone, static-pie, instrumented
# musl, syscall stub and string helpers), one kind kept (SIC, write hooks,
# read hooks), one kind dropped, and three that keep every instruction of
# a kind but not its shadow memory traffic or not all its forms (below).
# They are timed in ROUNDS (default 9) rounds, each running the native
# build, the rdb build and every variant once, in an order that turns each
# round: the ratio to native is taken within each round and the median
# reported, as this machine's speed drifts by 20-40% from minute to minute
# (a best-of over separate series put the same binary at 1.8x and 2.3x).
# Variants compute wrong shadow state; they are for timing only.
set -eu

die() { echo "bench/instrumented: $*" >&2; exit 1; }

repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/bench/lib.sh"
bench_tools "${1:-}"
reps=${REPS:-5}
life_gens=${LIFE_GENS:-40000}
mesh_args=${MESH_ARGS:-1000 250}
bz_mb=${BZIP2_MB:-20}
musl=
command -v musl-gcc >/dev/null 2>&1 && musl="musl-gcc"

bench_work instrumented
gcc -O2 -Wall -o timeit "$repo/bench/timeit.c" || die "cannot build timeit"

# bzip2's source (cached) and its input: text and numbers, deterministic.
. "$repo/bench/bzip2-workload.sh"
bzip2_workload "$build" "$bz_mb"

# build KIND CC [RULES]: life, mesh and bzip2 into KIND/.
build() {
	kind=$1 cc=$2
	mkdir -p "$kind"
	static=-static
	[ "$kind" = glibc ] || [ "$kind" = musl ] || static=
	env ${3:+RDB_RULES="$3"} "$cc" -O2 $static -o "$kind/life" "$repo/examples/life.c" ||
		die "$kind: building life failed"
	env ${3:+RDB_RULES="$3"} "$cc" -O2 $static -o "$kind/mesh" "$repo/examples/mesh.c" -lm ||
		die "$kind: building mesh failed"
	rm -rf "bz-$kind" && cp -r bzsrc "bz-$kind"
	(cd "bz-$kind" && env ${3:+RDB_RULES="$3"} make CC="$cc" LDFLAGS="$static" bzip2) \
		> "bz-$kind.log" 2>&1 || die "$kind: building bzip2 failed (see bz-$kind.log)"
	cp "bz-$kind/bzip2" "$kind/bzip2"
}

# once KIND PROG: one run of KIND's PROG; "wall cpu" appended to KIND.PROG.t
once() {
	case $2 in
	life) set -- "$1" "$2" /dev/null "$life_gens" ;;
	mesh) set -- "$1" "$2" /dev/null $mesh_args ;;
	bzip2) set -- "$1" "$2" bz.input -9 ;;
	esac
	k=$1 p=$2 in=$3
	shift 3
	./timeit 1 "$in" "$k.$p.out" "$k/$p" "$@" >> "$k.$p.t" || die "$k/$p failed"
	[ "$k" = glibc ] || cmp -s glibc.$p.out "$k.$p.out" ||
		die "$p: the $k build's output differs from the glibc build's"
}

# rounds ROUNDS KIND...: every program of every KIND once a round, the
# kinds in an order turned by the round (backwards every other round).
rounds() {
	n=$1
	shift
	nk=$#
	kinds_r=$*
	for p in life mesh bzip2; do
		for k in $kinds_r; do : > "$k.$p.t"; done
	done
	r=0
	while [ $r -lt "$n" ]; do
		echo "bench/instrumented: round $((r + 1))/$n" >&2
		order=$(echo $kinds_r | awk -v r=$r -v n=$nk '{ for (i = 0; i < n; i++) {
			j = (i + r) % n + 1; o = (r % 2) ? $j " " o : o " " $j } print o }')
		for p in life mesh bzip2; do
			for k in $order; do once "$k" $p; done
		done
		r=$((r + 1))
	done
}

echo "bench/instrumented: building (glibc${musl:+, musl}, rdb)" >&2
build glibc gcc
[ -z "$musl" ] || build musl musl-gcc
build rdb "$rdbcc"
kinds="glibc${musl:+ musl} rdb"
# the glibc build first: the others' outputs are compared with its
for p in life mesh bzip2; do : > glibc.$p.t; once glibc $p; done
rounds "$reps" $kinds
base=glibc
[ -z "$musl" ] || base=musl

# col KIND PROG TIME: "median min max" of KIND's PROG in TIME (wall, cpu)
col() {
	f=1
	[ "$3" = wall ] || f=2
	awk -v f=$f '{ print $f }' "$1.$2.t" > col.tmp
	bench_stats col.tmp
}
med() { col "$@" | awk '{ print $1 }'; }
cell() { col "$@" | awk '{ printf "%.2f [%.2f-%.2f]", $1, $2, $3 }'; }

echo "rdb instrumented (hooks + SIC, no recording) vs native, -O2:" \
	"median [min-max] seconds of $reps interleaved rounds"
echo "workloads: life $life_gens generations; mesh $mesh_args (N, iterations); bzip2 -9 on $bz_mb MB"
echo "native: glibc = gcc -static (glibc)${musl:+; musl = musl-gcc -static (the musl-tools package, uninstrumented)}"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%-7s %-4s %-20s %-20s %-20s %9s %9s\n' program time glibc "${musl:+musl}" rdb "rdb/$base" rdb/glibc
for p in life mesh bzip2; do
	for t in cpu wall; do
		m=
		[ -z "$musl" ] || m=$(cell musl $p $t)
		printf '%-7s %-4s %-20s %-20s %-20s %9s %9s\n' $p $t "$(cell glibc $p $t)" "$m" \
			"$(cell rdb $p $t)" "$(bench_ratio "$(med rdb $p $t)" "$(med $base $p $t)")" \
			"$(bench_ratio "$(med rdb $p $t)" "$(med glibc $p $t)")"
	done
done
geo() { # geo KIND BASE TIME: geomean over the programs of KIND/BASE's medians
	for p in life mesh bzip2; do echo "$(med "$1" $p "$3") $(med "$2" $p "$3")"; done |
		awk '{ print $1 / $2 }' | bench_geomean
}
echo
echo "geomean rdb/$base (medians): cpu $(geo rdb $base cpu)x, wall $(geo rdb $base wall)x"
[ "$base" = glibc ] || echo "geomean rdb/glibc (medians): cpu $(geo rdb glibc cpu)x, wall $(geo rdb glibc wall)x"

[ "${PROFILE:-0}" = 1 ] || exit 0

# ------------------------------------------------------------- profile
# drop_rule NAME < rules: the rules without rule NAME.
drop_rule() {
	awk -v name="$1" '
		!skip && $1 == "rule" && $2 == name { skip = 1; depth = 0; seen = 0 }
		skip { o = gsub(/\{/, "{"); c = gsub(/\}/, "}"); depth += o - c
		       if (o) seen = 1; if (seen && depth == 0) skip = 0; next }
		{ print }'
}
drop_reads() { drop_rule read-hook-tls | drop_rule read-hook-check | drop_rule read-hook; }
drop_writes() { drop_rule write-hook-tls | drop_rule write-hook; }
# The rules rdb-cc uses (its build's source tree, or the installed copy).
rules=$("$rdbcc" --version | sed -n 's/.*rules: \([^;]*\).*/\1/p')
[ -r "$rules" ] || die "cannot find rdb-cc's rules (rdb-cc --version says '$rules')"
drop_reads < "$rules" | drop_writes | drop_rule sic > none.rules
drop_reads < "$rules" | drop_writes > sic-only.rules
drop_reads < "$rules" | drop_rule sic > writes-only.rules
drop_writes < "$rules" | drop_rule sic > reads-only.rules
drop_reads < "$rules" > no-read.rules
drop_writes < "$rules" > no-write.rules
drop_rule sic < "$rules" > no-sic.rules
# reads-data: the read checks compare the program's own bytes instead of
# the R plane's (test and js: never taken, as %r13's sign bits are 0), so
# every instruction stays and only the R plane's cache traffic goes.
sed -e 's/cmp\${sfx} \${sreg:r13}, \${disp}(\${base},%r14)/test${sfx} ${sreg:r13}, ${disp}(${base})/' \
    -e 's/cmp\${sfx} \${sreg:r13}, (%r12,%r14)/test${sfx} ${sreg:r13}, (%r12)/' \
    -e 's/jne \${label}$/js ${label}/' reads-only.rules > reads-data.rules
# reads-base: read checks only for base+displacement operands (no lea);
# indexed and %rip-relative ones go unchecked.
awk '$1 == "rule" { r = $2 } r == "read-hook-check" && /flags_dead$/ {
	sub(/flags_dead$/, "flags_dead \\&\\& has_base \\&\\& !has_index \\&\\& !rip_relative") } { print }' \
	reads-only.rules > reads-base.rules
# writes-stack: each write hook's one store goes below %rsp (dead: no red
# zone in compiled code) instead of the S plane.
sed -e 's/mov\${sfx} \${sreg:r13}, \${disp}(\${base},%r14,2)/mov${sfx} ${sreg:r13}, -64(%rsp)/' \
    -e 's/mov\${sfx} \${sreg:r13}, (%r12,%r14,2)/mov${sfx} ${sreg:r13}, -64(%rsp)/' writes-only.rules \
	> writes-stack.rules
variants="none sic-only writes-only writes-stack reads-only reads-data reads-base no-read no-write no-sic"
for v in $variants; do
	! cmp -s "$rules" $v.rules || die "variant $v did not change the rules"
done
! cmp -s reads-only.rules reads-data.rules || die "reads-data: trace.rules' check changed form"
! cmp -s reads-only.rules reads-base.rules || die "reads-base: trace.rules' check changed form"
! cmp -s writes-only.rules writes-stack.rules || die "writes-stack: trace.rules' write hook changed form"

rounds=${ROUNDS:-9}
for v in $variants; do
	echo "bench/instrumented: building profile variant $v" >&2
	build "$v" "$rdbcc" "$work/$v.rules"
done
rounds "$rounds" $base rdb $variants
# median KIND PROG: the median over the rounds of KIND's CPU time / base's
median() {
	paste "$1.$2.t" "$base.$2.t" | awk '{ print $2 / $4 }' | sort -n |
		awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo
echo "where the time goes: programs rebuilt with rules variants (libc stays"
echo "fully instrumented); median over $rounds rounds of CPU time / $base's"
echo "in the same round"
printf '%-13s %7s %7s %7s   %s\n' variant life mesh bzip2 what
for k in rdb $variants; do
	case $k in
	rdb) w="all of trace.rules" ;;
	none) w="no hooks, no SIC: flags, link, libc" ;;
	sic-only) w="the SIC alone" ;;
	writes-only) w="write hooks alone" ;;
	writes-stack) w="write hooks' stores to the stack, not the S plane" ;;
	reads-only) w="read hooks alone" ;;
	reads-data) w="read checks on the data's own bytes, not the R plane" ;;
	reads-base) w="read hooks, checks of indexed and %rip operands dropped" ;;
	no-read) w="all but the read hooks" ;;
	no-write) w="all but the write hooks" ;;
	no-sic) w="all but the SIC" ;;
	esac
	printf '%-13s %7s %7s %7s   %s\n' $k "$(median $k life)" "$(median $k mesh)" \
		"$(median $k bzip2)" "$w"
done
echo
echo "instrumentation sites in the rdb builds (program and libc):"
for p in life mesh bzip2; do
	objdump -d --no-show-raw-insn rdb/$p | awk -v p=$p '
		/lea +0x1\(%r15\),%r15/ { sic++ }
		/cmp +%r13[bwd]?,.*%r14,1\)$/ { rc++ }
		/mov +%r13[bwd]?,.*%r14,1\)$/ { rd++ }
		/mov +%r13[bwd]?,.*%r14,2\)$/ { wr++ }
		/pushf/ { pf++ }
		/call .*<__rdb_syscall>/ { sc++ }
		END { printf "  %-6s SIC %d, read checks %d, read stores %d (with cold-path stores), write hooks %d, pushfq %d, syscall stubs %d\n", p, sic, rc, rd, wr, pf, sc }'
done
