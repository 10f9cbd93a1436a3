/* trace_format.h: the one header shared by the runtime (librdb, inside the
 * traced process) and the rdb tool: the records they exchange over the
 * channel and the files of a trace set (docs/trace-format.md is the prose).
 * Freestanding: fixed-width integers only, no libc types.  All integers are
 * little-endian (x86-64 native); every struct has a fixed size, checked
 * below.  Bump RDB_TF_VERSION on any change a reader could misread. */
#ifndef RDB_TRACE_FORMAT_H
#define RDB_TRACE_FORMAT_H

#include <stdint.h>

#define RDB_TF_VERSION 8
/* HELLO's version: the files' format, and above it the revision of what
 * rdb and the runtime say to each other over the channel (1: a replay from
 * the start gets no VALUES at its later boundaries; 2: --to's STOP comes
 * after the next boundary and its context, which --verify compares).  A
 * runtime refuses
 * another: a program must be linked with the rdb that runs it. */
#define RDB_TF_CHAN_REV 3
#define RDB_TF_HELLO_VERSION (RDB_TF_VERSION | RDB_TF_CHAN_REV << 16)

/* ---- the channel ---------------------------------------------------------
 * rdb passes one end of a socketpair (SOCK_STREAM) to the program as fd
 * RDB_CHAN_FD.  rdb sends the first record, HELLO, which says the mode.
 * No fd there: the program runs unrecorded.  The runtime marks the fd
 * close-on-exec and hides it from the program (EBADF). */
#define RDB_CHAN_FD 1000
/* rdb replay of a process exec'd by "/proc/self/exe" (in rdb's child that
 * string names rdb): rdb execs the image by its path with this variable,
 * then the string, first in the environment, and the runtime execs itself
 * again by the string, without the variable (start.c). */
#define RDB_EXEC_AS_ENV "__RDB_EXEC_AS="
/* Record only: a SOCK_SEQPACKET socket on which the interval snapshot
 * children (runtime/interval.c) send VALUES records, several whole records
 * per message, a message at most RDB_TF_VALUES_MSG bytes.  Hidden from the
 * program like RDB_CHAN_FD. */
#define RDB_VALUES_FD 1001
#define RDB_TF_VALUES_MSG (60u << 10)
/* Record: in the program's fork descendants (runtime/children.c) the
 * channel moves to RDB_KID_FD, and RDB_KID_LOCK_FD is a memfd holding the
 * lock every sender (the recorded process too, once it has forked) holds
 * while it writes records, so records never interleave.  Its first bytes
 * say what the recording's stdout and stderr were (rdb_tf_kidinfo).
 * Hidden from the program in every mode, like RDB_CHAN_FD. */
#define RDB_KID_FD 1002
#define RDB_KID_LOCK_FD 1003

/* Every record, on the channel and inside a stream frame: this header,
 * then len payload bytes (len < RDB_TF_MAX_PAYLOAD, except DATA). */
struct rdb_tf_rec {
	uint32_t type; /* enum rdb_tf_type */
	uint32_t len;  /* payload bytes that follow */
};

/* Every record type, one row each: X(NAME, number, payload, stream, copy, len)
 *   NAME     the type is RDB_TF_NAME; rdb's messages name it NAME
 *   payload  the struct the payload is or begins with (uint8_t: bytes, or none)
 *   stream   the stream rdb record files it in (enum rdb_tf_stream, RDB_TF_S_
 *            left off); NONE: in no stream (channel only, or a file of its own)
 *   copy     a second stream that gets a copy (a lookup), or NONE
 *   len      what rdb's readers check of the payload's length (rdb_rec_ok):
 *            EQ, sizeof payload; TAIL, sizeof payload, then the part the
 *            payload says follows; ANY, nothing (the record's user checks)
 * Records on the channel: */
