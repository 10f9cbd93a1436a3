/* threvive.c: replay --from K of an interval that began while several
 * threads lived (docs/threads.md "Replay from such an interval").
 *
 * After the start boundary's TARGET, rdb sends one THCTX and one THSTATE
 * record per thread alive at K's start, in slot order.  The memory is
 * the boundary's (its values, and every thread's own stack as STACK
 * records), so what is left is the threads themselves: each but the
 * main one is cloned again in its recorded slot, on its syscall stack,
 * and waits for the token as it waited in the recording, parked:
 *   - HOLDER: it took the boundary; it runs first, entering the program
 *     with the start CONTEXT's registers (replay.c enter);
 *   - SLICE: its time slice had ended at a check; given the token it
 *     returns to the program with rt_sigreturn, the registers, FPU state
 *     and mask of that event;
 *   - BLOCKED: it waited in a call; given the token it finishes the call
 *     as replay does (the recorded result and DATA) and goes back into
 *     the entry stub after its dispatch (syscall.S rdb_stub_back) with
 *     its callee-saved registers, which the stub's frame does not hold;
 *   - NEW: made, not started; given the token it starts with the
 *     registers its clone gave it (sched.c new_regs).
 * The main thread (slot 0) is the process's first thread again: it makes
 * the others, then, unless it holds the token, parks itself the same way.
 * A fork child of another thread has no main thread: the first thread
 * makes the child's in its slot and waits for the end (idle). */
#include "rt.h"

/* What a thread resumes with, on its signal stack (free while it waits
 * with every signal blocked). */
struct revive {
	struct rdb_tf_thctx c;
	struct rdb_tf_thstate s;
	uint64_t uc[38] __attribute__((aligned(16))); /* the rt_sigreturn frame */
	uint8_t info[128];
	uint8_t fp[] __attribute__((aligned(64)));
};

#define FP_MAX (64u << 10) /* (an xsave image is a few KiB) */
#define CLONE_SETTLS 0x80000
#define CLONE_PARENT_SETTID 0x100000
#define THREAD_FLAGS 0x50f00 /* VM FS FILES SIGHAND THREAD SYSVSEM */
#define FUTEX_WAIT_PRIVATE 128

static void bad(const char *what)
{
	rdb_die("replay: bad %s record at the start boundary\n", what);
}

static void read_rec(uint32_t type, void *p, size_t n, size_t *rest, const char *what)
{
	struct rdb_tf_rec h;
	if (!rdb_chan_peek(&h) || h.type != type || h.len < n || (!rest && h.len != n))
		bad(what);
	rdb_chan_read(&h, sizeof h);
	rdb_chan_read(p, n);
	if (rest)
		*rest = h.len - n;
}

/* The fs base a thread resumes with. */
static uint64_t fs_of(const struct revive *r)
{
	if (r->c.how != RDB_TF_PARK_NEW)
		return r->c.fs_base;
	return (r->s.gregs[REG_RDI] & CLONE_SETTLS) ? r->s.gregs[REG_R8] : 0;
}

/* Slot k as the recording's thread was at the boundary, as far as the
 * runtime keeps it (the THCTX of a later boundary is compared with it). */
static void set_slot(struct rdb_thread *t, struct revive *r)
{
	const struct rdb_tf_thstate *s = &r->s;
	t->signal.reserved_blocked = s->reserved_blocked;
	t->signal.prog_ss[RDB_SS_SP] = s->ss_sp;
	t->signal.prog_ss[RDB_SS_FLAGS] = s->ss_flags;
	t->signal.prog_ss[RDB_SS_SIZE] = s->ss_size;
	t->sched.ctid = s->ctid;
	t->stack_top = s->stack_top;
	t->hframe = s->hframe;
	t->sched.robust[0] = s->robust_head;
	t->sched.robust[1] = s->robust_len;
	t->sched.alive = 1;
	t->sched.revive = r;
	if (r->c.how == RDB_TF_PARK_HOLDER)
		return;
	t->sched.park_nr = r->c.nr;
	t->sched.park_sic = r->c.sic;
	t->sched.park_pc = r->c.pc;
	t->sched.park_fs = r->c.fs_base;
	t->sched.park_g = r->c.how == RDB_TF_PARK_SLICE ? r->c.gregs : 0;
	t->sched.park_mask = s->sigmask;
	if (r->c.how == RDB_TF_PARK_BLOCKED)
		t->signal.stub_sp = r->c.sp;
	t->sched.park = r->c.how;
}

