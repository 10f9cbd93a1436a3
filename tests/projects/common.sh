# common.sh: helpers for the real-project tests (sourced by NAME.sh).
# Each test fetches a Debian source package once (cached in
# BUILD/projects/NAME/download via scripts/apt-source.sh), unpacks it fresh,
# builds it with rdb-cc through the project's own build system, runs the
# project's own tests, and checks that the programs really ran
# instrumented: .rdb_iot present and non-empty, hooks and SIC increments in
# a function of the project itself, and probe.c's log (every process that
# ran while RDB_PROBE_LOG was set reports a non-zero SIC and the write
# hook's mark on a libc variable).
# Exit 0 pass, 1 fail, 77 skipped (the instrumented musl is not built:
# `cmake --build BUILD --target musl`; with RDB_TEST_NO_SKIP=1, as
# scripts/test.sh runs the tests after building it, that fails too).  The work folder is
# BUILD/projects/NAME; its logs stay there.

proj_die() { echo "FAIL ($proj_name): $*" >&2; exit 1; }
proj_skip() {
	[ "${RDB_TEST_NO_SKIP:-}" = 1 ] && proj_die "$* (RDB_TEST_NO_SKIP=1: no skipping)"
	echo "SKIP ($proj_name): $*" >&2
	exit 77
}
proj_note() { echo "$proj_name: $*"; }

# proj_init NAME RDB_CC BUILD_DIR: checks, work folder, probe.o, CC.
proj_init() {
	proj_name=$1
	[ $# -eq 3 ] || { echo "usage: $proj_name.sh RDB_CC BUILD_DIR" >&2; exit 2; }
	proj_repo=$(cd "$(dirname "$0")/../.." && pwd)
	[ -x "$2" ] || proj_die "rdb-cc '$2' is not an executable"
	CC=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
	mkdir -p "$3/projects/$proj_name" || proj_die "cannot create $3/projects/$proj_name"
	work=$(cd "$3/projects/$proj_name" && pwd)
	# The user's rdb-cc settings must not leak into the test.
	unset RDB_CC RDB_CC_ACTIVE RDB_CC_LIBC_BUILD RDB_MUSL RDB_CC_KEEP RDB_PROBE_LOG
	export CC

	libc=$("$CC" --version 2>&1 | sed -n 's/^libc: //p')
	case $libc in
	"" | *"(not built)"*) proj_skip "instrumented musl not built ($libc): cmake --build BUILD --target musl" ;;
	esac
	printf 'int main(void){return 0;}\n' > "$work/link-probe.c"
	# with the musl built, a failed link is rdb-cc's failure, not a skip
	"$CC" "$work/link-probe.c" -o "$work/link-probe" 2> "$work/link-probe.err" ||
		proj_die "rdb-cc cannot link a trivial program: $(head -n 3 "$work/link-probe.err")"

	# probe.o: an instrumentation library, so built like librdb (plain gcc,
	# reserved registers left alone, no libc).
	probe=$work/probe.o
	gcc -O2 -fPIE -fvisibility=hidden -fno-stack-protector -ffreestanding \
		-fno-builtin -mgeneral-regs-only -fcf-protection=none \
		-ffixed-r12 -ffixed-r13 -ffixed-r14 -ffixed-r15 -Wall -Wextra \
		-I"$proj_repo/runtime" -c "$proj_repo/tests/projects/probe.c" -o "$probe" ||
		proj_die "cannot build probe.o"
	probe_log=$work/probe.log
	rm -f "$probe_log"
	rdb=$(cd "$3" && pwd)/rdb/rdb
}

# proj_record_replay LABEL STDIN PROG ARGS...: rdb record PROG (checksums,
# 20 ms intervals, or rr_interval ms), then rdb replay --verify of the
# whole run and from its middle interval: same stdout as the recording
# (the middle one: its end), same exit status.
proj_record_replay() {
	label=$1 in=$2
	shift 2
	t=$work/rr-$label
	rm -rf "$t"
	"$rdb" record -i "${rr_interval:-20}" --checksum -o "$t" -- "$@" < "$in" > "$t.rec.out" 2> "$t.rec.err" ||
		proj_die "rdb record $label failed (see $t.rec.err)"
	"$rdb" replay --verify "$t" < /dev/null > "$t.rep.out" 2> "$t.rep.err" ||
		proj_die "rdb replay --verify $label failed: $(head -n 3 "$t.rep.err")"
	cmp -s "$t.rec.out" "$t.rep.out" || proj_die "replay of $label printed something else"
	proj_replay_middle "$t" "$t.rec.out" "$label"
	proj_note "record/replay: $label: $n intervals, replayed whole and from $k with --verify"
}