#define RDB_TF_RECORDS(X)                                                      \
	/* rdb -> runtime: struct rdb_tf_hello (+ auxv in replay) */            \
	X(HELLO, 1, struct rdb_tf_hello, NONE, NONE, ANY)                       \
	/* runtime -> rdb: struct rdb_tf_init, then auxv pairs */               \
	X(INIT, 2, struct rdb_tf_init, NONE, NONE, ANY)                         \
	/* a syscall */                                                         \
	X(TRAP, 3, struct rdb_tf_trap, SYSCALLS, NONE, ANY)                     \
	/* bytes the kernel wrote: struct rdb_tf_data, then bytes */            \
	X(DATA, 4, struct rdb_tf_data, SYSDATA, NONE, ANY)                      \
	/* a nondeterministic instruction */                                    \
	X(NONDET, 5, struct rdb_tf_nondet, NONDET, NONE, ANY)                   \
	/* runtime: the program is exiting */                                   \
	X(TERM, 6, struct rdb_tf_term, SYSCALLS, NONE, ANY)                     \
	/* runtime: execve about to run: struct rdb_tf_trap (ret 0) */          \
	X(EXEC, 7, struct rdb_tf_trap, SYSCALLS, NONE, ANY)                     \
	/* rdb -> runtime (replay): the recorded end: rdb_tf_exit */            \
	X(END, 8, struct rdb_tf_exit, NONE, NONE, ANY)                          \
	/* runtime -> rdb: struct rdb_tf_note (not traced: ...) */              \
	X(NOTE, 9, struct rdb_tf_note, SYSCALLS, NONE, ANY)                     \
	/* intervals (docs/trace-format.md "Intervals"): */                     \
	/* an interval starts */                                                \
	X(BOUNDARY, 10, struct rdb_tf_boundary, SYSCALLS, INTERVALS, EQ)        \
	/* registers etc. at a boundary: struct rdb_tf_context + fpstate */     \
	X(CONTEXT, 11, struct rdb_tf_context, CONTEXT, NONE, TAIL)              \
	/* mappings at a boundary: struct rdb_tf_maps + entries */              \
	X(MAPS, 12, struct rdb_tf_maps, MAPPINGS, NONE, TAIL)                   \
	/* stack at a boundary: struct rdb_tf_blob + bytes */                   \
	X(STACK, 13, struct rdb_tf_blob, STACK, NONE, TAIL)                     \
	/* interval-start values: struct rdb_tf_blob + bytes */                 \
	X(VALUES, 14, struct rdb_tf_blob, VALUES, NONE, TAIL)                   \
	/* a snapshot child is done */                                          \
	X(VALUES_END, 15, struct rdb_tf_values_end, VALUES, NONE, EQ)           \
	/* an asynchronous signal delivered */                                  \
	X(SIGNAL, 27, struct rdb_tf_signal, SYSCALLS, SIGNALS, EQ)              \
	/* rdb -> runtime (replay): the next event */                           \
	X(TARGET, 28, struct rdb_tf_target, NONE, NONE, ANY)                    \
	/* rdb -> runtime (replay): stop here (--to), no payload */             \
	X(STOP, 29, uint8_t, NONE, NONE, ANY)                                   \
	/* what an interval wrote: struct rdb_tf_written + ranges */            \
	X(WRITTEN, 30, struct rdb_tf_written, WRITTEN, NONE, TAIL)              \
	/* the main stack's pages an interval wrote (runtime/stackwrite.c): */  \
	/* struct rdb_tf_written + page ranges */                               \
	X(STACK_WRITTEN, 45, struct rdb_tf_written, WRITTEN, NONE, TAIL)        \
	/* the code an interval ran (runtime/ran.c): struct rdb_tf_written */  \
	/* + points (len 1): function entries and return points that ran */    \
	X(RAN, 46, struct rdb_tf_written, WRITTEN, NONE, TAIL)                  \
	/* rdb -> runtime (replay): watch writes */                             \
	X(WATCH, 31, struct rdb_tf_watch, NONE, NONE, ANY)                      \
	/* runtime -> rdb (replay): a watched write */                          \
	X(WATCH_HIT, 33, struct rdb_tf_watch_hit, NONE, NONE, ANY)              \
	/* fork children (runtime/children.c): a descendant wrote to the */     \
	/* recording's stdout or stderr: struct rdb_tf_child_output + bytes */  \
	X(CHILD_OUTPUT, 34, struct rdb_tf_child_output, SYSCALLS, NONE, TAIL)   \
	/* MAP_SHARED memory changed by others, seen after a syscall: */        \
	/* struct rdb_tf_shared + the bytes */                                  \
	X(SHARED, 35, struct rdb_tf_shared, SYSCALLS, NONE, TAIL)               \
	/* threads (docs/threads.md): the token went to another thread */     \
	X(SWITCH, 39, struct rdb_tf_switch, SYSCALLS, NONE, EQ)                 \
	/* a thread was created or exited */                                    \
	X(THREAD, 40, struct rdb_tf_thread, SYSCALLS, NONE, EQ)                 \
	/* a thread at a boundary taken while others live (sched.c) */          \
	X(THCTX, 42, struct rdb_tf_thctx, SYSCALLS, NONE, EQ)                   \
	/* ... and what replay --from needs to make it again: */               \
	/* struct rdb_tf_thstate + its xsave image (SLICE) */                   \
	X(THSTATE, 43, struct rdb_tf_thstate, SYSCALLS, NONE, TAIL)             \
	/* header file entries (file "header"): */                              \
	/* first entry */                                                       \
	X(H_MAGIC, 16, struct rdb_tf_hmagic, NONE, NONE, ANY)                   \
	/* absolute path, bytes (no NUL) */                                     \
	X(H_EXE, 17, uint8_t, NONE, NONE, ANY)                                  \
	/* NT_GNU_BUILD_ID descriptor bytes */                                  \
	X(H_BUILDID, 18, uint8_t, NONE, NONE, ANY)                              \
	/* one argv string (no NUL), in order */                                \
	X(H_ARG, 19, uint8_t, NONE, NONE, ANY)                                  \
	/* one envp string (no NUL), in order */                                \
	X(H_ENV, 20, uint8_t, NONE, NONE, ANY)                                  \
	/* uint64 pairs (type, value), the program's auxv */                    \
	X(H_AUXV, 21, uint64_t, NONE, NONE, ANY)                                \
	/* the 16 AT_RANDOM bytes */                                            \
	X(H_RANDOM, 22, uint8_t, NONE, NONE, ANY)                               \
	/* "sysname release version machine" of uname */                        \
	X(H_MACHINE, 23, uint8_t, NONE, NONE, ANY)                              \
	X(H_START, 24, struct rdb_tf_hstart, NONE, NONE, ANY)                   \
	/* the working directory, bytes */                                      \
	X(H_CWD, 25, uint8_t, NONE, NONE, ANY)                                  \
	/* uint64 cur, max: fixes the mmap base */                              \
	X(H_RLIMIT_STACK, 26, uint64_t, NONE, NONE, ANY)                        \
	/* uint32: the HELLO flags rdb record sent (CHECKSUM) */                \
	X(H_FLAGS, 36, uint32_t, NONE, NONE, ANY)                               \
	/* a process of a tree (docs/process-trees.md): struct rdb_tf_hproc */  \
	X(H_PROC, 37, struct rdb_tf_hproc, NONE, NONE, ANY)                     \
	/* the path its exec was given (AT_EXECFN), when not H_EXE: bytes */    \
	X(H_EXECFN, 38, uint8_t, NONE, NONE, ANY)                               \
	/* file "exit" */                                                       \
	X(X_EXIT, 32, struct rdb_tf_exit, NONE, NONE, ANY)

