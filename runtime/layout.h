/* layout.h: the address layout of an instrumented process (docs/hooks.md),
 * shared by the runtime's C and assembly and by crt/start.S.  Only
 * #defines: it is included from .S files. */
#ifndef RDB_LAYOUT_H
#define RDB_LAYOUT_H

/* Program memory the planes cover: [RDB_COVER_LO, RDB_COVER_HI), 16 TiB
 * from the top of user space down (the stack, the image and the kernel's
 * mmap area, ASLR off) to the emulated brk heap at its bottom. */
#define RDB_COVER_LO 0x700000000000
#define RDB_COVER_HI 0x800000000000

/* R(a) = a - RDB_R_OFFSET, S(a) = a - RDB_S_OFFSET = a - 2 * RDB_R_OFFSET,
 * both reached from %r14 = -RDB_R_OFFSET alone: `(a,%r14)` and
 * `(a,%r14,2)` (docs/hooks.md "Addressing"), so no segment base is
 * needed (many virtual machines hide FSGSBASE, and arch_prctl refuses a
 * kernel-half %gs base).  The S plane lies lowest, [0x2020d0, 16 TiB +
 * 0x2020d0), the R plane at [0x380000101068, 0x480000101068), and the
 * runtime's own regions above it, below the cover.  The offsets are not
 * round: a plane byte shares no bits 6-27 with its program byte, so the
 * two do not alias in the L1 cache (docs/perf.md). */
#define RDB_R_OFFSET 0x37ffffefef98
#define RDB_S_OFFSET 0x6fffffdfdf30
#define RDB_R_CONST 0x0303030303030303 /* %r13 */

/* The SIC (docs/hooks.md "Software instruction counter").  %r15 holds
 * origin + count; every increment is followed by a check that loads the
 * byte at %r15.  [RDB_SIC_WIN, RDB_SIC_END) is readable (zero pages) and
 * the RDB_SIC_GUARD bytes after it are reserved PROT_NONE, so the first
 * check at or past RDB_SIC_END faults.  The runtime chooses the origin so
 * that this happens at the count where it wants control, or after
 * RDB_SIC_W counts, when it moves the window on; adding RDB_SIC_W to %r15
 * makes the next check fault (a boundary or signal wanted). */
#define RDB_SIC_W 0x400000 /* 4 MiB: two huge zero pages */
/* The check's encoding, movzbl (%r15), %r12d: the runtime (sic.c) and
 * rdb's gdb server (rdb/target.c) recognise a faulting check by it. */
#define RDB_SIC_CHECK_BYTES 0x45, 0x0f, 0xb6, 0x27
#define RDB_SIC_WIN 0x481000000000 /* above the R plane */
#define RDB_SIC_END (RDB_SIC_WIN + RDB_SIC_W)
#define RDB_SIC_GUARD (2 * RDB_SIC_W)
/* Each thread has its own window (thread.c): thread k's lies at
 * RDB_SIC_WIN + k * RDB_SIC_STRIDE, its guard after it and the rest of
 * the stride reserved, so that %r15 alone tells the runtime, in C and in
 * assembly, which thread runs: k = (%r15 - RDB_SIC_WIN) >> RDB_SIC_SHIFT.
 * Thread 0 is the main thread, at the window above. */
#define RDB_SIC_SHIFT 24
#define RDB_SIC_STRIDE (1 << RDB_SIC_SHIFT) /* >= RDB_SIC_W + RDB_SIC_GUARD */
/* The most counts of one recorded interval (an overflow boundary). */
#define RDB_SIC_SPAN 0x10000000000 /* 2^40 */

/* A program syscall cut short by a signal returns -RDB_SC_CUT (the
 * kernel's ERESTARTSYS, which user space never sees) to the entry stub,
 * which runs it again after the handler (syscall.S). */
#define RDB_SC_CUT 512

/* Runtime state: a private mapping replay never restores. */
#define RDB_STATE_ADDR 0x500000000000
#define RDB_STATE_SIZE 0x100000
/* Offsets of the fields the assembly uses (checked in rt.h). */
/* (8: was vfork's return address, per thread now: RDB_TH_VFORK_RET) */
#define RDB_STATE_MODE 16 /* long: 0 unrecorded, else enum rdb_tf_mode */
#define RDB_STATE_CLONE_SP 24    /* a clone child's new stack, set in the child */
#define RDB_STATE_CLONE_FRAME 32 /* ... used by the syscall.S frame here only */
/* Written by rdb's gdb server (rdb/target.c): it wants thread DBG_SLOT to
 * stop at count DBG_STOP (0: nothing), so every arming of that thread's
 * window (sic.c rdb_sic_set) makes the check after that count fault too,
 * a window move to the runtime, a stop to rdb (40 and 48 were the
 * handler frame and the syscall nesting, per thread now: RDB_TH_SC_NEST) */
#define RDB_STATE_DBG_STOP 40 /* u64 */
#define RDB_STATE_DBG_SLOT 48 /* u64 */
/* (56 to 103: were the stack-switch marks, per thread now: RDB_TH_STACK_LO
 * to RDB_TH_DEAD_CUT; unused, keeping the offsets below) */
/* Read by rdb's gdb server (rdb/target.c): a position in the run is
 * (interval, %r15 - sic_origin, pc). */
#define RDB_STATE_SIC_ORIGIN 104 /* u64 */
#define RDB_STATE_INTERVAL 112   /* u64: the current interval, from 1 */
/* Read by rdb's gdb server: the bytes read from the channel so far (a
 * forked copy of a replay is fed again from there). */
#define RDB_STATE_CHAN_IN 120    /* u64 */

