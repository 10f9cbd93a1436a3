#!/bin/sh
# build-musl.sh BUILD_DIR: build the instrumented musl into
# BUILD_DIR/libc-wrap/sysroot (include/, lib/libc.a, lib/rcrt1.o ...), with
# BUILD_DIR/driver/rdb-cc as the compiler (docs/design.md, "libc").
#
# Steps: fetch musl 1.2.3 (fetch-musl.sh, cached), copy it to
# BUILD_DIR/libc-wrap/musl-src, delete the assembly that has C versions
# (so the C is instrumented) and apply patches/*.patch, configure and make
# with rdb-cc in libc-build mode, install into a fresh directory, rename
# _start in the crt files to __musl_start (crt/start.S jumps there), then
# swap that directory in.  A failed build leaves the old sysroot alone.
#
# Cached: the sysroot records a key over everything that shapes it (this
# script, the patches, the rules, altr and rdb-cc); when the key matches
# nothing is done.  JOBS (default: nproc) sets make's parallelism;
# RDB_RULES other rules; FORCE=1 rebuilds anyway.
set -eu

die() { echo "build-musl: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: build-musl.sh BUILD_DIR"
[ -d "$1" ] || die "$1: no such build directory"
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
ver=1.2.3
rdbcc=$build/driver/rdb-cc
altr=${RDB_ALTR:-$build/altr/altr}
rules=${RDB_RULES:-$repo/rules/trace.rules}
out=$build/libc-wrap
sysroot=$out/sysroot
jobs=${JOBS:-$(nproc)}

[ -x "$rdbcc" ] || die "$rdbcc missing: run 'cmake --build $build --target rdb-cc' first"
[ -x "$altr" ] || die "$altr missing: run 'cmake --build $build --target altr' first"
[ -r "$rules" ] || die "$rules missing"

key=$( { cat "$0" "$rules" "$altr" "$rdbcc"; ls "$here/patches";
         cat "$here"/patches/*.patch; echo "musl-$ver"; } | sha256sum | cut -d' ' -f1)
if [ -z "${FORCE:-}" ] && [ -f "$sysroot/.rdb-key" ] &&
   [ "$(cat "$sysroot/.rdb-key")" = "$key" ]; then
	echo "build-musl: $sysroot is up to date"
	exit 0
fi

"$here/fetch-musl.sh" "$build/musl"
orig=$build/musl/musl-$ver
[ -f "$orig/Makefile" ] || die "$orig is not a musl tree"

mkdir -p "$out"
src=$out/musl-src
new=$out/sysroot.new
log=$out/build.log
rm -rf "$src" "$new"
cp -a "$orig" "$src"
rm -f "$src/.rdb-unpacked"

# Assembly that has a C version, removed so the C version (instrumented,
# hooked) is built instead.  Every one has it: src/string/memcpy.c etc.,
# src/math/acosl.c etc. (long double C code for the x87 format).
for f in "$src"/src/string/x86_64/*.s "$src"/src/math/x86_64/*.s; do
	c=$(dirname "$(dirname "$f")")/$(basename "$f" .s).c
	[ -f "$c" ] || die "no C fallback for ${f#$src/}"
	rm -f "$f"
done

for p in "$here"/patches/*.patch; do
	patch -s -p1 -d "$src" < "$p" || die "patch $(basename "$p") does not apply"
done

echo "build-musl: building instrumented musl $ver in $src (log: $log)"
export RDB_CC_LIBC_BUILD=1
[ -n "${RDB_RULES:-}" ] && export RDB_RULES
[ -n "${RDB_ALTR:-}" ] && export RDB_ALTR
(
	cd "$src"
	# musl turns unwind tables off; with them gdb can unwind through
	# libc (a backtrace from a handler through raise(), rdb replay --gdb)
	./configure --prefix="$new" --disable-shared CC="$rdbcc" CFLAGS="-fasynchronous-unwind-tables"
	make -j"$jobs"
	make install
) >"$log" 2>&1 || { tail -n 30 "$log" >&2; die "musl build failed (see $log)"; }

# crt/start.S's _start sets up rdb, then jumps to musl's, renamed.
for o in crt1.o rcrt1.o Scrt1.o; do
	[ -f "$new/lib/$o" ] || continue
	objcopy --redefine-sym _start=__musl_start "$new/lib/$o" ||
		die "objcopy failed on $o"
done
nm "$new/lib/rcrt1.o" | grep -q ' T __musl_start$' ||
	die "rcrt1.o defines no __musl_start after renaming"

echo "$key" > "$new/.rdb-key"
rm -rf "$sysroot"
mv "$new" "$sysroot"
echo "build-musl: instrumented musl installed in $sysroot"
