#!/bin/sh
# test.sh [BUILD_DIR]: every test, from a fresh Debian 12 machine. Installs
# packages, fetches musl, configures with -DRDB_WERROR=ON, builds, builds the
# corpus (so the round trip really runs, never skips), then runs ctest; the
# last lines are ctest's summary. Exit status is ctest's.
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
exec ctest --output-on-failure -j "$jobs"
