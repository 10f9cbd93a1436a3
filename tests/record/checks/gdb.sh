#!/bin/sh
# gdb.sh RDB RDB_CC: record-check-gdb (tests/record/checks/).
# gdb on rdb-cc programs, always on a replay with rdb's gdb server as its
# target (rdb record --gdb records, then debugs the replay; rdb replay
# --gdb): it continues from breakpoints, steps lines through the read
# checks' cold paths and the instruction counter's faults without
# stopping in them, makes the same stops as gdb on the program built
# natively, and prints what the program prints, in the replay of a fresh
# recording and in replays from the start and from a middle interval.
. "$(dirname "$0")/lib.sh"
command -v gdb > /dev/null || fail "gdb is not installed (scripts/setup-debian.sh installs it)"
build gdbwalk prog -O0 -g
./prog > native.out || fail "prog"
# h_of R FILE: round R's hash as the program printed it in FILE
h_of() { sed -n "s/^round $1 h //p" "$2"; }
# gdb_ok OUT: gdb made no stop it should not have, and wrote registers
gdb_ok() {
	! grep -q "SIGSEGV\|?? ()\|Couldn't write\|Cannot find bounds\|rdb: gdb server" "$1" ||
		{ cat "$1"; fail "gdb stopped where it should not, or failed: $1"; }
}
# stops OUT: the stops gdb reported in OUT, one a line (a breakpoint's,
# then each stop's line number as gdb shows its source line)
stops() { sed -n 's/^\(Breakpoint [0-9]*\), .*/\1/p; s/^\([0-9][0-9]*\)\t.*/\1/p' "$1"; }
# the one way to debug is the replay: rdb gdb says where it went
! "$RDB" gdb -- ./prog > gone.out 2>&1 || fail "rdb gdb still runs"
expect gone.out "rdb record --gdb"
expect gone.out "rdb replay --gdb DIR"
# record --gdb: the run is recorded (its output live), then gdb replays
# it from its first instruction, and the replay prints it all again
printf '%s\n' 'handle SIGUSR1 nostop noprint pass' 'break checkpoint if round == 5' continue \
	next next 'printf "gdb: folded %lx\n", folded' 'printf "gdb: round %d h %lx\n", round, h' \
	delete continue > step.gdb
"$RDB" record --checksum --every-sic 300000 --gdb-batch step.gdb -o t -- ./prog \
	> rec.out 2>&1 || { cat rec.out; fail "record --gdb"; }
gdb_ok rec.out
expect rec.out "^rdb: recorded in t; gdb on its replay\$"
expect rec.out "last\[round % 8\] = folded;"
expect rec.out 'printf("round %d h %lx'
expect rec.out "^gdb: round 5 h $(h_of 5 native.out)\$"
grep "^round \|^last " rec.out > rec.lines
cat native.out native.out | cmp -s - rec.lines ||
	{ cat rec.out; fail "record --gdb: not the program's output, recorded then replayed"; }
"$RDB" replay --verify t > rep.out 2> rep.err ||
	{ cat rep.err; fail "replay of the recording made with --gdb"; }
cmp -s native.out rep.out || fail "replay of the recording made with --gdb: other output"
# rdb record --gdb exits as the program did, whatever gdb did
build exit3 x3
echo quit > quit.gdb
"$RDB" record --gdb-batch quit.gdb -o x -- ./x3 > x3.out 2>&1
st=$?
[ $st -eq 3 ] || { cat x3.out; fail "record --gdb of exit(3): status $st"; }
expect x3.out "^rdb: recorded in x; gdb on its replay\$"
# ... or by its fatal signal, which gdb sees where the program faulted
build segv sg -O0 -g
printf '%s\n' continue 'bt 1' > fault.gdb
"$RDB" record --gdb-batch fault.gdb -o sgt -- ./sg > sg.out 2>&1
st=$?
[ $st -eq 139 ] || { cat sg.out; fail "record --gdb of a SIGSEGV: status $st"; }
expect sg.out "^Program received signal SIGSEGV"
expect sg.out "^#0 .* main (.*) at .*segv.c:11\$"
[ "$(grep -c "^faulting\$" sg.out)" = 2 ] || { cat sg.out; fail "record --gdb of a SIGSEGV: output"; }
# a backtrace in a handler goes on into what the signal interrupted
# (syscall.S: rdb_handler_return is gdb's __restore_rt)
printf '%s\n' 'handle SIGUSR1 nostop noprint pass' 'break on_usr1' continue bt delete continue \
	> sig.gdb
"$RDB" replay --gdb-batch sig.gdb t > g2.out 2>&1 || { cat g2.out; fail "replay --gdb (signal)"; }
gdb_ok g2.out
expect g2.out "<signal handler called>"
expect g2.out " poke () at "
expect g2.out " main (.*) at "
printf '%s\n' 'handle SIGUSR1 nostop noprint pass' 'break checkpoint if round == 9' continue \
	'printf "gdb: round %d h %lx\n", round, h' delete continue > at9.gdb
