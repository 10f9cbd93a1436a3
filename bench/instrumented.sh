#!/bin/sh
# instrumented.sh [BUILD_DIR]: the cost of rdb's instrumentation (hooks and
# SIC live, no recording), in one run, for the paper's life and mesh
# (examples/) and one real program: bzip2 -9 compressing a generated 20 MB
# file (Debian's bzip2 source, cached in BUILD_DIR/projects/bzip2 like the
# project test's).  Each program is built three ways at -O2:
#   glibc: gcc -static        musl: musl-gcc -static (when musl-gcc exists)
#   rdb:   rdb-cc (instrumented program and instrumented musl, static-pie)
# and run REPS times (default 5); the best CPU time (user + sys) and the
# best wall time of each are reported, with ratios rdb/musl (same libc:
# the instrumentation's cost alone) and rdb/glibc, and their geomeans.
# Outputs of the builds are compared (cmp), so a wrong build fails the run.
# A report, not a test: it asserts nothing about the numbers.
#
# PROFILE=1 adds where the time goes: the programs (not libc) rebuilt with
# variants of rules/trace.rules (RDB_RULES), each dropping one kind of
# instrumentation: read hooks, write hooks, the write hooks' flags-live
# form (pushfq/popfq), the SIC, or all of them (what remains: reserved
# registers, no red zone, static-pie, syscall stub and string helpers).
# Variants compute wrong shadow state; they are for timing only.
set -eu

die() { echo "bench/instrumented: $*" >&2; exit 1; }

repo=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$repo/build}" 2>/dev/null && pwd) || die "no build folder ${1:-$repo/build}"
rdbcc=$build/driver/rdb-cc
reps=${REPS:-5}
life_gens=${LIFE_GENS:-40000}
mesh_args=${MESH_ARGS:-1000 250}
bz_mb=${BZIP2_MB:-20}
[ -x "$rdbcc" ] || die "$rdbcc missing: cmake --build $build"
case $("$rdbcc" --version 2>&1 | sed -n 's/^libc: //p') in
"" | *"(not built)"*) die "instrumented musl not built: cmake --build $build --target musl" ;;
esac
musl=
command -v musl-gcc >/dev/null 2>&1 && musl="musl-gcc"
unset RDB_CC RDB_CC_ACTIVE RDB_CC_LIBC_BUILD RDB_MUSL RDB_CC_KEEP RDB_RULES