#define RDB_TF_TYPE_ENUM(name, num, payload, stream, copy, len) RDB_TF_##name = num,
enum rdb_tf_type { RDB_TF_RECORDS(RDB_TF_TYPE_ENUM) };
#undef RDB_TF_TYPE_ENUM
/* The len column's values (rdb/trace.c rdb_rec_ok) */
enum { RDB_TF_LEN_ANY, RDB_TF_LEN_EQ, RDB_TF_LEN_TAIL };

#define RDB_TF_MAX_PAYLOAD (64u << 20) /* sanity bound for non-DATA records */

enum rdb_tf_mode { RDB_TF_MODE_RECORD = 1, RDB_TF_MODE_REPLAY = 2 };

struct rdb_tf_hello {
	uint32_t version; /* RDB_TF_HELLO_VERSION: the runtime refuses another */
	uint32_t mode;    /* enum rdb_tf_mode */
	uint32_t flags;   /* RDB_TF_HELLO_QUIET: replay does not re-execute writes */
	uint32_t nauxv;   /* replay: recorded auxv pairs follow, then 16 random bytes */
	int32_t pid;      /* replay: the recorded process's pid (signals to itself) */
	union {
		uint32_t from;  /* replay: the interval it starts at (0 or 1: the start) */
		uint32_t slice; /* record: SIC counts per time slice of a thread (0: the
		                   runtime's default, runtime/sched.c) */
	};
	union {           /* one word, three meanings by mode and flags: */
		uint64_t interval_us;  /* record: CPU microseconds per interval (0: none) */
		uint64_t every_sic;    /* record, RDB_TF_HELLO_EVERY_SIC: SIC counts per interval */
		uint64_t rdb_start_ns; /* replay, RDB_TF_HELLO_TIMING: when rdb started
		                          (CLOCK_MONOTONIC): the runtime says how long
		                          after it the program resumes */
	};
};
#define RDB_TF_HELLO_QUIET 1u
#define RDB_TF_HELLO_CHECKSUM 2u /* record: hash memory at every boundary */
#define RDB_TF_HELLO_VERIFY 4u   /* replay: compare the hashes and registers */
#define RDB_TF_HELLO_DEBUG 8u    /* replay: RDB_DEBUG=2 was set for rdb (runtime traces) */
#define RDB_TF_HELLO_EVERY_SIC 16u /* record: every_sic, not interval_us */
#define RDB_TF_HELLO_WATCH 32u   /* replay: a WATCH record follows HELLO */
#define RDB_TF_HELLO_VERIFY_FULL 64u /* replay: with VERIFY, the full hash only (no hooks) */
/* 128u: unused (no longer sent; an old trace's H_FLAGS may hold it) */
#define RDB_TF_HELLO_TIMING 256u  /* replay: rdb_start_ns is set */
#define RDB_TF_HELLO_FORKS 512u   /* record --forks: fork children record themselves */
#define RDB_TF_HELLO_NO_STACK_PAGES 1024u /* record: no STACK_WRITTEN (stackwrite.c) */
#define RDB_TF_HELLO_CHAOS 2048u  /* record --chaos: random time slices and next threads */
#define RDB_TF_HELLO_WRITES 4096u /* replay: keep the write hooks (rdb's gdb server reads
                                     the S plane: what the replay wrote, rdb/gdbmem.c) */
#define RDB_TF_HELLO_READS 8192u  /* replay: keep the read hooks too (rdb's gdb server
                                     watches reads through the R plane, rdb/target.c) */
#define RDB_TF_HELLO_STRETCH 16384u /* record (--stretch, or no -i): intervals may be
                                       made longer (runtime/interval.c, stretch_next) */

struct rdb_tf_init {
	uint64_t random[2]; /* the AT_RANDOM bytes */
	uint32_t nauxv;     /* uint64 (type, value) pairs follow */
	uint32_t flags;     /* RDB_TF_INIT_FORKED */
};
/* A fork child that records itself (runtime/join.c): its recording starts
 * at boundary 2, taken at its first SIC check after the fork; interval 1
 * (the parent's run up to the fork) has no values. */
#define RDB_TF_INIT_FORKED 1u

/* A syscall: id counts the program's syscalls from 1, run-unique. */
struct rdb_tf_trap {
	uint64_t id;
	int64_t nr;
	int64_t args[6];
	int64_t ret;   /* the raw kernel return: -errno on failure */
	uint32_t ndata; /* DATA records that follow for this id */
	uint32_t flags; /* RDB_TF_TRAP_* */
	uint64_t whash; /* with flag WHASH: hash of the bytes it wrote (whash.c) */
};
#define RDB_TF_TRAP_REPLAYED 1u /* re-executed on replay (address space etc.) */
/* record --checksum, a write-like call (write, pwrite64, writev, pwritev,
 * pwritev2, sendto, sendmsg, sendmmsg, msgsnd, mq_timedsend): whash is set */
