#!/bin/sh
# sqlite3.sh RDB_CC BUILD_DIR: the sqlite3 shell (SQLite 3.40, the
# amalgamation of Debian's sqlite3 source package, cached in
# BUILD_DIR/sqlite3 by scripts/sqlite3-amalgamation.sh, shared with
# bench/altr.sh) built with rdb-cc, running a file-database workload
# (sqlite3-workload.awk, on stdin): it prints what a gcc build prints; then
# it is recorded at 50 ms intervals with checksums, the database files are
# deleted, and the recording is replayed whole and from three middle
# intervals with --verify: same stdout, stderr (the ends of them from the
# middle) and exit status as the recording.
#
# The amalgamation takes gcc ~30 s at -O1 (~70 s at -O2), so the objects
# are built at -O1 and cached in the work folder, keyed by the sources,
# the flags and what rdb-cc translates with (rdb-cc --version names the
# altr and rules; their bytes go in the key); the link, against the
# current librdb, crt and musl, runs every time.
#
# Then the same workload with `PRAGMA mmap_size` (the 9 MB database read
# through a MAP_SHARED mapping that mremap grows), recorded and replayed
# whole and from one middle interval.  (runtime/shared.c syncs such
# mappings only after acquires and the process's own writes to the file:
# comparing the mapping after every syscall made this recording take
# 15 ms per syscall; and replay moves a MAYMOVE mremap where the
# recording's went, runtime/sysreplay.c, where the kernel had chosen another
# place for replay's stand-in of the file mapping.)
set -eu
. "$(dirname "$0")/common.sh"
proj_init sqlite3 "$@"

bld=$("$proj_repo/scripts/sqlite3-amalgamation.sh" "$2/sqlite3") ||
	proj_die "no sqlite3 amalgamation (network needed once)"
defs="-DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION"
opt=-O1

# obj TOOL TAG SRC: $work/obj/TAG-HASH.o, TOOL -c SRC, built unless cached.
# The key: the tool's --version (for rdb-cc: gcc's, the altr and rules
# paths), the bytes of the altr and rules it names, the flags, the source.
obj() {
	key=$({
		"$1" --version 2>&1
		for f in $("$1" --version 2>&1 | sed -n 's/^compiler: .*altr: \([^;]*\); rules: \(.*\)$/\1 \2/p'); do
			cat "$f"
		done
		echo "$opt $defs"
		cat "$3"
	} | sha256sum | cut -c1-16)
	o=$work/obj/$2-$key.o
	if [ ! -f "$o" ]; then
		mkdir -p "$work/obj"
		rm -f "$work/obj/$2"-*.o
		proj_note "compiling $(basename "$3") with $(basename "$1") $opt (cached after)" >&2
		# shellcheck disable=SC2086 # the flags are words
		"$1" $opt $defs -I"$bld" -c "$3" -o "$o.tmp" 2> "$work/obj/$2.err" || {
			tail -n 20 "$work/obj/$2.err" >&2
			proj_die "$1 -c $3 failed"
		}
		mv "$o.tmp" "$o"
	fi
	echo "$o"
}

lib_o=$(obj "$CC" rdb-sqlite3 "$bld/sqlite3.c")
shell_o=$(obj "$CC" rdb-shell "$bld/shell.c")
"$CC" "$shell_o" "$lib_o" -Wl,"$probe" -o "$work/sqlite3-rdb" 2> "$work/link.err" ||
	proj_die "rdb-cc link failed: $(head -n 3 "$work/link.err")"
proj_check_bin "$work/sqlite3-rdb" sqlite3VdbeExec
glib_o=$(obj gcc gcc-sqlite3 "$bld/sqlite3.c")
gshell_o=$(obj gcc gcc-shell "$bld/shell.c")
gcc "$gshell_o" "$glib_o" -lm -o "$work/sqlite3-gcc" || proj_die "gcc link failed"

awk -f "$proj_repo/tests/projects/sqlite3-workload.awk" > "$work/workload.sql"
cd "$work"

# run LABEL CMD...: CMD with a fresh database test.db (and no -wal,
# -shm, -journal), stdin the workload; LABEL.out, LABEL.err, LABEL.rc.
run() {
	label=$1
	shift
	rm -f test.db test.db-*
	rc=0
	"$@" < workload.sql > "$label.out" 2> "$label.err" || rc=$?
	echo "$rc" > "$label.rc"
}

