/* sched.c: one thread at a time while recording and replaying
 * (docs/threads.md "Serialized recording").
 *
 * The token is RT->sched.owner, the slot of the thread that may run
 * program code and write records; every other thread waits on that word
 * (a futex) inside the runtime.  A thread gives the token up when its time
 * slice ends (a SIC stop: an event at a check), before a syscall that may
 * block (syscalls.spec MAYBLOCK: it runs without the token, and queues for
 * it again after), and when it ends.  The thread that takes the token
 * writes the SWITCH record first thing (the last release's position is in
 * RT->sched.last), so the trace's order is the order the threads ran in.
 *
 * Replay blocks nowhere (results come from the trace): it follows the
 * SWITCH records.  A SLICE switch is an event at its thread's check (rdb
 * sends it as a TARGET with the thread's slot); a BLOCK switch is read at
 * the thread's MAYBLOCK syscall, an EXIT switch at its end.  Each SWITCH
 * is read by the thread that gave the token up, which hands it to `to`. */
#include "rt.h"

#define FUTEX_WAKE 1
#define FUTEX_WAIT_PRIVATE 128
#define FUTEX_WAKE_PRIVATE 129
#define FUTEX_CMD 127
/* The default time slice in SIC counts: see docs/threads.md "Slices" for
 * the measurement that chose it. */
#define SLICE_DEFAULT 50000

static void set_r15(uint64_t v) { __asm__ volatile("mov %0, %%r15" : : "r"(v) : "memory"); }

static int self(void) { return (int)rdb_th_slot(); }

void rdb_sched_init(uint32_t slice, int chaos)
{
	/* (the caller's slot: a fork child of a thread other than the main
	 * one starts its recording here in that thread's, rdb_sched_forked;
	 * with thread 0 the token's owner it took no boundary until its
	 * thread took the token back, and slot 0 counted as alive) */
	RT->sched.owner = self();
	RT->sched.nlive = 1;
	RT->sched.slice = slice ? slice : SLICE_DEFAULT;
	RT->sched.chaos = chaos;
	if (chaos) {
		/* The kernel's randomness, else the time stamp counter: each
		 * recording draws other slices (the switches are recorded, so
		 * replay needs none of it). */
		uint64_t seed = 0;
		if (rdb_sys3(__NR_getrandom, &seed, sizeof seed, 0) != sizeof seed || !seed) {
			uint32_t lo, hi;
			__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
			seed = ((uint64_t)hi << 32 | lo) ^ 0x9e3779b97f4a7c15ull;
		}
		RT->sched.rng = seed ? seed : 1;
	}
	rdb_th_at(self())->sched.alive = 1;
}

/* ---- --chaos (record) -------------------------------------------------- */