#define RDB_TF_TRAP_WHASH 2u
/* ret of a call a signal cut short before it ran (or before the kernel
 * restarted it): the next TRAP is the same call again, after the handler
 * (the kernel's ERESTARTSYS; layout.h's RDB_SC_CUT, checked in rt.h). */
#define RDB_TF_RET_CUT (-512)

/* Bytes the kernel wrote at addr; len bytes follow (record len - 24). */
struct rdb_tf_data {
	uint64_t id; /* the syscall's id */
	uint64_t addr;
	uint64_t len;
};

enum rdb_tf_nondet_kind {
	RDB_TF_ND_RDTSC = 1, RDB_TF_ND_RDTSCP, RDB_TF_ND_RDRAND, RDB_TF_ND_RDSEED,
	RDB_TF_ND_CPUID,
};

/* After syscall `after` (0: before the first): the instruction's results. */
struct rdb_tf_nondet {
	uint64_t after;
	uint32_t kind;
	uint32_t pad;
	uint64_t in[2];  /* cpuid: eax, ecx; else 0 */
	uint64_t out[4]; /* rdtsc: rax rdx; rdtscp: rax rdx rcx; rdrand/rdseed:
	                    value, CF; cpuid: eax ebx ecx edx */
};

struct rdb_tf_term {
	int32_t status; /* exit status, or -1 */
	int32_t signo;  /* the fatal signal, or 0 */
	uint64_t after; /* syscalls before it */
	/* with flags CHECKSUM: the boundary's hashes of the state at the end
	 * (memory since the last boundary, all memory), as the boundary's */
	uint64_t hash_touched, hash_full;
	uint32_t flags; /* RDB_TF_B_CHECKSUM */
	uint32_t pad;
};

/* ---- intervals -----------------------------------------------------------
 * Interval 1 starts when the program starts; interval k >= 2 at boundary k,
 * taken at an exact (SIC, pc): the SIC check that faulted (docs/hooks.md
 * "Software instruction counter").  sic counts the SIC increments since the
 * start of the interval that ENDS here.  A boundary's records go on the
 * channel in this order: BOUNDARY, CONTEXT, MAPS, STACK.  Records on the
 * channel are in program order, so BOUNDARY and SIGNAL sit between the
 * TRAP records of the syscalls stream; 'nondets' orders them against the
 * NONDET stream (that many NONDET records come before). */
struct rdb_tf_boundary {
	uint64_t interval; /* the interval that starts here (>= 2) */
	uint64_t sic;      /* SIC count at the end of interval - 1 */
	uint64_t pc;       /* where it ends (a SIC check instruction) */
	uint64_t sc_id;    /* syscalls before it (the last one's id) */
	uint64_t nondets;  /* NONDET records before it */
	uint64_t cpu_ns;   /* CPU time of interval - 1 */
	uint64_t hash_touched; /* checksum: memory touched in interval - 1, stack, registers */
	uint64_t hash_full;    /* checksum: all writable memory, stack, registers */
	uint32_t flags;        /* RDB_TF_B_* */
	uint32_t nvalues_hint; /* 0 */
};
#define RDB_TF_B_CHECKSUM 1u /* the hashes are set */
#define RDB_TF_B_OVERFLOW 2u /* ended by SIC overflow, not by the timer */
#define RDB_TF_B_UNTRACED 4u /* with OVERFLOW: no boundary could be taken (no
                                intervals, a snapshot fork failed): the
                                recording stops here, the rest runs untraced;
                                no CONTEXT, no values, no interval follows */
/* Bits 8-15: the timer's length for the interval that starts here, in
 * multiples of rdb record -i (runtime/interval.c, stretch_next; 0 in a
 * trace without it: 1) */
#define RDB_TF_B_STRETCH_SHIFT 8
#define RDB_TF_B_STRETCH(flags) ((flags) >> RDB_TF_B_STRETCH_SHIFT & 0xffu)

/* The ucontext's general registers (the kernel's order: r8..r15, rdi, rsi,
 * rbp, rbx, rdx, rax, rcx, rsp, rip, eflags, csgsfs, err, trapno, oldmask,
 * cr2), then what a restore needs.  nqueued rdb_tf_queued entries follow,
 * then an xsave image of fpsize bytes (the signal frame's fpstate, 64-byte
 * aligned when restored). */
#define RDB_TF_NGREG 23
struct rdb_tf_context {
	uint64_t interval;
	uint64_t gregs[RDB_TF_NGREG];
	uint64_t fs_base;
	uint64_t uc_flags;
	uint64_t sigmask;      /* the blocked signals (the program's view) */
	uint64_t ss_sp;        /* sigaltstack (the program's view) */
	uint64_t ss_flags;
	uint64_t ss_size;
	uint64_t brk_cur, brk_mapped; /* the emulated brk */
	uint64_t sc_id;        /* as in the boundary */
	uint64_t nqueued;      /* signals queued again, still pending (below) */
	struct {               /* the program's view of each signal 1..64 */
		uint64_t handler, flags, restorer, mask;
	} view[64];
	uint64_t reserved_blocked;
	uint32_t fpsize;
	uint32_t pad;
	uint64_t hframe; /* the frame of the handler that began last and has not
	                    returned (runtime/rt.h struct rdb_sigframe), or 0;
	                    the others chain from it */
};

