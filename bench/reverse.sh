#!/bin/sh
# reverse.sh [BUILD_DIR]: how long gdb's reverse commands take on rdb
# replays (issue 17, Speed), driven by gdb in batch (`rdb replay
# --gdb-batch`, python in bench/reverse-gdb.py) on recordings of
# examples/life.c and mesh.c (rdb-cc $CFLAGS, default -O0 -g) at rdb's
# default interval.  Reported, as median, min and max ms over N commands:
#   reverse-stepi, reverse-step, reverse-next   N in a row from the end
#   reverse-finish      from the last run of a line inside a callee
#                       (life: neighbours, mesh: relax), reached untimed
#   rc-bp-1             reverse-continue from the end to a breakpoint
#                       hit only at the start, on a recording of about 2
#                       intervals (1 interval back)
#   rc-bp-50            the same on a recording of about 51 intervals
#   watch-rc-50         watch + reverse-continue from the end to the only
#                       write of a variable, about 50 intervals back
#                       (life: main's local `gens`, on the stack; mesh:
#                       the global `n`)
#   interval            `rdb replay --from M --to M` of the long
#                       recording's middle interval M: what one
#                       interval's replay costs (REPS_FAR times)
# and the targets (issue 17): TARGET lines for reverse-step and
# reverse-next (median <= 100 ms) and for watch-rc-50 (its median over
# the interval's: 2 at most).
# The program is brought back to the end, untimed, before each far
# command.  "unsupported: ..." is what gdb said when the target refused a
# command.  Sizes: LIFE_GENS/MESH_ARGS (about 51 intervals here; the
# report says how many there were), LIFE_GENS_SHORT/MESH_ARGS_SHORT
# (about 2), REPS (near commands, default 20), REPS_FAR (default 3);
# NO_WATCH=1 leaves watch-rc-50 out.
# A report, not a test: it asserts nothing about the numbers.
set -eu

die() { echo "bench/reverse: $*" >&2; exit 1; }

repo=$(cd "$(dirname "$0")/.." && pwd)
. "$repo/bench/lib.sh"
bench_tools "${1:-}" rdb
cflags=${CFLAGS:--O0 -g}
reps=${REPS:-20}
far=${REPS_FAR:-3}
skip_watch=${NO_WATCH:-}
life_gens=${LIFE_GENS:-420000}
life_short=${LIFE_GENS_SHORT:-14000}
mesh_args=${MESH_ARGS:-1000 2900}
mesh_short=${MESH_ARGS_SHORT:-1000 110}
command -v gdb > /dev/null || die "no gdb (Debian: apt-get install gdb)"

bench_work reverse

# line FILE TEXT: the number of FILE's first line holding TEXT
line() { grep -nF -- "$2" "$repo/examples/$1" | head -1 | cut -d: -f1; }

# record NAME TRACE ARGS...: rdb record at the default interval; prints
# the number of complete intervals
record() {
	n=$1 t=$2
	shift 2
	"$rdb" record -o "$t" -- "./$n" "$@" > "$t.out" 2> "$t.err" ||
		{ cat "$t.err" >&2; die "rdb record $n $*"; }
	"$rdb" info --complete "$t"
}

# session TRACE FILE: gdb's BENCH lines from `rdb replay --gdb-batch FILE`
session() {
	"$rdb" replay --gdb-batch "$2" "$1" > "$2.out" 2>&1 || true
	grep '^BENCH ' "$2.out" || { tail -5 "$2.out"; echo "BENCH (no result: $2.out above)"; }
}

# script FILE: writes the gdb script FILE for session: the settings and
# the source line every one needs, then the lines on stdin
script() {
	{
		printf 'set pagination off\nset confirm off\nsource %s\n' "$repo/bench/reverse-gdb.py"
		cat
	} > "$1"
}

# ms: milliseconds since some fixed point
ms() { echo $(($(date +%s%N) / 1000000)); }