/* xorshift64*: only the token's holder draws (a release, a new slice). */
static uint64_t chaos_draw(void)
{
	uint64_t x = RT->sched.rng;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	RT->sched.rng = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* The longest slice: --chaos draws up to twice the --slice length. */
static uint64_t slice_max(void) { return RT->sched.chaos ? 2 * RT->sched.slice : RT->sched.slice; }

/* A new slice's length.  --chaos draws it log-uniformly from 1 to twice
 * the slice (a power of two at random, then a length at random in
 * [2^e, 2^(e+1))): as many slices of a few counts, which end a thread
 * inside a short read-modify-write, as of thousands, which let it run
 * through a whole step of its loop, so the switch points of a loop fall
 * at every one of its checks over the recordings. */
static uint64_t slice_len(void)
{
	if (!RT->sched.chaos)
		return RT->sched.slice;
	uint64_t max = slice_max();
	unsigned bits = 64 - (unsigned)__builtin_clzll(max);
	uint64_t lo = 1ull << (chaos_draw() % bits);
	uint64_t len = lo + chaos_draw() % lo;
	return len < max ? len : max;
}

int rdb_sched_alone(void) { return RT->sched.nlive <= 1 && rdb_th_slot() == 0; }

/* By default (not RDB_THREAD_BOUNDARIES=0) the thread holding the token takes the
 * boundary while the others are parked (each says where in its
 * sched.park), and writes their THCTX records; else boundaries wait until
 * the main thread is alone. */
int rdb_sched_boundary_ok(void)
{
	if (rdb_sched_alone())
		return 1;
	if (!RT->sched.thbound || RT->mode != RDB_TF_MODE_RECORD ||
	    __atomic_load_n(&RT->sched.owner, __ATOMIC_ACQUIRE) != self())
		return 0;
	/* A thread blocked in a call that writes memory (poll, wait4...) may
	 * have the kernel write it at any moment of the boundary, and its
	 * DATA comes only once it has the token again: the boundary's memory
	 * (--verify's hashes) would hold bytes replay writes later.  Such a
	 * boundary waits (the holder's next slice end).  read() is the
	 * exception: its buffer is one range, which the hashes leave out
	 * (rdb_sched_unsettled); what the snapshot and the STACK records
	 * hold of it, the call's DATA writes again after the boundary. */
	int reads = 0;
	for (unsigned k = 0; k <= RT->sched.top; k++) {
		const struct rdb_thread *t = rdb_th_at(k);
		if (!t->sched.alive || t->sched.park_quiet ||
		    __atomic_load_n(&t->sched.park, __ATOMIC_ACQUIRE) != RDB_TF_PARK_BLOCKED)
			continue;
		if (t->sched.park_nr != __NR_read || ++reads > RDB_UNSETTLED_MAX)
			return 0;
	}
	return 1;
}

int rdb_sched_unsettled(uint64_t r[][2])
{
	int n = 0;
	if (rdb_sched_alone())
		return 0;
	for (unsigned k = 0; k <= RT->sched.top && n < RDB_UNSETTLED_MAX; k++) {
		const struct rdb_thread *t = rdb_th_at(k);
		if (k == rdb_th_slot() || !t->sched.alive || !t->signal.stub_sp ||
		    __atomic_load_n(&t->sched.park, __ATOMIC_ACQUIRE) != RDB_TF_PARK_BLOCKED)
			continue;
		const uint64_t *a = (const uint64_t *)t->signal.stub_sp;
		uint64_t lo, len;
		if (t->sched.park_nr == __NR_read)
			lo = a[1], len = a[2];
		else if (t->sched.park_nr == __NR_nanosleep)
			lo = a[1], len = 16; /* (the rest, when a signal cuts it) */
		else if (t->sched.park_nr == __NR_clock_nanosleep)
			lo = a[3], len = 16;
		else
			continue;
		if (!lo || !len)
			continue;
		r[n][0] = lo;
		r[n][1] = lo + len < lo ? ~0ull : lo + len;
		n++;
	}
	return n;
}

/* A blocking call the kernel writes no memory for while it waits: futex
 * waits (not the PI ones), sched_yield and sleeps (nanosleep's rest only
 * when a signal cuts it, which may be during a boundary: the hashes leave
 * it out, rdb_sched_unsettled). */
static int quiet_call(long nr, const long a[6])
{
	if (nr == __NR_futex)
		return (a[1] & FUTEX_CMD) == 0 || (a[1] & FUTEX_CMD) == 9;
	return nr == __NR_sched_yield || nr == __NR_nanosleep || nr == __NR_clock_nanosleep;
}

/* Thread k's THCTX at boundary `interval` (the holder: at count, pc). */
static void thctx(struct rdb_tf_thctx *c, unsigned k, uint64_t interval, uint64_t count,
                  uint64_t pc)
{
	const struct rdb_thread *t = rdb_th_at(k);
	rdb_memset(c, 0, sizeof *c);
	c->interval = interval;
	c->slot = k;
	c->tid = t->tid;
	if (k == rdb_th_slot()) {
		c->how = RDB_TF_PARK_HOLDER;
		c->sic = count;
		c->pc = pc;
		return;
	}
	c->how = __atomic_load_n(&t->sched.park, __ATOMIC_ACQUIRE);
	if (c->how == RDB_TF_PARK_NEW || !c->how)
		return; /* (its park_* are an earlier thread's of the slot) */
	c->sic = t->sched.park_sic;
	c->pc = t->sched.park_pc;
	c->fs_base = t->sched.park_fs;
	c->nr = t->sched.park_nr;
	if (c->how == RDB_TF_PARK_SLICE && t->sched.park_g)
		rdb_memcpy(c->gregs, t->sched.park_g, sizeof c->gregs);
	if (c->how == RDB_TF_PARK_BLOCKED && t->signal.stub_sp) {
		c->sp = t->signal.stub_sp;
		rdb_memcpy(c->gregs, (const void *)t->signal.stub_sp, 8 * sizeof c->gregs[0]);
	}
}

/* Thread k's THSTATE (c its THCTX): what a replay from this boundary
 * makes it again with (threvive.c).  *fp: the xsave image that follows. */
static void thstate(struct rdb_tf_thstate *s, const struct rdb_tf_thctx *c, const uint8_t **fp)
{
	const struct rdb_thread *t = rdb_th_at(c->slot);
	rdb_memset(s, 0, sizeof *s);
	*fp = 0;
	s->interval = c->interval;
	s->slot = c->slot;
	s->flags = t->thread_group ? RDB_TF_THS_THREAD_GROUP : 0;
	s->sigmask = t->sched.park_mask;
	s->reserved_blocked = t->signal.reserved_blocked;
	s->ss_sp = t->signal.prog_ss[RDB_SS_SP];
	s->ss_flags = t->signal.prog_ss[RDB_SS_FLAGS];
	s->ss_size = t->signal.prog_ss[RDB_SS_SIZE];
	s->ctid = t->sched.ctid;
	s->stack_top = t->stack_top;
	s->hframe = t->hframe;
	s->robust_head = t->sched.robust[0];
	s->robust_len = t->sched.robust[1];
	if (c->how == RDB_TF_PARK_NEW || c->how == RDB_TF_PARK_BLOCKED) {
		*fp = t->sched.park_fpsize ? t->sched.park_fp : 0;
		s->fpsize = t->sched.park_fpsize;
	}
	if (c->how == RDB_TF_PARK_NEW) {
		s->sigmask = t->clone_mask;
		rdb_memcpy(s->gregs, t->sched.start_g, sizeof s->gregs);
	} else if (c->how == RDB_TF_PARK_BLOCKED && c->sp) {
		s->gregs[REG_RBX] = t->prog_cs[0];
		s->gregs[REG_R12] = t->prog_cs[1];
		s->gregs[REG_R13] = t->prog_cs[2];
		s->gregs[REG_R14] = t->prog_cs[3];
		s->gregs[REG_RBP] = ((const uint64_t *)c->sp)[-1]; /* (the stub pushed it) */
	} else if (c->how == RDB_TF_PARK_SLICE && t->sched.park_uc) {
		*fp = *(const uint8_t **)((const char *)t->sched.park_uc + UC_FPREGS);
		s->fpsize = *fp ? rdb_xstate_size(*fp) : 0;
	}
}

void rdb_sched_boundary_send(uint64_t interval, uint64_t count, uint64_t pc)
{
	if (rdb_sched_alone())
		return;
	for (unsigned k = 0; k <= RT->sched.top; k++) {
		if (!rdb_th_at(k)->sched.alive)
			continue;
		struct rdb_tf_thctx c;
		struct rdb_tf_thstate st;
		const uint8_t *fp;
		thctx(&c, k, interval, count, pc);
		rdb_chan_put(RDB_TF_THCTX, &c, sizeof c, 0, 0);
		thstate(&st, &c, &fp);
		rdb_chan_put(RDB_TF_THSTATE, &st, sizeof st, fp, st.fpsize);
	}
}

/* The running thread's FPU state into t's park_fp in the format of the
 * kernel's signal frames (fpx_sw_bytes, FP_XSTATE_MAGIC2 at its end), which
 * rt_sigreturn loads again (threvive.c); only when boundaries may find it
 * parked. */
static void save_fp(struct rdb_thread *t)
{
	t->sched.park_fpsize = 0;
	if (!RT->sched.thbound || RT->mode != RDB_TF_MODE_RECORD)
		return;
	if (!RT->sched.xsize) {
		uint32_t a, b, c, d;
		__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xd), "c"(0));
		RT->sched.xsize = b;
	}
	uint32_t size = RT->sched.xsize, lo, hi;
	if (size < 576 || size + 4 > sizeof t->sched.park_fp)
		return;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	uint8_t *fp = t->sched.park_fp;
	rdb_memset(fp + 512, 0, 64); /* (the header: xrstor wants its reserved bytes 0) */
	__asm__ volatile("xsave64 %0" : "+m"(*(uint8_t(*)[12288])fp) : "a"(lo), "d"(hi));
	uint32_t sw[4] = {0x46505853u /* FP_XSTATE_MAGIC1 */, size + 4, lo, hi};
	rdb_memcpy(fp + 464, sw, sizeof sw);
	rdb_memcpy(fp + 480, &size, 4);
	uint32_t magic2 = 0x46505845u; /* FP_XSTATE_MAGIC2 */
	rdb_memcpy(fp + size, &magic2, 4);
	t->sched.park_fpsize = size + 4;
}

