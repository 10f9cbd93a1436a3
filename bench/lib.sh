# lib.sh: sourced by the benches that time rdb-cc builds (instrumented.sh,
# record.sh, reverse.sh) once they have set $repo and die().
#   bench_tools DIR [rdb]: $build (DIR, default $repo/build, made
#     absolute), $rdbcc and $rdb; dies unless rdb-cc (and, given "rdb",
#     rdb) and the instrumented musl are built.  Clears the environment
#     rdb-cc reads, so a setting of the caller's does not change what is
#     measured.
#   bench_work NAME: a new temporary folder, removed on exit, made the
#     current one as $work.
bench_tools() {
	build=$(cd "${1:-$repo/build}" 2>/dev/null && pwd) || die "no build folder ${1:-$repo/build}"
	rdbcc=$build/driver/rdb-cc
	rdb=$build/rdb/rdb
	[ -x "$rdbcc" ] || die "$rdbcc missing: cmake --build $build"
	[ "${2:-}" != rdb ] || [ -x "$rdb" ] || die "$rdb missing: cmake --build $build"
	case $("$rdbcc" --version 2>&1 | sed -n 's/^libc: //p') in
	"" | *"(not built)"*) die "instrumented musl not built: cmake --build $build --target musl" ;;
	esac
	unset RDB_CC RDB_CC_ACTIVE RDB_CC_LIBC_BUILD RDB_MUSL RDB_CC_KEEP RDB_RULES
}

bench_work() {
	work=$(mktemp -d "${TMPDIR:-/tmp}/rdb-bench-$1.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	cd "$work"
}

# Interleaved timing (record.sh, read-checks.sh): a round runs every
# column once, so a slow minute of this shared machine costs every column
# alike; a column is reported as its median with min and max.
#   bench_stats FILE: "MEDIAN MIN MAX" of the numbers in FILE, one a line.
#   bench_ratio A B: A / B as "1.23x" ("-" when either is missing).
#   bench_geomean: the geometric mean of the numbers on stdin, one a line.
#   bench_target NAME VALUE LIMIT UNIT: a TARGET line, met when VALUE <=
#     LIMIT.  Printed only: no bench asserts a time.
#   bench_zipf_text MB OUT: MB megabytes of words with a Zipf-like
#     distribution in OUT, the same bytes on every run (awk, fixed seed).
#   bench_stream_bytes TRACE NAME: the file bytes of TRACE's stream NAME
#     (values, syscalls, ...), from rdb info ($rdb).
#   bench_trace_bytes TRACE: the bytes of TRACE's files.
bench_stats() {
	sort -n "$1" | awk '{ v[NR] = $1 } END {
		if (!NR) { print "- - -"; exit }
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.3f %.3f %.3f\n", m, v[1], v[NR] }'
}

bench_ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "" || a == "-" || b == "" || b == "-" || b + 0 == 0) print "-"
		else printf "%.2fx\n", a / b }'
}

bench_geomean() {
	awk '$1 > 0 { s += log($1); n++ } END { if (n) printf "%.2f\n", exp(s / n); else print "-" }'
}

bench_target() {
	awk -v n="$1" -v v="$2" -v l="$3" -v u="$4" 'BEGIN {
		if (v == "" || v == "-") { printf "TARGET %s <= %s%s: not measured\n", n, l, u; exit }
		printf "TARGET %s <= %s%s: %s (%.2f%s)\n", n, l, u, v + 0 <= l + 0 ? "met" : "not met", v, u }'
}

bench_zipf_text() {
	# 20000 words of 1 to 12 letters (frequent letters more often), drawn
	# with P(rank <= r) = log r / log 20000, about Zipf's 1/rank.
	awk -v bytes=$(($1 * 1048576)) 'BEGIN {
		srand(20); n = 20000; abc = "etaoinshrdlcumwfgypbvkjxqz"
		for (i = 1; i <= n; i++) {
			k = 1 + int(rand() * rand() * 12); w = ""
			for (j = 0; j < k; j++)
				w = w substr(abc, 1 + int(26 * rand() * rand()), 1)
			word[i] = w
		}
		out = 0
		while (out < bytes) {
			k = 5 + int(rand() * 15); line = ""
			for (j = 0; j < k; j++)
				line = line (j ? " " : "") word[int(exp(rand() * log(n)))]
			print line "."; out += length(line) + 2
		}
	}' | head -c $(($1 * 1048576)) > "$2"
}

bench_stream_bytes() {
	"$rdb" info "$1" | awk -v s="$2" '{ for (i = 1; i + 3 <= NF; i++)
		if ($i == s && $(i + 1) ~ /^[0-9]+$/) { print $(i + 3); exit } }'
}

bench_trace_bytes() {
	# the files' bytes (du -sb would add the folder's own 4 KiB)
	find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'
}