# proj_replay_middle T REF LABEL: trace T has several complete intervals
# (n), and its replay with --verify from the middle one (k) prints the end
# of REF (what the whole run printed).
proj_replay_middle() {
	n=$("$rdb" info --complete "$1")
	[ "${n:-0}" -ge 3 ] || proj_die "recording $3 gave ${n:-0} intervals, not several"
	k=$(( (n + 1) / 2 ))
	"$rdb" replay --verify --from "$k" "$1" < /dev/null > "$1.mid.out" 2> "$1.mid.err" ||
		proj_die "rdb replay --verify --from $k $3 failed: $(head -n 3 "$1.mid.err")"
	tail -c "$(wc -c < "$1.mid.out")" "$2" | cmp -s - "$1.mid.out" ||
		proj_die "replay of $3 from interval $k is not the end of the whole run"
}

# proj_fetch PKG GLOB: the path of the downloaded file matching GLOB (e.g.
# 'zlib_*.orig.tar.*'), downloading source package PKG the first time.
proj_fetch() {
	set -- "$1" "$2" "$work/download"
	# shellcheck disable=SC2086
	if ! ls "$3"/$2 >/dev/null 2>&1; then
		"$proj_repo/scripts/apt-source.sh" "$1" "$work" >/dev/null ||
			proj_die "cannot download source package $1 (network needed once)"
	fi
	# shellcheck disable=SC2086
	f=$(ls "$3"/$2 2>/dev/null | head -n 1)
	[ -n "$f" ] || proj_die "no $2 in the source package $1"
	echo "$f"
}

# proj_unpack TARBALL DIR: a fresh copy of the source tree in DIR.
proj_unpack() {
	rm -rf "$2"
	mkdir -p "$2"
	tar -xf "$1" -C "$2" --strip-components=1 || proj_die "cannot unpack $1"
}

# proj_run STEP CMD...: runs CMD with its output in $work/STEP.log; on
# failure shows the end of the log.
proj_run() {
	step=$1
	shift
	proj_note "$step: $*"
	if ! "$@" > "$work/$step.log" 2>&1; then
		tail -n 40 "$work/$step.log" >&2
		proj_die "$step failed (log: $work/$step.log)"
	fi
}

# proj_check_bin EXE FUNC: EXE carries a non-empty .rdb_iot, and FUNC (a
# function of the project, not of libc) has read hooks (stores through
# %r14) and SIC increments.
proj_check_bin() {
	[ -f "$1" ] || proj_die "$1 was not built"
	size=$(readelf -SW "$1" | awk '$2 == ".rdb_iot" { print $6 }')
	[ -n "$size" ] || proj_die "$1 has no .rdb_iot section: not built by rdb-cc"
	[ $((0x$size)) -gt 0 ] || proj_die "$1 has an empty .rdb_iot"
	objdump -d --no-show-raw-insn --disassemble="$2" "$1" > "$work/objdump.txt" 2>&1 ||
		proj_die "objdump $1 failed"
	grep -q "<$2>:" "$work/objdump.txt" || proj_die "$1 has no function $2"
	grep -q ',%r14,1)' "$work/objdump.txt" || proj_die "$2 in $1 has no read hooks"
	grep -q 'lea *0x1(%r15),%r15' "$work/objdump.txt" || proj_die "$2 in $1 has no SIC increments"
	proj_note "instrumented: $(basename "$1") (.rdb_iot $((0x$size)) bytes; hooks and SIC in $2)"
}