/* Where this thread waits for the token from now on. */
/* (SLICE: uc the event's context; else mask the one it goes on with) */
static void park(uint32_t how, long nr, uint64_t count, uint64_t pc, void *uc, uint64_t mask)
{
	TH->sched.park_nr = nr;
	TH->sched.park_sic = count;
	TH->sched.park_pc = pc;
	TH->sched.park_fs = rdb_fs_base();
	TH->sched.park_g = uc ? rdb_gregs(uc) : 0;
	TH->sched.park_uc = uc;
	TH->sched.park_mask = uc ? *(uint64_t *)((char *)uc + UC_SIGMASK) : mask;
	__atomic_store_n(&TH->sched.park, how, __ATOMIC_RELEASE);
}

static void unpark(void) { __atomic_store_n(&TH->sched.park, 0, __ATOMIC_RELEASE); }

void rdb_sched_unpark(void) { unpark(); }

static void give(int to)
{
	__atomic_store_n(&RT->sched.owner, to, __ATOMIC_RELEASE);
	rdb_sys6(__NR_futex, (long)&RT->sched.owner, FUTEX_WAKE_PRIVATE, 0x7fffffff, 0, 0, 0);
}

/* Until the token is ours; recording, a free token (-1) is taken too. */
static void wait_token(int take_free)
{
	int me = self();
	for (;;) {
		int o = __atomic_load_n(&RT->sched.owner, __ATOMIC_ACQUIRE);
		if (o == me)
			return;
		if (take_free && o == -1 &&
		    __atomic_compare_exchange_n(&RT->sched.owner, &o, me, 0, __ATOMIC_ACQ_REL,
		                                __ATOMIC_RELAXED))
			return;
		rdb_sys6(__NR_futex, (long)&RT->sched.owner, FUTEX_WAIT_PRIVATE, o, 0, 0, 0);
	}
}

