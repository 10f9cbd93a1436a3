#!/bin/sh
# pigz.sh RDB_CC BUILD_DIR: pigz 2.8 (Debian's pigz source package; 2.6's
# files are gone from bookworm's archive, so trixie's is fetched) built
# with `make CC=rdb-cc` from its own Makefile on a zlib 1.2.13 (Debian's
# zlib source, cached by zlib.sh) built with rdb-cc too, then a threaded
# workload, unrecorded: pigz -p 4 on about 12 MB of generated text gives
# the same bytes as the gcc build of both, pigz -t accepts it and pigz -d
# -p 4 gives the input back.  Then the same workload recorded (threads
# serialized, docs/threads.md) and replayed with --verify
# (proj_record_threads, record-threads.sh): pigz -p 4 gives the gcc
# build's bytes recorded and replayed, and pigz -d -p 4 of them the input.
set -eu
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/record-threads.sh"
proj_init pigz "$@"

if ! ls "$work"/download/pigz_*.orig.tar.* > /dev/null 2>&1; then
	uri=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
	DEBIAN_SUITE=trixie DEBIAN_URI=${DEBIAN_URI:-$uri} \
		"$proj_repo/scripts/apt-source.sh" pigz "$work" > /dev/null ||
		proj_die "cannot download source package pigz (network needed once)"
fi
tarball=$(proj_fetch pigz 'pigz_*.orig.tar.*')
zdir=$(dirname "$work")/zlib
ztar=$(ls "$zdir"/download/zlib_*.orig.tar.* 2>/dev/null | head -n 1 || true)
if [ -z "$ztar" ]; then
	"$proj_repo/scripts/apt-source.sh" zlib "$zdir" > /dev/null ||
		proj_die "cannot download source package zlib (network needed once)"
	ztar=$(ls "$zdir"/download/zlib_*.orig.tar.* | head -n 1)
fi

# build KIND CC: zlib's libz.a, then pigz on it, in $work/KIND.
build() {
	proj_unpack "$ztar" "$work/$1-zlib"
	(cd "$work/$1-zlib" && CC=$2 ./configure --static && make -j2 libz.a) \
		> "$work/$1-zlib.log" 2>&1 || proj_die "$1: building zlib failed (log: $work/$1-zlib.log)"
	proj_unpack "$tarball" "$work/$1"
	(cd "$work/$1" && make -j2 CC="$2" CFLAGS="-O2 -I$work/$1-zlib" \
		LDFLAGS="-L$work/$1-zlib $3" pigz) > "$work/$1.log" 2>&1 ||
		proj_die "$1: building pigz failed (log: $work/$1.log)"
}
proj_note "build: zlib and pigz with rdb-cc and with gcc"
build src "$CC" "-Wl,$probe"
build native gcc ""
proj_check_bin "$work/src/pigz" deflate_engine

i=0
: > "$work/input"
while [ $i -lt 30 ]; do
	cat "$work"/src/*.c "$work"/src/zopfli/src/zopfli/*.c >> "$work/input"
	seq $((i * 7919)) 7 $((i * 7919 + 140000)) >> "$work/input"
	i=$((i + 1))
done
"$work/native/pigz" -p 4 -c < "$work/input" > "$work/input.native.gz"
export RDB_PROBE_LOG="$probe_log"
start=$(date +%s.%N)
"$work/src/pigz" -p 4 -c < "$work/input" > "$work/input.gz" || proj_die "instrumented pigz -p 4 failed"
end=$(date +%s.%N)
cmp "$work/input.native.gz" "$work/input.gz" || proj_die "instrumented pigz -p 4 output differs from gcc's"
"$work/src/pigz" -t "$work/input.gz" || proj_die "pigz -t rejects its own output"
"$work/src/pigz" -d -p 4 -c < "$work/input.gz" > "$work/input.back" || proj_die "pigz -d -p 4 failed"
cmp "$work/input" "$work/input.back" || proj_die "pigz -d did not give the input back"
unset RDB_PROBE_LOG
proj_note "workload: pigz -p 4 on $(wc -c < "$work/input") bytes in $(awk "BEGIN { printf \"%.1f\", $end - $start }") s: same output as gcc's build; -t and -d -p 4 agree"
proj_check_probe 3

proj_record_threads compress "$work/input" "$work/src/pigz" -p 4 -c
cmp -s "$work/input.native.gz" "$work/rr-compress.rec.out" ||
	proj_die "pigz -p 4 recorded gave other bytes than gcc's build"
rt_intervals="-i 20" proj_record_threads decompress "$work/input.native.gz" "$work/src/pigz" -d -p 4 -c
cmp -s "$work/input" "$work/rr-decompress.rec.out" ||
	proj_die "pigz -d -p 4 recorded did not give the input back"
echo "PASS pigz"
