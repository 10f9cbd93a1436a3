/* thread.c: threads of an unrecorded run (issue 19's foundation).
 *
 * Every thread has its own runtime state (struct rdb_thread), syscall
 * stack, signal stack and SIC window; the shadow planes, the signal
 * handlers and the rest of RT are the process's.  A thread is known by
 * its %r15 alone (layout.h RDB_SIC_STRIDE): its window tells its slot, in
 * C (rdb_th_slot) and in the entry stub (THREAD_PTR), with no lookup and
 * no register of the program's.
 *
 * musl's pthread_create reaches the kernel through __clone, whose
 * `syscall` is the entry stub's: for clone(CLONE_VM) of a new stack
 * without CLONE_VFORK the stub asks rdb_thread_prepare for a slot, starts
 * the child with that slot's %r15, writes the child's tid into the slot,
 * and the child calls rdb_thread_child on its own syscall stack before it
 * runs any program code.  A slot is reused once its thread is gone (the
 * kernel no longer knows its tid); its mappings stay for the next thread.
 *
 * Recording and replaying, the threads run one at a time (sched.c). */
#include "rt.h"

#define RDB_ESRCH 3

static uintptr_t sc_lo(unsigned k)
{
	return k ? RDB_TSCSTACK_ADDR + (uintptr_t)k * RDB_SCSTACK_SIZE : RDB_SCSTACK_ADDR;
}

static uintptr_t sig_lo(unsigned k)
{
	return k ? RDB_TSIGSTACK_ADDR + (uintptr_t)k * RDB_SIGSTACK_SIZE : RDB_SIGSTACK_ADDR;
}

static long map_rw(uintptr_t lo, size_t len)
{
	long r = rdb_sys6(__NR_mmap, lo, len, RDB_PROT_RW,
	                  RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS | RDB_MAP_NORESERVE |
	                      RDB_MAP_FIXED_NOREPLACE,
	                  -1, 0);
	if (r >= 0 && (uintptr_t)r != lo) {
		rdb_sys2(__NR_munmap, r, len);
		return -RDB_ENOMEM;
	}
	return r < 0 ? r : 0;
}

void rdb_thread_init(void)
{
	/* All slots' state at once, untouched pages cost nothing. */
	long r = map_rw(RDB_THREAD_ADDR, (size_t)RDB_THREAD_MAX << RDB_THREAD_SHIFT);
	if (r < 0)
		rdb_die("cannot map the threads' runtime state at %p (error %ld)\n",
		        (void *)RDB_THREAD_ADDR, -r);
	struct rdb_thread *t = rdb_th_at(0);
	t->sc_lo = RDB_SCSTACK_ADDR;
	t->sig_lo = RDB_SIGSTACK_ADDR;
	t->sig_top = RDB_SIGSTACK_ADDR + RDB_SIGSTACK_SIZE;
	t->tid = (int)rdb_sys0(__NR_gettid);
	t->thread_group = 1;
	t->mapped = 1;
}

#define WNOHANG 1
#define WALL 0x40000000

/* The slot's thread has ended: the kernel has released its tid (a thread
 * is reaped at once; a process sharing our memory once waited for).  In
 * replay the program's wait4 does not run, so the runtime reaps such a
 * process itself (the program was given the recorded result). */
static int gone(struct rdb_thread *t, long pid)
{
	if (t->tid <= 0)
		return t->tid == 0;
	long tgid = t->thread_group ? pid : t->tid;
	if (!t->thread_group && RT->mode == RDB_TF_MODE_REPLAY)
		rdb_sys4(__NR_wait4, t->tid, 0, WNOHANG | WALL, 0);
	return rdb_sys3(__NR_tgkill, tgid, t->tid, 0) == -RDB_ESRCH;
}

/* Replay: slot k, the recording's, once its last thread is gone (a
 * thread that ended in the replay may not have left the kernel yet). */
static unsigned claim_slot(unsigned k)
{
	long pid = rdb_sys0(__NR_getpid);
	struct rdb_thread *t = rdb_th_at(k);
	for (;;) {
		int tid = __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE);
		if (tid != -1 && gone(t, pid) &&
		    __atomic_compare_exchange_n(&t->tid, &tid, -1, 0, __ATOMIC_ACQ_REL,
		                                __ATOMIC_RELAXED))
			return k;
		rdb_sys0(__NR_sched_yield);
	}
}

/* A free slot, claimed (tid -1), or 0. */
static unsigned claim(void)
{
	long pid = rdb_sys0(__NR_getpid);
	for (unsigned k = 1; k < RDB_THREAD_MAX; k++) {
		struct rdb_thread *t = rdb_th_at(k);
		int tid = __atomic_load_n(&t->tid, __ATOMIC_ACQUIRE);
		if (tid == -1 || !gone(t, pid))
			continue;
		if (__atomic_compare_exchange_n(&t->tid, &tid, -1, 0, __ATOMIC_ACQ_REL,
		                                __ATOMIC_RELAXED))
			return k;
	}
	return 0;
}