# same A B: A's stdout, stderr and exit status are B's.
same() {
	for x in out err rc; do
		cmp -s "$1.$x" "$2.$x" || proj_die "$1 and $2 differ in their $x (see $work/$1.$x, $work/$2.$x)"
	done
}

run native ./sqlite3-gcc test.db
grep -q '^ok$' native.out || proj_die "the gcc build's integrity check did not say ok"
[ -s native.err ] || proj_die "the workload's constraint errors are missing from stderr"
export RDB_PROBE_LOG="$probe_log"
run rdb ./sqlite3-rdb test.db
unset RDB_PROBE_LOG
same native rdb
proj_note "workload: $(wc -l < workload.sql) lines of SQL: the rdb-cc build prints what gcc's prints ($(wc -c < native.out) + $(wc -c < native.err) bytes, exit $(cat native.rc))"

t=$work/rr
rm -rf "$t"
s0=$(date +%s)
run rec "$rdb" record -i 50 --checksum -o "$t" -- ./sqlite3-rdb test.db
s1=$(date +%s)
same native rec
[ -f test.db ] || proj_die "the recorded run left no test.db"
rm -f test.db test.db-*
n=$("$rdb" info --complete "$t")
[ "${n:-0}" -ge 8 ] || proj_die "the recording has ${n:-0} intervals, not several"

# replay NAME K: replay --verify from interval K (1: whole) into NAME.*,
# with no database file and no workload on stdin.
replay() {
	rc=0
	# shellcheck disable=SC2046 # no word or two
	"$rdb" replay --verify $([ "$2" = 1 ] || echo --from "$2") "$t" < /dev/null > "$1.out" 2> "$1.err" || rc=$?
	echo "$rc" > "$1.rc"
	[ ! -e test.db ] || proj_die "replay from $2 made a test.db"
}
# from_middle WHAT K: replay --verify --from K: the recorded exit status,
# and stdout and stderr the ends of the recording's.
from_middle() {
	replay mid "$2"
	cmp -s rec.rc mid.rc || proj_die "$1replay --verify --from $2: exit $(cat mid.rc), recorded $(cat rec.rc): $(head -n 3 mid.err)"
	for x in out err; do
		tail -c "$(wc -c < mid.$x)" rec.$x | cmp -s - mid.$x ||
			proj_die "$1replay from interval $2: its $x is not the end of the recording's (see $work/mid.$x)"
	done
}
replay rep 1
s2=$(date +%s)
same rec rep
for k in $((n / 2)) $((2 * n / 3)) $((5 * n / 6)); do
	from_middle "" "$k"
	[ -s mid.out ] || proj_die "replay from interval $k printed nothing"
done
s3=$(date +%s)
proj_note "record/replay: $n intervals, $(du -sk "$t" | cut -f1) KB of trace; record $((s1 - s0)) s, replay --verify $((s2 - s1)) s, from $((n / 2)), $((2 * n / 3)), $((5 * n / 6)) $((s3 - s2)) s: same output and exit status"

# The mmap_size run: the gcc build, the recording, a replay from the start
# and from the middle, as above.
awk -v mmap=268435456 -f "$proj_repo/tests/projects/sqlite3-workload.awk" > workload.sql
run native ./sqlite3-gcc test.db
grep -q '^ok$' native.out || proj_die "mmap_size: the gcc build's integrity check did not say ok"
rm -rf "$t"
s0=$(date +%s)
run rec "$rdb" record -i 50 --checksum -o "$t" -- ./sqlite3-rdb test.db
s1=$(date +%s)
same native rec
rm -f test.db test.db-*
n=$("$rdb" info --complete "$t")
[ "${n:-0}" -ge 8 ] || proj_die "mmap_size: the recording has ${n:-0} intervals, not several"
replay rep 1
s2=$(date +%s)
same rec rep
k=$((n / 2))
from_middle "mmap_size: " "$k"
s3=$(date +%s)
proj_note "mmap_size: $n intervals, $(du -sk "$t" | cut -f1) KB of trace; record $((s1 - s0)) s, replay --verify $((s2 - s1)) s, from $k $((s3 - s2)) s: same output and exit status"
proj_check_probe 1
echo "PASS sqlite3"
