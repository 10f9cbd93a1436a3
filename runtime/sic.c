/* sic.c: the software instruction counter and its checks (paper 4.4,
 * docs/hooks.md).  Every increment `lea 1(%r15), %r15` is followed by
 * `shrx %r14, %r15, %r12; movzbl (%r12), %r12d`: a load from
 * %r15 >> 40, which is RDB_SIC_PAGE + 0xfff (readable) while %r15 is below
 * RDB_SIC_LIMIT and the guard page above it from there on.  So the
 * runtime makes the program stop at an exact point by choosing %r15:
 *   - record: %r15 = RDB_SIC_BASE + count; a wanted event (the interval
 *     timer, an asynchronous signal) adds RDB_SIC_SPAN, and the very next
 *     check faults, with the count intact;
 *   - replay: %r15 = RDB_SIC_LIMIT - (target - count) faults at the check
 *     that follows the target's increment, the one that faulted in the
 *     recording.
 * Events therefore only ever happen at a check, never inside a hook
 * sequence (invariant 3), and need no breakpoint or single-stepping. */
#include "rt.h"

/* movzbl (%r12), %r12d */
static const unsigned char check_insn[5] = {0x45, 0x0f, 0xb6, 0x24, 0x24};

void rdb_sic_init(void)
{
	long r = rdb_sys6(__NR_mmap, RDB_SIC_PAGE, 0x1000, RDB_PROT_READ,
	                  RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS | RDB_MAP_FIXED_NOREPLACE, -1, 0);
	if (r != RDB_SIC_PAGE)
		rdb_die("cannot map the SIC check page at %p (error %ld): rdb needs the "
		        "addresses [%p, %p) (vm.mmap_min_addr must be below them)\n",
		        (void *)RDB_SIC_PAGE, -r, (void *)RDB_SIC_PAGE,
		        (void *)(RDB_SIC_GUARD + 0x1000));
	/* The guard must stay unmapped: a mapping there (the kernel never
	 * puts one so low by itself) is refused by sys_mmap's covered check. */
	RT->sic_origin = RDB_SIC_BASE;
	RT->interval = 1;
}

uint64_t rdb_sic_count(uint64_t r15) { return r15 - RT->sic_origin; }

uint64_t rdb_sic(void)
{
	uint64_t v;
	__asm__ volatile("mov %%r15, %0" : "=r"(v));
	return rdb_sic_count(v);
}

void rdb_sic_want(void *uc)
{
	if (RT->in_event || RT->poked)
		return; /* the event in progress re-arms when it ends */
	RT->poked = 1;
	RT->sic_origin += RDB_SIC_SPAN;
	rdb_gregs(uc)[REG_R15] += RDB_SIC_SPAN;
}

void rdb_sic_arm(void *uc, uint64_t count, uint64_t target)
{
	uint64_t *g = rdb_gregs(uc);
	if (target > count) {
		RT->sic_origin = RDB_SIC_LIMIT - target;
		RT->poked = 0;
	} else if (target == count && target) {
		/* due now: the next check (a count past the target would be a
		 * divergence, caught by the pc and count checks) */
		RT->sic_origin = RDB_SIC_LIMIT;
		RT->poked = 1;
	} else {
		RT->sic_origin = RDB_SIC_BASE;
		RT->poked = 0;
	}
	g[REG_R15] = RT->sic_origin + count;
}

/* A handler of the program has returned (signal.c): an event here, at
 * (count, RDB_SIC_AT_RETURN), when signals came in as it did (record) or
 * the trace has one (replay): delivered before the interrupted code goes
 * on, as the kernel delivers what a handler's mask held back. */
void rdb_sic_at_return(void *uc)
{
	uint64_t count = rdb_gregs(uc)[REG_R15] - RT->sic_origin, pc = RDB_SIC_AT_RETURN;
	int rec = RT->mode == RDB_TF_MODE_RECORD && RT->npending;
	int rep = RT->mode == RDB_TF_MODE_REPLAY && RT->tgt.kind == RDB_TF_SIGNAL &&
	          RT->tgt.pc == pc && RT->tgt.sic == count;
	if (!rec && !rep)
		return;
	RT->in_event = 1;
	RT->poked = 0;
	if (RT->debug > 1)
		rdb_printf("rdb: event at count %lu at a handler's return\n", (unsigned long)count);
	if (rep)
		rdb_replay_event(uc, count, pc);
	else
		rdb_record_event(uc, count, pc);
	RT->in_event = 0;
}

int rdb_sic_fault(void *si, void *uc)
{
	uint64_t *g = rdb_gregs(uc);
	/* %r15 >> 40 is the guard page's first byte, or a later one when a
	 * poke (+2^40) came within a few counts of an --every-sic limit that
	 * already stood at the guard: either way the check faulted. */
	uint64_t a = *(uint64_t *)((char *)si + 16);
	if (a < RDB_SIC_GUARD || a >= RDB_SIC_GUARD + 0x1000 || g[REG_R12] != a)
		return 0;
	const unsigned char *pc = (const unsigned char *)g[REG_RIP];
	for (int i = 0; i < 5; i++)
		if (pc[i] != check_insn[i])
			return 0;
	/* The load runs again on return: from the readable byte. */
	g[REG_R12] = RDB_SIC_PAGE + 0xfff;
	uint64_t count = g[REG_R15] - RT->sic_origin;
	/* Blocked until rt_sigreturn restores the program's mask: a signal
	 * handled after the event would poke our registers, not the context
	 * the program goes back to. */
	rdb_block_all();
	RT->in_event = 1;
	RT->poked = 0;
	if (RT->debug > 1)
		rdb_printf("rdb: event at count %lu pc offset 0x%lx\n", (unsigned long)count,
		           (unsigned long)((uintptr_t)pc - RT->bias));
	uint64_t requeued = RT->requeued;
	if (RT->mode == RDB_TF_MODE_REPLAY)
		rdb_replay_event(uc, count, (uint64_t)pc);
	else if (RT->mode == RDB_TF_MODE_RECORD)
		rdb_record_event(uc, count, (uint64_t)pc);
	else /* unrecorded: an overflow, or a fork child: a whole span again */
		rdb_sic_arm(uc, count % RDB_SIC_SPAN, 0);
	rdb_signal_after_event(uc, (uint64_t)pc, requeued);
	RT->in_event = 0;
	return 1;
}
