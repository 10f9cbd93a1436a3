/* rt.h: librdb's private header, one section per file.
 *
 * Rules for every file of the runtime (docs/design.md invariant 6): never
 * instrumented, never calls libc, raw syscalls only, state only in the
 * private region at RDB_STATE_ADDR (never .data/.bss), and nothing that
 * needs a dynamic relocation on the paths __rdb_start runs (it runs before
 * musl's static-pie self-relocation).  Compiled with -ffixed-r12..r15, so
 * %r13-%r15 keep the hooks' constants and the SIC everywhere, including in
 * signal handlers and in callbacks into the program. */
#ifndef RDB_RT_H
#define RDB_RT_H

#include <stddef.h>
#include <stdint.h>

/* Every runtime symbol is hidden, declarations too: references are then
 * PC-relative, with no GOT entry to relocate before musl has relocated. */
#pragma GCC visibility push(hidden)

#include "iot_format.h" /* struct rdb_iot_entry: one .rdb_iot entry */
#include "layout.h"
#include "librdb.h"
#include "sys.h"
#include "trace_format.h"

#define RDB_NSIG 65 /* signals 1..64 */
#define RDB_EFLAGS_STATUS 0xcd5ull /* CF PF AF ZF SF DF OF */
#define RDB_SBUF (64 << 10)
#define RDB_RBUF (256 << 10)
#define RDB_WATCH_HW 4 /* watch.c: x86 debug registers */
#define RDB_WATCH_FD 1010 /* watch.c: the breakpoints' fds, from here up */
#define RDB_WR_MAX 2048 /* written.c: ranges per WRITTEN record */
#define RDB_SW_MAX 256 /* stackwrite.c: page ranges per PAGEMAP_SCAN */
#define RDB_SHARED_BUF (64 << 10)

/* The kernel's struct sigaction for rt_sigaction on x86-64. */
struct rdb_ksigaction {
	uintptr_t handler;
	unsigned long flags;
	uintptr_t restorer;
	uint64_t mask;
};

/* record: an asynchronous signal waiting for its thread's next check */
struct rdb_pending { int signo; uint8_t info[128]; };
#define RDB_TH_PENDING 64 /* per thread: past that the signal is dropped, as
                             a full kernel queue drops it */

/* The frame the runtime builds for a handler of the program where the
 * kernel would have built it (signal.c), laid out as the kernel's
 * rt_sigframe (pretcode, ucontext, siginfo; the xsave image above it).
 * The handler returns through pretcode into rdb_handler_return
 * (syscall.S), which ends the delivery and rt_sigreturns from uc.  What
 * the runtime must restore then lies in the frame too, in the
 * sigcontext's reserved words (the kernel never reads them): no frame of
 * the runtime's lives while a handler runs, so handlers may switch
 * stacks, longjmp, or return out of order (green threads). */
struct rdb_hstate {
	uint64_t magic;        /* RDB_HSTATE_MAGIC ^ the frame's address */
	uint64_t prev;         /* the frame RT->hframe was when it began */
	uint64_t fault_pc;     /* a fault's instruction, to run again */
	uint64_t stub_sp, nest_sp; /* RDB_HS_IN_CALL: RT->stub_sp, RT->sc_nest_sp */
	uint64_t flags;        /* RDB_HS_* */
	uint64_t run_pc, run_sp; /* RDB_HS_AT_CALL: the runtime's own, in the call */
};
#define RDB_HSTATE_MAGIC 0x72646268616e646cull /* "rdbhandl" */
/* RDB_HS_AT_CALL: the handler saw the program at its syscall's call
 * (thread.c rdb_call_present), not inside the runtime. */
enum { RDB_HS_IN_STUB = 1, RDB_HS_WATCH_SYS = 2, RDB_HS_IN_CALL = 4, RDB_HS_AT_CALL = 8 };
struct rdb_sigframe {
	uint64_t pretcode;
	union {
		uint64_t uc[38]; /* flags, link, stack[3], gregs[23], fpregs, reserved[8], sigmask */
		struct {
			uint64_t head[29];
			struct rdb_hstate hs; /* in the reserved words */
			uint64_t sigmask;
		};
	};
	uint8_t info[128];
};
_Static_assert(sizeof(struct rdb_hstate) == 64 && sizeof(struct rdb_sigframe) == 440,
               "the kernel's rt_sigframe, its sigcontext's 8 reserved words");


struct rdb_state {
	uint64_t magic;
	uintptr_t pad_vfork_ret; /* per thread now (struct rdb_thread) */
	long mode;           /* RDB_STATE_MODE: 0, or enum rdb_tf_mode (chan.c) */
	uintptr_t clone_sp;  /* RDB_STATE_CLONE_SP: syscall.S moves a clone child
	                        (run as a fork by record.c) onto this stack */
	uintptr_t clone_frame; /* RDB_STATE_CLONE_FRAME: when back in the frame of
	                          that clone (its flags' address), not a handler's */
	/* RDB_STATE_DBG_STOP, RDB_STATE_DBG_SLOT: rdb's gdb server wants thread
	 * dbg_slot stopped at count dbg_stop (0: nothing), sic.c */
	uint64_t dbg_stop, dbg_slot;
	uintptr_t pad_marks[6]; /* the stack-switch marks, per thread now; keeps
	                           the fixed offsets below */
	/* sic.c and interval.c, here at fixed offsets for rdb's gdb server (a
	 * position in the run is (interval, %r15 - sic_origin, pc)) */
	uint64_t sic_origin;  /* RDB_STATE_SIC_ORIGIN: %r15 = sic_origin + the interval's count */
	uint64_t interval;    /* RDB_STATE_INTERVAL: the current interval (1: the program's start) */
	uint64_t chan_in;     /* RDB_STATE_CHAN_IN: bytes read from the channel (chan.c) */
	/* ---- the rest, a sub-struct per file that owns the fields ---- */

	struct { /* start.c: the process as __rdb_start found it */
		long *sp;            /* the initial stack: argc, argv, envp, auxv */
		long argc;
		char **argv, **envp;
		unsigned long *auxv;
		uintptr_t image_lo, image_hi; /* the loaded image, [lo, hi) */
		uintptr_t bias;               /* load address minus link address */
		int debug;                    /* RDB_DEBUG is set: explain faults */
		int fsgsbase;                 /* the CPU lets user code read the fs base */
	} start;

	struct { /* syscall.c: brk emulation */
		uintptr_t brk_cur, brk_mapped;
		int clone3_said;      /* the message on clone3's refusal, once */
	} syscall;

	struct { /* iot.c: .rdb_iot */
		const struct rdb_iot_entry *iot;
		size_t n_iot;
		int iot_offsets; /* 1: entries hold image offsets, sorted */
	} iot;

	struct { /* api.c: callbacks */
		int n_cb, terminated;
		/* in the order registered, one of the two set (grow.c RDB_G_CB) */
		struct rdb_cb { rdb_term_fn *term; rdb_signal_fn *sig; } *cb;
	} api;

	struct { /* signal.c */
		/* the program's view */
		struct rdb_ksigaction view[RDB_NSIG];
		uint64_t reserved_sigs; /* runtime-owned: the program cannot block them */
		int nqueued;          /* queued again by an event, not delivered yet */
		struct rdb_tf_queued *queued; /* grow.c RDB_G_QUEUED */
		struct rdb_pending *pending; /* RDB_G_PENDING: thread 0's waiting signals
		                                (TH->sig.npending of them; it grows: a
		                                program may queue thousands); the other
		                                threads' lie in their struct rdb_thread */
		uint64_t requeued;    /* signals queued again by events, so far */
		uint32_t xs_off[32], xs_size[32]; /* the xsave components' places */
		int xs_known;
	} signal;

	struct { /* sic.c: events at SIC checks (docs/hooks.md) */
		uint64_t sic_span;    /* record: the most counts of an interval (RDB_SIC_SPAN;
		                         less with RDB_TEST_SIC_SPAN=N, a test knob) */
	} sic;

	struct { /* unhook.c */
		int unhooked;         /* 'R' the read hooks are gone, 'S' both */
	} unhook;

