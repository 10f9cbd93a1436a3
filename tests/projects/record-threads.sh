# record-threads.sh: recording a threaded workload of a project test
# (sourced by pigz.sh and xz-utils.sh after common.sh; docs/threads.md).
#
# proj_record_threads LABEL STDIN PROG ARGS...: PROG (threaded) recorded
# with checksums, replayed whole with --verify: the same stdout and exit
# status as the recording.  Then recorded again with 100 ms intervals (or
# the rdb record options in $rt_intervals, e.g. "-i 20" for a short run) and
# RDB_THREAD_BOUNDARIES=1 (boundaries while the threads run, each
# thread's registers in a THCTX record), replayed whole with --verify, and
# from its middle interval, which began while threads lived (replay makes
# them again: docs/threads.md).  The recording's stdout
# is left in $work/rr-LABEL.rec.out, the trace in $work/rr-LABEL.
proj_record_threads() {
	label=$1 in=$2
	shift 2
	t=$work/rr-$label
	rm -rf "$t" "$t-b"
	"$rdb" record --checksum -o "$t" -- "$@" < "$in" > "$t.rec.out" 2> "$t.rec.err" ||
		proj_die "rdb record $label failed (see $t.rec.err)"
	made=$("$rdb" info "$t" | sed -n 's/^threads: *\([0-9]*\) created.*/\1/p')
	[ "${made:-0}" -ge 2 ] || proj_die "recording $label made ${made:-no} threads: not a threaded run"
	sw=$("$rdb" info "$t" | sed -n 's/^threads: .*; \([0-9]*\) switches.*/\1/p')
	"$rdb" replay --verify "$t" < /dev/null > "$t.rep.out" 2> "$t.rep.err" ||
		proj_die "rdb replay --verify $label failed: $(head -n 3 "$t.rep.err")"
	cmp -s "$t.rec.out" "$t.rep.out" || proj_die "replay of $label printed something else"
	proj_note "record/replay: $label: $made threads, $sw switches, replayed whole with --verify"

	iv=${rt_intervals:--i 100}
	# shellcheck disable=SC2086
	RDB_THREAD_BOUNDARIES=1 "$rdb" record $iv --checksum -o "$t-b" -- "$@" < "$in" \
		> "$t-b.rec.out" 2> "$t-b.rec.err" ||
		proj_die "rdb record $iv $label (RDB_THREAD_BOUNDARIES=1) failed (see $t-b.rec.err)"
	cmp -s "$t.rec.out" "$t-b.rec.out" ||
		proj_die "$label recorded with boundaries printed something else"
	# every interval has its values (a snapshot child once sent them under
	# another interval's number: rdb record warned "values of interval N
	# after its VALUES_END", and the replay stopped early)
	n=$("$rdb" info --complete "$t-b")
	all=$("$rdb" info "$t-b" | sed -n 's/^intervals: *\([0-9]*\).*/\1/p')
	[ "$n" = "$all" ] && ! grep -q "values of interval" "$t-b.rec.err" ||
		proj_die "recording $label with $iv: $n of ${all:-?} intervals complete: $(grep values "$t-b.rec.err" | head -n 2)"
	"$rdb" replay --verify "$t-b" < /dev/null > "$t-b.rep.out" 2> "$t-b.rep.err" ||
		proj_die "rdb replay --verify $label (boundaries while threads ran) failed: $(head -n 3 "$t-b.rep.err")"
	cmp -s "$t-b.rec.out" "$t-b.rep.out" ||
		proj_die "replay of $label (boundaries while threads ran) printed something else"
	n=$("$rdb" info --complete "$t-b")
	[ "${n:-0}" -ge 3 ] || proj_die "recording $label with $iv gave ${n:-0} intervals, not several"
	# (the intervals whose switches rdb info counts began while threads ran)
	nth=$("$rdb" info "$t-b" | sed -n 's/^switches per interval://p' | tr ',' '\n' | grep -c ': *[1-9]')
	proj_note "record/replay: $label with boundaries while threads ran: $n intervals ($nth with switches), replayed whole with --verify"
	k=$(( (n + 1) / 2 ))
	if "$rdb" replay --verify --from "$k" "$t-b" < /dev/null > "$t-b.mid.out" 2> "$t-b.mid.err"; then
		tail -c "$(wc -c < "$t-b.mid.out")" "$t-b.rec.out" | cmp -s - "$t-b.mid.out" ||
			proj_die "replay of $label from interval $k is not the end of the whole run"
		proj_note "record/replay: $label replayed from interval $k of $n with --verify"
	else
		proj_die "rdb replay --verify --from $k $label failed: $(head -n 3 "$t-b.mid.err")"
	fi
}