/* A signal an event queued again (rt_tgsigqueueinfo) that the kernel had
 * not delivered at the boundary: the program's mask blocked it (say, a
 * handler's sa_mask).  Oldest first.  A replay from this boundary queues
 * them again, or their handlers would never run.  As many as there were
 * (no bound: the record's length says how many). */
struct rdb_tf_queued {
	int32_t signo;
	uint32_t pad;
	uint8_t siginfo[128];
};

/* One program mapping in the covered range at a boundary. */
struct rdb_tf_map {
	uint64_t start, end;
	uint32_t prot;  /* PROT_* */
	uint32_t kind;  /* RDB_TF_MAP_* */
};
enum { RDB_TF_MAP_ANON = 0, RDB_TF_MAP_IMAGE = 1, RDB_TF_MAP_STACK = 2,
       RDB_TF_MAP_BRK = 3, RDB_TF_MAP_FILE = 4, RDB_TF_MAP_SPECIAL = 5 /* vdso, vvar */,
       /* MAP_SHARED (runtime/shared.c): no other writer yet, or one that
        * fork children or the file's other users may write (SHARED_EXT:
        * left out of the checksums, its changes come as SHARED records) */
       RDB_TF_MAP_SHARED = 6, RDB_TF_MAP_SHARED_EXT = 7 };
struct rdb_tf_maps {
	uint64_t interval;
	uint32_t n; /* struct rdb_tf_map entries follow */
	uint32_t pad;
};

/* STACK (the stack from %rsp to its top at the boundary) and VALUES (the
 * interval-start values of bytes the interval read):
 * len bytes at addr follow. */
struct rdb_tf_blob {
	uint64_t interval;
	uint64_t addr;
	uint64_t len;
};

struct rdb_tf_values_end {
	uint64_t interval;
	uint64_t nranges, nbytes;
};

/* A signal delivered to the program's handler at an exact point: kind
 * AT_SIC: at the SIC check (sic, pc) of the interval (a count since the
 * interval's start), the program's or the syscall entry stub's, or a
 * handler's return, pc the runtime's rdb_handler_return (format 4 had those
 * at rdb_sig_entry; version 3:
 * signals sent by the program to itself, by the kernel, or arriving in a
 * syscall too); AT_SIC_TOO: at the same check and event as the SIGNAL
 * record before it (several waiting signals go in together, and the
 * kernel nests their handlers); TARGETs name AT_SIC records only.
 * IN_SYSCALL (while syscall sc_id + 1 was in the kernel) is no longer
 * written.  siginfo: the 128 bytes the handler got. */
struct rdb_tf_signal {
	uint64_t interval;
	uint64_t sic;
	uint64_t pc;
	uint64_t sc_id;
	uint64_t nondets;
	uint32_t kind;  /* RDB_TF_SIG_* */
	int32_t signo;
	uint8_t siginfo[128];
};
enum { RDB_TF_SIG_AT_SIC = 1, RDB_TF_SIG_IN_SYSCALL = 2, RDB_TF_SIG_AT_SIC_TOO = 3 };

/* rdb -> runtime in replay, at the start of the replay and after each
 * event: the next AT_SIC event of the current interval (a boundary or a
 * signal), or none (the run ends first). */
struct rdb_tf_target {
	uint64_t interval;
	uint64_t sic;  /* count since the interval's start */
	uint64_t pc;
	/* the clone (its syscall number, sc_id + 1 of its THREAD CREATED) that
	 * made the thread, 0 for one the replay started with: a slot is
	 * reused, and an earlier thread in it can reach the same count at the
	 * same pc (channel revision 3) */
	uint64_t born;
	uint32_t kind; /* 0: none, RDB_TF_BOUNDARY, RDB_TF_SIGNAL or RDB_TF_SWITCH */
	uint32_t slot; /* the thread whose count sic is (the token's owner then) */
};

/* Threads (docs/threads.md): one thread runs at a time.  A SWITCH says
 * the token went from thread slot `from`, stopped at (interval, sic, pc)
 * (its own count), to thread slot `to`; the thread that took the token
 * writes it, first thing.  SLICE: from's time slice ended at that check
 * (an event: TARGETs name it); BLOCK: from entered a syscall that may
 * block (syscall sc_id + 1), pc its return address; EXIT: from ended.
 * sc_id and nondets as in SIGNAL (the merge orders NONDET records by
 * nondets). */
struct rdb_tf_switch {
	uint64_t interval;
	uint64_t sic;
	uint64_t pc;
	uint64_t sc_id;
	uint64_t nondets;
	uint32_t from, to;
	uint32_t why; /* RDB_TF_SW_* */
	uint32_t pad;
};
enum { RDB_TF_SW_SLICE = 1, RDB_TF_SW_BLOCK = 2, RDB_TF_SW_EXIT = 3 };

/* CREATED: thread `slot` is about to be made by thread `parent` (the
 * clone is syscall sc_id + 1, whose TRAP has its tid); EXITED: thread
 * `slot` (tid) ends after syscall sc_id, its SWITCH (EXIT) follows. */
struct rdb_tf_thread {
	uint64_t interval;
	uint64_t sc_id;
	uint32_t kind; /* RDB_TF_TH_* */
	uint32_t slot;
	uint32_t parent;
	int32_t tid;
};
/* REFUSED: thread `parent` asked for a thread and none was made (no free
 * slot, or the kernel's clone failed); the clone is syscall sc_id + 1,
 * its TRAP has the error, and replay makes no clone there. */