	struct { /* interval.c: intervals while recording */
		int want_boundary;    /* the interval timer expired */
		int in_boundary;      /* the boundary clears the planes itself */
		uintptr_t interval_sp; /* %rsp when the interval started */
		uintptr_t iv_alt_lo, iv_alt_hi; /* the sigaltstack then */
		uint64_t interval_us; /* its CPU length; 0: no intervals */
		uint64_t every_sic;   /* or its length in SIC counts */
		uint64_t cpu_start_ns;
		uint64_t sys_start_ns; /* the kernel's CPU time then (getrusage) */
		uint64_t sys_allow_us; /* the last interval's kernel time: added to
		                          this one's timer (boundary) */
		uint64_t stretch;     /* this interval is -i times this (1 to STRETCH_MAX) */
		uint64_t cow_ns;      /* what a copy-on-write fault costs here (probed) */
		int fixed;            /* not stretched (rdb record -i, --no-stretch) */
		int stretch_skip;     /* the next boundary keeps the stretch (a fork child's first) */
		int timer_id;
		int snap_pid[2];      /* the snapshot children of interval - 1 and interval */
		int snap_mem;         /* in a snapshot child: its /proc/self/mem, or < 0 */
		int snap_maps;        /* in a snapshot child: RT->procmaps holds its own maps */
		int snap_ok;          /* intervals still possible */
		int snap_stop;        /* a snapshot fork failed: the interval runs on */
	} intervals;

	struct { /* nondet.c */
		uint64_t nondets;     /* NONDET records so far */
	} nondet;

	struct { /* chan.c: the channel to rdb (trace_format.h) and HELLO's options */
		int quiet;            /* replay: do not re-execute stdout/stderr writes */
		long rec_pid;         /* replay: the recorded pid */
		int checksum, verify; /* record --checksum, replay --verify (1), --verify-full (2) */
		int forks;            /* record --forks: fork children record themselves (join.c) */
		int no_stack_pages;   /* record --no-stack-pages: no STACK_WRITTEN (stackwrite.c) */
		uint64_t from;        /* replay: the interval it started at */
		uint64_t timing_t0;   /* replay --timing: rdb's start (monotonic ns), or 0 */
		size_t sn;            /* bytes waiting in sbuf */
		size_t rpos, rend;    /* unread bytes of rbuf: [rpos, rend) */
		char sbuf[RDB_SBUF];
		char rbuf[RDB_RBUF];
	} chan;

	struct { /* checksum.c */
		int hash_fd; /* RDB_DEBUG: the dump */
		uint64_t alt_lo, alt_hi; /* the sigaltstack */
		int alt_skip;            /* leave it out (the full hash) */
		/* buffers of calls other threads wait in that the kernel may
		 * write at any moment of a boundary (sched.c
		 * rdb_sched_unsettled): left out of both hashes */
		int nunsettled;
		uint64_t unsettled[64][2]; /* RDB_UNSETTLED_MAX */
		/* the stack tops clones gave threads whose stack may still be
		 * mapped, left out of the full hash (grow.c RDB_G_STACKS) */
		uint64_t *stack_tops;
		uint64_t nstack_tops;
		int stack_tops_lost; /* the table could not grow: said once */
		unsigned char mincore_r[(4u << 20) / 4096 + 2];
	} checksum;

	struct { /* util.c */
		int mem_fd;  /* rdb_poke_mem: /proc/self/mem, opened once (0: not yet) */
	} util;

	struct { /* replay.c: boundaries and signals while replaying */
		struct rdb_tf_target tgt; /* the next event */
		uint8_t fpbuf[16384] __attribute__((aligned(64))); /* an xsave image */
		uint8_t bounce[16384];  /* values for memory the program cannot write */
	} replay;

	struct rdb_watch { /* watch.c: rdb flowback's watchpoint (replay) */
		int on, reported;
		int nhw;  /* debug registers used (0: shadow pages) */
		int hw_fd[RDB_WATCH_HW];
		uint64_t hw_addr[RDB_WATCH_HW];
		uint32_t hw_len[RDB_WATCH_HW];
		uint64_t addr, len, page_lo, page_hi; /* the bytes; their S plane pages */
		uint64_t str_pc; /* strhook.c: the string instruction being marked */
		uint64_t mask;   /* the signal mask while the pages are open */
		uint64_t probe;  /* hw_works' target: the runtime's, never restored */
		uint64_t n, total; /* notes kept (ring of KEEP); writes seen */
		struct rdb_tf_watch_hit hits[RDB_TF_WATCH_KEEP];
	} watch;

	struct { /* written.c: the current interval's written ranges */
		uint64_t interval, lo, hi;
		uint32_t n, sent; /* ranges waiting; whether any record went out */
		uint64_t pages, last_page; /* private 4 KiB pages written (interval.c's stretch) */
		int shared;                /* the mapping being scanned is MAP_SHARED: not counted */
		struct rdb_tf_range r[RDB_WR_MAX];
	} wr;

	struct rdb_stackwrite { /* stackwrite.c: the main stack's written pages */
		int ok, uffd, pm; /* registered; the userfaultfd; /proc/self/pagemap */
		struct { uint64_t start, end, categories; } pr[RDB_SW_MAX]; /* the kernel's */
		struct rdb_tf_range r[RDB_SW_MAX];
	} stackwrite;

	struct { /* ran.c: where handlers returned to, this interval */
		uint64_t pc[16];
		uint32_t n;
	} ran;

	struct { /* planes.c */
		struct { /* residency of the plane pages [lo, hi) */
			uintptr_t lo, hi;
			unsigned char vec[(4u << 20) / 4096];
		} res[2];
		int res_batch;
		int swap; /* 0: not asked yet; 1: the system has swap; -1: none */
		uint64_t pm[512]; /* /proc/self/pagemap entries, a read's worth */
	} planes;

	struct { /* procmaps.c */
		size_t nmaps;
		struct rdb_tf_map *maps; /* grow.c RDB_G_MAPS */
		char mapsbuf[4096];     /* not on the (maybe alternate) signal stack */
	} procmaps;

	struct {                /* interval.c, replay.c: a boundary's context, not
		                   on the signal stack either, and what follows it */
		struct rdb_tf_context c;
		/* nqueued of them (then, while recording, the xsave image:
		 * interval.c sends both as the record's second part) */
		struct rdb_tf_queued *q; /* grow.c RDB_G_CTXQ */
	} ctx;

	struct { /* rr.c: record and replay */
		uint64_t sc_id;       /* syscalls so far: the last one's id */
	} rr;

	struct { /* record.c */
		int spawn_warned;
		int exec_warned; /* record.c is_refused_exec */
		size_t nreg;          /* regions the kernel wrote in the current call */
		struct rdb_region { uint64_t addr, len; } *reg; /* grow.c RDB_G_REGIONS */
		int reg_full;         /* the table could not grow (the call is not recorded) */
	} record;

	struct { /* children.c: the program's fork descendants */
		int kid;          /* this process is one (mode 0): it sends CHILD_OUTPUT */
		int kid_locking;  /* records go out under RDB_KID_LOCK_FD's lock */
		int kid_depth;    /* nesting of that lock */
		uint32_t kid_pid; /* ours: the lock's owner value */
		int kid_std_ok[2];
		struct rdb_tf_devino kid_std[2]; /* the recording's stdout, stderr */
	} children;

	struct { /* shared.c: MAP_SHARED mappings (record and replay track the same) */
		size_t nshared;
		struct rdb_shared {
			uint64_t start, end;
			uint64_t copy;  /* record: a private copy (what replay has there), or 0 */
			uint32_t ext;   /* others may write it: fork children, the file's users */
			uint32_t prot;
			/* record: the file mapped (0, 0: anonymous) and the file offset
			 * of start, to match the process's own writes to that file */
			uint64_t dev, ino, off;
		} *shared; /* grow.c RDB_G_SHARED */
		uint64_t shared_next; /* where the next copy goes */
		uint64_t shared_pend; /* record: the pending bits, once mapped */
		uint32_t shared_sig;  /* record: a signal came since the last full sync */
		uint32_t shared_fresh; /* record: a fork child's first boundary takes copies anew */
		size_t shared_forked; /* a fork child: the parent's count, until it joins */
		_Alignas(64) uint8_t shared_buf[RDB_SHARED_BUF]; /* (compared in words) */
	} shared;

