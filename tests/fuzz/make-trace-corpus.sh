#!/bin/sh
# make-trace-corpus.sh BUILD [SECONDS]: regenerates tests/fuzz/corpus-trace/
# from real trace sets of the current format.  Rerun it whenever
# RDB_TF_VERSION (runtime/trace_format.h) changes: ctest's
# fuzz_trace_corpus fails ("corpus stale") once most of the corpus no
# longer gets past the header's version check.
#
# It builds a varied set of test programs with BUILD's rdb-cc (syscalls,
# signals, fork children, MAP_SHARED, flowback's written stream, nondet
# instructions), records each with BUILD's rdb in several interval modes
# (none, CPU timer, --every-sic, with and without --checksum), and writes
# one seed per recording in fuzz_trace.c's framing, plus a few damaged
# variants of each (a stream cut in half, no ivindex, no exit file).  The
# old corpus is removed first: every input is of the current format.
# It writes tests/fuzz/corpus-channel/ too: for each recording what rdb
# replay sends the runtime over the channel (chan_seed.c), the seeds of
# fuzz_channel.c.  With SECONDS (needs clang's libFuzzer) it then fuzzes
# fuzz_trace.c and fuzz_channel.c from those seeds for that long each and
# keeps the smallest set of seeds and finds that covers every feature.
# Programs run with a small fixed environment so the headers stay small
# and hold nothing of the machine's environment.  tests/fuzz/regress-trace/
# and regress-channel/ (inputs that found bugs, replayed by ctest's
# fuzz_trace_regress and fuzz_channel_regress, which fail until each is
# brought to the current version by hand) are left alone.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:?usage: make-trace-corpus.sh BUILD [SECONDS]}" && pwd)
seconds=${2:-0}
RDB=$build/rdb/rdb RDB_CC=$build/driver/rdb-cc CHAN=$build/rdb/chan_seed
OUT=$repo/tests/fuzz/corpus-trace COUT=$repo/tests/fuzz/corpus-channel
RP=$repo/tests/record/progs TP=$repo/tests/programs
[ -x "$RDB" ] && [ -x "$RDB_CC" ] && [ -x "$CHAN" ] && [ -x "$build/rdb/fuzz_trace_replay" ] || { echo "make-trace-corpus: build $build first" >&2; exit 1; }
W=$(mktemp -d "${TMPDIR:-/tmp}/rdb-corpus.XXXXXX")
trap 'rm -rf "$W"' EXIT
# the files of fuzz_trace.c's framing (trace_format.h's streams)
FILES=$("$build/rdb/fuzz_trace_replay" --files)
MAX=262144 # bytes: a bigger seed is dropped (the corpus lives in git)
CMAX=65536  # the same for channel seeds

# seed NAME TRACE [SKIP]: the framed trace set, files in SKIP left out
seed() {
	for f in $FILES; do
		case " ${3:-} " in *" $f "*) continue ;; esac
		[ -f "$2/$f" ] || continue
		printf '@@rdb:%s\n' "$f"
		cat "$2/$f"
	done > "$W/seeds/$1"
}

# chan NAME TRACE: what rdb replay sends the runtime for TRACE (whole,
# with --verify, --to 2 quiet), for fuzz_channel.c
chan() {
	"$CHAN" "$2" 0 0 "$W/chan/$1"
	"$CHAN" "$2" 0 4 "$W/chan/$1-verify"
	"$CHAN" "$2" 2 1 "$W/chan/$1-to2" 2>/dev/null || rm -f "$W/chan/$1-to2" # one interval
}

# cut NAME TRACE STREAM: STREAM's file cut in half (inside a frame)
cut_half() {
	[ -f "$2/$3" ] || return 0
	n=$(wc -c < "$2/$3")
	[ "$n" -gt 64 ] || return 0
	mkdir -p "$W/cut" && rm -rf "$W/cut/t" && cp -r "$2" "$W/cut/t"
	head -c $((n / 2)) "$2/$3" > "$W/cut/t/$3"
	seed "$1" "$W/cut/t"
}

# record MODE ARGS...: records the built program in $W/run/t
record() {
	rm -rf "$W/run" && mkdir "$W/run"
	(cd "$W/run" && printf 'line one\nline two\n' > input.txt &&
	 env -i PATH=/usr/bin:/bin LANG=C "$RDB" record "$@" < "$TP/input.txt" > out.txt 2>&1) ||
		true # programs that die by a signal or exit non-zero are wanted too
}

# rec NAME SRC MODE [ARGS...]: builds SRC, records it in MODE, writes seeds.
# The damaged variants are made of seeds up to VARIANT bytes.
# --every-sic modes take the smallest count (most intervals) whose trace
# set fits in SEED bytes.
SEED=60000 VARIANT=24000
rec() {
	name=$1 src=$2 mode=$3
	shift 3
	exe=$W/bin/${src##*/}
	[ -x "$exe" ] || "$RDB_CC" -O1 "$src.c" -o "$exe"
	case $mode in
	none) record -i 0 -o "$W/run/t" -- "$exe" "$@" ;;
	timer) record -i 2 --checksum -o "$W/run/t" -- "$exe" "$@" ;;
	sic | sicplain)
		for n in 3000 30000 300000 3000000; do
			if [ $mode = sic ]; then
				record --every-sic $n --checksum -o "$W/run/t" -- "$exe" "$@"
			else
				record --every-sic $n -o "$W/run/t" -- "$exe" "$@"
			fi
			[ "$(find "$W/run/t" -type f -exec cat {} + | wc -c)" -gt $SEED ] || break
		done ;;
	esac
	[ -f "$W/run/t/header" ] || { echo "make-trace-corpus: no trace of $name" >&2; exit 1; }
	chan "$name-$mode" "$W/run/t"
	seed "$name-$mode" "$W/run/t"
	# damaged variants of the small ones only: the corpus lives in git
	[ "$(wc -c < "$W/seeds/$name-$mode")" -le $VARIANT ] || return 0
	seed "$name-$mode-noivindex" "$W/run/t" ivindex
	seed "$name-$mode-noexit" "$W/run/t" exit
	for s in syscalls values context written; do
		cut_half "$name-$mode-cut-$s" "$W/run/t" $s
	done
}

