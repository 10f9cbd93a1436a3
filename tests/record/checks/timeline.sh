#!/bin/sh
# timeline.sh RDB RDB_CC: record-check-timeline (tests/record/checks/):
# rdb timeline's page of a real recording (progs/timeline.c with --forks:
# syscalls, timer signals, a fork child that records itself) loaded in
# headless Chromium.  The page names no URL and loads nothing; the DOM
# Chromium builds has, per process of the set, a band for every interval
# and marks counting the syscalls, signals, fork children and ends that
# rdb info reports; the page opened at #p-ID-ivK shows interval K's replay
# command, which replays; the screenshot is a PNG of the window's size
# with the bands drawn (tests/record/timeline-page.py).  Chromium runs
# with no proxy, its own profile folder, and nothing in the background.
. "$(dirname "$0")/lib.sh"
PAGE=$SRC/../timeline-page.py
if ! command -v chromium > /dev/null; then
	[ "${RDB_TEST_NO_SKIP:-}" = 1 ] && fail "no chromium (scripts/setup-debian.sh installs it)"
	status=77; echo "SKIP: no chromium"; exit 77
fi
build timeline prog
"$RDB" record --forks -i 1 -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
"$RDB" ps t > ps.out || fail "rdb ps"
[ "$(awk 'NR > 1' ps.out | wc -l)" = 2 ] || { cat ps.out; fail "not two processes (the fork child records itself)"; }
top=$(awk 'NR == 2 { print $1 }' ps.out) kid=$(awk 'NR == 3 { print $1 }' ps.out)
"$RDB" timeline -o page.html t 2> tl.err || { cat tl.err; fail "rdb timeline"; }
# --pid: that process alone; no -o: DIR.html
"$RDB" timeline --pid "$kid" -o kid.html t 2> /dev/null || fail "rdb timeline --pid $kid"
[ "$(grep -c '<section class="proc"' kid.html)" = 1 ] && grep -q "id=\"p-$kid\"" kid.html ||
	fail "rdb timeline --pid $kid: not that process alone"
"$RDB" timeline t 2> /dev/null && cmp -s t.html page.html || fail "rdb timeline t: no t.html like -o's"
# self-contained: no URL at all, nothing that loads
! grep -Eqi 'https?://' page.html || { grep -Eoi '.{20}https?://.{20}' page.html; fail "the page names a URL"; }
! grep -Eqi '<(link|img|iframe|object|embed|audio|video)|src=|url\(|@import' page.html ||
	fail "the page loads something"

# What rdb info says of each process (signals: the --json table's sum;
# record-check-info-json checks --json against the text).
{
	echo '{"procs": {'
	sep=
	for id in $top $kid; do
		"$RDB" info --pid "$id" t > i.$id || fail "rdb info --pid $id"
		"$RDB" info --json --pid "$id" t > j.$id || fail "rdb info --json --pid $id"
		n=$(sed -n 's/^intervals: *\([0-9]*\).*/\1/p' i.$id)
		sys=$(sed -n 's/^syscalls: *\([0-9]*\).*/\1/p' i.$id)
		forks=$(sed -n 's/^not traced: \([0-9]*\) fork child.*/\1/p' i.$id)
		sig=$(python3 -c 'import json,sys; print(sum(r["signals"] for r in json.load(open(sys.argv[1]))["interval_table"]))' j.$id) ||
			fail "j.$id: not JSON"
		echo "$sep\"$id\": {\"intervals\": $n, \"sys\": $sys, \"sig\": $sig, \"fork\": ${forks:-0}, \"exit\": 1}"
		sep=,
	done
	echo "}, \"cmd\": \"rdb replay --pid $kid --from 2 t\"}"
} > expect.json
# the test has something to find: signals and a fork in the top process
grep -Eq "\"$top\": \{\"intervals\": ([2-9]|[1-9][0-9]+), \"sys\": [1-9][0-9]*, \"sig\": [1-9][0-9]*, \"fork\": 1" expect.json ||
	{ cat expect.json; fail "the recording has no signal or no fork: nothing to look for"; }

# Chromium: no proxy, no network of its own, a profile in the work folder.
chrome() {
	env -u http_proxy -u https_proxy -u HTTP_PROXY -u HTTPS_PROXY -u all_proxy -u ALL_PROXY \
		-u no_proxy HOME="$W" timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--no-proxy-server --disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$W/chr" --hide-scrollbars "$@"
}
chrome --dump-dom "file://$W/page.html#p-$kid-iv2" > dom.html 2> chr.err ||
	{ tail -5 chr.err; fail "chromium --dump-dom"; }
python3 "$PAGE" dom dom.html expect.json || fail "the DOM is not what rdb info says"
# the command the page shows replays (the child's output from interval 2)
"$RDB" replay --pid "$kid" --from 2 t > k.out 2> k.err || { cat k.err; fail "rdb replay --pid $kid --from 2 t"; }
expect k.out "^child$"
chrome --window-size=1300,900 --screenshot="$W/shot.png" "file://$W/page.html" > shot.log 2>&1 ||
	{ tail -5 shot.log; fail "chromium --screenshot"; }
python3 "$PAGE" png shot.png 1300 900 || fail "the screenshot"
pass