void rdb_sched_wait_token(void) { wait_token(0); }

/* ---- record ------------------------------------------------------------ */

/* The next thread after me (round robin) that waits for the token, or -1.
 * With --chaos the round starts at a slot drawn at random, so any waiting
 * thread may be next (a thread may wait for many slices, as a thread
 * starved by the kernel's scheduler does). */
static int next_wanting(int me)
{
	unsigned n = RT->sched.top + 1;
	unsigned start = RT->sched.chaos && n > 1 ? (unsigned)(chaos_draw() % n) : (unsigned)me;
	for (unsigned i = 1; i <= n; i++) {
		unsigned k = (start + i) % n;
		if (k != (unsigned)me && __atomic_load_n(&rdb_th_at(k)->sched.want, __ATOMIC_ACQUIRE))
			return (int)k;
	}
	return -1;
}

static void release(uint32_t why, uint64_t count, uint64_t pc)
{
	int me = self();
	RT->sched.last.slot = (uint32_t)me;
	RT->sched.last.sic = count;
	RT->sched.last.pc = pc;
	RT->sched.last.why = why;
	RT->sched.last.set = 1;
	give(next_wanting(me));
}

/* Signals blocked (the caller's): the SWITCH goes out whole. */
static void take(void)
{
	int me = self();
	__atomic_store_n(&TH->sched.want, 1, __ATOMIC_RELEASE);
	wait_token(1);
	__atomic_store_n(&TH->sched.want, 0, __ATOMIC_RELEASE);
	if (RT->sched.last.set && RT->sched.last.slot != (uint32_t)me && RT->mode) {
		struct rdb_tf_switch s = {RT->interval, RT->sched.last.sic, RT->sched.last.pc,
		                          RT->rr.sc_id, RT->nondet.nondets, RT->sched.last.slot,
		                          (uint32_t)me, RT->sched.last.why, 0};
		rdb_chan_put(RDB_TF_SWITCH, &s, sizeof s, 0, 0);
		RT->sched.switches++;
	}
	RT->sched.last.set = 0;
}

void rdb_sched_event(void *uc, uint64_t count, uint64_t pc)
{
	if (!RT->sched.on || count < TH->sched.slice_end || next_wanting(self()) < 0)
		return;
	park(RDB_TF_PARK_SLICE, 0, count, pc, uc, 0);
	release(RDB_TF_SW_SLICE, count, pc);
	take();
	unpark();
	TH->sched.slice_end = 0; /* a new slice (rdb_sched_stop) */
}

/* A boundary at count: the time slice's end in the new interval's counts
 * (its rest; else each boundary would start a whole new slice and a
 * thread could keep the token for good). */
void rdb_sched_rebased(uint64_t count)
{
	uint64_t *end = &TH->sched.slice_end;
	if (*end) /* (0: a new slice starts anyway) */
		*end = *end > count ? *end - count : 1; /* (1: over, at the next check) */
}

uint64_t rdb_sched_stop(uint64_t count, uint64_t stop)
{
	if (!RT->sched.on)
		return stop;
	uint64_t *end = &TH->sched.slice_end;
	if (*end <= count || *end > count + slice_max())
		*end = count + slice_len();
	return stop > count && stop < *end ? stop : *end;
}