mkdir -p "$W/seeds" "$W/bin" "$W/chan"
rec hello "$RP/hello" none
rec hello "$RP/hello" sic
rec readfile "$RP/readfile" timer input.txt
rec nondet "$RP/nondet" sic
rec nondet-insn "$RP/nondet-insn" sicplain
rec kids "$RP/kids" sic
rec pipechild "$RP/pipechild" none
rec shmvals "$RP/shmvals" sic
rec shmgrow "$RP/shmgrow" sicplain
rec sigchld "$RP/sigchld" sic
rec handler "$RP/handler" timer
rec queued-sig "$RP/queued-sig" sic
rec restart "$RP/restart" sicplain
rec flowback "$RP/flowback" sic
rec flowback "$RP/flowback" timer
rec exit3 "$RP/exit3" none
rec sigdeath "$RP/sigdeath" sic
rec segv "$RP/segv" sicplain
rec file_io "$TP/file_io" sic
rec sig_alarm "$TP/sig_alarm" timer
rec sig_storm "$TP/sig_storm" sic
rec pipe_fork "$TP/pipe_fork" sic
rec mmap "$TP/mmap" sicplain
rec sockets "$TP/sockets" sic
rec clocks "$TP/clocks" sic
rec setjmp "$TP/setjmp" sic
rec costack "$TP/costack" sic
rec stdin_read "$TP/stdin_read" timer
rec mremap_move "$TP/mremap_move" sic

rm -rf "$OUT"
mkdir -p "$OUT"
kept=0 dropped=0
for f in "$W/seeds"/*; do
	if [ "$(wc -c < "$f")" -le $MAX ]; then
		cp "$f" "$OUT/" && kept=$((kept + 1))
	else
		dropped=$((dropped + 1))
	fi
done
echo "make-trace-corpus: $kept seeds in $OUT ($dropped over $MAX bytes dropped)"
rm -rf "$COUT"
mkdir -p "$COUT"
kept=0 dropped=0
for f in "$W/chan"/*; do
	if [ "$(wc -c < "$f")" -le $CMAX ]; then
		cp "$f" "$COUT/" && kept=$((kept + 1))
	else
		dropped=$((dropped + 1))
	fi
done
echo "make-trace-corpus: $kept seeds in $COUT ($dropped over $CMAX bytes dropped)"

# fuzz NAME DIR: runs libFuzzer binary $B/NAME for $seconds seconds from
# DIR's seeds, then makes DIR the smallest set of those inputs and the
# ones found that keeps every feature covered
fuzz() {
	mkdir -p "$W/found-$1" "$W/min-$1"
	(cd "$B" && ./"$1" -max_total_time="$seconds" -max_len=300000 -timeout=10 \
		-rss_limit_mb=4096 "$W/found-$1" "$2" > "$B/$1.log" 2>&1) ||
		{ tail -40 "$B/$1.log"; echo "make-trace-corpus: the fuzzer found a bug:" \
		  "its input is in $B; fix it, then add the input to tests/fuzz/regress-*/" >&2
		  exit 1; }
	(cd "$B" && ./"$1" -merge=1 "$W/min-$1" "$2" "$W/found-$1" > "$B/$1-merge.log" 2>&1)
	rm -rf "$2" && cp -r "$W/min-$1" "$2"
	echo "make-trace-corpus: $(ls "$2" | wc -l) inputs in $2 after $seconds s of fuzzing" \
		"($(ls "$W/found-$1" | wc -l) found; $B/$1.log)"
}

if [ "$seconds" -gt 0 ]; then
	B=$build/fuzz-trace
	mkdir -p "$B"
	F="-g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
	clang $F -I"$repo/rdb" -I"$repo/runtime" -I"$repo/syscallgen" -I"$build/syscallgen" \
		"$repo/tests/fuzz/fuzz_trace.c" "$repo/rdb/strings.c" "$repo/rdb/trace.c" \
		"$repo/rdb/feed.c" "$repo/rdb/show.c" "$repo/rdb/writes.c" \
		"$build/syscallgen/rdb_syscalls_gen.c" -lzstd -o "$B/fuzz_trace"
	clang $F -I"$repo/runtime" -I"$repo/tests/fuzz" -include "$repo/tests/fuzz/channel_shim.h" \
		"$repo/tests/fuzz/fuzz_channel.c" "$repo/runtime/chan.c" "$repo/runtime/rr.c" \
		"$repo/runtime/record.c" "$repo/runtime/sysreplay.c" "$repo/runtime/exit.c" \
		"$repo/runtime/nondet.c" "$repo/runtime/replay.c" \
		"$repo/runtime/children.c" "$repo/runtime/util.c" -o "$B/fuzz_channel"
	fuzz fuzz_trace "$OUT"
	fuzz fuzz_channel "$COUT"
fi
du -sh "$OUT" "$COUT"
