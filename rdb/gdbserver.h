/* gdbserver.h: rdb's gdb server, private to its four files (one section
 * each): rsp.c the wire, target.c one replay under ptrace, timeline.c
 * positions and going back, gdbserver.c the protocol's commands. */
#ifndef RDB_GDBSERVER_H
#define RDB_GDBSERVER_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

#include "rdb.h"

/* ---- swatch.c: a hook's access to a plane, for shadow-page watches --- */
struct rdb_planeop;
/* The hook's access at p (16 bytes of code) with registers r: 1 and *op
 * (runtime/planeop.h), or 0 if it is no hook's plane access. */
int rdb_sw_decode(const uint8_t p[16], const struct user_regs_struct *r, struct rdb_planeop *op);
/* Whether the instruction at b is one of rdb's hooks (a store to the S
 * plane, a read hook's store to or compare with the R plane, the `lea`
 * into %r12 before one, or a no-op a replay made). */
int rdb_sw_is_hook(const uint8_t b[8]);

/* ---- stackstore.c: a program's store rdb does itself (a watched stack page) */
enum { RDB_SS_MOV, RDB_SS_ADD, RDB_SS_SUB };
struct rdb_ss {
	int op;       /* RDB_SS_* */
	unsigned len; /* the instruction's bytes */
	unsigned size; /* the store's bytes: 1, 2, 4 or 8 */
	uint64_t ea;  /* where it writes */
	uint64_t src; /* the source (an immediate sign-extended), size bytes */
	int64_t rsp;  /* what it adds to %rsp (push, call: -8) */
	uint64_t jump; /* a call's target (0: on to the next instruction) */
};
/* The store at p (16 bytes of code, at r->rip) with registers r: 1 and *o
 * if it is a form stackstore.c does (mov, add or sub of a register or an
 * immediate to memory, push, call rel32), else 0. */
int rdb_ss_decode(const uint8_t p[16], const struct user_regs_struct *r, struct rdb_ss *o);
/* What o writes over old (size bytes), and the status flags after it in
 * *efl (a mov keeps them). */
uint64_t rdb_ss_apply(const struct rdb_ss *o, uint64_t old, uint64_t *efl);

/* ---- memaccess.c: a program instruction's memory accesses (capstone) --- */
enum { RDB_MA_READ = 1, RDB_MA_WRITE = 2, RDB_MA_MAX = 4 };
/* the plain loads rdb may do itself (rdb_ma_load) */
enum { RDB_MA_NONE, RDB_MA_MOV, RDB_MA_POP, RDB_MA_RET, RDB_MA_CMP };
struct rdb_ma {
	unsigned len; /* the instruction's bytes */
	int n;        /* its accesses */
	struct {
		uint64_t addr;
		uint32_t size;
		int rw; /* RDB_MA_READ | RDB_MA_WRITE */
	} a[RDB_MA_MAX];
	int load;      /* RDB_MA_*: a load into a general register, a[0] its read */
	int dst;       /* its register (ModRM numbering, 0-15) */
	unsigned dsize; /* the bytes of it written (1 with dhigh: %ah %ch %dh %bh) */
	int dhigh, sx; /* sx: sign-extended from a[0].size */
	uint64_t pop;  /* a ret's bytes popped past the return address */
	uint64_t cmp;  /* a cmp's other operand (an immediate or a register's value) */
	int cmprev;    /* ... subtracted from it (cmp %reg, mem), not it from memory */
};
/* The accesses of the instruction at p (n bytes of code, at r->rip) with
 * registers r, implicit ones included (push, pop, call, ret, leave, enter,
 * string instructions, xlat, maskmov), effective addresses with their
 * fs or gs base: 1 and *o; 0 when capstone does not know the
 * instruction or its accesses cannot be told (a gather's or scatter's
 * vector index, xsave's size, enter with nesting). */