/* The program's return address at its syscall (the entry stub's frame:
 * the arguments, the flags, the return address). */
static uint64_t stub_pc(void)
{
	const uint64_t *a = (const uint64_t *)TH->signal.stub_sp;
	return a ? a[7] : 0;
}

/* futex operations that never wait */
static int futex_waits(const long a[6])
{
	long op = a[1] & FUTEX_CMD;
	return !(op == 1 || op == 3 || op == 4 || op == 5 || op == 7 || op == 10);
}

static int blocks(long nr, const long a[6])
{
	if (!RT->sched.on || !(rdb_systab_attrs(nr) & RDB_ATTR_MAYBLOCK))
		return 0;
	return nr != __NR_futex || futex_waits(a);
}

int rdb_sched_block(long nr, const long a[6])
{
	if (RT->mode != RDB_TF_MODE_RECORD || !blocks(nr, a))
		return 0;
	uint64_t old = rdb_block_all();
	TH->sched.park_quiet = quiet_call(nr, a);
	save_fp(TH);
	park(RDB_TF_PARK_BLOCKED, nr, rdb_sic(), stub_pc(), 0, old);
	release(RDB_TF_SW_BLOCK, rdb_sic(), stub_pc());
	rdb_set_mask(old);
	return 1;
}

void rdb_sched_unblock(void)
{
	uint64_t old = rdb_block_all();
	take();
	unpark();
	/* Alone again (or holding the token, unless RDB_THREAD_BOUNDARIES=0) with a
	 * boundary waiting (interval.c): at the next check, as the interval
	 * timer's signal would have asked. */
	if (rdb_sched_boundary_ok() && !TH->sic.poked &&
	    (RT->intervals.want_boundary ||
	     (RT->intervals.every_sic && rdb_sic() >= RT->intervals.every_sic))) {
		TH->sic.poked = 1;
		*rdb_sic_origin() += RDB_SIC_W;
		__asm__ volatile("add %0, %%r15" : : "r"((uint64_t)RDB_SIC_W) : "memory");
	}
	rdb_set_mask(old);
}

/* A fork child of a threaded program: only the caller lives on in it. */
void rdb_sched_forked(void)
{
	/* (their want flags too: a thread that was waiting for the token
	 * at the fork is no thread here, and a release handed it the token
	 * for good: thread_fork_exit's child hung in its pthread_join) */
	for (unsigned k = 0; k <= RT->sched.top; k++) {
		struct rdb_thread *t = rdb_th_at(k);
		t->sched.alive = k == rdb_th_slot();
		if (k != rdb_th_slot())
			t->sched.want = 0;
	}
	RT->sched.nlive = 1;
	RT->sched.on = 0;
	RT->sched.last.set = 0;
	RT->sched.owner = (int)rdb_th_slot();
}

/* ---- replay ------------------------------------------------------------ */

static _Noreturn void diverged(const char *what, const struct rdb_tf_switch *s)
{
	rdb_replay_diverged("in interval %lu: thread %u at count %lu: %s (the recording's switch: "
	                    "thread %u at count %lu, pc %p, to thread %u, reason %u)",
	                    (unsigned long)RT->interval, rdb_th_slot(), (unsigned long)rdb_sic(),
	                    what, s->from, (unsigned long)s->sic, (void *)s->pc, s->to, s->why);
}

/* The next record, NOTEs skipped (fork children's output written): 1
 * with its header, 0 at the channel's end. */
static int peek(struct rdb_tf_rec *h)
{
	for (;;) {
		rdb_kids_drain();
		if (!rdb_chan_peek(h))
			return 0;
		if (h->type != RDB_TF_NOTE)
			return 1;
		rdb_chan_read(h, sizeof *h);
		rdb_chan_read(0, h->len);
	}
}

static int read_switch(struct rdb_tf_switch *s)
{
	struct rdb_tf_rec h;
	if (!peek(&h) || h.type != RDB_TF_SWITCH)
		return 0;
	if (h.len != sizeof *s || rdb_chan_read(&h, sizeof h) != 1 || rdb_chan_read(s, sizeof *s) != 1)
		rdb_die("replay: bad SWITCH record (%u bytes)\n", h.len);
	return 1;
}

/* The token to the switch's thread, which must be one that waits. */
static void hand(const struct rdb_tf_switch *s)
{
	if (s->to >= RDB_THREAD_MAX || s->to > RT->sched.top || !rdb_th_at(s->to)->sched.alive ||
	    s->to == s->from)
		diverged("the switch goes to a thread that does not wait now", s);
	give((int)s->to);
}

