/* sic.c: the software instruction counter and its checks (paper 4.4,
 * docs/hooks.md).  Every increment `lea 1(%r15), %r15` is followed by
 * the check `movzbl (%r15), %r12d`, a load from %r15 itself: %r15 lies in
 * a readable window [RDB_SIC_WIN, RDB_SIC_END) (each thread its own,
 * layout.h RDB_SIC_STRIDE) and the check faults once
 * it reaches the guard after it.  %r15 = origin + count, and the runtime
 * chooses the origin so that this happens exactly where it wants control:
 *   - after RDB_SIC_W counts, to move the window on (no event);
 *   - at a stop count: replay's next target, --every-sic's limit, the
 *     2^40 of a recorded interval;
 *   - replay under rdb's gdb server: at the count it wants of a thread
 *     (RT->dbg_stop), a window move to the runtime and a stop to rdb;
 *   - record: when the interval timer expires or an asynchronous signal
 *     arrives, adding RDB_SIC_W to %r15 (and the origin) makes the very
 *     next check fault, with the count intact.
 * Events therefore only ever happen at a check, never inside a hook
 * sequence (invariant 3), and need no breakpoint or single-stepping; the
 * first check at or past a count is the same in record and replay. */
#include "rt.h"

static const unsigned char check_insn[4] = {RDB_SIC_CHECK_BYTES};
/* lea 1(%r15), %r15 */
static const unsigned char inc_insn[4] = {0x4d, 0x8d, 0x7f, 0x01};

uintptr_t rdb_sic_skip(uintptr_t p, uintptr_t end)
{
	if (p + sizeof inc_insn <= end && !rdb_memcmp((const void *)p, inc_insn, sizeof inc_insn))
		p += sizeof inc_insn;
	if (p + sizeof check_insn <= end &&
	    !rdb_memcmp((const void *)p, check_insn, sizeof check_insn))
		p += sizeof check_insn;
	return p;
}

/* Thread k's window and guard (layout.h RDB_SIC_STRIDE), the rest of its
 * stride reserved; 0 or the error. */
long rdb_sic_map(unsigned k)
{
	uint64_t win = RDB_SIC_WIN + (uint64_t)k * RDB_SIC_STRIDE;
	long r = rdb_sys6(__NR_mmap, win, RDB_SIC_W, RDB_PROT_READ,
	                  RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS | RDB_MAP_NORESERVE |
	                      RDB_MAP_FIXED_NOREPLACE,
	                  -1, 0);
	long g = (uint64_t)r != win ? r :
	         rdb_sys6(__NR_mmap, win + RDB_SIC_W, RDB_SIC_STRIDE - RDB_SIC_W, RDB_PROT_NONE,
	                  RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS | RDB_MAP_NORESERVE |
	                      RDB_MAP_FIXED_NOREPLACE,
	                  -1, 0);
	if ((uint64_t)r != win)
		return r < 0 ? r : -RDB_ENOMEM;
	if ((uint64_t)g != win + RDB_SIC_W) {
		rdb_sys2(__NR_munmap, win, RDB_SIC_W);
		return g < 0 ? g : -RDB_ENOMEM;
	}
	/* Its reads map the zero page: a huge one where the kernel can, so
	 * a walk through the window costs two TLB entries. */
	rdb_sys3(__NR_madvise, win, RDB_SIC_W, RDB_MADV_HUGEPAGE);
	return 0;
}

void rdb_sic_init(void)
{
	long r = rdb_sic_map(0);
	if (r < 0)
		rdb_die("cannot map the SIC's window at %p (error %ld): rdb needs the addresses "
		        "[%p, %p)\n", (void *)RDB_SIC_WIN, -r,
		        (void *)RDB_SIC_WIN, (void *)(RDB_SIC_WIN + RDB_SIC_STRIDE));
	rdb_sic_set(0, 0);
	RT->interval = 1;
}

/* The running thread's window end and origin (thread 0's origin is
 * RT->sic_origin, where rdb's gdb server reads it). */
static uint64_t win_end(void)
{
	return RDB_SIC_END + (uint64_t)rdb_th_slot() * RDB_SIC_STRIDE;
}

uint64_t *rdb_sic_origin(void)
{
	unsigned k = rdb_th_slot();
	return k ? &rdb_th_at(k)->origin : &RT->sic_origin;
}

