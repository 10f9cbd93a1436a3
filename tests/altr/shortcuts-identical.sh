#!/bin/sh
# shortcuts-identical.sh ALTR RULES_DIR CORPUS_DIR [STEP]: altr's speed
# shortcuts (regex prefilter, memos and caches, shared plans) change no
# output.  Every STEP-th .s file under CORPUS_DIR (default 12, in sorted
# order, so the sample spans every compiler and level) is translated with
# each rules file of RULES_DIR, with and without --no-shortcuts, and the
# two outputs must be byte-identical.  Exit 0 if all are, 1 if any differs
# or altr fails, 77 (skip) if the corpus is missing (1 with
# RDB_TEST_NO_SKIP=1).  A differing file's two outputs are kept in a folder
# named at the end.
set -eu
[ $# -ge 3 ] || { echo "usage: shortcuts-identical.sh ALTR RULES_DIR CORPUS_DIR [STEP]" >&2; exit 2; }
altr=$1 rulesdir=$2 corpus=$3 step=${4:-12}
if [ ! -d "$corpus" ]; then
	echo "no corpus in $corpus"
	[ "${RDB_TEST_NO_SKIP:-}" = 1 ] && exit 1
	echo SKIP
	exit 77
fi
w=$(mktemp -d "${TMPDIR:-/tmp}/shortcuts.XXXXXX")
keep=
trap '[ -n "$keep" ] || rm -rf "$w"' EXIT
find "$corpus/" -name '*.s' | LC_ALL=C sort | awk -v s="$step" '(NR - 1) % s == 0' >"$w/list"
n=0 fail=0
while read -r f; do
	for rules in "$rulesdir"/*.rules; do
		r=$(basename "$rules" .rules)
		n=$((n + 1))
		if ! "$altr" -q -r "$rules" -o "$w/fast.s" "$f" 2>"$w/err" ||
		   ! "$altr" -q --no-shortcuts -r "$rules" -o "$w/slow.s" "$f" 2>>"$w/err"; then
			echo "FAIL $f ($r): altr failed: $(head -n 1 "$w/err")"
			fail=$((fail + 1))
			continue
		fi
		if ! cmp -s "$w/fast.s" "$w/slow.s"; then
			k=$w/$(echo "$f" | tr / _).$r
			mkdir -p "$k" && mv "$w/fast.s" "$w/slow.s" "$k/"
			echo "FAIL $f ($r): output differs with --no-shortcuts (kept in $k)"
			fail=$((fail + 1)) keep=1
		fi
	done
done <"$w/list"
echo "$n translations of $(wc -l <"$w/list") files, $fail differ or fail"
[ "$n" -gt 0 ] || { echo "no .s files in $corpus"; exit 1; }
[ -n "$keep" ] && echo "kept in $w"
[ "$fail" -eq 0 ]