"$RDB" replay --gdb-batch at9.gdb t > r1.out 2>&1 || { cat r1.out; fail "replay --gdb"; }
gdb_ok r1.out
expect r1.out "^gdb: round 9 h $(h_of 9 native.out)\$"
n=$("$RDB" info --complete t)
[ "$n" -ge 6 ] || fail "only $n intervals"
k=$((n / 2))
printf '%s\n' 'handle SIGUSR1 nostop noprint pass' 'break checkpoint' continue \
	'printf "gdb: round %d h %lx\n", round, h' delete continue > any.gdb
"$RDB" replay --gdb-batch any.gdb --from $k t > r2.out 2>&1 ||
	{ cat r2.out; fail "replay --gdb --from $k"; }
gdb_ok r2.out
r=$(sed -n 's/^gdb: round \([0-9]*\) h .*/\1/p' r2.out)
[ -n "$r" ] || { cat r2.out; fail "replay --gdb --from $k: gdb printed no round"; }
expect r2.out "^gdb: round $r h $(h_of "$r" native.out)\$"
# stepping across boundaries (one every 40 counts, a count an
# iteration): each event faults in a single-stepped check, and the
# step ends after it, not in the runtime's handler.  150 nexts from
# the loop's 'h = mix' line make exactly the stops gdb makes on the
# program built natively (the attach path's shim once lost a line
# after such a fault: a next ended mid-line, the next one skipped it).
gcc -O0 -g "$SRC/gdbwalk.c" -o native || fail "gcc gdbwalk.c"
{ echo "break gdbwalk.c:$(grep -n 'h = mix' "$SRC/gdbwalk.c" | cut -d: -f1)"
  echo continue; i=0; while [ $i -lt 150 ]; do echo next; i=$((i + 1)); done
  printf '%s\n' 'printf "gdb: i %d\n", i' delete continue; } > steps.gdb
sed '2s/^continue$/run/' steps.gdb > native.gdb
gdb -q -batch -x native.gdb --args ./native 1 3000 > n3.out 2>&1 || { cat n3.out; fail "native gdb"; }
stops n3.out > n3.stops
hits=$(grep -c "^Breakpoint 1" n3.stops)
[ "$hits" -ge 40 ] || { cat n3.out; fail "native: stepping reached only $hits iterations"; }
expect n3.out "^gdb: i $((hits - 1))\$"
# on a replay ...
"$RDB" record --every-sic 40 -o s -- ./prog 1 3000 > s.out 2>&1 || fail "record 1 3000"
"$RDB" replay --gdb-batch steps.gdb s > r3.out 2>&1 || { cat r3.out; fail "replay --gdb (steps)"; }
gdb_ok r3.out
! grep -q "runtime/\|rdb_" r3.out || { cat r3.out; fail "a step of gdb's stopped in the runtime"; }
stops r3.out > r3.stops
cmp -s n3.stops r3.stops ||
	{ diff n3.stops r3.stops | head -20; fail "replay --gdb: other stops than native gdb's"; }
expect r3.out "^gdb: i $((hits - 1))\$"
# ... and with record --gdb (formerly the attach path's known bug)
"$RDB" record --every-sic 40 --gdb-batch steps.gdb -o s2 -- ./prog 1 3000 > r4.out 2>&1 ||
	{ cat r4.out; fail "record --gdb (steps)"; }
gdb_ok r4.out
! grep -q "runtime/\|rdb_\|snap_" r4.out ||
	{ cat r4.out; fail "a step of gdb's stopped in the runtime (record --gdb)"; }
stops r4.out > r4.stops
cmp -s n3.stops r4.stops ||
	{ diff n3.stops r4.stops | head -20; fail "record --gdb: other stops than native gdb's"; }
expect r4.out "^gdb: i $((hits - 1))\$"
# a software watchpoint steps through the runtime's pushf/popf: the
# trap flag must not stay set (the program then died of SIGTRAP); a
# bare line number is the program's file, not the runtime's
# (from round 2's checkpoint to round 3's table[5]: poke's syscalls)
printf '%s\n' 'handle SIGUSR1 nostop noprint pass' 'set can-use-hw-watchpoints 0' \
	'break checkpoint if round == 2' continue \
	'watch table[5]' continue delete continue > soft.gdb
"$RDB" replay --gdb-batch soft.gdb t > r5.out 2>&1 || { cat r5.out; fail "replay --gdb (soft watch)"; }
gdb_ok r5.out
! grep -q SIGTRAP r5.out || { cat r5.out; fail "soft watchpoint: SIGTRAP"; }
expect r5.out "^Breakpoint 1, checkpoint "
expect r5.out "New value = "
expect r5.out "^last "
# gdb gone at its first stop: the program goes on at once
"$RDB" replay --gdb-batch quit.gdb t > r6.out 2>&1 || { cat r6.out; fail "replay --gdb, gdb quits at once"; }
expect r6.out "^last "
pass
