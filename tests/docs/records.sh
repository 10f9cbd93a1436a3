#!/bin/sh
# records.sh [DOC.md]: docs/trace-format.md's table of record types must
# agree with runtime/trace_format.h's RDB_TF_RECORDS, the one list the
# code uses, so a type added, renumbered or renamed in one and not the
# other is caught.  The header's side comes from the preprocessor (the
# macro expanded, not its text parsed).  The doc's side is the table under
# "| type | name |" up to the first line that is not a table row: a row
# "| N | NAME |" gives NAME = N, and in any row a word "NAME N" (upper
# case, then a number) does too (the header entries' row lists them so).
# Every (name, number) pair must be in both.  Default: docs/trace-format.md.
# Prints each difference; exit 0 when none, 1 otherwise.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
doc=${1:-docs/trace-format.md}
[ -f "$doc" ] || { echo "records.sh: no $doc"; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rdb-records.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# The header's pairs, one "NAME NUM" a line.
printf '#include "trace_format.h"\n#define RDB_P(n, num, ...) RDB_PAIR n num\nRDB_TF_RECORDS(RDB_P)\n' |
	${CC:-cc} -E -P -I runtime -x c - > "$tmp/cpp" || exit 2
grep -o 'RDB_PAIR [A-Z_][A-Z0-9_]* [0-9][0-9]*' "$tmp/cpp" |
	sed 's/^RDB_PAIR //' | sort -u > "$tmp/code"
[ -s "$tmp/code" ] || { echo "records.sh: no records in RDB_TF_RECORDS"; exit 2; }

# The doc's pairs.
awk '/^\| type \| name \|/ { on = 1; next }
	on && !/^\|/ { exit }
	on' "$doc" > "$tmp/table"
[ -s "$tmp/table" ] || { echo "records.sh: no record type table in $doc"; exit 2; }
{
	awk -F'|' '{ n = $2; t = $3; gsub(/ /, "", n); gsub(/ /, "", t) }
		n ~ /^[0-9]+$/ && t ~ /^[A-Z][A-Z0-9_]*$/ { print t, n }' "$tmp/table"
	grep -o '[A-Z][A-Z0-9_]*[A-Z0-9] [0-9][0-9]*' "$tmp/table"
} | sort -u > "$tmp/doc"

status=0
comm -23 "$tmp/code" "$tmp/doc" | while read -r n v; do
	echo "$doc: no row for $n ($v) of RDB_TF_RECORDS"
done
comm -13 "$tmp/code" "$tmp/doc" | while read -r n v; do
	echo "$doc: $n $v is not in RDB_TF_RECORDS"
done
[ -z "$(comm -3 "$tmp/code" "$tmp/doc")" ] || status=1
echo "records.sh: $(wc -l < "$tmp/code") record types, $(wc -l < "$tmp/doc") in the doc"
exit $status