unsigned rdb_threads_revive_read(void)
{
	struct rdb_tf_rec h;
	unsigned holder = 0, n = 0;
	int have_holder = 0, have_main = 0;
	while (rdb_chan_peek(&h) && h.type == RDB_TF_THCTX) {
		struct rdb_tf_thctx c;
		struct rdb_tf_thstate s;
		size_t fpn;
		read_rec(RDB_TF_THCTX, &c, sizeof c, 0, "THCTX");
		read_rec(RDB_TF_THSTATE, &s, sizeof s, &fpn, "THSTATE");
		if (c.slot >= RDB_THREAD_MAX || s.slot != c.slot || c.interval != RT->chan.from ||
		    fpn != s.fpsize || fpn > FP_MAX || !c.how || c.how > RDB_TF_PARK_NEW ||
		    (c.slot == 0 && c.how == RDB_TF_PARK_NEW))
			bad("THCTX or THSTATE");
		if (!(s.flags & RDB_TF_THS_THREAD_GROUP))
			rdb_die("replay: interval %lu began while thread %u, a process sharing memory "
			        "(clone without CLONE_THREAD), lived: rdb replay --from cannot make it "
			        "again (docs/threads.md)\n", (unsigned long)RT->chan.from, c.slot);
		struct rdb_thread *t = rdb_thread_revive_slot(c.slot);
		struct revive *r = (struct revive *)t->sig_lo;
		rdb_memcpy(&r->c, &c, sizeof c);
		rdb_memcpy(&r->s, &s, sizeof s);
		if (fpn)
			rdb_chan_read(r->fp, fpn);
		set_slot(t, r);
		have_main |= c.slot == 0;
		if (c.how == RDB_TF_PARK_HOLDER) {
			if (have_holder)
				bad("THCTX (two holders)");
			holder = c.slot;
			have_holder = 1;
		}
		if (c.slot > RT->sched.top)
			RT->sched.top = c.slot;
		if (c.how != RDB_TF_PARK_HOLDER && fs_of(r))
			rdb_replay_tls_self(fs_of(r));
		n++;
	}
	if (!n)
		return 0;
	if (!have_holder)
		bad("THCTX (no holder)");
	/* No main thread: the trace is a fork child's whose caller was
	 * another thread (record.c); this process's first thread makes it
	 * again in its slot and takes no part (rdb_threads_revive_start). */
	if (!have_main)
		rdb_th_at(0)->sched.alive = 0;
	RT->sched.nlive = (int)n;
	RT->sched.on = 1;
	RT->sched.owner = (int)holder;
	return holder;
}

static void set_r15(uint64_t v) { __asm__ volatile("mov %0, %%r15" : : "r"(v) : "memory"); }

/* The kernel's view of the thread's robust list is what replay gave it
 * (set_robust_list runs again in replay). */
static void own_robust(void)
{
	if (TH->sched.robust[0])
		rdb_sys2(__NR_set_robust_list, (long)TH->sched.robust[0], (long)TH->sched.robust[1]);
}

static void own_altstack(void)
{
	uint64_t ss[3] = {[RDB_SS_SP] = TH->sig_lo, [RDB_SS_SIZE] = RDB_SIGSTACK_SIZE};
	long e = rdb_sys2(__NR_sigaltstack, ss, 0);
	if (e < 0)
		rdb_die("replay: cannot set a thread's signal stack (error %ld)\n", -e);
}

/* The frame rt_sigreturn loads: registers g with %r15 = r15, the FPU
 * state fp (the kernel's format; 0: the initial one), the mask, the
 * runtime's signal stack. */