/* The runtime's tables whose length the program decides (its mappings,
 * MAP_SHARED mappings, signals waiting, the regions a syscall wrote):
 * each in a slot of its own from here, outside the covered range (no
 * restore of an interval touches them), mapped as it grows (grow.c). */
#define RDB_GROW_ADDR 0x580000000000
#define RDB_GROW_SLOT 0x4000000000 /* 256 GiB */

/* A stack switch (hooks.S __rdb_stack_switch) marks this much of the new
 * stack, from the new %rsp up, read. */
#define RDB_SWITCH_WINDOW 0x8000

/* The runtime's own stacks, so that nothing of the runtime's is ever
 * written below the program's %rsp (that dead stack is the program's: its
 * uninitialised locals read what its earlier frames left there, the same
 * in record and replay, and a boundary saves it for a replay from there).
 *   The signal stack: the kernel's alternate stack, for every signal (the
 *   program's own sigaltstack is only its view, signal.c).  Only the
 *   runtime runs there, never longer than one delivery (the program's
 *   handlers run on the program's stacks), so it lies outside the
 *   covered range and no boundary saves it.
 *   The syscall stack: where the entry stub runs the runtime's part of a
 *   program syscall (syscall.S). */
#define RDB_SIGSTACK_ADDR 0x500280000000
#define RDB_SIGSTACK_SIZE 0x800000 /* 8 MiB */
#define RDB_SCSTACK_ADDR 0x500300000000
#define RDB_SCSTACK_SIZE 0x100000

/* Threads (thread.c): at most RDB_THREAD_MAX at once, main included.
 * Thread k's runtime state (struct rdb_thread) lies at RDB_THREAD_ADDR +
 * (k << RDB_THREAD_SHIFT); for k >= 1 its syscall stack at
 * RDB_TSCSTACK_ADDR + k * RDB_SCSTACK_SIZE and its signal stack at
 * RDB_TSIGSTACK_ADDR + k * RDB_SIGSTACK_SIZE (the main thread's are the
 * ones above).  Outside the covered range: no boundary saves them; above
 * shared.c's copies and their pending bits (up to 0x570380000000), below
 * grow.c's tables. */
#define RDB_THREAD_MAX 1024
#define RDB_THREAD_ADDR 0x574000000000
#define RDB_THREAD_SHIFT 16
#define RDB_TSCSTACK_ADDR 0x574100000000
#define RDB_TSIGSTACK_ADDR 0x574200000000
/* struct rdb_thread's fields the assembly uses (checked in rt.h). */
#define RDB_TH_SC_NEST 0  /* long: handlers inside a syscall's runtime part */
#define RDB_TH_SC_LO 8    /* its syscall stack's lowest address */
#define RDB_TH_SIG_TOP 16 /* its signal stack's top */
#define RDB_TH_TID 24     /* int: its tid (0: the slot is free, -1: being made) */
#define RDB_TH_CLONE_MASK 32 /* u64: the signal mask around its clone of a thread */
/* The stack-switch marks (hooks.S __rdb_stack_switch, interval.c): */
#define RDB_TH_STACK_LO 40 /* its own stack, saved whole at every boundary ... */
#define RDB_TH_STACK_HI 48 /* ... up to here (thread 0: the main stack) */
#define RDB_TH_SAVED_LO 56 /* the other stack its interval began on, saved */
#define RDB_TH_SAVED_HI 64
#define RDB_TH_DEAD_LO 72  /* ... the dead window below it */
#define RDB_TH_DEAD_CUT 80 /* ... its top, lowered by switches into it */
#define RDB_TH_VFORK_RET 88 /* vfork's return address (syscall.S .Lvfork) */
#define RDB_TH_PROG_CS 96 /* u64[4]: the program's %rbx %r12 %r13 %r14 at its
                             latest syscall (a boundary's THSTATE, sched.c) */
/* Read by rdb's gdb server (rdb/target.c: threads and their registers
 * where they wait for the token, as sched.c's THCTX says them); checked
 * in rt.h, so a change of struct rdb_thread says to update them. */
#define RDB_TH_ORIGIN 136      /* u64: %r15 = origin + count (thread 0: sic_origin) */
#define RDB_TH_ALIVE 17736     /* int: made and not ended (sched.alive) */
#define RDB_TH_BORN 17744      /* u64: its clone's syscall number (0: at the launch) */
#define RDB_TH_PARK 17776      /* u32: RDB_TF_PARK_* where it waits (0: runs) */
#define RDB_TH_PARK_NR 17784   /* long: BLOCKED: the call */
#define RDB_TH_PARK_SIC 17800  /* u64: its count there */
#define RDB_TH_PARK_PC 17808   /* u64 */
#define RDB_TH_PARK_FS 17816   /* u64: its %fs base */
#define RDB_TH_PARK_G 17824    /* pointer: SLICE: its registers (gregs) */
#define RDB_TH_START_G 17864   /* u64[23]: NEW: its first registers (gregs) */
#define RDB_TH_STUB_SP 192     /* pointer: BLOCKED: the entry stub's frame */

/* The emulated brk heap: a PROT_NONE reservation at the bottom of the
 * covered range, made readable and writable as the break grows. */
#define RDB_BRK_BASE 0x700000000000
#define RDB_BRK_SIZE 0x4000000000 /* 256 GiB */

/* Shadow byte values and bits (docs/hooks.md). */
#define RDB_R_READ 0x03
#define RDB_S_W 0x01    /* written (the hooks store W|X together) */
#define RDB_S_X 0x02    /* written in the interval */
#define RDB_S_RW 0x04   /* unused (once: written after a read) */
#define RDB_S_K 0x08    /* written by the kernel (a syscall) in the interval */

#endif
