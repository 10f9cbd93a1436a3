/* replay.c: intervals and signals while replaying (paper 5.6-5.8).
 *
 * rdb sends, after every event, a TARGET: the (count, pc) of the next
 * boundary or asynchronous signal of the interval.  sic.c arms %r15 so
 * that the check after exactly that many increments faults; here the
 * fault is matched against the recording and the event replayed:
 *   - SIGNAL: queued again with its recorded siginfo (and those of the
 *     AT_SIC_TOO records after it), delivered when the fault returns
 *     (signal.c);
 *   - BOUNDARY: with --verify the registers and hashes are compared with
 *     the recording's, then the planes are cleared as the recording did,
 *     and the next interval's start values are written into memory;
 *   - STOP (replay --to): the replay ends here.
 * Replay from interval K >= 2 (rdb_replay_enter) rebuilds the process as
 * it was at boundary K, from the boundary's records alone: mappings, brk,
 * stack, the interval's values, signal view, registers; it never returns
 * into __rdb_start's caller but enters the program with rt_sigreturn. */
#include "rt.h"

static _Noreturn void diverge(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static _Noreturn void diverge(const char *fmt, ...)
{
	char buf[400];
	__builtin_va_list ap;
	__builtin_va_start(ap, fmt);
	rdb_vsnprintf(buf, sizeof buf, fmt, ap);
	__builtin_va_end(ap);
	rdb_replay_diverged("in interval %lu: %s", (unsigned long)RT->interval, buf);
}

static const char *type_name(uint32_t t)
{
	switch (t) {
	case RDB_TF_TRAP: return "a syscall";
	case RDB_TF_NONDET: return "a nondeterministic instruction";
	case RDB_TF_BOUNDARY: return "an interval boundary";
	case RDB_TF_SIGNAL: return "a signal";
	case RDB_TF_TERM: return "the program's end";
	case RDB_TF_END: return "the end of the trace";
	case RDB_TF_STOP: return "the --to stop";
	}
	return "another record";
}

static uint32_t expect_head(uint32_t type, void *p, size_t n, const char *what);

/* The next record must be `type` with exactly n payload bytes. */
static void expect(uint32_t type, void *p, size_t n, const char *what)
{
	if (expect_head(type, p, n, what) != n)
		rdb_die("replay: %s: record type %u is longer than expected\n", what, type);
}

/* The next record must be `type` with at least n payload bytes; reads n,
 * returns the record's length (the rest is the caller's to read). */
static uint32_t expect_head(uint32_t type, void *p, size_t n, const char *what)
{
	struct rdb_tf_rec h;
	for (;;) {
		if (rdb_chan_read(&h, sizeof h) != 1)
			rdb_die("replay: the channel from rdb ended before %s\n", what);
		if (rdb_kids_consume(&h))
			continue;
		if (h.type != RDB_TF_NOTE)
			break;
		rdb_chan_read(0, h.len);
	}
	if (h.type != type || h.len < n)
		diverge("the program reached %s, the recording has %s (record type %u, %u "
		        "bytes) there", what, type_name(h.type), h.type, h.len);
	rdb_chan_read(p, n);
	return h.len;
}

/* A count past 2^40 (a recorded one is at most that: the overflow
 * boundary) would wrap origin_for's arithmetic: rdb read a damaged trace. */
static void read_target(void)
{
	struct rdb_tf_target *t = &RT->replay.tgt;
	expect(RDB_TF_TARGET, t, sizeof *t, "the next event's target");
	if ((t->kind && t->kind != RDB_TF_BOUNDARY && t->kind != RDB_TF_SIGNAL &&
	     t->kind != RDB_TF_SWITCH) || t->slot >= RDB_THREAD_MAX ||
	    t->sic > RDB_SIC_SPAN)
		rdb_die("replay: bad TARGET from rdb (interval %lu, count %lu, pc %p, kind %u): "
		        "counts are at most 2^40\n", (unsigned long)t->interval,
		        (unsigned long)t->sic, (void *)t->pc, t->kind);
	if (RT->start.debug > 1)
		rdb_printf("rdb: next event: kind %u at count %lu pc offset 0x%lx\n", RT->replay.tgt.kind,
		           (unsigned long)RT->replay.tgt.sic, (unsigned long)(RT->replay.tgt.pc - RT->start.bias));
}

/* Arms the SIC for the target: count is where the program is now; the
 * value %r15 gets. */
static uint64_t arm_for(uint64_t count)
{
	RDB_ASSERT(RT->replay.tgt.sic <= RDB_SIC_SPAN); /* read_target */
	uint64_t at = RT->replay.tgt.sic;
	/* another thread's (or an earlier thread's of this slot): this one
	 * runs to its next switch, no event */
	int ours = RT->replay.tgt.slot == rdb_th_slot() && RT->replay.tgt.born == TH->sched.born;
	return rdb_sic_set(count, RT->replay.tgt.kind && ours && at > count ? at : 0);
}

uint64_t rdb_replay_arm(uint64_t count) { return arm_for(count); }

int rdb_replay_target_at(uint32_t kind, uint64_t count, uint64_t pc)
{
	const struct rdb_tf_target *t = &RT->replay.tgt;
	return t->kind == kind && t->slot == rdb_th_slot() && t->born == TH->sched.born &&
	       t->sic == count && t->pc == pc;
}

void rdb_replay_first_target(void)
{
	read_target();
	arm_for(0);
}

/* ---- values ----------------------------------------------------------- */

static const struct rdb_tf_map *map_of(uint64_t a)
{
	return rdb_map_find(RT->procmaps.maps, RT->procmaps.nmaps, a);
}

/* The program's mappings now: a replay of a recording that could read
 * them can too, unless this machine has less memory. */
static void procmaps(void)
{
	if (!rdb_procmaps())
		rdb_die("replay: cannot read the program's mappings (%lu so far)\n",
		        (unsigned long)RT->procmaps.nmaps);
}

/* Memory the program cannot write (read-only data it read) gets its
 * values through /proc/self/mem (rdb_poke_mem). */
static void load_blob(uint64_t a, uint64_t n)
{
	while (n) {
		const struct rdb_tf_map *m = map_of(a);
		uint64_t k = m && m->end - a < n ? m->end - a : n;
		if (m && (m->prot & 2)) {
			if (rdb_chan_read((void *)a, k) != 1)
				rdb_die("replay: the channel ended inside recorded values\n");
		} else {
			/* not writable, or (a bug) not mapped: through a buffer */
			uint64_t done = 0;
			while (done < k) {
				uint64_t c = k - done > sizeof RT->replay.bounce ? sizeof RT->replay.bounce : k - done;
				if (rdb_chan_read(RT->replay.bounce, c) != 1)
					rdb_die("replay: the channel ended inside recorded values\n");
				if (m)
					rdb_poke_mem(a + done, RT->replay.bounce, c);
				done += c;
			}
		}
		a += k;
		n -= k;
	}
}

/* The word at the thread pointer is the thread pointer itself (x86-64 TLS
 * ABI).  Every hook of a %fs: operand reads it (`add %fs:0, %r12`), but
 * that read is not hooked, so an interval that reads TLS only through
 * such operands has no value for it: a replay from there found 0 and the
 * hook's store faulted. */
void rdb_replay_tls_self(uint64_t fs)
{
	const struct rdb_tf_map *m = fs && rdb_covered(fs, 8) ? map_of(fs) : 0;
	if (m && (m->prot & 1) && !*(const uint64_t *)fs)
		rdb_poke_mem(fs, &fs, 8);
}

/* VALUES records of the interval, up to its VALUES_END. */
static void load_values(uint64_t interval)
{
	for (;;) {
		struct rdb_tf_rec h;
		if (rdb_chan_read(&h, sizeof h) != 1)
			rdb_die("replay: the channel ended inside interval %lu's values\n",
			        (unsigned long)interval);
		if (h.type == RDB_TF_VALUES_END) {
			struct rdb_tf_values_end e;
			if (h.len != sizeof e || rdb_chan_read(&e, sizeof e) != 1 ||
			    e.interval != interval)
				rdb_die("replay: bad VALUES_END record for interval %lu\n",
				        (unsigned long)interval);
			return;
		}
		struct rdb_tf_blob b;
		if (h.type != RDB_TF_VALUES || h.len < sizeof b || rdb_chan_read(&b, sizeof b) != 1 ||
		    h.len - sizeof b != b.len || b.interval != interval || !rdb_covered(b.addr, b.len))
			rdb_die("replay: bad VALUES record (type %u, %u bytes) for interval %lu\n",
			        h.type, h.len, (unsigned long)interval);
		if (RT->start.debug > 1)
			rdb_printf("rdb: interval %lu value [%p, +%lu)\n", (unsigned long)interval,
			           (void *)b.addr, (unsigned long)b.len);
		load_blob(b.addr, b.len);
	}
}

/* ---- verification --------------------------------------------------------- */

/* (char arrays, not pointers: no relocation, rt.h) */
static const char reg_names[RDB_TF_NGREG][8] = {
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rdi", "rsi", "rbp", "rbx",
	"rdx", "rax", "rcx", "rsp", "rip", "eflags", "csgsfs", "err", "trapno", "oldmask", "cr2"};

static void verify_regs(const uint64_t *g, const struct rdb_tf_context *c,
                        const uint8_t *fp, uint64_t b)
{
	for (int i = 0; i <= REG_RIP; i++) {
		if (i == REG_R12 || i == REG_R15)
			continue; /* the check's scratch, and the counter (compared as a count) */
		if (g[i] != c->gregs[i])
			diverge("--verify: at boundary %lu %%%s is 0x%lx, the recording had 0x%lx",
			        (unsigned long)b, reg_names[i], (unsigned long)g[i],
			        (unsigned long)c->gregs[i]);
	}
	if ((g[REG_EFL] ^ c->gregs[REG_EFL]) & rdb_live_flags(g[REG_RIP]))
		diverge("--verify: at boundary %lu the flags are 0x%lx, the recording had 0x%lx",
		        (unsigned long)b, (unsigned long)g[REG_EFL],
		        (unsigned long)c->gregs[REG_EFL]);
	uint64_t fs = rdb_fs_base();
	if (fs != c->fs_base)
		diverge("--verify: at boundary %lu the fs base is 0x%lx, the recording had 0x%lx",
		        (unsigned long)b, (unsigned long)fs, (unsigned long)c->fs_base);
	/* x87, SSE and AVX state (fpverify.c) */
	char what[48];
	if (fp && c->fpsize >= 512 &&
	    rdb_fp_diff(fp, rdb_xstate_size(fp), RT->replay.fpbuf, c->fpsize, what, sizeof what))
		diverge("--verify: at boundary %lu %s differs from the recording's", (unsigned long)b,
		        what);
}

/* The signals queued again and still blocked must be the recording's:
 * they are kernel state no checksum sees. */
static void verify_queued(uint64_t b)
{
	const struct rdb_tf_context *c = &RT->ctx.c;
	int same = c->nqueued == (uint64_t)RT->signal.nqueued;
	for (int i = 0; same && i < RT->signal.nqueued; i++)
		same = RT->ctx.q[i].signo == RT->signal.queued[i].signo;
	if (!same)
		diverge("--verify: at boundary %lu %d signals wait to be delivered (the first: %d), "
		        "in the recording %lu (the first: %d)",
		        (unsigned long)b, RT->signal.nqueued, RT->signal.nqueued ? RT->signal.queued[0].signo : 0,
		        (unsigned long)c->nqueued, c->nqueued ? RT->ctx.q[0].signo : 0);
}

/* ---- events ---------------------------------------------------------------- */

/* A boundary's CONTEXT record into RT->ctx (off the maybe alternate signal
 * stack): the context, the signals still queued, and the xsave image into
 * RT->replay.fpbuf (at most fpcap bytes).  Returns 0 if it is malformed. */
static int read_context(size_t fpcap, const char *what)
{
	struct rdb_tf_context *c = &RT->ctx.c;
	uint32_t len = expect_head(RDB_TF_CONTEXT, c, sizeof *c, what);
	if (c->nqueued > (len - sizeof *c) / sizeof RT->ctx.q[0] || c->fpsize > fpcap ||
	    !rdb_grow(RDB_G_CTXQ, c->nqueued * sizeof RT->ctx.q[0]))
		return 0;
	size_t qn = c->nqueued * sizeof RT->ctx.q[0];
	if (len != sizeof *c + qn + c->fpsize || (qn && rdb_chan_read(RT->ctx.q, qn) != 1) ||
	    rdb_chan_read(RT->replay.fpbuf, c->fpsize) != 1)
		return 0;
	for (uint64_t i = 0; i < c->nqueued; i++) {
		int s = RT->ctx.q[i].signo;
		if (s < 1 || s >= RDB_NSIG || s == RDB_SIGKILL || s == RDB_SIGSTOP ||
		    (RT->signal.reserved_sigs & (1ull << (s - 1))))
			return 0;
	}
	return 1;
}

/* rdb replay --to: the program ends here, with status 0. */
static _Noreturn void stop(void)
{
	struct rdb_tf_rec h;
	rdb_chan_read(&h, sizeof h);
	rdb_watch_report();
	RT->mode = 0;
	for (;;)
		rdb_sys1(__NR_exit_group, 0);
}

static void replay_boundary(void *uc, const struct rdb_tf_boundary *b)
{
	struct rdb_tf_context *cp = &RT->ctx.c;
	if (!read_context(sizeof RT->replay.fpbuf, "the boundary's context"))
		rdb_die("replay: bad CONTEXT record at boundary %lu\n", (unsigned long)b->interval);
	uint64_t *g = rdb_gregs(uc);
	procmaps();
	if (RT->chan.verify) {
		verify_queued(b->interval);
		verify_regs(g, cp, *(const uint8_t **)((char *)uc + UC_FPREGS), b->interval);
		if (b->flags & RDB_TF_B_CHECKSUM) {
			uint64_t ht, hf;
			rdb_checksum(g, RT->procmaps.maps, RT->procmaps.nmaps, &ht, &hf);
			if (RT->chan.verify == 1 && ht != b->hash_touched)
				diverge("--verify: at boundary %lu the memory interval %lu read or wrote, "
				        "or its live stack, differs from the recording's",
				        (unsigned long)b->interval, (unsigned long)RT->interval);
			if (RT->chan.from <= 1 && hf != b->hash_full)
				diverge("--verify: at boundary %lu the program's writable memory differs "
				        "from the recording's (memory interval %lu did not touch)",
				        (unsigned long)b->interval, (unsigned long)RT->interval);
		}
	}
	struct rdb_tf_rec h; /* --to: this boundary was the one after the last interval */
	if (rdb_chan_peek(&h) && h.type == RDB_TF_STOP)
		stop();
	rdb_planes_clear_maps(0); /* as the recording did: the hashes need it */
	rdb_interval_saved_stack(TH, g[REG_RSP]);
	RT->interval = b->interval;
	rdb_watch_interval();
	if (RT->chan.from >= 2) { /* from the start, no VALUES come (rdb/feed.c) */
		rdb_watch_pause(1);
		load_values(b->interval);
		rdb_watch_pause(0);
	}
}

/* The signals the recording queued again with the one just replayed
 * (AT_SIC_TOO records, after its TARGET). */
static void more_signals(uint64_t count, uint64_t pc)
{
	struct { struct rdb_tf_rec h; struct rdb_tf_signal s; } n;
	for (;;) {
		rdb_kids_drain(); /* a fork child's output may come between them */
		if (!rdb_chan_peek(&n.h) || n.h.type != RDB_TF_SIGNAL || n.h.len != sizeof n.s ||
		    !rdb_chan_peek_n(&n, sizeof n) || n.s.kind != RDB_TF_SIG_AT_SIC_TOO)
			return;
		struct rdb_tf_signal s;
		expect(RDB_TF_SIGNAL, &s, sizeof s, "a recorded signal");
		if (s.sic != count || s.pc != pc)
			diverge("signal %d is not at the check of the signal before it", s.signo);
		rdb_signal_requeue(s.signo, s.siginfo);
	}
}

/* A fault at the check after `count` increments, at pc. */
void rdb_replay_event(void *uc, uint64_t count, uint64_t pc)
{
	struct rdb_tf_target t = RT->replay.tgt;
	if (!t.kind)
		diverge("a SIC check fired at count %lu, pc %p, where the recording has no "
		        "event", (unsigned long)count, (void *)pc);
	if (count != t.sic || pc != t.pc)
		diverge("the program reached count %lu at pc %p; the recording's %s is at "
		        "count %lu, pc %p", (unsigned long)count, (void *)pc,
		        t.kind == RDB_TF_BOUNDARY ? "boundary" : t.kind == RDB_TF_SWITCH ?
		        "thread switch" : "signal", (unsigned long)t.sic,
		        (void *)t.pc);
	struct rdb_tf_rec h;
	rdb_kids_drain(); /* a fork child's output before the event */
	if (!rdb_chan_peek(&h))
		rdb_die("replay: the channel from rdb ended at an event\n");
	if (h.type == RDB_TF_END) {
		rdb_chan_read(&h, sizeof h);
		rdb_replay_at_end(&h, "an interval boundary");
	}
	if (h.type == RDB_TF_STOP)
		stop();
	if (t.kind == RDB_TF_SWITCH) {
		/* a time slice ended here: the token to the recording's next
		 * thread, which arms for the next target; back here later */
		struct rdb_tf_switch s;
		expect(RDB_TF_SWITCH, &s, sizeof s, "a thread switch");
		if (s.why != RDB_TF_SW_SLICE || s.from != rdb_th_slot() || s.sic != count ||
		    s.pc != pc)
			diverge("the recorded switch (thread %u at count %lu, pc %p) is not the one the "
			        "target announced", s.from, (unsigned long)s.sic, (void *)s.pc);
		if (s.nondets != RT->nondet.nondets)
			diverge("thread switch: the program ran %lu nondeterministic instructions, the "
			        "recording %lu", (unsigned long)RT->nondet.nondets,
			        (unsigned long)s.nondets);
		read_target();
		rdb_sched_replay_slice(uc, &s);
		rdb_gregs(uc)[REG_R15] = arm_for(count);
		return;
	}
	if (t.kind == RDB_TF_SIGNAL) {
		struct rdb_tf_signal s;
		expect(RDB_TF_SIGNAL, &s, sizeof s, "a recorded signal");
		if (s.kind != RDB_TF_SIG_AT_SIC || s.sic != count || s.pc != pc)
			diverge("the recorded signal %d is not the one the target announced", s.signo);
		RT->nondet.nondets = s.nondets;
		rdb_signal_requeue(s.signo, s.siginfo);
	} else {
		struct rdb_tf_boundary b;
		expect(RDB_TF_BOUNDARY, &b, sizeof b, "an interval boundary");
		if (b.interval != RT->interval + 1 || b.sic != count || b.pc != pc)
			diverge("the recorded boundary %lu (count %lu, pc %p) is not the one the "
			        "target announced", (unsigned long)b.interval, (unsigned long)b.sic,
			        (void *)b.pc);
		if (b.sc_id != RT->rr.sc_id)
			diverge("boundary %lu: the program made %lu syscalls, the recording %lu",
			        (unsigned long)b.interval, (unsigned long)RT->rr.sc_id,
			        (unsigned long)b.sc_id);
		replay_boundary(uc, &b);
		count = 0;
	}
	read_target();
	if (t.kind == RDB_TF_SIGNAL)
		more_signals(count, pc);
	else /* the threads parked at the boundary (after its TARGET) */
		rdb_sched_boundary_check(t.sic, pc);
	rdb_gregs(uc)[REG_R15] = arm_for(count);
}

/* ---- replay from interval K ---------------------------------------------- */

static void map_anon(const struct rdb_tf_map *m)
{
	long r = rdb_sys6(__NR_mmap, (long)m->start, (long)(m->end - m->start), RDB_PROT_RW,
	                  RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS | RDB_MAP_FIXED_NOREPLACE, -1, 0);
	if (r != (long)m->start)
		rdb_die("replay: cannot map [%p, %p) as recorded (error %ld)\n", (void *)m->start,
		        (void *)m->end, r < 0 ? -r : 0);
}

/* The recorded stack may reach lower than the fresh one: touch it from
 * the fresh stack's bottom down, so each fault is next to the stack and
 * grows it (we run on the alternate stack here). */
static void grow_stack(uint64_t lo, uint64_t cur)
{
	for (volatile char *p = (volatile char *)cur; (uintptr_t)p > lo;) {
		p -= 4096;
		(void)*p;
	}
}

struct frame {
	uint64_t uc[38]; /* ucontext: flags, link, stack(3), gregs(23), fpregs, reserved(8), sigmask */
	uint8_t info[128];
};

/* rt_sigreturn loads every register, the FPU state and the signal mask
 * from the frame: the recorded ones; and the alternate signal stack: the
 * runtime's (the program's is its view, restored before). */
static _Noreturn void enter(const struct rdb_tf_context *c)
{
	struct frame *f = (struct frame *)(RT->replay.fpbuf + sizeof RT->replay.fpbuf) - 1;
	rdb_memset(f, 0, sizeof *f);
	f->uc[RDB_UC_FLAGS] = c->uc_flags;
	TH->hframe = c->hframe;
	f->uc[RDB_UC_STACK + RDB_SS_SP] = TH->sig_lo;
	f->uc[RDB_UC_STACK + RDB_SS_FLAGS] = 0;
	f->uc[RDB_UC_STACK + RDB_SS_SIZE] = RDB_SIGSTACK_SIZE;
	rdb_memcpy(&f->uc[RDB_UC_GREGS], c->gregs, sizeof c->gregs);
	f->uc[RDB_UC_GREGS + REG_R15] = *rdb_sic_origin(); /* count 0 */
	f->uc[RDB_UC_FPREGS] = c->fpsize ? (uint64_t)RT->replay.fpbuf : 0;
	f->uc[RDB_UC_SIGMASK] = c->sigmask & ~RT->signal.reserved_sigs;
	rdb_set_fs_base(c->fs_base);
	__asm__ volatile("mov %0, %%rsp\n\tmov $15, %%eax\n\tsyscall\n\thlt"
	                 : : "r"(f) : "memory");
	__builtin_unreachable();
}

static void read_maps(void)
{
	struct rdb_tf_rec h;
	struct rdb_tf_maps mh;
	if (rdb_chan_read(&h, sizeof h) != 1 || h.type != RDB_TF_MAPS || h.len < sizeof mh ||
	    rdb_chan_read(&mh, sizeof mh) != 1 ||
	    h.len != sizeof mh + (uint64_t)mh.n * sizeof(struct rdb_tf_map) ||
	    !rdb_grow(RDB_G_MAPS, (uint64_t)mh.n * sizeof(struct rdb_tf_map)) ||
	    rdb_chan_read(RT->procmaps.maps, mh.n * sizeof(struct rdb_tf_map)) != 1)
		rdb_die("replay: bad start MAPS record\n");
	RT->procmaps.nmaps = mh.n;
}

/* Mappings replay makes as anonymous memory (shared ones too: no child). */
static int anon_like(uint32_t kind)
{
	return kind == RDB_TF_MAP_ANON || kind == RDB_TF_MAP_FILE || kind == RDB_TF_MAP_SHARED ||
	       kind == RDB_TF_MAP_SHARED_EXT;
}

/* The mappings the program made (exec made the image, stack and vdso
 * again), writable while the recorded bytes go in (values for memory the
 * program cannot write go through /proc/self/mem: load_blob). */
static void remap(uint64_t stack_now)
{
	for (size_t i = 0; i < RT->procmaps.nmaps; i++) {
		const struct rdb_tf_map *m = &RT->procmaps.maps[i];
		if (anon_like(m->kind))
			map_anon(m);
		else if (m->kind == RDB_TF_MAP_STACK)
			grow_stack(m->start, stack_now);
	}
}

static void reprotect(void)
{
	for (size_t i = 0; i < RT->procmaps.nmaps; i++) {
		const struct rdb_tf_map *m = &RT->procmaps.maps[i];
		if (anon_like(m->kind) && m->prot != RDB_PROT_RW)
			rdb_sys3(__NR_mprotect, m->start, m->end - m->start, m->prot);
	}
}

/* The main stack below its STACK record was all zeros in the recording
 * (interval.c stack_floor); here our own start may have written there. */
static void clear_below(uint64_t addr)
{
	for (size_t i = 0; i < RT->procmaps.nmaps; i++) {
		const struct rdb_tf_map *m = &RT->procmaps.maps[i];
		if (m->kind == RDB_TF_MAP_STACK && addr >= m->start && addr < m->end &&
		    (addr & ~4095ull) > m->start)
			rdb_sys3(__NR_madvise, m->start, (addr & ~4095ull) - m->start, RDB_MADV_DONTNEED);
	}
}

static void read_stacks(void)
{
	for (;;) {
		struct rdb_tf_rec h;
		if (!rdb_chan_peek(&h))
			rdb_die("replay: the channel ended in the start records\n");
		if (h.type != RDB_TF_STACK)
			return;
		struct rdb_tf_blob sb;
		rdb_chan_read(&h, sizeof h);
		if (h.len < sizeof sb || rdb_chan_read(&sb, sizeof sb) != 1 ||
		    h.len - sizeof sb != sb.len || !rdb_covered(sb.addr, sb.len))
			rdb_die("replay: bad start STACK record\n");
		clear_below(sb.addr);
		load_blob(sb.addr, sb.len);
	}
}

/* replay --timing: how long after rdb started the program resumes, at
 * its first instruction or interval K's (stderr, before the program's
 * own output). */
void rdb_replay_timing(void)
{
	if (!RT->chan.timing_t0)
		return;
	uint64_t ts[2];
	rdb_sys2(__NR_clock_gettime, 1 /* CLOCK_MONOTONIC */, ts);
	uint64_t us = (ts[0] * 1000000000ull + ts[1] - RT->chan.timing_t0) / 1000;
	rdb_printf("rdb: replay resumed the program at interval %lu's start %lu.%lu ms "
	           "after rdb started\n", (unsigned long)(RT->chan.from > 1 ? RT->chan.from : 1),
	           (unsigned long)(us / 1000), (unsigned long)(us % 1000 / 100));
}

void rdb_replay_restore(void);
void rdb_replay_restore(void)
{
	struct rdb_tf_boundary b;
	expect(RDB_TF_BOUNDARY, &b, sizeof b, "the start boundary");
	if (b.interval != RT->chan.from)
		rdb_die("replay: rdb sent boundary %lu for --from %lu\n", (unsigned long)b.interval,
		        (unsigned long)RT->chan.from);
	const struct rdb_tf_context *c = &RT->ctx.c;
	if (!read_context(sizeof RT->replay.fpbuf - sizeof(struct frame) - 64, "the start context"))
		rdb_die("replay: bad start CONTEXT record\n");
	uint64_t stack_now = 0;
	procmaps();
	for (size_t i = 0; i < RT->procmaps.nmaps; i++)
		if (RT->procmaps.maps[i].kind == RDB_TF_MAP_STACK)
			stack_now = RT->procmaps.maps[i].start;
	read_maps();
	rdb_shared_from_maps(RT->procmaps.maps, RT->procmaps.nmaps);
	if (c->brk_mapped > RDB_BRK_BASE && c->brk_mapped <= RDB_BRK_BASE + RDB_BRK_SIZE)
		rdb_sys3(__NR_mprotect, RDB_BRK_BASE, c->brk_mapped - RDB_BRK_BASE, RDB_PROT_RW);
	RT->syscall.brk_cur = c->brk_cur;
	RT->syscall.brk_mapped = c->brk_mapped > RDB_BRK_BASE ? c->brk_mapped : RDB_BRK_BASE;
	remap(stack_now);
	read_stacks();
	load_values(b.interval);
	rdb_replay_tls_self(c->fs_base);
	reprotect();
	rdb_memcpy(&RT->signal.view[1], c->view, sizeof c->view);
	rdb_signal_reinstall();
	rdb_signal_queue_again(RT->ctx.q, c->nqueued);
	RT->interval = b.interval;
	RT->rr.sc_id = b.sc_id;
	RT->nondet.nondets = b.nondets;
	read_target();
	/* Several threads lived (THCTX records follow): each is made again,
	 * parked; the one that took the boundary enters the program with
	 * the CONTEXT (threvive.c). */
	unsigned holder = rdb_threads_revive_read();
	struct rdb_thread *t = rdb_th_at(holder);
	t->signal.reserved_blocked = c->reserved_blocked;
	t->signal.prog_ss[RDB_SS_SP] = c->ss_sp;
	t->signal.prog_ss[RDB_SS_FLAGS] = c->ss_flags;
	t->signal.prog_ss[RDB_SS_SIZE] = c->ss_size;
	if (RT->sched.on)
		rdb_threads_revive_start(holder);
	rdb_replay_holder_enter();
}

_Noreturn void rdb_replay_holder_enter(void)
{
	const struct rdb_tf_context *c = &RT->ctx.c;
	TH->sched.revive = 0;
	rdb_interval_saved_stack(TH, c->gregs[REG_RSP]);
	arm_for(0);
	rdb_watch_arm();
	rdb_replay_timing();
	enter(c);
}

/* musl's start-up relocates the image; replay from an interval skips it.
 * The program's reads of relocated words are traced values, but the
 * runtime's own (syscallgen's table, messages) are not: apply the
 * R_X86_64_RELATIVE relocations, the only kind a static-pie has. */
static void relocate(void)
{
	unsigned long n;
	const struct rdb_phdr *ph = rdb_phdrs(&n);
	const uint64_t *dyn = 0;
	for (unsigned long i = 0; i < n; i++)
		if (ph[i].type == 2 /* PT_DYNAMIC */)
			dyn = (const uint64_t *)(RT->start.bias + ph[i].vaddr);
	uint64_t rela = 0, relasz = 0;
	for (; dyn && dyn[0]; dyn += 2) {
		if (dyn[0] == 7)
			rela = dyn[1];
		else if (dyn[0] == 8)
			relasz = dyn[1];
	}
	const uint64_t *r = (const uint64_t *)(RT->start.bias + rela);
	for (uint64_t i = 0; rela && i < relasz / 24; i++)
		if ((uint32_t)r[3 * i + 1] == 8 /* R_X86_64_RELATIVE */)
			*(uint64_t *)(RT->start.bias + r[3 * i]) = RT->start.bias + r[3 * i + 2];
}

#define ALT_STACK 0x500200000000ull
#define ALT_SIZE (1ull << 20)

_Noreturn void rdb_replay_enter(void)
{
	long r = rdb_sys6(__NR_mmap, ALT_STACK, ALT_SIZE, RDB_PROT_RW,
	                  RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS | RDB_MAP_FIXED_NOREPLACE, -1, 0);
	if (r != (long)ALT_STACK)
		rdb_die("replay: cannot map the restore stack (error %ld)\n", -r);
	relocate();
	/* the program's stack is about to be overwritten under us */
	__asm__ volatile("mov %0, %%rsp\n\tcall rdb_replay_restore\n\thlt"
	                 : : "r"(ALT_STACK + ALT_SIZE) : "memory");
	__builtin_unreachable();
}
