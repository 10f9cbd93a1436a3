#!/bin/sh
# names.sh [DOC.md...]: every name a design page cites must exist in the
# tree, so its walk-throughs cannot drift from the code unnoticed.  In the
# page's `backticks` (fenced code blocks left out):
#   `dir/file` (a path with a slash): must exist, from the top of the tree;
#   `name()`: a function (or an assembly label) some source file defines:
#     a line at column 0 that declares or defines name(...), or `name:`.
# Functions are looked for anywhere in the tree, not in one file, so a
# file that is split keeps the page true.  Default: docs/design.md and
# docs/perf.md.
# Prints each missing name; exit 0 when none is missing, 1 otherwise.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
[ $# -gt 0 ] || set -- docs/design.md docs/perf.md
src=$(mktemp "${TMPDIR:-/tmp}/rdb-names.XXXXXX") || exit 2
trap 'rm -f "$src" "$src.names"' EXIT
# The tree's sources, without build output or the docs themselves.
find . \( -path ./build -o -path ./.git -o -path ./docs \) -prune -o -type f \
	\( -name '*.c' -o -name '*.h' -o -name '*.S' -o -name '*.s' -o -name '*.y' \
	-o -name '*.l' -o -name '*.py' \) -print > "$src"
missing=0 checked=0
for doc in "$@"; do
	[ -f "$doc" ] || { echo "names.sh: no $doc"; exit 2; }
	# backticked words outside fenced blocks, one a line
	names=$(awk '/^```/ { fence = !fence; next } !fence' "$doc" |
		grep -o '`[^`]*`' | tr -d '`' | sort -u)
	printf '%s\n' "$names" > "$src.names"
	while IFS= read -r n; do
		case $n in
		*"()")
			f=${n%"()"}
			checked=$((checked + 1))
			xargs grep -lE "^([A-Za-z_].*[^A-Za-z0-9_])?$f *\(|^$f:" < "$src" \
				2>/dev/null | grep -q . ||
				{ echo "$doc: no function $f() in the tree"; missing=$((missing + 1)); } ;;
		*[!A-Za-z0-9_./+-]*) ;; # a command line or prose, not a name
		*/*)
			checked=$((checked + 1))
			[ -e "$n" ] ||
				{ echo "$doc: no file $n in the tree"; missing=$((missing + 1)); } ;;
		esac
	done < "$src.names"
done
echo "names.sh: $checked names checked, $missing missing"
[ $missing -eq 0 ]
