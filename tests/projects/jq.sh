#!/bin/sh
# jq.sh RDB_CC BUILD_DIR: jq 1.6 from Debian's jq source package (the orig
# tarball, a git snapshot: autoreconf first) built by its own autotools
# build with CC=rdb-cc on rdb-cc-pkg's oniguruma (added first, from the
# sysroot), then its own `make check` (jq.test, onig.test, base64, utf8,
# the shell and manual tests; no valgrind), then a filter workload on a
# generated 2 MB JSON file recorded and replayed with --verify, whole and
# from the middle.
set -eu
. "$(dirname "$0")/common.sh"
proj_init jq "$@"
pkg=$(dirname "$CC")/rdb-cc-pkg
proj_run pkg "$pkg" add oniguruma
sysroot=$("$CC" -print-sysroot)
[ -f "$sysroot/include/oniguruma.h" ] || proj_die "oniguruma is not in the sysroot $sysroot"

tarball=$(proj_fetch jq 'jq_*.orig.tar.*')
proj_unpack "$tarball" "$work/src"
cd "$work/src"
proj_run autoreconf autoreconf -fi
PKG_CONFIG_LIBDIR=$sysroot/lib/pkgconfig
export PKG_CONFIG_LIBDIR
proj_run configure ./configure CC="$CC" CFLAGS="-O1 -g" --disable-shared --enable-static \
	--disable-docs --disable-maintainer-mode --disable-valgrind --with-oniguruma="$sysroot"
# (without a usable -lonig it falls back to its bundled copy, absent here)
grep -q "Oniguruma was not found" "$work/configure.log" &&
	proj_die "jq's configure did not find oniguruma (-lonig) in $sysroot (see $work/configure.log)"
proj_run make make -j2
proj_check_bin "$work/src/jq" jq_next
proj_check_bin "$work/src/jq" onig_search
proj_run check make check NO_VALGRIND=1
sum=$(sed -n 's/^# \(TOTAL\|PASS\|FAIL\|ERROR\): *\([0-9]*\)$/\1 \2/p' test-suite.log | tr '\n' ' ')
case $sum in *"PASS 7 "*"FAIL 0 "*"ERROR 0 "*) ;; *) proj_die "make check: $sum" ;; esac
proj_note "make check: $sum"

# 20,000 records, about 2 MB; filters through select, test (oniguruma),
# group_by, sort_by, string building and arithmetic
awk 'BEGIN { printf "["; for (i = 1; i <= 20000; i++) {
	printf "%s{\"id\":%d,\"name\":\"user%d\",\"group\":\"g%d\",\"score\":%d,\"tags\":[\"t%d\",\"t%d\"],\"note\":\"%s line %d\"}",
		(i > 1 ? "," : ""), i, i, i % 17, (i * 7919) % 1000, i % 5, i % 11, (i % 3 ? "plain" : "special"), i }
	print "]" }' > "$work/data.json"
cat > "$work/filter.jq" <<'JQ'
length,
([.[] | select(.name | test("^user[0-9]*77$"))] | length),
(map(.score) | add),
(group_by(.group) | map({g: .[0].group, n: length, best: (map(.score) | max)}) | .[0:3]),
(sort_by(-.score, .id) | .[0:5] | map(.id)),
([.[] | select(.note | test("special"))] | length),
(map(.tags | join("-")) | unique | length)
JQ
./jq -c -f "$work/filter.jq" "$work/data.json" > "$work/work.out" || proj_die "the jq workload failed"
[ "$(sed -n 1p "$work/work.out")" = 20000 ] || proj_die "jq workload: $(head -n 3 "$work/work.out")"
want=$(awk 'BEGIN { for (i = 1; i <= 20000; i++) if (i % 100 == 77 || i == 77) n++; print n }')
[ "$(sed -n 2p "$work/work.out")" = "$want" ] || proj_die "jq's test() found $(sed -n 2p "$work/work.out"), not $want"
proj_record_replay jq-filters /dev/null "$work/src/jq" -c -f "$work/filter.jq" "$work/data.json"
echo "PASS jq"