void rdb_sched_replay_give(const struct rdb_tf_switch *s)
{
	hand(s);
	wait_token(0);
	unpark();
}

void rdb_sched_replay_slice(void *uc, const struct rdb_tf_switch *s)
{
	park(RDB_TF_PARK_SLICE, 0, s->sic, s->pc, uc, 0);
	rdb_sched_replay_give(s);
}

static const char reg_names[RDB_TF_NGREG][8] = {
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rdi", "rsi", "rbp", "rbx",
	"rdx", "rax", "rcx", "rsp", "rip", "eflags", "csgsfs", "err", "trapno", "oldmask", "cr2"};

static _Noreturn void parked_differs(const struct rdb_tf_thctx *c, const char *what, uint64_t got,
                                     uint64_t want)
{
	rdb_replay_diverged("--verify: at boundary %lu thread %u (parked, kind %u) has %s 0x%lx, "
	                    "the recording had 0x%lx", (unsigned long)c->interval, c->slot, c->how,
	                    what, (unsigned long)got, (unsigned long)want);
}

/* One THCTX against thread c->slot as it is parked here. */
static void check_parked(const struct rdb_tf_thctx *c, uint64_t count, uint64_t pc)
{
	struct rdb_tf_thctx here;
	if (c->slot >= RDB_THREAD_MAX || c->slot > RT->sched.top || !rdb_th_at(c->slot)->sched.alive)
		rdb_replay_diverged("at boundary %lu the recording has thread %u alive, replay does "
		                    "not", (unsigned long)c->interval, c->slot);
	thctx(&here, c->slot, c->interval, count, pc);
	if (here.how != c->how)
		parked_differs(c, "parked kind", here.how, c->how);
	if (!RT->chan.verify)
		return;
	if (here.sic != c->sic)
		parked_differs(c, "count", here.sic, c->sic);
	if (here.pc != c->pc)
		parked_differs(c, "pc", here.pc, c->pc);
	if (c->how == RDB_TF_PARK_HOLDER || c->how == RDB_TF_PARK_NEW)
		return;
	if (here.fs_base != c->fs_base)
		parked_differs(c, "fs base", here.fs_base, c->fs_base);
	if (here.nr != c->nr)
		parked_differs(c, "call", (uint64_t)here.nr, (uint64_t)c->nr);
	if (here.sp != c->sp)
		parked_differs(c, "stub frame at", here.sp, c->sp);
	int n = c->how == RDB_TF_PARK_BLOCKED ? 8 : REG_RIP + 1;
	for (int i = 0; i < n; i++) {
		/* (SLICE: the check's scratch and the counter, as verify_regs;
		 * BLOCKED: the stub frame's flags word) */
		if (c->how == RDB_TF_PARK_SLICE ? i == REG_R12 || i == REG_R15 : i == 6)
			continue;
		if (here.gregs[i] != c->gregs[i]) {
			char what[24] = "register %";
			rdb_memcpy(what + 10, c->how == RDB_TF_PARK_SLICE ? reg_names[i] : "frame", 8);
			if (c->how == RDB_TF_PARK_BLOCKED)
				what[15] = (char)('0' + i), what[16] = 0;
			parked_differs(c, what, here.gregs[i], c->gregs[i]);
		}
	}
}

void rdb_sched_boundary_check(uint64_t count, uint64_t pc)
{
	struct rdb_tf_rec h;
	int n = 0;
	while (peek(&h) && (h.type == RDB_TF_THCTX || h.type == RDB_TF_THSTATE)) {
		struct rdb_tf_thctx c;
		if (h.type == RDB_TF_THSTATE) { /* (replay --from's: threvive.c) */
			rdb_chan_read(&h, sizeof h);
			rdb_chan_read(0, h.len);
			continue;
		}
		if (h.len != sizeof c || rdb_chan_read(&h, sizeof h) != 1 || rdb_chan_read(&c, sizeof c) != 1)
			rdb_die("replay: bad THCTX record (%u bytes)\n", h.len);
		check_parked(&c, count, pc);
		n++;
	}
	if (n && n != RT->sched.nlive)
		rdb_replay_diverged("at boundary %lu the recording has %d threads alive, replay %d",
		                    (unsigned long)RT->interval, n, RT->sched.nlive);
}

