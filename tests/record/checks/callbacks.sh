#!/bin/sh
# callbacks.sh RDB RDB_CC: record-check-callbacks (tests/record/checks/).
# An instrumentation library that registers 40 signal and 40
# termination callbacks (progs/callbacks-lib.c, built like librdb):
# every one is taken and runs, unrecorded, recorded and replayed (the
# runtime's tables held 16 of each and refused the rest).
. "$(dirname "$0")/lib.sh"
gcc -O2 -fPIE -fvisibility=hidden -fno-stack-protector -ffreestanding -fno-builtin \
	-mgeneral-regs-only -fcf-protection=none -ffixed-r12 -ffixed-r13 -ffixed-r14 \
	-ffixed-r15 -Wall -Wextra -I"$SRC/../../../runtime" -c "$SRC/callbacks-lib.c" \
	-o lib.o || fail "gcc callbacks-lib.c"
build callbacks prog -O1 "$W/lib.o"
./prog > nat.out 2> nat.err || { cat nat.err; fail "the unrecorded run"; }
expect nat.out "^refused 0, signal callbacks ran 40, handler 1$"
expect nat.out "^term callbacks: 40$"
"$RDB" record --checksum -o t -- ./prog > rec.out 2> rec.err || { cat rec.err; fail "record"; }
cmp -s nat.out rec.out || { cat rec.out; fail "recorded, the program printed something else"; }
"$RDB" replay --verify t > rep.out 2> rep.err || { cat rep.err; fail "replay"; }
cmp -s rec.out rep.out || { cat rep.out; fail "the replay printed something else"; }
pass
