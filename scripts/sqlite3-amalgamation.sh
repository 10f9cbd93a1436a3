#!/bin/sh
# sqlite3-amalgamation.sh DIR: SQLite's amalgamation (sqlite3.c, sqlite3.h
# and the shell's shell.c), made once from Debian's sqlite3 source package
# by its own `configure && make sqlite3.c` and cached in DIR/bld (the
# package in DIR/download, via scripts/apt-source.sh: network needed
# once; tclsh to amalgamate).  Prints DIR/bld.  Used by bench/altr.sh and
# tests/projects/sqlite3.sh.
set -eu

die() { echo "sqlite3-amalgamation: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: sqlite3-amalgamation.sh DIR"
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1" || die "cannot create $1"
d=$(cd "$1" && pwd)
if [ ! -f "$d/bld/sqlite3.c" ] || [ ! -f "$d/bld/shell.c" ]; then
	command -v tclsh >/dev/null || die "tclsh needed to amalgamate sqlite3.c (scripts/setup-debian.sh installs tcl)"
	ls "$d"/download/sqlite3_*.orig.tar.xz >/dev/null 2>&1 ||
		"$repo/scripts/apt-source.sh" sqlite3 "$d" >/dev/null ||
		die "cannot download source package sqlite3 (network needed once)"
	tarball=$(ls "$d"/download/sqlite3_*.orig.tar.xz | grep -v -- -www | head -n 1)
	rm -rf "$d/src" "$d/bld"
	mkdir -p "$d/src" "$d/bld"
	tar -xJf "$tarball" -C "$d/src" --strip-components=1 || die "cannot unpack $tarball"
	echo "sqlite3-amalgamation: amalgamating sqlite3.c (once)" >&2
	(cd "$d/bld" && ../src/configure --disable-tcl >configure.log 2>&1 &&
		make sqlite3.c >make.log 2>&1) || die "make sqlite3.c failed, see $d/bld/make.log"
	[ -f "$d/bld/shell.c" ] || die "make sqlite3.c made no shell.c (see $d/bld/make.log)"
fi
echo "$d/bld"
