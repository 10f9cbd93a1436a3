#!/bin/sh
# sqlite3-configure.sh RDB_CC BUILD_DIR: SQLite's shell from Debian's
# sqlite3 source package built by its own `configure && make sqlite3` with
# CC=rdb-cc, finding zlib and readline (instrumented, from rdb-cc-pkg; the
# pkg-libs test adds them first) in rdb-cc's sysroot: configure must
# enable both, the shell's zlib functions (sqlar_compress) must work, the
# libraries' code in the shell must carry hooks, and a workload is recorded
# and replayed with --verify, whole and from the middle.  The source package
# is the one scripts/sqlite3-amalgamation.sh caches in BUILD_DIR/sqlite3.
# Built at -O1 (the amalgamation takes minutes instrumented at -O2).
set -eu
. "$(dirname "$0")/common.sh"
proj_init sqlite3-configure "$@"
pkg=$(dirname "$CC")/rdb-cc-pkg
proj_run pkg "$pkg" add zlib readline
sysroot=$("$CC" -print-sysroot)

"$proj_repo/scripts/sqlite3-amalgamation.sh" "$2/sqlite3" > /dev/null ||
	proj_die "no sqlite3 source package (network needed once)"
tarball=$(ls "$2"/sqlite3/download/sqlite3_*.orig.tar.xz | grep -v -- -www | head -n 1)
proj_unpack "$tarball" "$work/src"
rm -rf "$work/bld"
mkdir -p "$work/bld"
cd "$work/bld"
# sqlite's configure looks for readline.h by path under /usr/include (the
# host's); --with-readline-inc names the sysroot's instead
PKG_CONFIG_LIBDIR=$sysroot/lib/pkgconfig
export PKG_CONFIG_LIBDIR
proj_run configure env CFLAGS="-O1 -g" ../src/configure --disable-tcl \
	--disable-threadsafe --disable-load-extension --disable-shared \
	--enable-readline --with-readline-inc="-I$sysroot/include"
grep -q 'SQLITE_HAVE_ZLIB=1' Makefile || proj_die "configure did not find zlib (see $work/configure.log)"
grep -q 'HAVE_READLINE=1' Makefile || proj_die "configure did not find readline (see $work/configure.log)"
proj_run make make -j2 sqlite3
proj_check_bin "$work/bld/sqlite3" sqlite3VdbeExec
proj_check_bin "$work/bld/sqlite3" deflate
proj_check_bin "$work/bld/sqlite3" rl_insert_text

# a workload through the zlib functions: 3,000 rows of text compressed and
# uncompressed, aggregates over them
cat > "$work/work.sql" <<'SQL'
CREATE TABLE f(id INTEGER PRIMARY KEY, body TEXT, z BLOB);
WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM s WHERE x < 3000)
INSERT INTO f(id, body) SELECT x, printf('%.*c line %d of a text that repeats itself %s', 200 + x % 50, 'a', x, hex(x*x)) FROM s;
UPDATE f SET z = sqlar_compress(CAST(body AS BLOB));
SELECT count(*), sum(length(body)), sum(length(z)) < sum(length(body)) FROM f;
SELECT count(*) FROM f WHERE sqlar_uncompress(z, length(body)) = CAST(body AS BLOB);
SELECT id, length(z) FROM f WHERE id % 500 = 0;
SQL
./sqlite3 < "$work/work.sql" > "$work/work.out" 2> "$work/work.err" || proj_die "the workload failed: $(head -n 3 "$work/work.err")"
[ "$(sed -n 2p "$work/work.out")" = 3000 ] || proj_die "sqlar round trip: $(cat "$work/work.out")"
sed -n 1p "$work/work.out" | grep -q '^3000|[0-9]*|1$' || proj_die "compressed sizes: $(cat "$work/work.out")"
proj_record_replay sqlite3-zlib "$work/work.sql" "$work/bld/sqlite3"
echo "PASS sqlite3-configure"