enum { RDB_TF_TH_CREATED = 1, RDB_TF_TH_EXITED = 2, RDB_TF_TH_REFUSED = 3 };

/* THCTX: a boundary taken while several threads live (record with
 * RDB_THREAD_BOUNDARIES=1, docs/threads.md) is followed by one record per
 * live thread, in slot order: the one that took it (HOLDER: its registers
 * are the CONTEXT's) and every other, parked.  SLICE: it waits for the
 * token after its time slice ended at (sic, pc), gregs its registers there
 * (R15 and R12 not meaningful); BLOCKED: it gave the token up at syscall
 * nr (pc its return address, sic its count there) and is in or after the
 * kernel call, gregs[0..7] the entry stub's frame at sp (the six
 * arguments, the flags, the return address); NEW: made, not yet at its
 * first instruction.  sic counts from the thread's own origin. */
struct rdb_tf_thctx {
	uint64_t interval;
	uint32_t slot;
	uint32_t how; /* RDB_TF_PARK_* */
	int32_t tid;  /* the recording's (the kernel's at the time) */
	uint32_t pad;
	uint64_t sic;
	uint64_t pc;
	uint64_t fs_base;
	int64_t nr;
	uint64_t sp;
	uint64_t gregs[23]; /* RDB_TF_NGREG */
};
enum { RDB_TF_PARK_HOLDER = 1, RDB_TF_PARK_SLICE = 2, RDB_TF_PARK_BLOCKED = 3,
       RDB_TF_PARK_NEW = 4 };

/* THSTATE: right after each THCTX, what a replay from that boundary needs
 * to make the thread again (threvive.c) that the THCTX does not say: the
 * signal mask it goes on with (SLICE: the event's; BLOCKED: the one it
 * made the call with; NEW: the one its clone gave it), the program's view
 * of its reserved signals' mask bits and of its sigaltstack, its
 * CLONE_CHILD_CLEARTID word, the top of its own stack (the clone's), its
 * innermost handler frame, its set_robust_list; gregs: NEW, the registers
 * its first instruction gets; BLOCKED, its %rbx %rbp %r12 %r13 %r14 at the
 * call (REG_* indices; the stub frame has the rest); the holder and SLICE:
 * unused (the CONTEXT, the THCTX).  fpsize bytes of xsave image follow
 * (SLICE: the event's FPU state).  flags: RDB_TF_THS_*. */
struct rdb_tf_thstate {
	uint64_t interval;
	uint32_t slot;
	uint32_t flags;
	uint64_t sigmask;
	uint64_t reserved_blocked;
	uint64_t ss_sp, ss_flags, ss_size;
	uint64_t ctid;
	uint64_t stack_top;
	uint64_t hframe;
	uint64_t robust_head, robust_len;
	uint64_t fpsize;
	uint64_t gregs[23]; /* RDB_TF_NGREG */
};
/* THREAD_GROUP: made with CLONE_THREAD (else a process sharing memory,
 * which replay --from cannot make again) */
enum { RDB_TF_THS_THREAD_GROUP = 1 };

/* Flowback (docs/flowback.md): at each boundary (and at the end), the
 * bytes the interval wrote, program or kernel, as exact [addr, addr + len)
 * ranges in address order; an interval may have several records. */
struct rdb_tf_written {
	uint64_t interval;
	uint32_t n; /* struct rdb_tf_range entries follow */
	uint32_t pad;
};
struct rdb_tf_range {
	uint64_t addr, len;
};

/* rdb -> runtime, right after HELLO when it has RDB_TF_HELLO_WATCH: report
 * the writes to [addr, addr + len) (rdb flowback). */
struct rdb_tf_watch {
	uint64_t addr, len;
};

/* runtime -> rdb when the replay stops or ends: the last watched writes,
 * oldest first (at most RDB_TF_WATCH_KEEP), then one with kind END. */
struct rdb_tf_watch_hit {
	uint64_t interval;
	uint64_t sic;   /* count since the interval's start */
	uint64_t pc;    /* image offset of the writing instruction (a hook's store) */
	uint64_t sc_id; /* kind SYSCALL: the syscall that wrote; else syscalls before */
	uint64_t addr, len; /* what of the watched range it wrote */
	uint64_t total; /* END: watched writes seen in all */
	uint64_t known; /* END: bit i: value[i] is the interval's own (it read or
	                   wrote the byte); else the replay had no value for it */
	uint32_t kind;  /* RDB_TF_WH_* */
	uint32_t nvalue;
	uint32_t slot;  /* the thread that wrote (its slot, docs/threads.md) */
	uint32_t pad;
	uint8_t value[64]; /* END: the watched bytes now (nvalue of them) */
};
enum { RDB_TF_WH_PROGRAM = 1, RDB_TF_WH_SYSCALL = 2, RDB_TF_WH_RUNTIME = 3,
       RDB_TF_WH_END = 4,
       RDB_TF_WH_LATE = 5 /* a breakpoint's signal came late: the instruction is unknown */ };
#define RDB_TF_WATCH_KEEP 16