void rdb_sched_replay_block(long nr)
{
	struct rdb_tf_switch s;
	if (!RT->sched.on || !(rdb_systab_attrs(nr) & RDB_ATTR_MAYBLOCK) || !read_switch(&s))
		return;
	if (s.from != (uint32_t)self() || s.why != RDB_TF_SW_BLOCK)
		diverged("a syscall that may block; the recording switched elsewhere", &s);
	if (s.sic != rdb_sic())
		diverged("the recording switched at another count", &s);
	uint64_t old = rdb_block_all();
	park(RDB_TF_PARK_BLOCKED, nr, rdb_sic(), stub_pc(), 0, old);
	rdb_sched_replay_give(&s);
	set_r15(rdb_replay_arm(rdb_sic()));
	rdb_set_mask(old);
}

/* ---- threads made and ended ---------------------------------------------- */

static void expect_thread(struct rdb_tf_thread *t, uint32_t kind)
{
	struct rdb_tf_rec h;
	if (!peek(&h) || h.type != RDB_TF_THREAD || h.len != sizeof *t)
		rdb_replay_diverged("in interval %lu: thread %u %s a thread, the recording has record "
		                    "type %u there", (unsigned long)RT->interval, rdb_th_slot(),
		                    kind == RDB_TF_TH_CREATED ? "creates" : "ends", h.type);
	rdb_chan_read(&h, sizeof h);
	rdb_chan_read(t, sizeof *t);
	/* (a clone the recording refused is in place of a CREATED one) */
	int refused = kind == RDB_TF_TH_CREATED && t->kind == RDB_TF_TH_REFUSED;
	if ((t->kind != kind && !refused) || t->slot >= RDB_THREAD_MAX || (t->slot == 0 && !refused))
		rdb_replay_diverged("in interval %lu: thread %u: the recording's thread record (kind "
		                    "%u, thread %u) is not this one", (unsigned long)RT->interval,
		                    rdb_th_slot(), t->kind, t->slot);
}

int rdb_sched_prepare(void)
{
	if (RT->mode != RDB_TF_MODE_REPLAY)
		return 0;
	struct rdb_tf_thread t;
	expect_thread(&t, RDB_TF_TH_CREATED);
	return t.kind == RDB_TF_TH_REFUSED ? -1 : (int)t.slot;
}

/* Recording: the thread made, or the clone refused (no slot, or the
 * kernel's clone failed: the program sees the error, and replay makes
 * no clone). */
static void note_made(unsigned k, long ret)
{
	if (ret > 0 && k > RT->sched.top)
		RT->sched.top = k;
	if (RT->mode == RDB_TF_MODE_RECORD) {
		struct rdb_tf_thread t = {RT->interval, RT->rr.sc_id,
		                          ret > 0 ? RDB_TF_TH_CREATED : RDB_TF_TH_REFUSED,
		                          ret > 0 ? k : 0, rdb_th_slot(), 0};
		rdb_chan_put(RDB_TF_THREAD, &t, sizeof t, 0, 0);
	}
}

/* The registers a thread made by the clone with arguments a (the entry
 * stub's frame, syscall.S .Lclone_thread: a[6] the program's %rbp, a[8]
 * the return address) gets at its first instruction, as .Lthread_child
 * leaves them: the parent's, %rax and %r11 zero, %rsp the new stack past
 * the return address; the flags of its last xor.  The child may not have
 * run yet: a boundary's THSTATE takes them from here. */
static void new_regs(struct rdb_thread *c, const long *args)
{
	const long *a;
	__asm__("" : "=r"(a) : "0"(args)); /* (the frame goes on past the arguments) */
	uint64_t *g = c->sched.start_g;
	rdb_memset(g, 0, sizeof c->sched.start_g);
	g[REG_RDI] = (uint64_t)a[0];
	g[REG_RSI] = (uint64_t)a[1];
	g[REG_RDX] = (uint64_t)a[2];
	g[REG_R10] = (uint64_t)a[3];
	g[REG_R8] = (uint64_t)a[4];
	g[REG_R9] = (uint64_t)a[5];
	g[REG_RBP] = (uint64_t)a[6];
	g[REG_RBX] = TH->prog_cs[0];
	g[REG_R12] = TH->prog_cs[1];
	g[REG_R13] = TH->prog_cs[2];
	g[REG_R14] = TH->prog_cs[3];
	g[REG_RIP] = g[REG_RCX] = (uint64_t)a[8];
	g[REG_RSP] = (uint64_t)a[1];
	g[REG_EFL] = 0x246;
	c->stack_top = (uintptr_t)a[1]; /* (rdb_thread_child sets the same) */
	rdb_checksum_thread_stack(c->stack_top);
}