uint64_t rdb_sic_set(uint64_t count, uint64_t stop)
{
	uint64_t left = stop > count ? stop - count : RDB_SIC_W;
	/* (a count rdb's gdb server wants, layout.h RDB_STATE_DBG_STOP: its
	 * fault is no event, sic_stop stays, rdb_sic_fault moves on) */
	uint64_t dbg = RT->dbg_stop;
	if (dbg > count && dbg - count < left && RT->dbg_slot == rdb_th_slot())
		left = dbg - count;
	uint64_t r15 = win_end() - (left < RDB_SIC_W ? left : RDB_SIC_W);
	TH->sic.sic_stop = stop > count ? stop : 0;
	*rdb_sic_origin() = r15 - count;
	TH->sic.poked = 0;
	return r15;
}

uint64_t rdb_sic_count(uint64_t r15) { return r15 - *rdb_sic_origin(); }

uint64_t rdb_sic(void)
{
	uint64_t v;
	__asm__ volatile("mov %%r15, %0" : "=r"(v));
	return rdb_sic_count(v);
}

void rdb_sic_want(void *uc)
{
	if (TH->sic.in_event || TH->sic.poked)
		return; /* the event in progress re-arms when it ends */
	TH->sic.poked = 1;
	*rdb_sic_origin() += RDB_SIC_W;
	rdb_gregs(uc)[REG_R15] += RDB_SIC_W;
}

/* The stop a recording keeps when it wants nothing sooner: 2^40 counts
 * (an overflow boundary). */
static uint64_t idle_stop(void)
{
	return RT->mode == RDB_TF_MODE_RECORD ? RT->sic.sic_span : 0;
}

void rdb_sic_arm(void *uc, uint64_t count, uint64_t target)
{
	uint64_t *g = rdb_gregs(uc);
	if (target == count && target) {
		/* due now: the next check (a count past the target would be a
		 * divergence, caught by the pc and count checks) */
		TH->sic.sic_stop = 0;
		*rdb_sic_origin() = win_end() - count;
		TH->sic.poked = 1;
		g[REG_R15] = win_end();
		return;
	}
	g[REG_R15] = rdb_sic_set(count, target > count ? target : idle_stop());
}

int rdb_sic_fault(void *si, void *uc)
{
	uint64_t *g = rdb_gregs(uc);
	/* %r15 is at or past the window's end: a few counts past it when
	 * increments without checks came after a poke or a stop. */
	uint64_t a = *(uint64_t *)((char *)si + 16);
	if (a < win_end() || a >= win_end() + RDB_SIC_GUARD || g[REG_R15] != a)
		return 0;
	const unsigned char *pc = (const unsigned char *)g[REG_RIP];
	for (int i = 0; i < 4; i++)
		if (pc[i] != check_insn[i])
			return 0;
	/* The check is not run again: its load only ever faults (%r12 is
	 * scratch), and the next event is at the next check. */
	g[REG_RIP] += sizeof check_insn;
	uint64_t count = g[REG_R15] - *rdb_sic_origin();
	if (!TH->sic.poked && !(TH->sic.sic_stop && count >= TH->sic.sic_stop)) {
		g[REG_R15] = rdb_sic_set(count, TH->sic.sic_stop); /* the window moves on */
		return 1;
	}
	/* Blocked until rt_sigreturn restores the program's mask: a signal
	 * handled after the event would poke our registers, not the context
	 * the program goes back to. */
	rdb_block_all();
	TH->sic.in_event = 1;
	TH->sic.poked = 0;
	if (RT->start.debug > 1)
		rdb_printf("rdb: event at count %lu pc offset 0x%lx\n", (unsigned long)count,
		           (unsigned long)((uintptr_t)pc - RT->start.bias));
	uint64_t requeued = RT->signal.requeued;
	if (RT->mode == RDB_TF_MODE_REPLAY)
		rdb_replay_event(uc, count, (uint64_t)pc);
	else if (RT->mode == RDB_TF_MODE_RECORD)
		rdb_record_event(uc, count, (uint64_t)pc);
	else /* unrecorded (a fork child): no stops */
		rdb_sic_arm(uc, count, 0);
	rdb_signal_after_event(uc, (uint64_t)pc, requeued);
	TH->sic.in_event = 0;
	return 1;
}
