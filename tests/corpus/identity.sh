#!/bin/sh
# identity.sh [--assemble] ALTR RULES CORPUS_DIR [ALTR_ARG...]
#
# Default mode, the identity round trip: for every .s file under CORPUS_DIR,
# run `altr -r RULES`, and check that the output assembles (as --64) to the
# same object: every section with contents byte for byte, and the same
# relocations. Output text identical to the input passes at once (it cannot
# assemble differently: both are fed to as through stdin, so even the file
# name as records is the same); otherwise both are assembled and compared
# with `objdump -s -r`, ignoring altr's own .rdb_* sections. (make-corpus.sh
# keeps only files `as` accepts, so the fast path hides no broken input.)
#
# --assemble: only check that altr succeeds and its output assembles without
# errors (for instrumenting rules such as count-loads.rules).
#
# Exit 0 if all pass, 1 on any failure, 77 (skip) if the corpus is missing.
# Failing files keep their work (altr output, dumps, diff) in a folder named
# at the end. JOBS sets the parallelism (default 2).
set -eu

die() { echo "identity: $*" >&2; exit 2; }

# Worker: check each file given, print one result line per file:
# "ok FILE", "same FILE" (text differs, object identical) or
# "FAIL FILE: hint"; ok/same lines note altr's first stderr line, if any.
if [ "${1:-}" = --worker ]; then
	shift
	w=$(mktemp -d "${TMPDIR:-/tmp}/identity.XXXXXX")
	trap 'rm -rf "$w"' EXIT
	for f; do
		rel=${f#"$CORPUS"/}
		keep() { # keep the work files of a failure
			k="$KEEP/$(echo "$rel" | tr / _)"
			mkdir -p "$k" && cp "$w"/* "$k"/ 2>/dev/null || true
			ln -sf "$f" "$k/input.s" || true
		}
		rm -f "$w"/*
		# shellcheck disable=SC2086 # ALTR_ARGS is a word list
		if ! "$ALTR" -r "$RULES" $ALTR_ARGS -o "$w/out.s" "$f" 2>"$w/altr.err"; then
			keep
			echo "FAIL $rel: altr failed: $(head -c 200 "$w/altr.err" | head -n 1)"
			continue
		fi
		warn=
		[ -s "$w/altr.err" ] && warn=" (altr stderr: $(head -n 1 "$w/altr.err" | cut -c 1-120))"
		if [ "$MODE" = assemble ]; then
			if as --64 -o "$w/out.o" < "$w/out.s" 2>"$w/as.err"; then
				echo "ok $rel$warn"
			else
				keep
				echo "FAIL $rel: output does not assemble: $(grep -m 1 -i error "$w/as.err" || head -n 1 "$w/as.err")"
			fi
			continue
		fi
		if cmp -s "$f" "$w/out.s"; then
			echo "ok $rel$warn"
			continue
		fi
		if ! as --64 -o "$w/in.o" < "$f" 2>"$w/as-in.err"; then
			keep
			echo "FAIL $rel: the corpus file itself does not assemble: $(head -n 1 "$w/as-in.err")"
			continue
		fi
		if ! as --64 -o "$w/out.o" < "$w/out.s" 2>"$w/as-out.err"; then
			keep
			echo "FAIL $rel: altr output does not assemble: $(grep -m 1 -i error "$w/as-out.err" || head -n 1 "$w/as-out.err")"
			continue
		fi
		if cmp -s "$w/in.o" "$w/out.o"; then
			echo "same $rel$warn"
			continue
		fi
		# Per-section contents and relocations; drop altr's .rdb_* sections
		# and objdump's header line (it names the file).
		for x in in out; do
			objdump -s -r "$w/$x.o" | awk '
				NR <= 2 { next }
				/^Contents of section / { skip = ($4 ~ /^\.rdb_/) }
				/^RELOCATION RECORDS FOR \[/ { skip = ($4 ~ /^\[\.rdb_/ || $4 ~ /^\[\.rela?\.rdb_/) }
				!skip' > "$w/$x.dump"
		done
		if cmp -s "$w/in.dump" "$w/out.dump"; then
			echo "same $rel$warn"
			continue
		fi
		diff "$w/in.dump" "$w/out.dump" > "$w/dump.diff" || true
		diff "$f" "$w/out.s" > "$w/text.diff" || true
		keep
		# Hint: the section holding the first differing dump line.
		line=$(cmp "$w/in.dump" "$w/out.dump" 2>/dev/null | sed -n 's/.*line \([0-9]*\).*/\1/p')
		sect=$(awk -v l="${line:-1}" 'NR > l { exit } /^Contents of section|^RELOCATION RECORDS/ { s = $0 } END { print s }' "$w/in.dump")
		echo "FAIL $rel: objects differ in '$sect'; first text change: $(grep -m 1 '^[<>]' "$w/text.diff" | cut -c 1-100)"
	done
	exit 0
fi

mode=identity
if [ "${1:-}" = --assemble ]; then
	mode=assemble
	shift
fi
[ $# -ge 3 ] || { echo "usage: identity.sh [--assemble] ALTR RULES CORPUS_DIR [ALTR_ARG...]" >&2; exit 2; }
altr=$1 rules=$2 corpus=$3
shift 3
[ -x "$altr" ] || die "altr '$altr' is not an executable"
[ -r "$rules" ] || die "rules file '$rules' not readable"
if [ ! -d "$corpus" ] || [ -z "$(find "$corpus" -name '*.s' -print -quit)" ]; then
	[ "${RDB_TEST_NO_SKIP:-}" = 1 ] && die "no corpus in '$corpus' (RDB_TEST_NO_SKIP=1: no skipping)"
	echo "identity: SKIP: no corpus in '$corpus'; build it with tests/corpus/make-corpus.sh BUILD_DIR" >&2
	exit 77
fi
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
corpus=$(cd "$corpus" && pwd)
keepdir=$(mktemp -d "${TMPDIR:-/tmp}/identity-failures.XXXXXX")
results=$keepdir/results.txt

ALTR=$(cd "$(dirname "$altr")" && pwd)/$(basename "$altr")
RULES=$(cd "$(dirname "$rules")" && pwd)/$(basename "$rules")
CORPUS=$corpus KEEP=$keepdir MODE=$mode ALTR_ARGS="$*"
export ALTR RULES CORPUS KEEP MODE ALTR_ARGS
start=$(date +%s)
find "$corpus" -name '*.s' | sort |
	xargs -d '\n' -P "${JOBS:-2}" -n 50 "$self" --worker > "$results"

total=$(wc -l < "$results")
nfail=$(grep -c '^FAIL ' "$results" || true)
nsame=$(grep -c '^same ' "$results" || true)
nwarn=$(grep -c '(altr stderr:' "$results" || true)
secs=$(($(date +%s) - start))
if [ "$nfail" -gt 0 ]; then
	grep '^FAIL ' "$results" | head -n 50
	[ "$nfail" -le 50 ] || echo "... and $((nfail - 50)) more (all in $results)"
fi
if [ "$nwarn" -gt 0 ]; then
	echo "identity: altr wrote to stderr for $nwarn files, e.g.:"
	grep '(altr stderr:' "$results" | head -n 3 | sed 's/^/  /'
fi
if [ "$mode" = identity ]; then
	echo "identity: $total files checked, $nfail failed ($nsame with changed text but identical objects), $secs s"
else
	echo "identity --assemble: $total files checked with $(basename "$rules"), $nfail failed to translate or assemble, $secs s"
fi
if [ "$nfail" -gt 0 ]; then
	echo "identity: work files of failures kept in $keepdir"
	exit 1
fi
rm -rf "$keepdir"
exit 0
