#!/bin/sh
# run-oracle.sh ORACLE SRCDIR [MORE .s DIRS...]: compiles every SRCDIR/*.c
# with gcc and clang at -O0/-O2/-O3 (with -g and -fPIC variants) to
# assembly in a temporary folder, then runs the capstone cross-check of
# altr's instruction database over it and over any further folders (e.g.
# the musl corpus).  A source may ask for flags with "oracle-flags: ...".
set -eu
oracle=$1; src=$2; shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
configs="gcc:-O0:-g gcc:-O2:-fPIC gcc:-O3:-g:-fPIC clang:-O0:-g clang:-O2:-fPIC clang:-O3:-g"
jobs=$(nproc 2>/dev/null || echo 2)
for c in $src/*.c; do
	base=$(basename "$c" .c)
	extra=$(sed -n 's/.*oracle-flags: *\([^*]*\).*/\1/p' "$c" | head -n 1)
	for cfg in $configs; do
		cc=${cfg%%:*}
		flags=$(echo "${cfg#*:}" | tr ':' ' ')
		tag=$(echo "$cfg" | tr -d ' :-')
		echo "$cc $flags $extra -S -o $work/$base.$tag.s $c"
	done
done | xargs -P "$jobs" -I{} sh -c '{} 2>/dev/null || { echo "compile failed: {}" >&2; exit 255; }'
exec "$oracle" "$work" "$@"