# proj_check_probe MIN: at least MIN processes reported through probe.c,
# each with a non-zero SIC and the write hook's X bit on __progname.
proj_check_probe() {
	[ -f "$probe_log" ] || proj_die "no process reported through the probe ($probe_log)"
	n=$(grep -c '^probe ' "$probe_log")
	[ "$n" -ge "$1" ] || proj_die "only $n processes reported through the probe, expected >= $1"
	bad=$(awk '$1 != "probe" { print; next }
		{ sic = $3; sub(/^sic=/, "", sic); s = $4; sub(/^s=/, "", s)
		  if (sic + 0 == 0 || int(s / 2) % 2 != 1) print }' "$probe_log")
	[ -z "$bad" ] || proj_die "processes that did not run instrumented: $bad"
	proj_note "probe: $n instrumented processes ran ($(awk '{print $2}' "$probe_log" | sort | uniq -c | sort -rn | awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}'))"
}

# proj_record_tree LABEL N CMD...: the project's own test suite recorded
# whole as a process tree (rdb record --checksum --every-sic, from the
# current folder: docs/process-trees.md): rdb ps lists at least N
# recorded processes, each ended with status 0; each replays alone with
# --verify, whole and from its middle interval (each line of text it
# prints is one the suite printed, or a test log of the current folder
# holds); rdb check passes on the set.
proj_record_tree() {
	label=$1 want=$2
	shift 2
	t=$work/tree-$label
	rm -rf "$t"
	"$rdb" record --checksum --every-sic 3000 -o "$t" -- "$@" > "$t.rec.out" 2> "$t.rec.err" ||
		proj_die "rdb record $* (tree $label) failed (see $t.rec.err)"
	"$rdb" ps "$t" > "$t.ps" || proj_die "rdb ps $t failed"
	# columns: ID PPID EXIT (2 or 3 words) INTERVALS BYTES ARGV (from 66)
	awk 'NR > 1 && $5 != "not"' "$t.ps" > "$t.rec.ps"
	ids=$(awk '{ print $1 }' "$t.rec.ps")
	[ "$(echo $ids | wc -w)" -ge "$want" ] || { cat "$t.ps"; proj_die "tree $label: fewer than $want processes recorded"; }
	awk '$3 != "status" || $4 != "0" || $5 == "FAILED"' "$t.rec.ps" | grep . &&
		proj_die "tree $label: a recorded process did not end with status 0 ($t.ps)"
	for id in $ids; do
		r=$t.$id
		"$rdb" replay --verify --pid "$id" "$t" < /dev/null > "$r.out" 2> "$r.err" ||
			proj_die "tree $label: replay --verify --pid $id failed: $(head -n 3 "$r.err")"
		n=$("$rdb" info --pid "$id" --complete "$t")
		k=$(( (n + 1) / 2 ))
		"$rdb" replay --verify --from "$k" --pid "$id" "$t" < /dev/null > "$r.mid.out" 2> "$r.mid.err" ||
			proj_die "tree $label: replay --verify --from $k --pid $id failed: $(head -n 3 "$r.mid.err")"
		tail -c "$(wc -c < "$r.mid.out")" "$r.out" | cmp -s - "$r.mid.out" ||
			proj_die "tree $label: the replay of $id from $k is not the end of its whole replay"
		# text (not minigzip's bytes): each line one the suite printed,
		# or wrote to a test's log (automake's harness: NAME.log)
		cat "$t.rec.out" ./*.log > "$t.text" 2> /dev/null
		if grep -qI . "$r.out" && grep -qvxF -f "$t.text" "$r.out"; then
			proj_die "tree $label: process $id's replay printed a line the suite did not"
		fi
	done
	"$rdb" check --jobs 2 "$t" > "$t.check" ||
		proj_die "tree $label: rdb check failed: $(grep FAILED "$t.check" | head -n 3)"
	proj_note "tree $label: $(echo $ids | wc -w) processes recorded ($(cut -c66- "$t.rec.ps" | awk '{ print $1 }' | sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }')), each replayed alone with --verify, whole and from its middle; rdb check: $(grep -c ' ok ' "$t.check") ok, $(sed -n 's/.* ok *\([0-9]*\) intervals.*/\1/p' "$t.check" | awk '{ s += $1 } END { print s }') intervals"
}
