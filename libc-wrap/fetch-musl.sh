#!/bin/sh
# fetch-musl.sh DEST: put musl 1.2.3's source tree in DEST/musl-1.2.3.
# The orig tarball comes from Debian's source package (Debian adds no
# patches), fetched once through scripts/apt-source.sh's private apt lists;
# afterwards this does nothing and needs no network.
set -eu

die() { echo "fetch-musl: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: fetch-musl.sh DEST"
ver=1.2.3
mkdir -p "$1" || die "cannot create $1"
dest=$(cd "$1" && pwd)
tree="$dest/musl-$ver"
here=$(cd "$(dirname "$0")" && pwd)

if [ -f "$tree/.rdb-unpacked" ]; then
	exit 0
fi

tarball="$dest/download/musl_$ver.orig.tar.gz"
if [ ! -f "$tarball" ]; then
	"$here/../scripts/apt-source.sh" musl "$dest" >/dev/null
	[ -f "$tarball" ] || die "apt-get source did not yield musl_$ver.orig.tar.gz (got: $(ls "$dest/download" | tr '\n' ' '))"
fi

tmp="$dest/.unpack.$$"
rm -rf "$tmp" "$tree"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$tarball" -C "$tmp" || die "cannot unpack $tarball"
[ -d "$tmp/musl-$ver" ] || die "$tarball does not hold musl-$ver/"
mv "$tmp/musl-$ver" "$tree"
touch "$tree/.rdb-unpacked"
echo "fetch-musl: musl $ver in $tree"