work=$(mktemp -d "${TMPDIR:-/tmp}/rdb-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
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

# measure KIND: prints "life W C mesh W C bzip2 W C" for KIND's builds.
measure() {
	./timeit "$reps" /dev/null "$1.life.out" "$1/life" "$life_gens" > "$1.life.t" ||
		die "$1/life failed"
	# shellcheck disable=SC2086
	./timeit "$reps" /dev/null "$1.mesh.out" "$1/mesh" $mesh_args > "$1.mesh.t" ||
		die "$1/mesh failed"
	./timeit "$reps" bz.input "$1.bzip2.out" "$1/bzip2" -9 > "$1.bzip2.t" ||
		die "$1/bzip2 failed"
	for p in life mesh bzip2; do
		[ "$1" = glibc ] || cmp -s glibc.$p.out "$1.$p.out" ||
			die "$p: the $1 build's output differs from the glibc build's"
	done
}

echo "bench/instrumented: building (glibc${musl:+, musl}, rdb)" >&2
build glibc gcc
[ -z "$musl" ] || build musl musl-gcc
build rdb "$rdbcc"
kinds="glibc${musl:+ musl} rdb"
for k in $kinds; do
	echo "bench/instrumented: running the $k builds, best of $reps" >&2
	measure "$k"
done
base=glibc
[ -z "$musl" ] || base=musl

cpu() { awk '{ print $2 }' "$1.$2.t"; }
wall() { awk '{ print $1 }' "$1.$2.t"; }

echo "rdb instrumented (hooks + SIC, no recording) vs native, -O2, best of $reps"
echo "workloads: life $life_gens generations; mesh $mesh_args (N, iterations); bzip2 -9 on $bz_mb MB"
echo "native: glibc = gcc -static (glibc)${musl:+; musl = musl-gcc -static (the musl-tools package, uninstrumented)}"
echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%-8s %-5s %9s %9s %9s %10s %10s\n' program time glibc "${musl:+musl}" rdb "rdb/$base" rdb/glibc
for p in life mesh bzip2; do
	for t in cpu wall; do
		g=$($t glibc $p)
		m=
		[ -z "$musl" ] || m=$($t musl $p)
		r=$($t rdb $p)
		b=$($t $base $p)
		printf '%-8s %-5s %9s %9s %9s %9.2fx %9.2fx\n' $p $t "$g" "$m" "$r" \
			"$(echo "$r $b" | awk '{ print $1 / $2 }')" "$(echo "$r $g" | awk '{ print $1 / $2 }')"
	done
done
geo() { # geo KIND BASE TIME: geomean over the programs of KIND/BASE
	for p in life mesh bzip2; do echo "$($3 "$1" $p) $($3 "$2" $p)"; done |
		awk '{ s += log($1 / $2); n++ } END { printf "%.2fx", exp(s / n) }'
}
echo
echo "geomean rdb/$base: cpu $(geo rdb $base cpu), wall $(geo rdb $base wall)"
[ "$base" = glibc ] || echo "geomean rdb/glibc: cpu $(geo rdb glibc cpu), wall $(geo rdb glibc wall)"

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
# drop_else NAME < rules: rule NAME without its final "else" branch (for
# write-hook: the pushfq/popfq form used where flags are live).
drop_else() {
	awk -v name="$1" '
		$1 == "rule" { inrule = ($2 == name) }
		inrule && !skip && $1 == "else" { skip = 1; depth = 0 }
		skip { depth += gsub(/\{/, "{"); depth -= gsub(/\}/, "}")
		       if (depth == 0) skip = 0; next }
		{ print }'
}
# The rules rdb-cc uses (its build's source tree, or the installed copy).
rules=$("$rdbcc" --version | sed -n 's/.*rules: \([^;]*\).*/\1/p')
[ -r "$rules" ] || die "cannot find rdb-cc's rules (rdb-cc --version says '$rules')"
drop_rule read-hook < "$rules" > no-read.rules
drop_rule write-hook < "$rules" > no-write.rules
drop_else write-hook < "$rules" > no-flagslive.rules
drop_rule sic < "$rules" > no-sic.rules
drop_rule read-hook < "$rules" | drop_rule write-hook | drop_rule sic > none.rules
for v in no-read no-write no-flagslive no-sic none; do
	! cmp -s "$rules" $v.rules || die "variant $v did not change the rules"
done

echo
echo "where the time goes: programs rebuilt with one kind of instrumentation"
echo "removed (libc stays fully instrumented); cpu seconds, best of $reps;"
echo "'saves' = share of rdb's overhead over $base that the removed kind costs"
printf '%-14s %9s %9s %9s   %s\n' variant life mesh bzip2 saves
for v in no-read no-write no-flagslive no-sic none; do
	echo "bench/instrumented: profile variant $v" >&2
	build "$v" "$rdbcc" "$work/$v.rules"
	measure "$v"
	line=$(printf '%-14s %9s %9s %9s  ' $v "$(cpu $v life)" "$(cpu $v mesh)" "$(cpu $v bzip2)")
	for p in life mesh bzip2; do
		line="$line $(echo "$(cpu rdb $p) $(cpu $v $p) $(cpu $base $p)" |
			awk '{ o = $1 - $3; printf "%s", (o > 0 ? sprintf("%3.0f%%", 100 * ($1 - $2) / o) : "  -") }')"
	done
	echo "$line"
done
printf '%-14s %9s %9s %9s\n' rdb "$(cpu rdb life)" "$(cpu rdb mesh)" "$(cpu rdb bzip2)"
printf '%-14s %9s %9s %9s\n' "$base" "$(cpu $base life)" "$(cpu $base mesh)" "$(cpu $base bzip2)"
echo
echo "instrumentation sites in the rdb builds (program and libc):"
for p in life mesh bzip2; do
	objdump -d --no-show-raw-insn rdb/$p | awk -v p=$p '
		/lea +0x1\(%r15\),%r15/ { sic++ }
		/mov.*%r13.*,%r14,1\)$/ { rd++ }
		/%gs:/ && /or/ { wr++ }
		/pushf/ { pf++ }
		/call .*<__rdb_syscall>/ { sc++ }
		END { printf "  %-6s SIC %d, read hooks %d, write hooks %d, pushfq %d, syscall stubs %d\n", p, sic, rd, wr, pf, sc }'
done
