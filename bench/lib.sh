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
