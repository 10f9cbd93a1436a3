#!/bin/sh
# test.sh [BUILD_DIR]: every test, from a fresh Debian 12 machine. Installs
# packages, fetches musl, configures with -DRDB_WERROR=ON, builds, builds the
# corpus (so the round trip really runs, never skips), then runs ctest with
# RDB_TEST_NO_SKIP=1 (a test that would skip because something the steps
# above build is missing fails instead). ctest counts a skip as a pass:
# tests/check-skips.sh then fails the run for any skip that
# tests/allowed-skips.txt does not list with its reason. The last lines
# are ctest's summary and that check's. Exit status: 0 only if both pass.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$repo/build}
jobs=$(nproc)

"$repo/scripts/setup-debian.sh"
"$repo/libc-wrap/fetch-musl.sh" "$build/musl"
cmake -S "$repo" -B "$build" -DRDB_WERROR=ON
cmake --build "$build" -j "$jobs"
# The instrumented musl (rdb-cc's libc): the rdb-cc, program and project
# tests need it and must run, not skip.
cmake --build "$build" --target musl
JOBS=$jobs "$repo/tests/corpus/make-corpus.sh" "$build"
cd "$build"
rm -f ctest-junit.xml
# (the output size: a skipped test's reason must reach the report whole)
status=0
RDB_TEST_NO_SKIP=1 ctest --output-on-failure -j "$jobs" --output-junit "$build/ctest-junit.xml" \
	--test-output-size-passed 65536 || status=$?
"$repo/tests/check-skips.sh" "$build/ctest-junit.xml" || status=1
exit $status
