#!/bin/sh
# apt-source.sh PKG DIR: download Debian source package PKG (bookworm) into
# DIR with `apt-get source --download-only`, through a private sources list
# and private package lists under DIR/apt, so /etc/apt and /var/lib/apt are
# never touched (docs/design.md, "libc"). The archive URI is read at run
# time from the host's apt configuration; set DEBIAN_URI to override it.
# Prints the directory holding the downloaded files. Does not unpack.
set -eu

die() { echo "apt-source: $*" >&2; exit 1; }

[ $# -eq 2 ] || die "usage: apt-source.sh PKG DIR"
pkg=$1
mkdir -p "$2" || die "cannot create $2"
dir=$(cd "$2" && pwd)
suite=${DEBIAN_SUITE:-bookworm}
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

command -v apt-get >/dev/null 2>&1 || die "apt-get not found (this needs Debian)"

# The first archive URI serving "$suite" itself (not -security/-updates),
# from deb822 sources first, then one-line sources.list files.
find_uri() {
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk -v suite="$suite" '
			function flush() {
				if (uri != "" && types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " suite " "))
					{ print uri; found = 1; exit }
				uri = ""; types = ""; suites = ""
			}
			/^[ \t]*$/ { flush(); next }
			/^[ \t]*#/ { next }
			tolower($1) == "uris:"   { uri = $2 }
			tolower($1) == "types:"  { $1 = ""; types = $0 }
			tolower($1) == "suites:" { $1 = ""; suites = $0 }
			END { if (!found) flush() }
		' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		awk '
			$1 != "deb" { next }
			{ i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ } }
			$(i + 1) ~ /-(security|updates|backports)$|\/updates$/ { next }
			{ print $i; exit }
		' "$f"
	done
}

uri=${DEBIAN_URI:-}
[ -n "$uri" ] || uri=$(find_uri | head -n 1)
[ -n "$uri" ] || die "no Debian archive URI in /etc/apt/sources.list.d/*.sources or /etc/apt/sources.list; set DEBIAN_URI"
[ -r "$keyring" ] || die "$keyring missing: apt-get install debian-archive-keyring"

apt="$dir/apt"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
line="deb-src [signed-by=$keyring] $uri $suite main"
[ -f "$apt/sources.list" ] && [ "$(cat "$apt/sources.list")" = "$line" ] || {
	echo "$line" > "$apt/sources.list"
	rm -f "$apt"/lists/*_Sources* 2>/dev/null || true
}

user=$(id -un)
set -- -q -o Dir::Etc::SourceList="$apt/sources.list" \
	-o Dir::Etc::SourceParts=/dev/null \
	-o Dir::State::Lists="$apt/lists" \
	-o Dir::Cache="$apt/cache" \
	-o APT::Sandbox::User="$user"

if ! ls "$apt"/lists/*_Sources* >/dev/null 2>&1; then
	echo "apt-source: updating private source lists for $suite" >&2
	apt-get "$@" update >"$apt/update.log" 2>&1 ||
		{ cat "$apt/update.log" >&2; die "apt-get update failed (network? see $apt/update.log)"; }
	ls "$apt"/lists/*_Sources* >/dev/null 2>&1 ||
		{ cat "$apt/update.log" >&2; die "apt-get update fetched no Sources index for $suite"; }
fi

mkdir -p "$dir/download"
echo "apt-source: downloading source package $pkg" >&2
(cd "$dir/download" && apt-get "$@" source --download-only "$pkg") >"$apt/source.log" 2>&1 ||
	{ cat "$apt/source.log" >&2; die "apt-get source --download-only $pkg failed (see $apt/source.log)"; }
echo "$dir/download"