static long map_slot(unsigned k)
{
	long r = rdb_sic_map(k);
	if (r < 0)
		return r;
	if ((r = map_rw(sc_lo(k), RDB_SCSTACK_SIZE)) < 0 ||
	    (r = map_rw(sig_lo(k), RDB_SIGSTACK_SIZE)) < 0)
		return r; /* (what it mapped stays, reserved for the slot) */
	return 0;
}

#define SIG_SETMASK 2

/* Every signal blocked until the parent's %r15 is its own again and the
 * child has its signal stack; the mask before goes to both slots. */
static void block_all(struct rdb_thread *self)
{
	uint64_t all = ~0ull;
	rdb_sys4(__NR_rt_sigprocmask, 0 /* SIG_BLOCK */, &all, &self->clone_mask, 8);
}

static uint64_t refuse(struct rdb_thread *self)
{
	rdb_sys4(__NR_rt_sigprocmask, SIG_SETMASK, &self->clone_mask, 0, 8);
	return 0;
}

#define CLONE_CHILD_CLEARTID 0x00200000

/* A mapped slot k made ready for a new thread, by a clone while recording
 * or replaying, or by replay from an interval that began with the thread
 * alive (threvive.c): everything but the slot's fixed facts starts empty,
 * no own stack yet (a boundary finds its mapping: interval.c
 * rdb_interval_saved_stack), no marks, no vfork under way, and the SIC at
 * count 0 with no stop, the window's start (rdb_sic_set's rule). */
static void slot_fresh(struct rdb_thread *t, unsigned k)
{
	rdb_memset(&t->origin, 0, sizeof *t - __builtin_offsetof(struct rdb_thread, origin));
	rdb_memset(&t->stack_lo, 0, __builtin_offsetof(struct rdb_thread, vfork_ret) + 8 -
	                                __builtin_offsetof(struct rdb_thread, stack_lo));
	t->sc_nest = 0;
	t->sc_lo = sc_lo(k);
	t->sig_lo = sig_lo(k);
	t->sig_top = sig_lo(k) + RDB_SIGSTACK_SIZE;
	t->mapped = 1;
	t->origin = RDB_SIC_WIN + (uint64_t)k * RDB_SIC_STRIDE;
}

uint64_t rdb_thread_prepare(long flags, long ctid)
{
	struct rdb_thread *self = TH;
	block_all(self);
	RT->sched.made = 0;
	int rk = rdb_sched_prepare(); /* replay: the recording's slot, -1: refused */
	if (rk < 0)
		return refuse(self); /* the recording's clone failed: none here */
	unsigned k = rk ? claim_slot((unsigned)rk) : claim();
	if (!k) {
		rdb_printf("rdb: more than %d threads at once: clone fails with EAGAIN\n",
		           RDB_THREAD_MAX);
		return refuse(self);
	}
	struct rdb_thread *t = rdb_th_at(k);
	if (!t->mapped) {
		long r = map_slot(k);
		if (r < 0) {
			rdb_printf("rdb: cannot map a new thread's stacks or SIC window "
			           "(error %ld): clone fails with EAGAIN\n", -r);
			__atomic_store_n(&t->tid, 0, __ATOMIC_RELEASE);
			return refuse(self);
		}
	}
	slot_fresh(t, k);
	t->thread_group = !!(flags & RDB_CLONE_THREAD);
	/* The kernel's mask is the parent's, so is the program's view of it;
	 * the alternate stack is not inherited (CLONE_VM). */
	t->signal.reserved_blocked = self->signal.reserved_blocked;
	t->clone_mask = self->clone_mask;
	t->signal.prog_ss[RDB_SS_FLAGS] = RDB_SS_DISABLE;
	uint64_t r15 = t->origin;
	t->sched.ctid = flags & CLONE_CHILD_CLEARTID ? (uintptr_t)ctid : 0;
	RT->sched.made = k;
	return r15;
}

void rdb_thread_child(uintptr_t stack)
{
	struct rdb_thread *t = TH;
	t->stack_top = stack;
	uint64_t ss[3] = {[RDB_SS_SP] = t->sig_lo, [RDB_SS_SIZE] = RDB_SIGSTACK_SIZE};
	long r = rdb_sys2(__NR_sigaltstack, ss, 0);
	if (r < 0)
		rdb_die("cannot set a new thread's signal stack (error %ld)\n", -r);
	rdb_sys4(__NR_rt_sigprocmask, SIG_SETMASK, &t->clone_mask, 0, 8);
	rdb_sched_child(); /* recording or replaying: it waits for its turn */
}

long rdb_thread_parent(long ret, const long a[6]) { return rdb_sched_parent(ret, a); }