enum rdb_tf_note_kind {
	RDB_TF_NOTE_FORK = 1,  /* a child (pid in value) ran untraced */
	RDB_TF_NOTE_LOST = 2,  /* the runtime lost the channel */
	RDB_TF_NOTE_SPAWN = 3, /* clone of a thread refused while recording (vfork
	                          and other clones run as forks: NOTE_FORK) */
	RDB_TF_NOTE_SNAPSHOT = 4, /* an interval snapshot child could not be made
	                             (value: -errno): intervals stop */
	RDB_TF_NOTE_STOPPED = 5,  /* the runtime could not go on (a table of its
	                             could not grow, a boundary could not read
	                             the mappings): the recording ends after
	                             syscall id (exit's execd 2: the rest ran
	                             untraced) */
};

struct rdb_tf_note {
	uint32_t kind;
	uint32_t pad;
	uint64_t id;    /* the syscall id it concerns */
	int64_t value;
};

/* A fork descendant of the recorded process (or a program it exec'd that
 * was built with rdb-cc) wrote these bytes to the object that was the
 * recording's stdout (fd 1) or stderr (fd 2) when it started.  Sent on the
 * channel right after the write returned, so it sits among the recorded
 * process's records where the write happened. */
struct rdb_tf_child_output {
	int32_t pid; /* the writer (as recorded: informational) */
	int32_t fd;  /* 1 or 2: which of the recording's streams it went to */
};

/* After syscall `id` returned: len bytes at addr of a MAP_SHARED mapping
 * that others (fork children, the file's writers) may change now hold
 * these values (bytes that differ from what replay has there). */
struct rdb_tf_shared {
	uint64_t id;
	uint64_t addr;
	uint64_t len;
};

/* The first bytes of the RDB_KID_LOCK_FD memfd. */
#define RDB_TF_KID_MAGIC 0x31646b2d626472ull /* "rdb-kd1" */
/* A file's identity: fstat's st_dev and st_ino. */
struct rdb_tf_devino {
	uint64_t dev, ino;
};
struct rdb_tf_kidinfo {
	uint64_t magic;
	struct rdb_tf_devino std[2]; /* fds 1 and 2 at the start; (0, 0): none */
};

/* ---- the trace set: a folder ---------------------------------------------
 * header   : records (rdb_tf_rec + payload) H_MAGIC first, uncompressed
 * exit     : one X_EXIT record, written when the run ended (absent: cut short
 *            while rdb itself was killed)
 * STREAM   : struct rdb_tf_shdr, then frames: struct rdb_tf_fhdr + a zstd
 *            frame of raw_size bytes of records.  The first frame (the
 *            base) decodes alone; if its raw_size is at most
 *            RDB_TF_DICT_MAX, each later frame decodes with the base's
 *            records as a raw-content dictionary, else alone too. */
#define RDB_TF_DICT_MAX (256u << 10)
#define RDB_TF_MAGIC "RDBTRACE" /* 8 bytes */

struct rdb_tf_hmagic {
	char magic[8];
	uint32_t version;
	uint32_t pad;
};

struct rdb_tf_hstart {
	int64_t sec, nsec; /* CLOCK_REALTIME when the recording started */
	int32_t pid;       /* the recorded process */
	uint32_t pad;
};

/* H_PROC: where the process sits in the recorded tree.  The process rdb
 * started has ppid rdb's pid and joined 0; a process that found the
 * recording through RDB_RECORD_SOCKET (runtime/join.c) has joined 1, and
 * its trace set is DIR/proc/ID (ID: the pid, "PID.N" for the Nth image
 * or reuse of that pid in the set).  A header may hold two: the last
 * counts (rdb adds flags once the process's INIT says it forked). */
struct rdb_tf_hproc {
	int32_t pid, ppid; /* at the process's start (ppid: /proc/PID/stat) */
	uint32_t joined;
	uint32_t flags;    /* RDB_TF_PROC_FORKED: replay starts at interval 2 */
};
#define RDB_TF_PROC_FORKED 1u

enum rdb_tf_exit_how {
	RDB_TF_EXIT_STATUS = 1, /* exited with status */
	RDB_TF_EXIT_SIGNAL = 2, /* killed by signal */
};

struct rdb_tf_exit {
	uint32_t how;     /* enum rdb_tf_exit_how */
	int32_t value;    /* status or signal */
	uint32_t cut;     /* 1: the trace ended early (no TERM record) */
	uint32_t execd;   /* the rest ran untraced: 1: the program exec'd; 2: the
	                     recording stopped at a SIC overflow (B_UNTRACED) or
	                     where the runtime could not go on (NOTE_STOPPED) */
	uint64_t nsyscalls;
	int64_t end_sec, end_nsec;
};

/* Streams: X(NAME, file name), in this order (docs/trace-format.md). */
#define RDB_TF_STREAMS(X)                                                      \
	X(SYSCALLS, "syscalls")   /* TRAP, EXEC, TERM, NOTE records */          \
	X(SYSDATA, "sysdata")     /* DATA records */                            \
	X(NONDET, "nondet")       /* NONDET records */                          \
	X(INTERVALS, "intervals") /* BOUNDARY records (a copy: the lookup for --from) */ \
	X(STACK, "stack")         /* STACK */                                   \
	X(CONTEXT, "context")     /* CONTEXT */                                 \
	X(MAPPINGS, "mappings")   /* MAPS */                                    \
	X(VALUES, "values")       /* VALUES, VALUES_END (from the snapshot children) */ \
	X(SIGNALS, "signals")     /* SIGNAL records (a copy, for rdb info) */   \
	X(WRITTEN, "written")     /* WRITTEN records (rdb flowback) */