long rdb_sched_parent(long ret, const long a[6])
{
	uint64_t old = rdb_block_all();
	uint64_t clone_id = RT->rr.sc_id + 1; /* the THREAD record's sc_id + 1 */
	note_made(RT->sched.made, ret);
	RT->sched.clone_ret = ret;
	rdb_set_mask(old);
	long r = rdb_rr_syscall(__NR_clone, a); /* its TRAP (record.c, sysreplay.c) */
	if (ret > 0 && (RT->mode != RDB_TF_MODE_REPLAY || r > 0)) {
		/* (parked before its first instruction: rdb_sched_child) */
		struct rdb_thread *c = rdb_th_at(RT->sched.made);
		c->sched.park = RDB_TF_PARK_NEW;
		c->sched.alive = 1;
		c->sched.born = clone_id;
		new_regs(c, a);
		save_fp(c); /* (the child's is ours: the kernel copied it) */
		RT->sched.nlive++;
		RT->sched.on = 1;
		/* Its own slice starts now (the clone's stub restored its %r15). */
		if (RT->mode == RDB_TF_MODE_RECORD && !TH->sic.poked && !TH->sic.in_event) {
			uint64_t count = rdb_sic();
			set_r15(rdb_sic_set(count, rdb_sched_stop(count, 0)));
		}
	}
	return r;
}

void rdb_sched_child(void)
{
	if (!RT->mode)
		return;
	uint64_t old = rdb_block_all();
	if (RT->mode == RDB_TF_MODE_RECORD) {
		take();
		unpark();
		/* With boundaries while threads live, --every-sic counts in this
		 * thread too (else a thread shorter than a slice never takes one:
		 * interval.c arms the same after each event). */
		uint64_t every = RT->sched.thbound && RT->intervals.every_sic && RT->intervals.snap_ok &&
		                 !RT->intervals.snap_stop ? RT->intervals.every_sic : 0;
		set_r15(rdb_sic_set(0, rdb_sched_stop(0, every)));
	} else {
		wait_token(0);
		unpark();
		set_r15(rdb_replay_arm(0));
	}
	rdb_set_mask(old);
}

_Noreturn void rdb_sched_exit(long status)
{
	struct rdb_thread *t = TH;
	rdb_block_all();
	/* The kernel would clear the CLONE_CHILD_CLEARTID word and wake its
	 * waiter at some moment of the other threads: the runtime does it
	 * here, at a recorded position, and the kernel does nothing. */
	rdb_sys1(__NR_set_tid_address, 0);
	if (t->sched.ctid && rdb_covered(t->sched.ctid, 4)) {
		*(volatile int *)t->sched.ctid = 0;
		rdb_shadow_syswrite(t->sched.ctid, 4);
		if (RT->mode == RDB_TF_MODE_RECORD)
			rdb_sys6(__NR_futex, t->sched.ctid, FUTEX_WAKE, 1, 0, 0, 0);
	}
	RT->sched.nlive--;
	t->sched.alive = 0;
	if (RT->mode == RDB_TF_MODE_RECORD) {
		struct rdb_tf_thread th = {RT->interval, RT->rr.sc_id, RDB_TF_TH_EXITED, rdb_th_slot(),
		                           0, t->tid};
		rdb_chan_put(RDB_TF_THREAD, &th, sizeof th, 0, 0);
		rdb_chan_flush();
		release(RDB_TF_SW_EXIT, rdb_sic(), t->sched.exiting ? t->sched.exit_pc : stub_pc());
	} else {
		struct rdb_tf_thread th;
		struct rdb_tf_switch s;
		expect_thread(&th, RDB_TF_TH_EXITED);
		if (th.slot != rdb_th_slot())
			rdb_replay_diverged("in interval %lu: thread %u ends, the recording's thread %u "
			                    "does", (unsigned long)RT->interval, rdb_th_slot(), th.slot);
		if (!read_switch(&s)) {
			/* nothing ran after it: the recording ended here */
			struct rdb_tf_rec h;
			if (peek(&h) && h.type == RDB_TF_END) {
				rdb_chan_read(&h, sizeof h);
				rdb_replay_at_end(&h, "a thread's end");
			}
			rdb_replay_diverged("in interval %lu: thread %u ends; the recording has record "
			                    "type %u there", (unsigned long)RT->interval, rdb_th_slot(),
			                    h.type);
		}
		if (s.from != rdb_th_slot() || s.why != RDB_TF_SW_EXIT)
			diverged("a thread's end; the recording switched elsewhere", &s);
		hand(&s);
	}
	for (;;)
		rdb_sys1(__NR_exit, status);
}