int rdb_thread_syscall(long nr, const long a[6])
{
	if (!rdb_th_slot() || TH->sched.exiting)
		return 0;
	if (nr == __NR_munmap && (uintptr_t)a - (uintptr_t)a[0] < (uintptr_t)a[1]) {
		if (RT->mode) {
			/* recorded (or replayed) as a call, then the end; the
			 * arguments and the return address (sched.c) lie on the
			 * stack that goes */
			long b[6] = {a[0], a[1], a[2], a[3], a[4], a[5]};
			TH->sched.exiting = 1;
			TH->sched.exit_pc = ((const uint64_t *)TH->signal.stub_sp)[7];
			rdb_rr_syscall(nr, b);
			rdb_sched_exit(0);
		}
		/* The thread's own stack (a detached thread's end, musl's
		 * __unmapself): the entry stub could not return onto it, and
		 * nothing but exit can follow. */
		rdb_sys2(__NR_munmap, a[0], a[1]);
		for (;;)
			rdb_sys1(__NR_exit, 0);
	}
	/* (a process sharing our memory, CLONE_THREAD left out, ends as a
	 * thread of the recording: its _exit is exit_group, and the kernel
	 * gives its parent the status of either call) */
	if ((nr == __NR_exit || (nr == __NR_exit_group && !TH->thread_group)) && RT->mode)
		rdb_sched_exit(a[0]);
	if (nr == __NR_exit) {
		/* One thread ends, not the process: no termination callbacks.
		 * Its slot is free once the kernel has let its tid go. */
		for (;;)
			rdb_sys1(__NR_exit, a[0]);
	}
	return 0;
}

/* The program's syscall as the entry stub saved it (syscall.S): the
 * arguments, the flags, the return address; the program's %rsp was just
 * above. */
enum { STUB_ARGS = 0, STUB_FLAGS = 6, STUB_RET = 7, STUB_TOP = 8 };
#define CALL_REL32 0xe8 /* call rel32: how altr calls __rdb_syscall */
#define CALL_LEN 5

void rdb_call_present(void *uc, struct rdb_hstate *hs)
{
	extern const char rdb_psc_begin[], rdb_psc_end[];
	uint64_t *g = rdb_gregs(uc);
	uintptr_t pc = g[REG_RIP];
	if (RT->mode || pc < (uintptr_t)rdb_psc_begin || pc > (uintptr_t)rdb_psc_end)
		return;
	const uint64_t *a = (const uint64_t *)hs->stub_sp;
	uint64_t ret = a[STUB_RET];
	if (*(const uint8_t *)(ret - CALL_LEN) != CALL_REL32)
		return;
	/* Not completed (before it, restarting, or EINTR): at the call, as
	 * the kernel shows a syscall it will restart; completed: after it. */
	int done = pc == (uintptr_t)rdb_psc_end && g[REG_RAX] != (uint64_t)-RDB_EINTR;
	hs->run_pc = pc;
	hs->run_sp = g[REG_RSP];
	hs->flags |= RDB_HS_AT_CALL;
	g[REG_RIP] = done ? ret : ret - CALL_LEN;
	g[REG_RSP] = (uintptr_t)(a + STUB_TOP);
}

void rdb_call_back(uint64_t *g, struct rdb_hstate *hs)
{
	const uint64_t *a = (const uint64_t *)hs->stub_sp;
	uint64_t ret = a[STUB_RET];
	if ((g[REG_RIP] == ret || g[REG_RIP] == ret - CALL_LEN) &&
	    g[REG_RSP] == (uintptr_t)(a + STUB_TOP)) {
		g[REG_RIP] = hs->run_pc; /* back into the call */
		g[REG_RSP] = hs->run_sp;
		return;
	}
	/* Moved (musl's cancellation: to __cp_cancel): the call is
	 * abandoned, the program goes on with the registers it had at the
	 * call and the call's result EINTR; the runtime's frames of it on the
	 * syscall stack are dropped (the nesting count, by the caller). */
	static const int arg_reg[6] = {REG_RDI, REG_RSI, REG_RDX, REG_R10, REG_R8, REG_R9};
	for (int i = 0; i < 6; i++)
		g[arg_reg[i]] = a[STUB_ARGS + i];
	g[REG_RBP] = a[-1];
	g[REG_RAX] = (uint64_t)-RDB_EINTR;
	g[REG_RCX] = ret;
	g[REG_R11] = a[STUB_FLAGS];
	hs->flags &= ~(uint64_t)(RDB_HS_IN_STUB | RDB_HS_WATCH_SYS);
}

/* A fork child: the caller goes on alone, with a tid of its own.  Its
 * slot still held the parent's tid, which is gone in the child: the
 * first thread the child started took the caller's slot as free
 * (claim), and both ran on one SIC window and stacks (a child of a
 * thread hung in its pthread_join, recorded or not). */
void rdb_thread_forked(void)
{
	TH->tid = (int)rdb_sys0(__NR_gettid);
}

int rdb_thread_borrowed(void)
{
	/* (vfork_ret: nonzero in the slot a vfork child shares with its
	 * sleeping parent, syscall.S) */
	return TH->vfork_ret || (rdb_th_slot() && !TH->thread_group);
}

struct rdb_thread *rdb_thread_revive_slot(unsigned k)
{
	struct rdb_thread *t = rdb_th_at(k);
	if (!k)
		return t; /* (the main thread's: rdb_thread_init) */
	if (!t->mapped) {
		long r = map_slot(k);
		if (r < 0)
			rdb_die("replay: cannot map thread %u's stacks or SIC window (error %ld)\n", k,
			        -r);
	}
	slot_fresh(t, k);
	t->thread_group = 1;
	t->tid = -1;
	return t;
}