# interval TRACE N: BENCH interval, the replay of TRACE's middle interval
# alone (process start included), N times
interval() {
	m=$(( ($("$rdb" info --complete "$1") + 1) / 2 ))
	for i in $(seq "$2"); do
		t0=$(ms)
		"$rdb" replay --from "$m" --to "$m" "$1" > /dev/null 2>&1 || true
		echo $(($(ms) - t0))
	done | sort -n | awk -v m="$m" '{ v[NR] = $1 } END {
		printf "BENCH interval %.1f %.1f %.1f %d (interval %d)\n",
		       NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR], NR, m }'
}

# targets FILE: the TARGET lines from FILE's BENCH lines
targets() {
	awk '$1 == "BENCH" && $3 ~ /^[0-9.]+$/ { med[$2] = $3 }
	END {
		for (i = 1; i <= 2; i++) {
			c = i == 1 ? "reverse-step" : "reverse-next"
			if (c in med)
				printf "TARGET %s median %.1f ms <= 100: %s\n", c, med[c],
				       med[c] <= 100 ? "met" : "NOT met"
		}
		if (("watch-rc-50" in med) && med["interval"] > 0)
			printf "TARGET watch-rc-50 %.1f ms = %.2f intervals (one: %.1f ms) <= about 2: %s\n",
			       med["watch-rc-50"], med["watch-rc-50"] / med["interval"], med["interval"],
			       med["watch-rc-50"] / med["interval"] <= 2 ? "met" : "NOT met"
	}' "$1"
}

# bench NAME END CALLEE_LINE EARLY WATCH: END a breakpoint at the
# program's end, CALLEE_LINE one inside a callee, EARLY a breakpoint hit
# only at the start, WATCH the commands (from END) that set the
# watchpoint.
bench() {
	n=$1 end=$2 callee=$3 early=$4 watch=$5
	back_to_end="delete|break $end|continue|delete"
	script near.gdb <<EOF
break $end
continue
delete
bench-repeat reverse-stepi $reps reverse-stepi
bench-repeat reverse-step $reps reverse-step
bench-repeat reverse-next $reps reverse-next
bench-cycle reverse-finish $reps tbreak $callee|reverse-continue ; reverse-finish
EOF
	script far1.gdb <<EOF
bench-cycle rc-bp-1 $far $back_to_end|break $early ; reverse-continue
EOF
	script far50.gdb <<EOF
bench-cycle rc-bp-50 $far $back_to_end|break $early ; reverse-continue
EOF
	[ -n "$skip_watch" ] || echo "bench-cycle watch-rc-50 $far $back_to_end|$watch ; reverse-continue" >> far50.gdb
	echo "$n: near the end of the long recording ($long intervals)"
	session long near.gdb | tee res | sed 's/^/  /'
	echo "$n: $((short - 1)) interval(s) back ($short intervals)"
	session short far1.gdb | tee -a res | sed 's/^/  /'
	echo "$n: $((long - 1)) intervals back ($long intervals)"
	session long far50.gdb | tee -a res | sed 's/^/  /'
	interval long "$far" | tee -a res | sed 's/^/  /'
	targets res | sed 's/^/  /'
}

echo "bench/reverse: rdb-cc $cflags, rdb record at the default interval; BENCH NAME median min max (ms) count"
"$rdbcc" $cflags -o life "$repo/examples/life.c" || die "rdb-cc life"
"$rdbcc" $cflags -o mesh "$repo/examples/mesh.c" -lm || die "rdb-cc mesh"

mkdir -p life.d mesh.d
cd life.d
cp ../life .
long=$(record life long $life_gens)
short=$(record life short $life_short)
bench life show "life.c:$(line life.c 'n += board')" put \
	"frame 1|watch -l gens"
cd ../mesh.d
cp ../mesh .
long=$(record mesh long $mesh_args)
short=$(record mesh short $mesh_short)
bench mesh "mesh.c:$(line mesh.c 'for (int k = 1; k <= 4; k++)')" \
	"mesh.c:$(line mesh.c 'AT(y, x) = v;')" init "watch -l n"