int rdb_ma_decode(const uint8_t *p, size_t n, const struct user_regs_struct *r, struct rdb_ma *o);
/* A plain load (o->load) done on r with the value val read at a[0]:
 * the destination register, %rsp and %rip as the instruction leaves
 * them (a cmp of memory with an immediate or a register: its status
 * flags, stackstore.c's sub's). */
void rdb_ma_load(const struct rdb_ma *o, uint64_t val, struct user_regs_struct *r);

/* ---- rsp.c: packets on a connection ------------------------------------ */
struct rdb_rsp;
/* A listening loopback (or HOST's) TCP socket on PORT (0: any; *port gets
 * it): the fd, fatal on errors. */
int rdb_rsp_listen(const char *host, int port, int *bound);
/* The first connection on lfd (closed then). */
struct rdb_rsp *rdb_rsp_accept(int lfd);
void rdb_rsp_close(struct rdb_rsp *c);
int rdb_rsp_fd(const struct rdb_rsp *c);
/* The next packet's data (NUL-terminated, escapes left as sent): 1, or 0
 * when the session ends (gdb gone, or garbage: *why says which). */
int rdb_rsp_get(struct rdb_rsp *c, char **data, size_t *n, const char **why);
/* A byte waiting while the program runs: 1 for gdb's interrupt (^C), 0
 * for nothing yet, -1 when the connection ended or sent garbage. */