	struct { /* sched.c: one thread runs at a time (record and replay) */
		int owner;            /* futex word: the slot holding the token (-1: none) */
		int nlive;            /* threads alive */
		int on;               /* a second thread has lived: time slices */
		unsigned made;        /* the slot rdb_thread_prepare claimed last */
		unsigned top;         /* the highest slot used so far */
		long clone_ret;       /* record: a thread's clone's result, for its TRAP */
		uint64_t slice;       /* record: SIC counts per time slice */
		int chaos;            /* record --chaos: slices and next threads drawn at random */
		uint64_t rng;         /* record --chaos: the generator's state (xorshift) */
		struct { uint64_t sic, pc; uint32_t slot, why; int set; } last; /* record: the
		                         last release of the token, for the SWITCH */
		uint64_t switches;
		int said;             /* record: the boundaries' wait was said */
		uint32_t xsize;       /* CPUID 0xd: the xsave image's size (0: not asked) */
		int thbound;          /* RDB_THREAD_BOUNDARIES=1: boundaries while threads
		                         live (their THCTX records, sched.c) */
		uint64_t revive_wait; /* RDB_TEST_REVIVE_WAIT=N, a test knob: the ms
		                         replay's first thread waits for the program's
		                         new thread after each it makes (threvive.c) */
	} sched;

	struct { /* grow.c: the bytes mapped of each table (enum rdb_grow_slot) */
		uint64_t grown[8];
		uint64_t grow_max; /* RDB_TEST_GROW_MAX=N, a test knob: each table's most bytes */
	} grow;
};

#define RT ((struct rdb_state *)RDB_STATE_ADDR)

/* One thread's runtime state (thread.c): what the runtime does for a
 * thread while others run.  The process's state stays in RT. */
struct rdb_thread {
	long sc_nest;        /* RDB_TH_SC_NEST: program handlers running while
	                        a syscall's runtime part is on the syscall stack
	                        (unrecorded only): their calls stay on their
	                        stack (syscall.S) */
	uintptr_t sc_lo;     /* RDB_TH_SC_LO: its syscall stack */
	uintptr_t sig_top;   /* RDB_TH_SIG_TOP: its signal stack's top */
	int tid;             /* RDB_TH_TID: 0 free, -1 being made, else its tid */
	int thread_group;    /* made with CLONE_THREAD (else a process sharing memory) */
	uint64_t clone_mask; /* RDB_TH_CLONE_MASK: while it clones a thread, every
	                        signal is blocked (its %r15 is the child's): the
	                        mask to restore after, in it and in the child */
	/* The stack-switch marks (hooks.S __rdb_stack_switch: a switch into
	 * a stack the boundary saved whole needs no marks), each thread's
	 * own: its interval begins on its own stack or another. */
	uintptr_t stack_lo, stack_hi; /* RDB_TH_STACK_LO/HI: its own stack, which
	                        every boundary saves whole from its lowest
	                        written page (thread 0: the main stack, from the
	                        initial %rsp less the stack's rlimit; thread k:
	                        the mapping of the clone's stack once a boundary
	                        has found it (rdb_thread_stack), empty before) */
	uintptr_t saved_lo, saved_hi; /* RDB_TH_SAVED_LO/HI: the stack its interval
	                        began on, when not its own, as the boundary saved
	                        it (interval.c rdb_interval_saved_stack) */
	uintptr_t dead_lo, dead_cut; /* RDB_TH_DEAD_LO/CUT: the dead window below
	                        it (interval.c dead_stack) ends at dead_cut:
	                        another stack a switch went to lies above */
	uintptr_t vfork_ret; /* RDB_TH_VFORK_RET: vfork's return address (syscall.S:
	                        the child runs on the caller's stack and slot) */
	uint64_t prog_cs[4]; /* RDB_TH_PROG_CS: the program's callee-saved %rbx
	                        %r12 %r13 %r14 at its latest syscall, which the
	                        runtime's C code keeps somewhere on its stack: a
	                        boundary records a blocked thread's (THSTATE) */
	uintptr_t sig_lo;    /* its signal stack */
	uint64_t origin;     /* %r15 = origin + count (thread 0: RT->sic_origin) */
	uintptr_t hframe;    /* the frame of the handler that began last and has
	                        not returned (struct rdb_sigframe), or 0 */
	int mapped;          /* its window and stacks are mapped (kept for reuse) */
	uintptr_t stack_top; /* the clone's new stack (thread 0: the initial %rsp):
	                        its stack lies below, in that mapping */
	uintptr_t fault_pc;  /* its last fatal fault, for termination callbacks */
	int fault_in_hook;   /* ... in an instrumentation sequence */
	int watch_sys;       /* watch.c: a replayed syscall of its is running:
	                        the writes are the kernel's */
	struct { /* signal.c */
		uintptr_t stub_sp;   /* the program's %rsp at its latest syscall */
		uintptr_t sc_nest_sp; /* ... at the syscall the innermost such handler
		                         interrupted */
		uint64_t reserved_blocked; /* the program's view of the reserved
		                              signals' mask bits */
		uint64_t prog_ss[3];  /* the program's view of its sigaltstack (RDB_SS_*) */
		/* delivery at the entry stub's check (syscall.S) */
		int in_stub;          /* the runtime is running a program syscall */
		int sc_cut;           /* record: it may be cut short (rdb_prog_syscall) */
		int sc_mask_ok;       /* it was sigsuspend, ppoll, ...: deliver with */
		uint64_t sc_mask;     /* ... this mask (the call's own) */
		int restore_ok;       /* the next handler's return restores ... */
		uint64_t restore_mask; /* ... the mask the call left */
		/* a handler's frame, built here before it goes out */
		uint8_t framebuf[440 + 64 + 16384] __attribute__((aligned(64)));
		struct rdb_sigframe retframe;     /* a handler's return: what rt_sigreturn reads */
	} signal;
	struct { /* sic.c */
		uint64_t sic_stop;    /* the count where a check faults for an event (0: none) */
		int poked;            /* %r15 was raised by RDB_SIC_W: the next check faults */
		int in_event;         /* inside an event (boundary, signal) at a check */
	} sic;
	struct { /* sched.c: recorded and replayed threads */
		int want;             /* record: it waits for the token */
		int exiting;          /* its end is under way (its own stack's munmap) */
		int alive;            /* made, not ended (replay checks the switches' threads) */
		uint64_t born;        /* its clone's syscall number, 0: the replay's start (TARGET) */
		uint64_t slice_end;   /* record: the count its time slice ends at */
		uintptr_t ctid;       /* CLONE_CHILD_CLEARTID's word (0: none) */
		uint64_t exit_pc;     /* exiting: the return address of its last call */
		/* where it waits for the token, for a boundary another thread
		 * takes meanwhile (RDB_TF_PARK_*, 0: it runs) */
		uint32_t park;
		long park_nr;         /* BLOCKED: the call */
		int park_quiet;       /* record, BLOCKED: the kernel writes no memory for it */
		uint64_t park_sic, park_pc, park_fs;
		const uint64_t *park_g; /* SLICE: its registers (the event's uc) */
		void *park_uc;        /* SLICE: the event's ucontext (FPU state, mask) */
		uint64_t park_mask;   /* the signal mask it goes on with */
		uint64_t robust[2];   /* its set_robust_list (head, length) */
		uint64_t start_g[RDB_TF_NGREG]; /* made, not started: the registers
		                        its first instruction gets (rdb_sched_parent) */
		void *revive;         /* replay --from K: what it resumes with
		                        (threvive.c), on its signal stack */
		/* record, with boundaries while threads live: its FPU state in
		 * the kernel's format (fpsize bytes), saved when it blocks in a
		 * call or (by its parent) when it is made: the runtime never
		 * touches it, so it is the program's at that boundary */
		uint32_t park_fpsize;
		uint8_t park_fp[12288] __attribute__((aligned(64)));
	} sched;
	struct { /* signal.c, record: async signals that came to this thread,
	          * waiting for its next check (delivered while it runs) */
		int npending;
		struct rdb_pending pending[RDB_TH_PENDING]; /* threads but 0 (rdb_pending) */
	} sig;
};
_Static_assert(__builtin_offsetof(struct rdb_thread, sc_nest) == RDB_TH_SC_NEST &&
                   __builtin_offsetof(struct rdb_thread, sc_lo) == RDB_TH_SC_LO &&
                   __builtin_offsetof(struct rdb_thread, sig_top) == RDB_TH_SIG_TOP &&
                   __builtin_offsetof(struct rdb_thread, tid) == RDB_TH_TID &&
                   __builtin_offsetof(struct rdb_thread, clone_mask) == RDB_TH_CLONE_MASK &&
                   __builtin_offsetof(struct rdb_thread, stack_lo) == RDB_TH_STACK_LO &&
                   __builtin_offsetof(struct rdb_thread, stack_hi) == RDB_TH_STACK_HI &&
                   __builtin_offsetof(struct rdb_thread, saved_lo) == RDB_TH_SAVED_LO &&
                   __builtin_offsetof(struct rdb_thread, saved_hi) == RDB_TH_SAVED_HI &&
                   __builtin_offsetof(struct rdb_thread, dead_lo) == RDB_TH_DEAD_LO &&
                   __builtin_offsetof(struct rdb_thread, dead_cut) == RDB_TH_DEAD_CUT &&
                   __builtin_offsetof(struct rdb_thread, vfork_ret) == RDB_TH_VFORK_RET &&
                   __builtin_offsetof(struct rdb_thread, prog_cs) == RDB_TH_PROG_CS,
               "layout.h RDB_TH_*");
