#!/bin/sh
# threads-from.sh RDB RDB_CC: record-check-threads-from (issue 19).
# rdb replay --from K of intervals that began while several threads lived
# (docs/threads.md): every tests/threads program the record checks record
# (threads.sh, threads-more.sh, threads-bound.sh) is recorded with
# boundaries while threads live, an interval every 20000 counts (2000,
# 100 or 30, tried again, as such boundaries vary from run to run, for a
# program whose threads run too briefly for three such intervals; 10 for
# thread_robust; thread_manyalive is left out: its 1100 threads need
# intervals of 10 counts, minutes on a loaded machine) and a slice that does not divide its loops, replayed whole with --verify, and
# from the first, a middle and the last interval that began with more than
# one thread alive (rdb truss: threads made and ended before the interval's
# line), each with --verify: the status is the recording's and the output
# what the recording printed from there on (a suffix).  A program that
# never has three such intervals fails (but thread_exec, below).
# thread_many is recorded again until a boundary finds a thread made but
# not started, and replayed from there.
. "$(dirname "$0")/lib.sh"
# intervals of recording $1 that began while threads lived, one a line
threaded() {
	"$RDB" truss "$1" | awk '/^--- thread [0-9]* creates thread/ { n++ }
		/^--- thread [0-9]* \(tid [0-9]*\) exits ---$/ { n-- }
		/^--- interval [0-9]* ---$/ { if (n > 0) print $3 }'
}
# from DIR K ST OUT: replay DIR from K with --verify, status ST, a suffix of OUT
from() {
	timeout 120 "$RDB" replay --verify --from "$2" "$1" > "$1.f$2" 2> "$1.e$2"
	s=$?
	[ $s -eq "$3" ] || { cat "$1.e$2"; fail "replay --verify --from $2 $1: status $s, recorded $3"; }
	tail -c "$(wc -c < "$1.f$2")" "$4" | cmp -s - "$1.f$2" ||
		{ diff "$4" "$1.f$2"; fail "replay --from $2 $1 printed what the recording did not end with"; }
}
# Programs whose threads live too briefly for three boundaries at any
# interval length: thread_exec's thread execs at once (two such intervals);
# thread_exit_loop's end at once (two to four at 30 counts).
FEW="thread_exec thread_exit_loop"
total=0
for p in thread_mutex thread_condvar thread_many thread_tls thread_barrier thread_sync \
         thread_cancel thread_signals thread_fork_exit thread_callsig thread_exec \
         thread_exit_group thread_exit_loop thread_pipe thread_pool thread_procsig \
         thread_racy thread_robust thread_vfork thread_longpool; do
	build ../../threads/$p $p
	timeout 120 ./$p > $p.plain 2>&1; st=$?
	[ $st -ne 124 ] || fail "$p hung unrecorded (killed after 120 s)"
	# (shorter intervals for a program whose threads run briefly)
	# (not 10 counts but where needed: its first boundaries already differ
	# in --verify's full hash, threads or not, RDB_THREAD_BOUNDARIES=0 too)
	case $p in
	thread_robust) evs="30 10 10" ;;
	*) evs="20000 2000 100 100 100 100 30 30 30 30" ;;
	esac
	for every in $evs; do
		rm -rf t-$p
		RDB_THREAD_BOUNDARIES=1 timeout 120 "$RDB" record --checksum --every-sic $every \
			--slice 10001 -o t-$p -- ./$p > $p.rec 2>&1
		[ $? -eq $st ] || { cat $p.rec; fail "record $p: another status than unrecorded ($st)"; }
		cmp -s $p.plain $p.rec || { diff $p.plain $p.rec; fail "record $p printed something else"; }
		last=$("$RDB" info --complete t-$p)
		threaded t-$p | awk -v l="$last" '$1 <= l' > $p.iv
		n=$(wc -l < $p.iv)
		[ "$n" -lt 3 ] || break
		# (one is all a FEW program must have: shorter intervals would
		# only add boundaries, thousands at 30 counts, 16 ms each on a
		# VM with slow forks)
		case " $FEW " in *" $p "*) [ "$n" -lt 1 ] || break ;; esac
	done
	timeout 120 "$RDB" replay --verify t-$p > $p.rep 2> $p.reperr
	[ $? -eq $st ] || { cat $p.reperr; fail "replay --verify $p"; }
	head -c "$(wc -c < $p.rep)" $p.rec | cmp -s - $p.rep || fail "replay $p printed something else"
	case " $FEW " in
	*" $p "*) [ "$n" -ge 1 ] || fail "$p: no complete interval began while threads lived" ;;
	*) [ "$n" -ge 3 ] || { cat $p.iv; fail "$p: $n complete intervals began while threads lived, not 3"; } ;;
	esac
	for k in $(sed -n "1p;$(((n + 1) / 2))p;\$p" $p.iv); do
		from t-$p $k $st $p.rec
		total=$((total + 1))
	done
done
echo "replayed from $total intervals that began while threads lived"
# A thread made but not started at a boundary: thread_many's main makes
# five threads, then waits; with intervals of 100 counts a boundary falls
# before a made thread's first instruction (rdb info counts them; tried
# again, as the boundaries vary from run to run).  The first interval that
# began with a thread made and not yet switched to replays from there.
p=thread_many
k=
for i in 1 2 3 4 5; do
	rm -rf tn
	RDB_THREAD_BOUNDARIES=1 timeout 120 "$RDB" record --checksum --every-sic 100 -o tn -- ./$p \
		> tn.rec 2>&1 || { cat tn.rec; fail "record $p --every-sic 100"; }
	"$RDB" info tn > tn.info
	grep -q "^boundaries while threads lived: .*[1-9][0-9]* not started yet)" tn.info || continue
	k=$("$RDB" truss tn | awk '/creates thread/ { fresh[$6] = 1 }
		/^--- thread [0-9]* -> thread [0-9]* / { delete fresh[$6] }
		/^--- interval [0-9]* ---$/ { for (t in fresh) { print $3; exit } }')
	[ -z "$k" ] || break
done
[ -n "$k" ] || { cat tn.info; fail "no interval began with a thread made but not started"; }
from tn "$k" 0 tn.rec
pass
