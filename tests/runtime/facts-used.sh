#!/bin/sh
# facts-used.sh RUNTIME_DIR: every syscalls.spec attribute the runtime
# mirrors in rt.h (RDB_ATTR_*, RDB_FACT_*) is read somewhere in the
# runtime outside systab.c, so an attribute the spec still carries but no
# code asks (a fact declared for nothing) fails here.  The spec side (every
# attribute bit set on some syscall) is syscallgen_unit's every_attribute_used.
set -u
dir=${1:?usage: facts-used.sh RUNTIME_DIR}
names=$(grep -oE '^#define RDB_(ATTR|FACT)_[A-Z_]+' "$dir/rt.h" | sed 's/^#define //')
[ -n "$names" ] || { echo "facts-used.sh: no RDB_ATTR_/RDB_FACT_ in $dir/rt.h"; exit 2; }
bad=0 n=0
for name in $names; do
	n=$((n + 1))
	users=$(grep -lw "$name" "$dir"/*.c "$dir"/*.S | grep -v '/systab\.c$')
	[ -n "$users" ] || { echo "facts-used.sh: $name is read nowhere in $dir"; bad=1; }
done
echo "facts-used.sh: $n attributes checked"
exit $bad