_Static_assert(__builtin_offsetof(struct rdb_thread, origin) == RDB_TH_ORIGIN &&
                   __builtin_offsetof(struct rdb_thread, sched.alive) == RDB_TH_ALIVE &&
                   __builtin_offsetof(struct rdb_thread, sched.born) == RDB_TH_BORN &&
                   __builtin_offsetof(struct rdb_thread, sched.park) == RDB_TH_PARK &&
                   __builtin_offsetof(struct rdb_thread, sched.park_nr) == RDB_TH_PARK_NR &&
                   __builtin_offsetof(struct rdb_thread, sched.park_sic) == RDB_TH_PARK_SIC &&
                   __builtin_offsetof(struct rdb_thread, sched.park_pc) == RDB_TH_PARK_PC &&
                   __builtin_offsetof(struct rdb_thread, sched.park_fs) == RDB_TH_PARK_FS &&
                   __builtin_offsetof(struct rdb_thread, sched.park_g) == RDB_TH_PARK_G &&
                   __builtin_offsetof(struct rdb_thread, sched.start_g) == RDB_TH_START_G &&
                   __builtin_offsetof(struct rdb_thread, signal.stub_sp) == RDB_TH_STUB_SP,
               "layout.h RDB_TH_* read by rdb's gdb server: update them");
_Static_assert(sizeof(struct rdb_thread) <= (1 << RDB_THREAD_SHIFT), "layout.h RDB_THREAD_SHIFT");
_Static_assert(RDB_SIC_W + RDB_SIC_GUARD <= RDB_SIC_STRIDE, "layout.h RDB_SIC_STRIDE");
_Static_assert(RDB_THREAD_ADDR + ((uint64_t)RDB_THREAD_MAX << RDB_THREAD_SHIFT) <= RDB_TSCSTACK_ADDR &&
                   RDB_TSCSTACK_ADDR + (uint64_t)RDB_THREAD_MAX * RDB_SCSTACK_SIZE <= RDB_TSIGSTACK_ADDR &&
                   RDB_TSIGSTACK_ADDR + (uint64_t)RDB_THREAD_MAX * RDB_SIGSTACK_SIZE <= RDB_GROW_ADDR,
               "layout.h: the threads' ranges overlap");

/* The running thread's number, from its %r15 (layout.h); 0 before the
 * SIC is set (__rdb_start). */
static inline unsigned rdb_th_slot(void)
{
	uint64_t r15;
	__asm__("mov %%r15, %0" : "=r"(r15));
	uint64_t k = (r15 - RDB_SIC_WIN) >> RDB_SIC_SHIFT;
	return k < RDB_THREAD_MAX ? (unsigned)k : 0;
}
static inline struct rdb_thread *rdb_th_at(unsigned k)
{
	return (struct rdb_thread *)(RDB_THREAD_ADDR + ((uintptr_t)k << RDB_THREAD_SHIFT));
}
#define TH (rdb_th_at(rdb_th_slot()))
/* The running thread's waiting signals (TH->sig.npending of them): thread
 * 0's in a table that grows, the others' in their struct rdb_thread. */
static inline struct rdb_pending *rdb_pending(void)
{
	return rdb_th_slot() ? TH->sig.pending : RT->signal.pending;
}
/* Room for one more: 0 when the list is full (the signal is dropped, as a
 * full kernel queue would drop it). */
int rdb_pending_room(void); /* signal.c */
#define RDB_MAGIC 0x7264622d72740001ull /* "rdb-rt" v1 */

_Static_assert(__builtin_offsetof(struct rdb_state, mode) == RDB_STATE_MODE,
               "layout.h RDB_STATE_MODE");
_Static_assert(__builtin_offsetof(struct rdb_state, clone_sp) == RDB_STATE_CLONE_SP,
               "layout.h RDB_STATE_CLONE_SP");
_Static_assert(__builtin_offsetof(struct rdb_state, clone_frame) == RDB_STATE_CLONE_FRAME,
               "layout.h RDB_STATE_CLONE_FRAME");
_Static_assert(__builtin_offsetof(struct rdb_state, sic_origin) == RDB_STATE_SIC_ORIGIN &&
                   __builtin_offsetof(struct rdb_state, interval) == RDB_STATE_INTERVAL,
               "layout.h RDB_STATE_SIC_ORIGIN, RDB_STATE_INTERVAL");
_Static_assert(__builtin_offsetof(struct rdb_state, dbg_stop) == RDB_STATE_DBG_STOP &&
                   __builtin_offsetof(struct rdb_state, dbg_slot) == RDB_STATE_DBG_SLOT,
               "layout.h RDB_STATE_DBG_STOP, RDB_STATE_DBG_SLOT");
_Static_assert(__builtin_offsetof(struct rdb_state, chan_in) == RDB_STATE_CHAN_IN,
               "layout.h RDB_STATE_CHAN_IN");
_Static_assert(sizeof(struct rdb_state) <= RDB_STATE_SIZE, "state region too small");
_Static_assert(-RDB_SC_CUT == RDB_TF_RET_CUT, "layout.h RDB_SC_CUT");

/* The fs base (TLS): one instruction where the CPU has FSGSBASE, else
 * arch_prctl (many virtual machines hide the instructions). */
static inline uint64_t rdb_fs_base(void)
{
	uint64_t v = 0;
	if (RT->start.fsgsbase)
		__asm__ volatile("rdfsbase %0" : "=r"(v));
	else
		rdb_sys2(__NR_arch_prctl, RDB_ARCH_GET_FS, (long)&v);
	return v;
}

static inline void rdb_set_fs_base(uint64_t v)
{
	if (RT->start.fsgsbase)
		__asm__ volatile("wrfsbase %0" : : "r"(v) : "memory");
	else
		rdb_sys2(__NR_arch_prctl, RDB_ARCH_SET_FS, (long)v);
}

/* A byte's S plane byte (docs/hooks.md). */
static inline uintptr_t rdb_s_of(uintptr_t a) { return a - RDB_S_OFFSET; }

static inline int rdb_covered(uintptr_t a, size_t n)
{
	return a >= RDB_COVER_LO && a <= RDB_COVER_HI && n <= RDB_COVER_HI - a;
}

