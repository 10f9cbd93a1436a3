#!/bin/sh
# check-skips.sh JUNIT [ALLOWED]: fails (exit 1) if ctest's JUnit report
# (ctest --output-junit JUNIT) shows a test that did not run (skipped with
# SKIP_RETURN_CODE, disabled, or not run) unless ALLOWED (default
# tests/allowed-skips.txt) lists that test with a line its output holds.
# ctest itself counts a skip as a pass: scripts/test.sh runs this after it.
# Prints one line per skip, allowed or not, and a summary.
set -u
[ $# -ge 1 ] || { echo "usage: check-skips.sh JUNIT [ALLOWED]" >&2; exit 2; }
junit=$1
allowed=${2:-$(cd "$(dirname "$0")" && pwd)/allowed-skips.txt}
[ -s "$junit" ] || { echo "check-skips: no JUnit report at $junit" >&2; exit 1; }
[ -r "$allowed" ] || { echo "check-skips: cannot read $allowed" >&2; exit 1; }
grep -q '<testcase ' "$junit" || { echo "check-skips: no test in $junit" >&2; exit 1; }

# The report is ctest's own, one element a line except <system-out>'s
# text, which runs over lines: the awk below reads it that way.
awk -v allowed="$allowed" '
function attr(line, a) {
	if (!match(line, " " a "=\"[^\"]*\""))
		return ""
	return substr(line, RSTART + length(a) + 3, RLENGTH - length(a) - 4)
}
function unxml(s) {
	gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s)
	gsub(/&apos;/, "\047", s); gsub(/&amp;/, "\\&", s)
	return s
}
BEGIN {
	FS = "\n"
	while ((getline l < allowed) > 0) {
		if (l ~ /^#/ || l !~ /\t/)
			continue
		t = index(l, "\t")
		ok[substr(l, 1, t - 1) SUBSEP substr(l, t + 1)] = 1
	}
	bad = 0; good = 0
}
/<testcase / { name = attr($0, "name"); st = attr($0, "status"); n = 0; inout = 0; next }
/<system-out>/ { inout = 1; sub(/.*<system-out>/, "") }
inout {
	end = sub(/<\/system-out>.*/, "")
	if (!end || $0 != "")
		out[++n] = unxml($0)
	if (end)
		inout = 0
	next
}
/<\/testcase>/ {
	if (st == "run" || st == "fail")
		next
	why = ""
	for (i = 1; i <= n; i++) {
		if ((name SUBSEP out[i]) in ok) {
			why = out[i]
			break
		}
	}
	if (why != "") {
		printf "check-skips: %s skipped, allowed: %s\n", name, why
		good++
		next
	}
	reason = ""
	for (i = 1; i <= n && reason == ""; i++)
		if (out[i] ~ /SKIP|skip/)
			reason = out[i]
	if (reason == "" && n > 0)
		reason = out[n]
	printf "check-skips: %s did not run (%s), not in %s: %s\n", name, st, allowed, reason
	bad++
}
END {
	printf "check-skips: %d skips allowed, %d not allowed\n", good, bad
	exit bad > 0
}' "$junit"