int rdb_rsp_poll_interrupt(struct rdb_rsp *c);
int rdb_rsp_put(struct rdb_rsp *c, const char *data, size_t n);
int rdb_rsp_putf(struct rdb_rsp *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int rdb_rsp_vputf(struct rdb_rsp *c, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void rdb_rsp_noack(struct rdb_rsp *c);

/* ---- target.c: one replay, traced ---------------------------------------- */
/* sp: a ret does not count, so a pc may run again in the same count, in
 * a caller's frame (a recursion's returns): its stack pointer is higher.
 * born: a thread made in the slot an ended one left, its stack where that
 * one's was, can come to the very (interval, count, pc, sp, slot) the
 * ended one was at; its birth tells them apart. */
struct rdb_pos {
	uint64_t interval, count, pc, sp, rcx; /* rcx: only for a rep instruction */
	uint64_t slot; /* the thread whose count it is (docs/threads.md) */
	uint64_t born; /* ... and its birth (births.c; 0: the main thread, or none) */
};

enum rdb_tg_kind {
	TG_STEPPED = 1, /* one program instruction done */
	TG_BREAK,       /* at a breakpoint's address, about to run it */
	TG_COUNT,       /* at the check of the wanted count (rdb_tg_cont's want) */
	TG_SIGNAL,      /* a signal for the program: sig (delivered at the next resume) */
	TG_INTR,        /* interrupted (gdb's ^C) */
	TG_EXITED,      /* ended: value is the status, or sig the signal */
	TG_ERROR,       /* ptrace failed or the replay is gone: message said */
	TG_WATCH,       /* after an access to a watchpoint's bytes: value is its
	                 * kind (2 write, 3 read, 4 access), addr its address */
};
struct rdb_tg_stop {
	int kind, sig, value;
	uint64_t addr; /* TG_WATCH */
	/* TG_WATCH by a call into the runtime (a syscall): the call's
	 * position, where the access is going back (pc 0: none) */
	struct rdb_pos before;
};

struct rdb_tg;
/* The replays of trace set dir, none running yet. */
struct rdb_tg *rdb_tg_new(const char *dir);
/* A new replay (the old one killed) from interval `from` (to: 0, or the
 * last interval it runs), stopped at its first program instruction. */
int rdb_tg_start(struct rdb_tg *t, uint64_t from, uint64_t to, int quiet);
void rdb_tg_kill(struct rdb_tg *t);
/* Reaps the replays and checkpoints killed (wait: all, else those gone). */
void rdb_tg_reap(struct rdb_tg *t, int wait);
/* Lets the program run on to its end untraced: rdb's exit status. */
int rdb_tg_detach(struct rdb_tg *t);
/* rdb's exit status for how the last replay ended (125: killed). */
int rdb_tg_status(const struct rdb_tg *t);
/* After the program ended: status and signal (0 for an exit). */
int rdb_tg_alive(const struct rdb_tg *t);
pid_t rdb_tg_pid(const struct rdb_tg *t);
const char *rdb_tg_dir(const struct rdb_tg *t);
const struct rdb_header *rdb_tg_header(const struct rdb_tg *t);
uint64_t rdb_tg_last_interval(const struct rdb_tg *t);
/* Where the replay is; 0, or -1 if it is not stopped. */
int rdb_tg_pos(struct rdb_tg *t, struct rdb_pos *p);
const struct user_regs_struct *rdb_tg_regs(struct rdb_tg *t);
/* The x87/SSE state (fxsave image, 512 bytes) and the AVX upper halves
 * (16 x 16 bytes, zero without AVX). */
int rdb_tg_fpregs(struct rdb_tg *t, uint8_t fx[512], uint8_t ymmh[256]);
/* Memory as the program has it (no breakpoint bytes): bytes read. */
size_t rdb_tg_read(struct rdb_tg *t, uint64_t addr, void *buf, size_t n);
int rdb_tg_auxv(struct rdb_tg *t, uint8_t *buf, size_t cap, size_t *n);
/* Breakpoints of the user's (inserted only while the program runs). */
int rdb_tg_bp_add(struct rdb_tg *t, uint64_t addr);
int rdb_tg_bp_del(struct rdb_tg *t, uint64_t addr);
int rdb_tg_bp_at(const struct rdb_tg *t, uint64_t addr);
int rdb_tg_bp_get(const struct rdb_tg *t, int i, uint64_t *addr); /* 0: no i-th */
void rdb_tg_bp_enable(struct rdb_tg *t, int on); /* 0: resume without them */
/* Watchpoints of the user's (gdb's Z2/Z3/Z4: kind 2 write, 3 read, 4
 * access), any number, any size: their bytes split into aligned pieces
 * of 1, 2, 4 or 8, armed four at a time in the debug registers (the
 * group: 0 .. rdb_tg_watch_groups() - 1).  A hit in the runtime is the
 * program's syscall writing (reported once back in program code) or the
 * runtime's own read (never reported). */
int rdb_tg_watch_add(struct rdb_tg *t, int kind, uint64_t addr, uint64_t len);
int rdb_tg_watch_del(struct rdb_tg *t, int kind, uint64_t addr, uint64_t len);
int rdb_tg_watch_groups(const struct rdb_tg *t);
void rdb_tg_watch_group(struct rdb_tg *t, int group);
void rdb_tg_watch_enable(struct rdb_tg *t, int on); /* 0: resume without them */
/* Without debug registers that fire (rdb_hw_watch_works, or
 * RDB_GDB_WATCH=shadow in rdb's environment) write watchpoints are
 * watched through the shadow pages (one group, any size), read and
 * access ones too unless RDB_GDB_WATCH=writes: 1 then. */
int rdb_tg_watch_shadow(void);
/* Whether read and access watchpoints can be set: with debug registers
 * that fire, or through the R plane (the replays keep their read hooks),
 * which RDB_GDB_WATCH=writes turns off. */
int rdb_tg_watch_reads(void);
/* Whether [lo, hi) may be written by stores through %rsp, which have no
 * hook (docs/hooks.md): in the main stack's mapping, or in the one %rsp
 * is in now (1; also when the replay's maps cannot be read). */
int rdb_tg_stacky(struct rdb_tg *t, uint64_t lo, uint64_t hi);
/* rdb_tg_stacky for watchpoint i (< the count rdb_tg_watch_get gives),
 * asked once per watchpoint of the replay alive (1 while it is not). */
int rdb_tg_watch_stacky(struct rdb_tg *t, int i);
/* This session's faults of program instructions on watched stack pages
 * (watchpoints without debug registers): all of them, those rdb did
 * itself (plain stores and loads), those memaccess.c could not decode
 * (run alone; a read watchpoint misses their reads). */
void rdb_tg_stack_faults(const struct rdb_tg *t, unsigned long *all, unsigned long *done,
                         unsigned long *unknown);
/* The watched ranges, for the timeline: the i-th (0: none left). */
int rdb_tg_watch_get(const struct rdb_tg *t, int i, int *kind, uint64_t *addr, uint64_t *len);
int rdb_tg_nbps(const struct rdb_tg *t);
/* One program instruction (the runtime's, between, run whole). */
void rdb_tg_step(struct rdb_tg *t, struct rdb_tg_stop *s);
/* On until a breakpoint, a signal, the end, gdb's interrupt or, with want
 * (!= 0), the first check that faults at count want or later in the
 * current interval (TG_COUNT: the program's first position from there;
 * an increment without a check can make it a later count). */
void rdb_tg_cont(struct rdb_tg *t, uint64_t want, struct rdb_tg_stop *s);
/* Temporary breakpoint at addr for one rdb_tg_cont (0: none). */
void rdb_tg_temp_bp(struct rdb_tg *t, uint64_t addr);
/* Signals go to the program without a stop (the timeline's replays). */
void rdb_tg_quiet_signals(struct rdb_tg *t, int on);
/* Signals (bit n: signal n) gdb lets the program have without a stop. */
void rdb_tg_pass_signals(struct rdb_tg *t, uint64_t mask);
/* gdb's interrupt: polled while the program runs. */
void rdb_tg_on_interrupt(struct rdb_tg *t, int (*poll)(void *ctx), void *ctx);
/* Whether pc is the check of a SIC increment (the first position of its
 * count) and whether the instruction at pc is a rep string one. */
int rdb_tg_is_check(struct rdb_tg *t, uint64_t pc);
int rdb_tg_is_rep(struct rdb_tg *t, uint64_t pc);
/* Checkpoints: frozen copies of the replay where it is (NULL if it
 * cannot be copied there: a replay that writes the program's output or
 * ends early, a signal on its way); resuming one kills the replay and
 * makes a new copy of it the replay. */
struct rdb_ck;
struct rdb_ck *rdb_tg_ck_take(struct rdb_tg *t);
int rdb_tg_ck_resume(struct rdb_tg *t, struct rdb_ck *k);
void rdb_tg_ck_drop(struct rdb_tg *t, struct rdb_ck *k);
int rdb_tg_ck_pid(const struct rdb_ck *k);
/* Whether the replay stops at an interval's end (rdb_tg_start's to). */
int rdb_tg_bounded(const struct rdb_tg *t);
/* The interval the replay started at (a fork child's: 2 at least; 0:
 * none running).  Every replay keeps its write hooks (the S plane). */
uint64_t rdb_tg_from(const struct rdb_tg *t);
/* How many times the replay was resumed or started so far: the memory
 * is the same until the next (a position does not say: a thread made in
 * a slot freed in the same interval can be at the position, count and
 * %rsp an earlier one was at). */
uint64_t rdb_tg_moves(const struct rdb_tg *t);
/* Run-time address minus link address. */
uint64_t rdb_tg_bias(const struct rdb_tg *t);
/* The interval's first position's pc, known once a replay started there
 * (0: not yet). */
uint64_t rdb_tg_start_pc(const struct rdb_tg *t, uint64_t interval);

/* Threads (docs/threads.md): one runs at a time; rdb follows the one that
 * stopped.  A thread where the replay is stopped: */
struct rdb_tg_thread {
	uint32_t slot;
	uint32_t how;  /* 0: the one stopped; RDB_TF_PARK_* where it waits for the
	                  token; TG_TH_UNKNOWN: neither (its registers are not known) */
	uint64_t born; /* its clone's syscall number (births.c; 0: the main thread) */
	long nr;       /* BLOCKED: the call */
	struct user_regs_struct regs; /* the program's: its saved context if it waits */
};
enum { TG_TH_UNKNOWN = 99 };
/* The live threads, in slot order (*out, rdb_free it): how many (0: the
 * replay is not stopped). */
int rdb_tg_threads(struct rdb_tg *t, struct rdb_tg_thread **out);
/* Whether the recording made threads. */
int rdb_tg_threaded(const struct rdb_tg *t);
/* rdb_tg_cont's want: a count of this thread's, the one of that birth in
 * that slot (slot 0, born 0 by default). */
void rdb_tg_want_thread(struct rdb_tg *t, uint64_t slot, uint64_t born);
/* Whether p is a position of that thread. */
int rdb_tg_wanted(const struct rdb_tg *t, const struct rdb_pos *p);
/* The birth of the thread in `slot` at interval's start (0: none, or the
 * main thread). */
uint64_t rdb_tg_born_before(const struct rdb_tg *t, uint32_t slot, uint64_t interval);

/* ---- timeline.c: positions, going back ----------------------------------- */
struct rdb_tl;
struct rdb_tl *rdb_tl_new(struct rdb_tg *t, uint64_t first);
void rdb_tl_free(struct rdb_tl *l); /* its checkpoints killed */
int rdb_tl_checkpoints(const struct rdb_tl *l);
/* The last reverse-continue's intervals replayed and left out. */
void rdb_tl_rc_counts(const struct rdb_tl *l, uint64_t *replayed, uint64_t *skipped);
/* Replays again to exactly p: 0, or -1 (message said). */
int rdb_tl_goto(struct rdb_tl *l, const struct rdb_pos *p);
/* ... to the first position of count `count` of interval `interval`. */
int rdb_tl_goto_count(struct rdb_tl *l, uint64_t interval, uint64_t count);
/* Back one instruction: TG_STEPPED, TG_EXITED..., or 0 at the start of
 * history (the program stays there). */
void rdb_tl_reverse_step(struct rdb_tl *l, struct rdb_tg_stop *s);
/* On (gdb's continue) to the next stop, with every watchpoint even when
 * they need more than the four debug registers. */
void rdb_tl_cont(struct rdb_tl *l, struct rdb_tg_stop *s);
/* Back to the last breakpoint stop before here: TG_BREAK, or 0 at the
 * start of history. */
void rdb_tl_reverse_cont(struct rdb_tl *l, struct rdb_tg_stop *s);
/* The positions from the start of the current count (or an earlier
 * one's) to here, the last one here: 0, or -1. */
int rdb_tl_here(struct rdb_tl *l, const struct rdb_pos **seg, size_t *n);
/* The session's first replay, from interval `from` (quiet: without the
 * program's output; later replays never have it). */
int rdb_tl_first(struct rdb_tl *l, uint64_t from, int quiet);
/* The start of history: interval 1's first instruction. */
int rdb_tl_restart(struct rdb_tl *l);

/* ---- gdbmem.c: what gdb may read of memory at the current position ------- */
struct rdb_gm;
struct rdb_gm *rdb_gm_new(struct rdb_tg *t);
void rdb_gm_free(struct rdb_gm *g); /* its own replays killed */
/* The first bytes of [addr, addr + n) whose value at the replay's
 * position is the recording's, into buf: how many (0: gdb gets an error). */
size_t rdb_gm_read(struct rdb_gm *g, uint64_t addr, uint8_t *buf, size_t n);

/* ---- gdbserver.c ------------------------------------------------------------ */
/* Serves gdb on the connection; rdb's exit status. */
int rdb_gdbserver_run(struct rdb_rsp *c, struct rdb_tg *t, struct rdb_tl *l, uint64_t from);

#endif