/* ---- util.c ----------------------------------------------------------- */
void *rdb_memset(void *d, int c, size_t n);
void *rdb_memcpy(void *d, const void *s, size_t n);
size_t rdb_strlen(const char *s);
int rdb_strcmp(const char *a, const char *b);
int rdb_memcmp(const void *a, const void *b, size_t n);
void rdb_vsnprintf(char *buf, size_t cap, const char *fmt, __builtin_va_list ap);
void rdb_snprintf(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rdb_write_all(int fd, const char *p, size_t n);
/* All n bytes on the socket fd (MSG_NOSIGNAL, EINTR retried): 0 or -errno. */
long rdb_send_all(int fd, const void *p, size_t n);
/* fd moved to the lowest free number >= min (close-on-exec), out of the
 * program's way; fd itself if that fails. */
long rdb_high_fd(long fd, long min);
/* Replay: writes through /proc/self/mem, whatever the protection (as a
 * debugger writes breakpoints); dies naming the address if it cannot.
 * The fd is kept: replay makes no real fork that would share it. */
void rdb_poke_mem(uint64_t a, const void *p, uint64_t n);
/* n bytes at a into to as the kernel reads them (process_vm_readv): an
 * unreadable address fails the call instead of killing us.  The bytes
 * read (fewer when the range runs into unreadable memory), or -errno. */
long rdb_peek(void *to, uint64_t a, uint64_t n);
_Noreturn void rdb_die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define RDB_ASSERT(c)                                                       \
	((c) ? (void)0 : rdb_die("%s:%d: assertion failed: %s\n", __FILE__,    \
	                         __LINE__, #c))

/* ---- grow.c: the tables whose length the program decides ------------- */
/* Each has a slot of RDB_GROW_SLOT bytes at a fixed address (layout.h),
 * mapped as it grows: its pointer in RT never changes. */
enum rdb_grow_slot { RDB_G_MAPS, RDB_G_REGIONS, RDB_G_SHARED, RDB_G_PENDING, RDB_G_QUEUED,
                     RDB_G_CTXQ, RDB_G_CB, RDB_G_STACKS, RDB_G_N };
void rdb_grow_init(void); /* in __rdb_start: the pointers */
/* Makes the first n bytes of the table usable: 1, or 0 when the kernel
 * refuses the memory (the caller stops recording, never the program). */
int rdb_grow_slow(int slot, uint64_t n);
static inline int rdb_grow(int slot, uint64_t n)
{
	return n <= RT->grow.grown[slot] || rdb_grow_slow(slot, n);
}

/* ---- start.c ---------------------------------------------------------- */
uint64_t __rdb_start(long *sp); /* the SIC's first %r15 */
unsigned long rdb_getauxval(unsigned long type);
/* The loaded program's ELF program headers (AT_PHDR), n of them. */
struct rdb_phdr {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz, align;
};
const struct rdb_phdr *rdb_phdrs(unsigned long *n);

/* ---- shadow.c --------------------------------------------------------- */
/* Read / write / syscall-write transitions over a byte range (any length,
 * any alignment); addresses outside the covered range are ignored. */
void rdb_shadow_read(uintptr_t a, size_t n);
void rdb_shadow_write(uintptr_t a, size_t n);
void rdb_shadow_syswrite(uintptr_t a, size_t n);
/* Forget the range (unmapped or replaced memory): both planes to zero. */
void rdb_shadow_clear(uintptr_t a, size_t n);

/* ---- syscall.c -------------------------------------------------------- */
long rdb_syscall_dispatch(long nr, const long args[6]);
/* Told each region of program memory a syscall wrote. */
typedef void rdb_wrote_fn(uintptr_t addr, size_t len);
void rdb_run_term(int status, int signo);

/* ---- chan.c: the channel to rdb ---------------------------------------- */
/* Records out (record), records in (replay). */
void rdb_chan_put(uint32_t type, const void *p, size_t n, const void *q, size_t m);
void rdb_chan_flush(void);
/* Reads exactly n bytes (d NULL: skipped): 1, 0 at the end, -1 short. */
int rdb_chan_read(void *d, size_t n);
int rdb_chan_peek(struct rdb_tf_rec *h);
int rdb_chan_peek_n(void *d, size_t n); /* n <= RDB_RBUF: may wait for them */
/* In __rdb_start: look for the channel, read HELLO, restore auxv in replay. */
void rdb_chan_init(void);
/* A recording starts (HELLO read): its options, then INIT to rdb. */
void rdb_chan_record(const struct rdb_tf_hello *hello, uint32_t init_flags);

/* ---- join.c: a process below rdb record that rdb did not start ---------- */
/* Connects to the recording RDB_RECORD_SOCKET names: 1 with the channel at
 * RDB_CHAN_FD and the values socket at RDB_VALUES_FD, HELLO to come; 0
 * (no recording, or it did not answer): the program runs unrecorded. */
int rdb_join(void);
/* In a recorded process's new fork child (after rdb_kids_child_start): if
 * the recording lets it join, the child records itself from here, its
 * recording starting at boundary 2 (its next SIC check); else it stays an
 * untraced descendant. */
void rdb_join_fork(int snap_ok); /* snap_ok: the parent had intervals */

/* ---- record.c: the recording of syscalls -------------------------------- */
long rdb_record_syscall(long nr, const long *a);
void rdb_record_stop(void);
/* A limit the recording cannot pass (what: which, and why): it stops at
 * the last complete syscall, with a NOTE and a message, and the program
 * runs on unrecorded. */
void rdb_record_limit(const char *what);

/* ---- sysreplay.c: the replay of syscalls -------------------------------- */
long rdb_replay_syscall(long nr, const long *a);

/* ---- rr.c: the dispatch's entry in record or replay mode --------------- */
/* The dispatch in record or replay mode (RT->mode != 0). */
long rdb_rr_syscall(long nr, const long args[6]);
/* The program's operation on the channel's fd: refused with EBADF. */
int rdb_rr_hidden(long nr, const long args[6]);
const char *rdb_rr_name(long nr); /* "?" if unknown */
/* What record and replay both ask of a call (arguments a). */
int rdb_rr_file_mmap(long nr, const long *a);
int rdb_rr_moving_mremap(long nr, const long *a);
int rdb_rr_spawn(long nr, const long *a); /* vfork, clone(CLONE_VM): run as a fork */
int rdb_rr_clone_made(long nr, const long *a); /* made by syscall.S, a thread */
int rdb_rr_std_write(long nr, const long *a); /* a write to fd 1 or 2 */
int rdb_rr_closes_ours(long nr, const long args[6]); /* close_range over our fds */
/* The memory the kernel reads in a call that replay runs again (result r;
 * hashed: its TRAP has the hash of what it wrote) counts as read. */
void rdb_rr_mark_kernel_reads(long nr, const long *a, long r, int hashed);

/* ---- exit.c: the end of a recorded or replayed run --------------------- */
/* rdb_run_term's part: send or check the TERM record. */
void rdb_rr_term(int status, int signo);
/* Replay cannot go on: "rdb: replay diverged " + fmt, exit status 125. */
_Noreturn void rdb_replay_diverged(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Replay: the trace ends (END record h) where the program wanted more. */
_Noreturn void rdb_replay_at_end(const struct rdb_tf_rec *h, const char *what);
/* Ends the replay as the recording ended (END says how); why: a message. */
_Noreturn void rdb_replay_end(const char *why);
/* The records up to END, END's exit into x; outputs: write the fork
 * children's output on the way. */
void rdb_replay_skip_to_end(struct rdb_tf_exit *x, int outputs);

/* ---- nondet.c: nondeterministic instructions ---------------------------- */
/* nondet.S's helpers: run, record or replay one instruction; g holds the
 * saved registers, in the order nondet.S pushes them: */
enum { RDB_NDG_R12, RDB_NDG_R11, RDB_NDG_R10, RDB_NDG_R9, RDB_NDG_R8, RDB_NDG_RBP,
       RDB_NDG_RDI, RDB_NDG_RSI, RDB_NDG_RDX, RDB_NDG_RCX, RDB_NDG_RBX, RDB_NDG_RAX,
       RDB_NDG_FLAGS };
void rdb_nondet(uint32_t kind, uint64_t *g);
const char *rdb_nondet_name(uint32_t kind); /* "rdtsc", ... */

/* ---- syscall.c (continued) -------------------------------------------- */
/* The syscall as the runtime runs it unrecorded; emit sees each region the
 * kernel wrote (after the SYSWRITE transition), when not NULL. */
long rdb_run_syscall(long nr, const long args[6], rdb_wrote_fn *emit);

/* ---- systab.c: syscallgen's table (rdb_syscalls.h), behind one door --- */
#define RDB_NPRE 4
typedef void rdb_systab_emit_fn(void *ctx, uintptr_t addr, size_t len);
/* "read" for 0, NULL if unknown; the row's attributes (RDB_SYS_*). */
const char *rdb_systab_name(long nr);
#define RDB_ATTR_ADDRSPACE (1u << 3) /* checked against rdb_syscalls.h */
#define RDB_ATTR_REEXEC (1u << 6)
#define RDB_ATTR_NOCUT (1u << 9)
#define RDB_ATTR_FORKS (1u << 11)
#define RDB_ATTR_EXECS (1u << 12)
#define RDB_ATTR_CLOSES (1u << 13)
#define RDB_ATTR_EXITS (1u << 14)
#define RDB_ATTR_SENDS (1u << 15)
#define RDB_ATTR_SIGSTATE (1u << 19)
#define RDB_ATTR_MAYBLOCK (1u << 20)
unsigned rdb_systab_attrs(long nr);
/* syscalls.spec's fact attributes (rdb_syscalls.h rdb_sys_fact says what
 * each puts in out[4]): 1 when the call has it and it holds. */
#define RDB_FACT_SENDS 0
#define RDB_FACT_FILEWRITE 1
#define RDB_FACT_FILECHANGE 2
#define RDB_FACT_NEWFD 3
#define RDB_FACT_SIGSTATE 4
#define RDB_SHAPE_PLAIN 0 /* SENDS's shapes */
#define RDB_SHAPE_IOVEC 1
#define RDB_SHAPE_MSGHDR 2
#define RDB_SHAPE_MMSG 3
int rdb_systab_fact(int kind, long nr, const long args[6], long r, long out[4]);
/* FILEWRITE's fd argument (its index), known before the call; -1 if none. */
int rdb_systab_wfd(long nr);
/* How many arguments the call takes (6 when unknown): the registers past
 * them hold whatever the caller left, which may differ on replay. */
int rdb_systab_nargs(long nr);
/* 1 if one of the call's fd arguments equals fd. */
int rdb_systab_uses_fd(long nr, const long args[6], long fd);
/* 0 when the call may run; else writes why not into buf (NUL-terminated). */
size_t rdb_systab_refusal(long nr, const long args[6], char *buf, size_t cap);
/* Before the call: captures what the writes need. */
void rdb_systab_pre(long nr, const long args[6], long pre[RDB_NPRE]);
/* After it: calls emit for each region of program memory the kernel wrote. */
void rdb_systab_writes(long nr, const long args[6], const long pre[RDB_NPRE],
                       long ret, rdb_systab_emit_fn *emit, void *ctx);
/* After it (result r): whether the process may have learnt of another
 * process's stores (syscalls.spec ACQUIRES); regular(0, fd) says whether
 * fd is a regular file's. */
int rdb_systab_acquires(long nr, const long args[6], long r, int (*regular)(void *, long));
/* Before it: 1 with the address and size of the signal mask the call
 * waits with (syscalls.spec SIGMASK), read from program memory; else 0. */
int rdb_systab_sigmask(long nr, const long args[6], long mask[2]);

/* ---- signal.c --------------------------------------------------------- */
void rdb_signal_init(void);
/* Every signal blocked (the kernel's mask, not the program's view);
 * returns the mask it replaced, for rdb_set_mask. */
uint64_t rdb_block_all(void);
void rdb_set_mask(uint64_t m);
#define RDB_SIG_TIMER 64 /* the interval timer's: reserved for the runtime */
/* Delivers signo with the recorded siginfo to the program's handler at the
 * next return to the program (the signal is queued, blocked until then). */
void rdb_signal_requeue(int signo, const uint8_t info[128]);
/* signo to this thread, past RLIMIT_SIGPENDING's soft limit; at the hard
 * one without its siginfo (as the kernel sends such a kill). */
long rdb_signal_send_self(int signo, const uint8_t info[128]);
void rdb_signal_queue_again(const struct rdb_tf_queued *q, uint64_t n);
long rdb_sig_altstack(const uint64_t *ss, uint64_t *old, uintptr_t sp);
void rdb_signal_reserve_timer(void);
/* sig is the runtime's from now on: the program changes only its view. */
void rdb_signal_reserve(int sig);
/* The program's alternate signal stack [lo, hi) as the kernel has it; 0, 0
 * if none. */
void rdb_altstack(uint64_t *lo, uint64_t *hi);
/* sp on the runtime's signal stack, or on its syscall stack (layout.h) */
/* The running thread's own stacks (thread.c). */
static inline int rdb_on_sigstack(uint64_t sp) { return sp - TH->sig_lo < RDB_SIGSTACK_SIZE; }
static inline int rdb_on_scstack(uint64_t sp) { return sp - TH->sc_lo < RDB_SCSTACK_SIZE; }
void rdb_signal_reinstall(void);
#define UC_GREGS 40
#define UC_SIGMASK 296
#define UC_FPREGS (UC_GREGS + 23 * 8)
/* A ucontext's words (struct rdb_sigframe's uc): uc_flags, uc_link, the
 * uc_stack (a stack_t: RDB_SS_*), then the registers from UC_GREGS. */
enum { RDB_UC_FLAGS = 0, RDB_UC_LINK = 1, RDB_UC_STACK = 2, RDB_UC_GREGS = UC_GREGS / 8,
       RDB_UC_FPREGS = UC_FPREGS / 8, RDB_UC_SIGMASK = UC_SIGMASK / 8 };
/* The kernel's stack_t (sigaltstack, uc_stack) as three words: sp, flags
 * (an int), size; and its flags and least size. */
enum { RDB_SS_SP = 0, RDB_SS_FLAGS = 1, RDB_SS_SIZE = 2 };
#define RDB_SS_ONSTACK 1ull
#define RDB_SS_DISABLE 2ull
#define RDB_SS_AUTODISARM (1ull << 31)
#define RDB_MINSIGSTKSZ 2048
enum { REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
       REG_RDI, REG_RSI, REG_RBP, REG_RBX, REG_RDX, REG_RAX, REG_RCX, REG_RSP,
       REG_RIP, REG_EFL, REG_CSGSFS, REG_ERR, REG_TRAPNO, REG_OLDMASK, REG_CR2 };
static inline uint64_t *rdb_gregs(void *uc) { return (uint64_t *)((char *)uc + UC_GREGS); }
void rdb_sig_entry(int sig, void *si, void *uc); /* the kernel's handler */
/* Around the dispatch of each program syscall (entry stub) ... */
void rdb_signal_stub_enter(long nr, const long args[6]);
void rdb_signal_stub_leave(void);
/* ... the syscall itself (in rdb_run_syscall) ... */
long rdb_signal_syscall(long nr, const long args[6]);
long rdb_prog_syscall(long nr, const long args[6], const int *cut); /* syscall.S */
/* ... and a check's event (sic.c): what it queued again at the stub's
 * check goes in with the call's mask (sigsuspend's). */
void rdb_signal_after_event(void *uc, uint64_t pc, uint64_t requeued_before);
void rdb_restore_rt(void);                         /* syscall.S */
void rdb_handler_return(void); /* syscall.S: a handler's pretcode */
uint32_t rdb_xstate_size(const uint8_t *fp); /* the kernel's xsave image's size */
uint64_t *rdb_handler_done(struct rdb_sigframe *f); /* signal.c: its C part */
/* Copies n bytes to the program's memory at dst; -1 if that faults
 * (syscall.S; rdb_sig_entry recovers from the fault). */
long rdb_copy_out(void *dst, const void *src, size_t n);
long rdb_sig_action(long sig, const struct rdb_ksigaction *act,
                    struct rdb_ksigaction *oact, long setsize);
long rdb_sig_procmask(long how, const uint64_t *set, uint64_t *oset,
                      long setsize);

/* ---- sic.c: the SIC and its checks ------------------------------------ */
void rdb_sic_init(void);
/* The current interval's count, from a saved %r15. */
uint64_t rdb_sic_count(uint64_t r15);
/* Past the SIC increment and check at p, each where it is (before end). */
uintptr_t rdb_sic_skip(uintptr_t p, uintptr_t end);
/* 1 if the fault (si, uc) is a SIC check's; then runs the event. */
int rdb_sic_fault(void *si, void *uc);
/* Ask for an event at the next check of the code uc interrupted. */
void rdb_sic_want(void *uc);
/* The running thread's SIC origin: %r15 = origin + count (thread 0's is
 * RT->sic_origin). */
uint64_t *rdb_sic_origin(void);
/* Sets %r15 in uc, at count, so that the first check at or past target
 * faults (0: none but a recording's 2^40; target == count: the next). */
void rdb_sic_arm(void *uc, uint64_t count, uint64_t target);
/* Sets the origin for count so that the first check at or past stop
 * faults (0: none); returns the value %r15 must have. */
uint64_t rdb_sic_set(uint64_t count, uint64_t stop);

/* Maps thread k's window (thread.c, for a new thread); 0 or -errno. */
long rdb_sic_map(unsigned k);

/* ---- thread.c: threads of an unrecorded run ---------------------------- */
void rdb_thread_init(void);  /* __rdb_start: thread 0, the main thread */
/* syscall.S, before clone(CLONE_VM) of a new stack: a slot for the child,
 * mapped and set; returns the %r15 it starts with, 0 when none is free. */
uint64_t rdb_thread_prepare(long flags, long ctid);
/* syscall.S, in the child at once: its signal stack; stack: the clone's. */
void rdb_thread_child(uintptr_t stack);
/* syscall.S, in the parent of a thread made while recording or replaying:
 * its clone's TRAP (ret: the kernel's result; args a); the result the
 * program gets. */
long rdb_thread_parent(long ret, const long a[6]);
/* A syscall of a thread other than the main one that the runtime ends
 * itself (its exit; munmap of its own stack, musl's __unmapself): 1 and
 * never returns, else 0. */
int rdb_thread_syscall(long nr, const long a[6]);
/* signal.c, unrecorded: a handler that interrupts the runtime's part of a
 * syscall (hs RDB_HS_IN_CALL) sees the program at the call when the
 * kernel call had not completed (musl's cancellation reads the pc); its
 * return goes back into the runtime, or, if it moved the pc, on in the
 * program with the call abandoned (hs from the frame, g its registers). */
void rdb_call_present(void *uc, struct rdb_hstate *hs);
void rdb_call_back(uint64_t *g, struct rdb_hstate *hs);
/* 1: this process runs in memory another owns (a vfork child, one made
 * with CLONE_VM but not CLONE_THREAD): its exit is not the program's, the
 * termination callbacks are the owner's. */
void rdb_thread_forked(void); /* a fork child: the caller's slot is its own */
int rdb_thread_borrowed(void);

/* ---- sched.c: one thread at a time (record and replay) ----------------- */
void rdb_sched_init(uint32_t slice, int chaos);
/* 1 when the running thread is the only one, and the main one: a boundary
 * may be taken (docs/threads.md). */
int rdb_sched_alone(void);
/* record: a boundary may be taken here (alone, or RDB_THREAD_BOUNDARIES=1
 * and holding the token) */
int rdb_sched_boundary_ok(void);
/* record: the THCTX records of boundary `interval`, taken at (count, pc) */
void rdb_sched_rebased(uint64_t count);
void rdb_sched_boundary_send(uint64_t interval, uint64_t count, uint64_t pc);
/* replay: the THCTX records after a boundary's TARGET, compared with the
 * parked threads when verifying */
void rdb_sched_boundary_check(uint64_t count, uint64_t pc);
/* record: at a check's event: the time slice's end hands the token on. */
void rdb_sched_event(void *uc, uint64_t count, uint64_t pc);
/* record: the stop a check's event arms: stop (0: none) or the slice's end. */
uint64_t rdb_sched_stop(uint64_t count, uint64_t stop);
/* record: around a syscall that may block (syscalls.spec MAYBLOCK). */
int rdb_sched_block(long nr, const long a[6]);
void rdb_sched_unblock(void);
/* replay: before a MAYBLOCK syscall: the recorded switch there, if any. */
void rdb_sched_replay_block(long nr);
/* replay: a SLICE switch at an event: the token to `to`, back later. */
void rdb_sched_replay_give(const struct rdb_tf_switch *s);
/* replay: a SLICE switch at an event, uc the thread's context */
void rdb_sched_replay_slice(void *uc, const struct rdb_tf_switch *s);
/* thread.c: a thread is made (prepare: the slot; parent: the clone's
 * result, recorded or replayed; child: it waits for the token). */
int rdb_sched_prepare(void);
long rdb_sched_parent(long ret, const long a[6]);
void rdb_sched_child(void);
/* record: in a fork child, which has only the thread that forked. */
void rdb_sched_forked(void);
/* A thread's end while recording or replaying: recorded, then exit. */
_Noreturn void rdb_sched_exit(long status);
/* sched.c, for threvive.c: wait for the token (replay), and mark the
 * thread running */
void rdb_sched_wait_token(void);
/* The buffers [lo, hi) of the reads (and sleeps' rests) other threads
 * wait in (at most RDB_UNSETTLED_MAX), which the kernel may write during a
 * boundary: its hashes leave them out; returns how many. */
#define RDB_UNSETTLED_MAX 64
int rdb_sched_unsettled(uint64_t r[][2]);
void rdb_sched_unpark(void);
/* threvive.c: replay --from K of an interval that began while several
 * threads lived: read its THCTX and THSTATE records (after the start
 * TARGET) and make every thread but the holder again, parked; returns
 * the holder's slot, which the calling thread becomes. */
unsigned rdb_threads_revive_read(void);
_Noreturn void rdb_threads_revive_start(unsigned holder);
/* thread.c: slot k made ready for a thread replay --from makes again */
struct rdb_thread *rdb_thread_revive_slot(unsigned k);
/* replay.c: musl's thread pointer's self word at fs (replay --from) */
void rdb_replay_tls_self(uint64_t fs);
/* replay.c: the holder's entry at replay --from K (on its own thread) */
_Noreturn void rdb_replay_holder_enter(void);
/* sysreplay.c: a replayed syscall after its thread switch */
long rdb_replay_syscall_rest(long nr, const long *a);
/* replay.c: the value %r15 gets for the next TARGET at count. */
uint64_t rdb_replay_arm(uint64_t count);
/* replay.c: whether the TARGET is this thread's event of kind at (count, pc). */
int rdb_replay_target_at(uint32_t kind, uint64_t count, uint64_t pc);

/* ---- interval.c: boundaries while recording --------------------------- */
void rdb_interval_init(void);  /* after the channel: timer, first snapshot */
int rdb_interval_fork_child(void); /* a fork child records itself (join.c) */
void rdb_interval_timer(void *uc); /* the timer's signal */
/* A check faulted: a pending signal, or the boundary. */
void rdb_record_event(void *uc, uint64_t count, uint64_t pc);
void rdb_interval_end(void);   /* the program is exiting: last values */
/* Thread t's stack-switch marks (struct rdb_thread stack_lo .. dead_cut,
 * read by hooks.S) for the interval that begins with its %rsp at sp
 * (RT->procmaps.maps are the boundary's): a boundary calls it for every
 * thread, record and replay alike. */
void rdb_interval_saved_stack(struct rdb_thread *t, uint64_t sp);
/* Thread t's own stack as a boundary must save it whole, its %rsp-based
 * accesses having no hooks: [*lo, *hi) from its lowest page with a
 * nonzero byte (below, the mapping holds zeros) to its mapping's end; 0
 * if no mapping holds it (RT->procmaps.maps read). */
int rdb_thread_stack(const struct rdb_thread *t, uint64_t *lo, uint64_t *hi);
/* The page past the stack a clone gave a thread (top: its %rsp), with
 * the words the child pops there first (musl's __clone leaves the start
 * argument at the new %rsp): where that thread's stack ends. */
static inline uint64_t rdb_clone_stack_end(uint64_t top) { return (top + 64 + 4095) & ~4095ull; }
void rdb_interval_exec(void);  /* before an execve: values if it succeeds */
/* Before the program closes a descriptor: the snapshot children's copies
 * are closed. */
void rdb_interval_fds_shut(void);
void rdb_interval_exec_failed(void); /* it returned: the interval goes on */
/* Before the planes of [a, a + n) are cleared mid-interval (munmap, ...). */
void rdb_interval_forget(uintptr_t a, size_t n);

/* ---- watch.c: the watchpoint of rdb flowback (replay) ------------------- */
void rdb_watch_init(const struct rdb_tf_watch *req);
void rdb_watch_arm(void);        /* the program runs from here */
void rdb_watch_pause(int pause); /* 1: the runtime restores memory; 0: done */
void rdb_watch_interval(void);   /* replay: a new interval, counted afresh */
int rdb_watch_trap(const void *si, void *uc); /* 1: a breakpoint's SIGTRAP */
enum { RDB_WATCH_RUNTIME, RDB_WATCH_SYSCALL, RDB_WATCH_FORGET };
int rdb_watch_open(uintptr_t a, size_t n, int kind);
void rdb_watch_close(int opened);
int rdb_watch_fault(const void *si, void *uc); /* 1: a hook's store, done */
void rdb_watch_report(void); /* to rdb: the last writes and the value now */

/* ---- written.c: what each interval wrote (flowback) --------------------- */
void rdb_written_begin(uint64_t interval);
void rdb_stackwrite_start(void);
void rdb_stackwrite_scan(uint64_t interval);

/* ran.c */
void rdb_ran_scan(uint64_t interval);
void rdb_ran_resume(uint64_t pc);
int rdb_ran_holds(uintptr_t a);
void rdb_written_words(uintptr_t a, uint64_t s, size_t n); /* s: the S plane word of each */
void rdb_written_end(void); /* the rest goes on the channel */

/* ---- replay.c: boundaries and signals while replaying ------------------ */
/* In __rdb_start when HELLO says --from K >= 2: restores and never returns. */
_Noreturn void rdb_replay_enter(void);
void rdb_replay_event(void *uc, uint64_t count, uint64_t pc);
/* First TARGET (whole replay). */
void rdb_replay_first_target(void);
/* replay --timing: says when the program resumes (rdb_replay_restore and
 * __rdb_start call it last). */
void rdb_replay_timing(void);

/* ---- planes.c --------------------------------------------------------- */
/* fn for every 8-byte word a in [lo, hi) (rounded out to words) whose R
 * or S word is not zero, with both words. */
/* n >= 1 words from a, each with the plane words r and s (a run: the walk
 * calls once for words that repeat, e.g. a page read whole). */
typedef void rdb_word_fn(void *ctx, uintptr_t a, uint64_t r, uint64_t s, size_t n);
void rdb_planes_walk(uintptr_t lo, uintptr_t hi, rdb_word_fn *fn, void *ctx);
/* The same, and both planes of [lo, hi) are zero after it (a boundary's
 * scan and clear in one pass, record only: rdb_planes_clear_maps). */
void rdb_planes_take(uintptr_t lo, uintptr_t hi, rdb_word_fn *fn, void *ctx);
/* 1: the walks that follow (a pass over every mapping) share what
 * mincore said of the planes; 0: each asks again (the program ran). */
void rdb_planes_batch(int on);
/* A boundary, record and replay alike: both planes of every mapping in
 * RT->procmaps.maps to zero (the kernel's special mappings aside, and
 * those taken says a take has cleared already; taken may be 0). */
void rdb_planes_clear_maps(int (*taken)(const struct rdb_tf_map *));

/* ---- procmaps.c ------------------------------------------------------- */
/* The program's mappings in the covered range (from /proc/self/maps),
 * into RT->procmaps.maps and RT->procmaps.nmaps: 1, or 0 if they could not be read (the
 * table could not grow, or no fd was left for the file). */
int rdb_procmaps(void);
/* The entry of m[0..n) (sorted, disjoint) that holds a, or NULL. */
const struct rdb_tf_map *rdb_map_find(const struct rdb_tf_map *m, size_t n, uint64_t a);

/* ---- children.c ------------------------------------------------------- */
/* The program's fork descendants while recording (docs/trace-format.md
 * "Fork children"): their writes to the recording's stdout and stderr go
 * on the channel as CHILD_OUTPUT records. */
void rdb_kids_lock(void);   /* around every write of records on the channel */
void rdb_kids_unlock(void);
void rdb_kids_prefork(void); /* record: the program is about to fork */
void rdb_kids_child_start(void); /* record: in the new child */
void rdb_kids_exec_start(void);  /* start-up without a channel: a descendant? */
int rdb_kids_hidden(long nr, const long args[6]); /* fds 1000-1003 */
/* The fd of 1000-1003 the call asks for as its new fd (dup2, dup3,
 * fcntl F_DUPFD*), else -1: natively the program would get it. */
long rdb_kids_wanted(long nr, const long args[6]);
long rdb_kids_syscall(long nr, const long args[6]); /* a descendant's syscall */
/* A descendant that records itself too (join.c) does these two of them
 * in its recorded syscalls: its output to the parent's recording, and
 * the fds an exec'd rdb-cc program keeps. */
void rdb_kids_capture(long nr, const long *a, long r);
void rdb_kids_exec_fds(long nr, const long *a);
/* Replay: a CHILD_OUTPUT or SHARED record is next (h, unread): consume it
 * (write the output, apply the memory); 0 if h is another record. */
int rdb_kids_consume(const struct rdb_tf_rec *h);
void rdb_kids_drain(void); /* replay: consume those that come next */

/* ---- shared.c --------------------------------------------------------- */
/* After every syscall, record and replay: keep the list of MAP_SHARED
 * mappings (from the call and its result). */
void rdb_shared_track(long nr, const long args[6], long ret);
void rdb_shared_prefork(void);        /* record: copies as they are now */
/* record: SHARED records after call id (nr, args a, result r) */
void rdb_shared_sync(uint64_t id, long nr, const long a[6], long r);
void rdb_shared_boundary(void);       /* record: copies at the boundary */
void rdb_shared_fork_child(void);     /* record: a fork child that records itself */
/* Snapshot child: [a, a + n) as the copies have it, over what is in to. */
int rdb_shared_overlay(void *to, uint64_t a, uint64_t n); /* 1: copies cover it all */
int rdb_shared_overlaps(uint64_t a, uint64_t n); /* [a, a + n) meets MAP_SHARED memory */
int rdb_mremap_refused(const long *a); /* syscall.c: 1 (and says so) if refused */
/* procmaps: split RT->procmaps.maps at tracked mappings and give them their
 * kinds; 0 if the table could not grow. */
int rdb_shared_kinds(void);
void rdb_shared_from_maps(const struct rdb_tf_map *m, size_t n); /* replay --from */
void rdb_shared_apply(const struct rdb_tf_shared *s); /* replay: len bytes follow */

/* ---- checksum.c ------------------------------------------------------- */
/* Hashes of memory touched in this interval (the planes) and of all
 * writable memory, each with the stack from rsp and the registers. */
void rdb_checksum_thread_stack(uint64_t top); /* a clone's new stack */
void rdb_checksum(const uint64_t *gregs, const struct rdb_tf_map *m, size_t n,
                  uint64_t *touched, uint64_t *full);

/* ---- fpverify.c: replay --verify's FPU and vector registers ------------- */
int rdb_fp_diff(const uint8_t *a, uint32_t na, const uint8_t *b, uint32_t nb, char *what,
                size_t cap);
void rdb_xstate_layout(void); /* signal.c: RT->signal.xs_off, xs_size */

/* ---- whash.c: the bytes write-like calls handed the kernel ------------- */
/* fn(ctx, addr, len) for each region whose bytes the call (result r)
 * wrote, with arr also the arrays describing them; 0 if nr is no such. */
int rdb_whash_regions(long nr, const long *a, long r, int arr,
                      void (*fn)(void *ctx, uintptr_t a, size_t n), void *ctx);
int rdb_whash(long nr, const long *a, long r, uint64_t *h); /* 1: h, their hash */

/* ---- unhook.c: replay without the hooks' stores ------------------------- */
void rdb_unhook(int reads, int writes);
int rdb_hook_plane(uintptr_t pc); /* 'R', 'S': pc is in a read (write) hook; 0 */
int rdb_in_check_hook(uintptr_t pc); /* pc is in a read hook with a check */
uintptr_t rdb_hooks_end(uintptr_t lo, uintptr_t hi);

/* ---- iot.c ------------------------------------------------------------ */
void rdb_iot_init(void);
/* The entry whose sequence holds pc, or NULL. */
/* The .rdb_iot section of the ELF file fd (raw syscalls, stack buffers:
 * usable before self-relocation): 1 with its address and size, or 0. */
int rdb_elf_iot_section(int fd, uint64_t *addr, uint64_t *size);
const struct rdb_iot_entry *rdb_iot_find(uintptr_t pc, uintptr_t *start);
/* The status flags a boundary at pc compares (--verify, checksums): none
 * where altr found them dead. */
uint64_t rdb_live_flags(uintptr_t pc);
uintptr_t rdb_iot_rerun(uintptr_t pc); /* a faulting access's hooks, again */
int rdb_iot_after_hooks(uintptr_t pc); /* pc: an instruction after its hooks */
uintptr_t rdb_iot_insn(uintptr_t pc);  /* the program's instruction at a fault */
/* Where the listed hooks of pc's group end (the program's instruction
 * starts there), or 0 (no group, or no listed hook in it). */
uintptr_t rdb_iot_insn_start(uintptr_t pc);

#pragma GCC visibility pop

#endif