#define RDB_TF_STREAM_ENUM(name, file) RDB_TF_S_##name,
enum rdb_tf_stream { RDB_TF_STREAMS(RDB_TF_STREAM_ENUM) RDB_TF_NSTREAMS };
#undef RDB_TF_STREAM_ENUM
#define RDB_TF_S_NONE (-1) /* RDB_TF_RECORDS: in no stream */

#define RDB_TF_SMAGIC "RDBSTRM1" /* 8 bytes */
struct rdb_tf_shdr {
	char magic[8];
	uint32_t version;
	uint32_t stream; /* enum rdb_tf_stream */
};

#define RDB_TF_FMAGIC 0x46424452u /* "RDBF" */
#define RDB_TF_FRAME_MAX (1u << 30) /* raw bytes per frame, at most (reader bound) */
struct rdb_tf_fhdr {
	uint32_t magic;     /* RDB_TF_FMAGIC */
	uint32_t csize;     /* compressed bytes that follow */
	uint32_t raw_size;  /* decompressed bytes */
	uint32_t nrecords;
	uint64_t first;     /* index of the frame's first record in the stream */
	uint64_t first_id;  /* syscall id of the first record's syscall, or 0;
	                       in the values stream, its lanes (below) */
};

/* A values frame whose first_id is 4 or 8 holds each VALUES payload (the
 * bytes after its struct rdb_tf_blob) as that many lanes: byte i * w + j
 * of its n bytes at j * (n / w) + i, the last n % w bytes as they are.
 * Arrays of 4- and 8-byte numbers compress much better so (their high
 * bytes side by side); 0: payloads as they are. */
#define RDB_TF_LANES_OK(w) ((w) == 0 || (w) == 4 || (w) == 8)
static inline void rdb_tf_lanes_split(char *dst, const char *src, uint64_t n, unsigned w)
{
	uint64_t m = n / w;
	for (uint64_t i = 0; i < m; i++)
		for (unsigned j = 0; j < w; j++)
			dst[j * m + i] = src[i * w + j];
	for (uint64_t k = m * w; k < n; k++)
		dst[k] = src[k];
}
static inline void rdb_tf_lanes_join(char *dst, const char *src, uint64_t n, unsigned w)
{
	uint64_t m = n / w;
	for (uint64_t i = 0; i < m; i++)
		for (unsigned j = 0; j < w; j++)
			dst[i * w + j] = src[j * m + i];
	for (uint64_t k = m * w; k < n; k++)
		dst[k] = src[k];
}

/* File "ivindex": one entry each time an interval's records begin in a
 * stream (always at a frame start): where replay --from K starts reading. */
struct rdb_tf_ivindex {
	uint32_t stream;
	uint32_t pad;
	uint64_t interval;
	uint64_t offset; /* of the frame header in the stream file */
	uint64_t first;  /* the frame's first record number */
};

_Static_assert(sizeof(struct rdb_tf_rec) == 8, "rec");
_Static_assert(sizeof(struct rdb_tf_ivindex) == 32, "ivindex");
_Static_assert(sizeof(struct rdb_tf_hello) == 32, "hello");
_Static_assert(sizeof(struct rdb_tf_boundary) == 72, "boundary");
_Static_assert(sizeof(struct rdb_tf_context) == 2344,
               "context");
_Static_assert(sizeof(struct rdb_tf_map) == 24, "map");
_Static_assert(sizeof(struct rdb_tf_maps) == 16, "maps");
_Static_assert(sizeof(struct rdb_tf_blob) == 24, "blob");
_Static_assert(sizeof(struct rdb_tf_values_end) == 24, "values_end");
_Static_assert(sizeof(struct rdb_tf_signal) == 176, "signal");
_Static_assert(sizeof(struct rdb_tf_target) == 40, "target");
_Static_assert(sizeof(struct rdb_tf_switch) == 56, "switch");
_Static_assert(sizeof(struct rdb_tf_thread) == 32, "thread");
_Static_assert(sizeof(struct rdb_tf_written) == 16, "written");
_Static_assert(sizeof(struct rdb_tf_range) == 16, "range");
_Static_assert(sizeof(struct rdb_tf_watch) == 16, "watch");
_Static_assert(sizeof(struct rdb_tf_watch_hit) == 144, "watch_hit");
_Static_assert(sizeof(struct rdb_tf_init) == 24, "init");
_Static_assert(sizeof(struct rdb_tf_trap) == 88, "trap");
_Static_assert(sizeof(struct rdb_tf_data) == 24, "data");
_Static_assert(sizeof(struct rdb_tf_nondet) == 64, "nondet");
_Static_assert(sizeof(struct rdb_tf_term) == 40, "term");
_Static_assert(sizeof(struct rdb_tf_note) == 24, "note");
_Static_assert(sizeof(struct rdb_tf_child_output) == 8, "child_output");
_Static_assert(sizeof(struct rdb_tf_shared) == 24, "shared");
_Static_assert(sizeof(struct rdb_tf_kidinfo) == 40, "kidinfo");
_Static_assert(sizeof(struct rdb_tf_hmagic) == 16, "hmagic");
_Static_assert(sizeof(struct rdb_tf_hstart) == 24, "hstart");
_Static_assert(sizeof(struct rdb_tf_hproc) == 16, "hproc");
_Static_assert(sizeof(struct rdb_tf_exit) == 40, "exit");
_Static_assert(sizeof(struct rdb_tf_shdr) == 16, "shdr");
_Static_assert(sizeof(struct rdb_tf_fhdr) == 32, "fhdr");

#endif