static _Noreturn void sigreturn_to(struct revive *r, const uint64_t *g, uint64_t r15,
                                   const uint8_t *fp)
{
	uint64_t *uc = r->uc;
	rdb_memset(uc, 0, sizeof r->uc);
	uc[RDB_UC_FLAGS] = RT->ctx.c.uc_flags;
	uc[RDB_UC_STACK + RDB_SS_SP] = TH->sig_lo;
	uc[RDB_UC_STACK + RDB_SS_SIZE] = RDB_SIGSTACK_SIZE;
	rdb_memcpy(&uc[RDB_UC_GREGS], g, RDB_TF_NGREG * 8);
	/* (cs, gs, fs and ss: the process's, as the start CONTEXT has them) */
	uc[RDB_UC_GREGS + REG_CSGSFS] = RT->ctx.c.gregs[REG_CSGSFS];
	uc[RDB_UC_GREGS + REG_R15] = r15;
	uc[RDB_UC_FPREGS] = (uint64_t)fp;
	uc[RDB_UC_SIGMASK] = r->s.sigmask & ~RT->signal.reserved_sigs;
	uint64_t fs = fs_of(r);
	rdb_set_fs_base(fs);
	__asm__ volatile("mov %0, %%rsp\n\tmov $15, %%eax\n\tsyscall\n\thlt" : : "r"(uc) : "memory");
	__builtin_unreachable();
}

/* BLOCKED: the rest of its call as replay runs it after the thread
 * switch (sched.c rdb_sched_replay_block, sysreplay.c), then back into
 * the entry stub after its dispatch, which returns to the program. */
static _Noreturn void finish_call(struct revive *r)
{
	extern const char rdb_stub_back[];
	const long *a = (const long *)r->c.sp;
	set_r15(rdb_replay_arm(r->c.sic));
	rdb_set_mask(r->s.sigmask & ~RT->signal.reserved_sigs);
	rdb_signal_stub_enter(r->c.nr, a);
	TH->watch_sys = 1;
	long ret = rdb_replay_syscall_rest(r->c.nr, a);
	TH->watch_sys = 0;
	rdb_signal_stub_leave();
	uint64_t g[RDB_TF_NGREG] = {0}, r15;
	__asm__ volatile("mov %%r15, %0" : "=r"(r15));
	g[REG_RBX] = r->s.gregs[REG_RBX];
	g[REG_R12] = r->s.gregs[REG_R12];
	g[REG_R13] = r->s.gregs[REG_R13];
	g[REG_R14] = r->s.gregs[REG_R14];
	/* (the stub's %rbp: its frame, the call's number below the arguments) */
	g[REG_RBP] = g[REG_RSP] = r->c.sp - 16;
	g[REG_RAX] = (uint64_t)ret;
	g[REG_RIP] = (uint64_t)rdb_stub_back;
	g[REG_EFL] = 0x202;
	sigreturn_to(r, g, r15, r->s.fpsize ? r->fp : 0);
}

/* A parked thread (this one) takes its turn when the token comes. */
static _Noreturn void resume(void)
{
	struct revive *r = TH->sched.revive;
	rdb_sched_wait_token();
	rdb_sched_unpark();
	TH->sched.revive = 0;
	switch (r->c.how) {
	case RDB_TF_PARK_SLICE:
		sigreturn_to(r, r->c.gregs, rdb_replay_arm(r->c.sic), r->s.fpsize ? r->fp : 0);
	case RDB_TF_PARK_NEW:
		sigreturn_to(r, r->s.gregs, rdb_replay_arm(0), r->s.fpsize ? r->fp : 0);
	case RDB_TF_PARK_BLOCKED:
		finish_call(r);
	}
	rdb_die("replay: thread %u: bad parked kind %u\n", rdb_th_slot(), r->c.how);
}

/* A thread made again, on its syscall stack with its slot's %r15. */
_Noreturn void rdb_threads_revived(void);
_Noreturn void rdb_threads_revived(void)
{
	own_altstack();
	own_robust();
	if (TH->sched.revive && ((struct revive *)TH->sched.revive)->c.how == RDB_TF_PARK_HOLDER)
		rdb_replay_holder_enter();
	resume();
}

