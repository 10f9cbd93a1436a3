#!/bin/sh
# libs-more.sh RDB_CC BUILD_DIR: rdb-cc-pkg builds pcre2, libffi,
# oniguruma and bzip2 (libbz2) with their own tests running instrumented
# (--check), and xz (liblzma) and zstd without: liblzma's unit tests, the
# suite its recipe's pkg_check runs, are in xz-utils' make check, which
# tests/projects/xz-utils.sh (ctest project-xz-utils) runs instrumented on
# the same source, with threads and the programs; zstd's shortest suite
# takes minutes instrumented (zstd-tests.sh, ctest pkg-zstd-tests, runs
# its library tests).  A program on all six built through
# pkg-config (usemore.c) must agree with grep and awk, carry the
# libraries' code instrumented, and record and replay with --verify, whole
# and from the middle.
set -eu
. "$(dirname "$0")/../projects/common.sh"
proj_init pkg-libs-more "$@"
pkg=$(dirname "$CC")/rdb-cc-pkg
[ -x "$pkg" ] || proj_die "no rdb-cc-pkg next to $CC"

proj_run add-checked "$pkg" --check add pcre2 libffi oniguruma bzip2
proj_run add "$pkg" add xz zstd
"$pkg" list > "$work/list" || proj_die "rdb-cc-pkg list failed"
for l in xz zstd pcre2 libffi oniguruma bzip2; do
	grep -q "^$l *installed" "$work/list" || proj_die "list does not show $l installed: $(cat "$work/list")"
done

sysroot=$("$CC" -print-sysroot)
PKG_CONFIG_LIBDIR=$sysroot/lib/pkgconfig
export PKG_CONFIG_LIBDIR
flags=$(pkg-config --cflags --libs --static liblzma libzstd libpcre2-8 libffi oniguruma bzip2) ||
	proj_die "pkg-config does not know the six libraries in $PKG_CONFIG_LIBDIR"
case $flags in *"$sysroot"*) ;; *) proj_die "pkg-config flags are not the sysroot's: $flags" ;; esac
# shellcheck disable=SC2086 # the flags are words
"$CC" -O1 -g "$proj_repo/tests/pkg/usemore.c" $flags -o "$work/usemore" ||
	proj_die "building usemore.c against the libraries failed"
for f in lzma_code ZSTD_compressStream2 BZ2_bzCompress pcre2_match_8 ffi_call onig_search; do
	proj_check_bin "$work/usemore" "$f"
done

for i in $(seq 20); do cat "$0" "$proj_repo/tests/pkg/usemore.c" "$proj_repo/tests/pkg/libs.sh"; done |
	expand > "$work/in.txt"
words=$(grep -oE '\b[A-Za-z]{5,}\b' "$work/in.txt" | wc -l)
bytes=$(awk '{ n += length($0) } END { print n }' "$work/in.txt")
printf 'lzma round trip ok\nzstd round trip ok\nbzip2 round trip ok\npcre2 words %s\nonig words %s\nffi line bytes %s\n' \
	"$words" "$words" "$bytes" > "$work/want"
"$work/usemore" < "$work/in.txt" > "$work/got" || proj_die "usemore failed"
cmp -s "$work/want" "$work/got" || proj_die "usemore printed $(cat "$work/got"), not $(cat "$work/want")"
proj_record_replay usemore "$work/in.txt" "$work/usemore"
proj_note "xz, zstd, pcre2, libffi, oniguruma, bzip2 built instrumented; usemore ran, recorded and replayed"
