#!/bin/sh
# pgo-train.sh ALTR_GEN REPO WORK PROFILE_DIR CC: the training
# run of altr's profile-guided build (altr/CMakeLists.txt).  ALTR_GEN is
# altr built with -fprofile-generate; it translates, with the shipped
# rules, the assembly gcc makes of the project's own C programs (examples/
# and tests/programs/, at -O0 and at -O2 with rdb-cc's flags; made once
# into WORK and remade when a program changes).  It leaves its counts in
# PROFILE_DIR/*.gcda, where gcc looks for them when it compiles the same
# sources into altr.
# sqlite3.c, bench/altr.sh's input, is not among them.
set -eu

die() { echo "altr/pgo-train: $*" >&2; exit 1; }

[ $# -eq 5 ] || die "usage: pgo-train.sh ALTR_GEN REPO WORK PROFILE_DIR CC"
gen=$1 repo=$2 work=$3 prof=$4 cc=$5
[ -x "$gen" ] || die "no training binary '$gen'"
mkdir -p "$work" "$prof"

# The assembly to train on: a .s per program and mode, remade when its
# source is newer.  A program gcc cannot compile alone is left out.
RDBCC_FLAGS=$(sh "$repo/scripts/rdb-cc-flags.sh")
for c in "$repo"/examples/*.c "$repo"/tests/programs/*.c; do
	b=$(basename "$c" .c)
	for mode in O0 O2; do
		s=$work/$b-$mode.s
		[ -s "$s" ] && [ "$s" -nt "$c" ] && continue
		printf '%s %s %s\n' "$mode" "$c" "$s"
	done
done | CC=$cc RDBCC_FLAGS=$RDBCC_FLAGS xargs -r -P "$(nproc)" -L 1 sh -c '
	# shellcheck disable=SC2086 # the flags are words
	"$CC" -"$0" $RDBCC_FLAGS -w -S -o "$2.tmp" "$1" 2>/dev/null && mv "$2.tmp" "$2" || rm -f "$2.tmp"
	exit 0'
rm -f "$work/all.s"
n=$(find "$work" -name '*.s' | wc -l)
[ "$n" -ge 20 ] || die "only $n training inputs in $work (gcc failed?)"

# and one input as big as a real translation unit (a few MB: altr takes
# other paths for big inputs), all of them at once; labels defined twice
# do not stop altr
cat "$work"/*-O2.s "$work"/*-O0.s >"$work/all.big"
mv "$work/all.big" "$work/all.s"

rm -f "$prof"/*.gcda
for s in "$work"/*.s; do
	for r in trace count-loads; do
		"$gen" -q -r "$repo/rules/$r.rules" -o /dev/null "$s" ||
			die "training run failed: $gen -r $r.rules $s"
	done
done
set -- "$prof"/*.gcda
[ -f "$1" ] || die "the training run left no profile in $prof"
echo "altr/pgo-train: $n inputs, $# profiles" >&2