/* clone: the child starts on stack with %r15 = r15 (its slot's) in
 * rdb_threads_revived; the kernel writes its tid to *tid before it runs
 * (CLONE_PARENT_SETTID: a holder runs the program at once, and nothing
 * of this thread may touch its slot after). */
static long clone_at(uint64_t r15, uintptr_t stack, int *tid)
{
	register long rax __asm__("rax") = __NR_clone;
	register long rdi __asm__("rdi") = THREAD_FLAGS | CLONE_PARENT_SETTID;
	register long rsi __asm__("rsi") = (long)stack;
	register long rdx __asm__("rdx") = (long)tid;
	register long r10 __asm__("r10") = 0;
	register long r8 __asm__("r8") = 0;
	register uint64_t r9 __asm__("r9") = r15;
	__asm__ volatile("syscall\n\t"
	                 "test %%rax, %%rax\n\t"
	                 "jnz 1f\n\t"
	                 "mov %%r9, %%r15\n\t"
	                 "xor %%ebp, %%ebp\n\t"
	                 "call rdb_threads_revived\n\t"
	                 "hlt\n"
	                 "1:"
	                 : "+r"(rax)
	                 : "r"(rdi), "r"(rsi), "r"(rdx), "r"(r10), "r"(r8), "r"(r9)
	                 : "rcx", "r11", "memory");
	return rax;
}

/* The process's first thread when the recording's main thread did not
 * live (a fork child of another thread): it waits, every signal
 * blocked, until a thread of the replay ends the process. */
static _Noreturn void idle(void)
{
	uint32_t never = 0;
	rdb_block_all();
	for (;;)
		rdb_sys6(__NR_futex, (long)&never, FUTEX_WAIT_PRIVATE, 0, 0, 0, 0);
}

/* RDB_TEST_REVIVE_WAIT (start.c): the first thread waits, up to that
 * many ms, for the program to have a thread in a slot above top0 (one
 * started after the boundary), the moment the race below needed. */
static void test_wait(unsigned top0)
{
	const uint64_t ts[2] = {0, 100000}; /* 0.1 ms */
	for (uint64_t n = RT->sched.revive_wait * 10; n; n--) {
		unsigned top = __atomic_load_n(&RT->sched.top, __ATOMIC_ACQUIRE);
		if (top > top0 && __atomic_load_n(&rdb_th_at(top)->sched.alive, __ATOMIC_ACQUIRE))
			return;
		rdb_sys2(__NR_nanosleep, ts, 0);
	}
}

/* Slot k made again: its thread parked, or the holder, which runs the
 * program at once. */
static void make(unsigned k)
{
	struct rdb_thread *t = rdb_th_at(k);
	unsigned top0 = __atomic_load_n(&RT->sched.top, __ATOMIC_ACQUIRE);
	long tid = clone_at(t->origin, t->sc_lo + RDB_SCSTACK_SIZE, &t->tid);
	if (tid <= 0)
		rdb_die("replay: cannot make thread %u again (error %ld)\n", k, -tid);
	test_wait(top0);
}

/* The slots to make are the THCTX records' (rdb_threads_revive_read),
 * read here before any thread runs: once the holder runs, the program
 * changes them (a pthread_create made slot top + 1 alive, and this loop
 * made that slot's thread a second time, whose resume() found no revive
 * record: SIGSEGV at address 0xc, or two threads on one syscall stack).
 * So the parked threads first, which wait for the token, then the holder,
 * after which this thread reads nothing the program's threads write
 * (but the test knob's wait, which only looks). */
_Noreturn void rdb_threads_revive_start(unsigned holder)
{
	uint64_t old = rdb_block_all(); /* (the children start with every signal blocked) */
	unsigned top = RT->sched.top;
	int main_alive = rdb_th_at(0)->sched.alive;
	for (unsigned k = 1; k <= top; k++)
		if (k != holder && rdb_th_at(k)->sched.alive)
			make(k);
	(void)old;
	if (holder != 0)
		make(holder);
	if (!main_alive)
		idle();
	own_robust();
	if (holder == 0)
		rdb_replay_holder_enter();
	resume(); /* the main thread, parked at the boundary */
}
