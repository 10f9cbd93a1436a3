#!/bin/sh
# libs.sh RDB_CC BUILD_DIR: rdb-cc-pkg builds zlib and readline (with
# ncurses) from their Debian sources into rdb-cc's sysroot, zlib's own
# tests running instrumented (--check); a program built against them
# through pkg-config (uselibs.c) prints what it must, carries the
# libraries' code instrumented, and records and replays with --verify,
# whole and from the middle.  A re-add after the stamp (then the stamp
# and the file list) is deleted lists the same files; a changed recipe
# builds the library again.  Then bad input: an
# unknown library, an unknown command.
set -eu
. "$(dirname "$0")/../projects/common.sh"
proj_init pkg-libs "$@"
pkg=$(dirname "$CC")/rdb-cc-pkg
[ -x "$pkg" ] || proj_die "no rdb-cc-pkg next to $CC"

proj_run add "$pkg" --check add zlib readline
"$pkg" list > "$work/list" || proj_die "rdb-cc-pkg list failed"
for l in zlib ncurses readline; do
	grep -q "^$l *installed" "$work/list" || proj_die "list does not show $l installed: $(cat "$work/list")"
done

sysroot=$("$CC" -print-sysroot)
# Re-adding a library after its stamp alone was deleted, then after the
# stamp and its file list: the install overwrites files that are already
# there, and the list must still name them all (rdb's package leaves the
# listed files out), the same as the first add's.
stamps=$sysroot/share/rdb-cc-pkg
[ -s "$stamps/zlib.files" ] || proj_die "rdb-cc-pkg listed no files for zlib"
# In a build folder used before, zlib was there already and its list may
# be an older rdb-cc-pkg's (which listed its own list file, or nothing
# for a re-add): the list to compare with is then this one's, of an add
# over the installed files.
if grep -q '^rdb-cc-pkg: zlib: installed (' "$work/add.log"; then
	rm "$stamps/zlib" "$stamps/zlib.files"
	proj_run add-again "$pkg" add zlib
	proj_note "zlib was installed before this run: its list made again by this rdb-cc-pkg"
fi
cp "$stamps/zlib.files" "$work/zlib.files"
grep -qx lib/libz.a "$work/zlib.files" || proj_die "zlib's file list has no lib/libz.a: $(cat "$work/zlib.files")"
rm "$stamps/zlib"
proj_run re-add "$pkg" add zlib
cmp -s "$work/zlib.files" "$stamps/zlib.files" ||
	proj_die "after its stamp was deleted, a re-add of zlib lists: $(cat "$stamps/zlib.files"), not: $(cat "$work/zlib.files")"
rm "$stamps/zlib" "$stamps/zlib.files"
proj_run re-add-nolist "$pkg" add zlib
cmp -s "$work/zlib.files" "$stamps/zlib.files" ||
	proj_die "after its stamp and list were deleted, a re-add of zlib lists: $(cat "$stamps/zlib.files"), not: $(cat "$work/zlib.files")"
proj_note "re-adding zlib after its stamp, then its stamp and list were deleted lists its $(wc -l < "$work/zlib.files") files again"

# A library installed by another recipe is built again (a recipe that
# changed, e.g. zstd's going multithreaded, must not leave the old build
# installed); by the same recipe it is not.
rm -rf "$work/recipes"
cp -r "$proj_repo/pkg/recipes" "$work/recipes"
echo "# changed" >> "$work/recipes/zlib.sh"
RDB_PKG_RECIPES=$work/recipes proj_run add-changed "$pkg" add zlib
grep -q '^rdb-cc-pkg: zlib: installed by another recipe' "$work/add-changed.log" ||
	proj_die "a changed zlib recipe did not build zlib again: $(cat "$work/add-changed.log")"
"$pkg" list > "$work/list" || proj_die "rdb-cc-pkg list failed"
grep -q '^zlib *installed (.*) by another recipe' "$work/list" ||
	proj_die "list does not say zlib was installed by another recipe: $(cat "$work/list")"
proj_run add-back "$pkg" add zlib
grep -q '^rdb-cc-pkg: zlib: installed from' "$work/add-back.log" ||
	proj_die "zlib installed by a changed recipe was not built again by today's: $(cat "$work/add-back.log")"
proj_run add-same "$pkg" add zlib
grep -q '^rdb-cc-pkg: zlib: installed (' "$work/add-same.log" ||
	proj_die "zlib was built again by the recipe that installed it: $(cat "$work/add-same.log")"
proj_note "a changed recipe builds zlib again, and list says so; the same recipe does not"

PKG_CONFIG_LIBDIR=$sysroot/lib/pkgconfig
export PKG_CONFIG_LIBDIR
flags=$(pkg-config --cflags --libs --static zlib readline) ||
	proj_die "pkg-config does not know zlib and readline in $PKG_CONFIG_LIBDIR"
case $flags in *"$sysroot"*) ;; *) proj_die "pkg-config flags are not the sysroot's: $flags" ;; esac
# shellcheck disable=SC2086 # the flags are words
"$CC" -O1 -g "$proj_repo/tests/pkg/uselibs.c" $flags -o "$work/uselibs" ||
	proj_die "building uselibs.c against the libraries failed"
proj_check_bin "$work/uselibs" deflate
proj_check_bin "$work/uselibs" rl_insert_text

# natural text, some empty lines: this script and the C source, 30 times,
# tabs expanded (readline completes on a tab)
for i in $(seq 30); do cat "$0" "$proj_repo/tests/pkg/uselibs.c"; done | expand > "$work/in.txt"
lines=$(wc -l < "$work/in.txt")
nonempty=$(grep -c . "$work/in.txt")
crc=$(gzip -c < "$work/in.txt" | tail -c 8 | od -An -tx4 -N4 | tr -d ' ')
printf 'lines %s history %s\nround trip ok\ncrc32 %s\n' "$lines" "$nonempty" "$crc" > "$work/want"
# (readline echoes each line it reads to stdout first: the last three
# lines are the program's)
"$work/uselibs" < "$work/in.txt" | tail -n 3 > "$work/got" || proj_die "uselibs failed"
cmp -s "$work/want" "$work/got" || proj_die "uselibs printed $(cat "$work/got"), not $(cat "$work/want")"
proj_record_replay uselibs "$work/in.txt" "$work/uselibs"

"$pkg" add no-such-lib > /dev/null 2> "$work/bad.err" && proj_die "add of an unknown library succeeded"
grep -q "no recipe for 'no-such-lib'" "$work/bad.err" || proj_die "unknown library: $(cat "$work/bad.err")"
"$pkg" frobnicate > /dev/null 2> "$work/bad.err" && proj_die "an unknown command succeeded"
grep -q "unknown command" "$work/bad.err" || proj_die "unknown command: $(cat "$work/bad.err")"
proj_note "zlib, ncurses, readline built instrumented; uselibs ran, recorded and replayed"
