/* watch.c: the watchpoint `rdb flowback` replays an interval with
 * (docs/flowback.md).  Two ways, chosen by the size of the watched bytes:
 *
 * Debug registers, for up to 4 aligned pieces of 1, 2, 4 or 8 bytes (a
 * variable): perf_event_open breakpoints that raise SIGTRAP right after
 * each write, in user mode, exactly, at no cost to other writes.  SIGTRAP
 * is the runtime's meanwhile, so no mask delays it to another
 * instruction.  A replayed syscall's writes are noted whole by
 * rdb_shadow_syswrite (some, like a big read(2), are the kernel's and
 * never trap); traps while TH->watch_sys says one runs are ignored.
 * Restoring memory (replay from K, the values at a boundary) pauses the
 * breakpoints.  If the kernel refuses them, the shadow pages do the work.
 *
 * Shadow pages, for anything bigger: every write to program memory, by a
 * hook or by the runtime, also writes the S plane (docs/hooks.md), so the
 * S plane pages under the watched bytes, made read-only, catch exactly
 * the writes to that data page, and never a read.  A hook's store (`mov
 * REG, MEM(...,%r14,2)`) faults; the handler performs that one instruction itself
 * (the data write that follows it is untouched) and notes the write when
 * it touches the watched bytes.  The runtime's own plane writes (syscall
 * results, string instructions) open the pages around them instead of
 * faulting.  Slow when the page is busy: a signal per write to it.
 *
 * Either way the program runs as in any replay; the last
 * RDB_TF_WATCH_KEEP writes go to rdb when the replay stops or ends. */
#include "rt.h"
#include "planeop.h"

extern const char __rdb_wide_begin[], __rdb_wide_end[]; /* hooks.S */

static void protect(int prot)
{
	struct rdb_watch *w = &RT->watch;
	long r = rdb_sys3(__NR_mprotect, w->page_lo, w->page_hi - w->page_lo, prot);
	if (r < 0)
		rdb_die("watch: cannot protect the shadow of %p (error %ld)\n", (void *)w->addr, -r);
}

/* The pc as a link-time address of the executable, as its symbols and
 * DWARF have it (signal.c's fault messages use the same). */
static uint64_t link_address(uint64_t pc)
{
	return pc >= RT->start.image_lo && pc < RT->start.image_hi ? pc - RT->start.bias : pc;
}

/* A write of [a, a + n) by kind at pc (an address; 0: none) with the SIC at r15. */
static void note(uint32_t kind, uint64_t pc, uint64_t a, uint64_t n, uint64_t r15)
{
	struct rdb_watch *w = &RT->watch;
	uint64_t lo = a > w->addr ? a : w->addr, hi = a + n < w->addr + w->len ? a + n : w->addr + w->len;
	if (lo >= hi)
		return;
	/* One syscall writing in pieces, or one instruction (a wide store's
	 * helper, a store over several debug-register pieces), is one write. */
	struct rdb_tf_watch_hit *last = w->n ? &w->hits[(w->n - 1) % RDB_TF_WATCH_KEEP] : 0;
	uint64_t count = rdb_sic_count(r15);
	if (last && last->kind == kind && last->sc_id == RT->rr.sc_id &&
	    last->interval == RT->interval && last->slot == rdb_th_slot() &&
	    (kind == RDB_TF_WH_SYSCALL || (last->sic == count && last->pc == link_address(pc)))) {
		uint64_t e = last->addr + last->len > hi ? last->addr + last->len : hi;
		last->addr = last->addr < lo ? last->addr : lo;
		last->len = e - last->addr;
		return;
	}
	w->total++;
	struct rdb_tf_watch_hit *h = &w->hits[w->n++ % RDB_TF_WATCH_KEEP];
	rdb_memset(h, 0, sizeof *h);
	h->interval = RT->interval;
	h->sic = count;
	h->pc = pc ? link_address(pc) : 0;
	h->sc_id = RT->rr.sc_id;
	h->addr = lo;
	h->len = hi - lo;
	h->kind = kind;
	h->slot = rdb_th_slot();
}

/* Splits [a, a + n) into aligned pieces of 1, 2, 4 or 8 bytes: how many
 * (more than RDB_WATCH_HW: too many for the debug registers). */
static int pieces(uint64_t a, uint64_t n, uint64_t *at, uint32_t *len)
{
	int k = 0;
	while (n) {
		uint64_t z = 8;
		while (z > n || a % z)
			z /= 2;
		if (k < RDB_WATCH_HW)
			at[k] = a, len[k] = (uint32_t)z;
		k++;
		a += z;
		n -= z;
	}
	return k;
}

/* struct perf_event_attr, the fields a breakpoint with SIGTRAP needs
 * (linux/perf_event.h, PERF_ATTR_SIZE_VER8: 136 bytes). */
struct bp_attr {
	uint32_t type, size;
	uint64_t config, sample_period, sample_type, read_format;
	uint64_t flags;
	uint32_t wakeup_events, bp_type;
	uint64_t bp_addr, bp_len;
	uint64_t branch_sample_type, sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack, reserved2;
	uint32_t aux_sample_size, reserved3;
	uint64_t sig_data;
	uint64_t config3;
};
#define BP_SIG_DATA 0x7264627761746368ull /* "rdbwatch" */

/* A write breakpoint on [addr, +len), for this thread, in user mode:
 * trapping (SIGTRAP with BP_SIG_DATA, made disabled) or only counting. */
static long bp_open(uint64_t addr, uint32_t len, int trap)
{
	struct bp_attr a;
	rdb_memset(&a, 0, sizeof a);
	a.type = 5; /* PERF_TYPE_BREAKPOINT */
	a.size = sizeof a;
	/* exclude_kernel, exclude_hv, remove_on_exec */
	a.flags = 1ull << 5 | 1ull << 6 | 1ull << 36;
	if (trap) {
		a.sample_period = 1;
		/* disabled, sigtrap; inherit and inherit_thread: every thread
		 * made from here on has it too (a thread's writes are watched as
		 * the main thread's; the revived threads of a replay from K are
		 * made after this), and the ioctls that enable and pause it
		 * reach those copies */
		a.flags |= 1ull << 0 | 1ull << 37 | 1ull << 1 | 1ull << 35;
		a.sig_data = BP_SIG_DATA;
	}
	a.bp_type = 2; /* HW_BREAKPOINT_W */
	a.bp_addr = addr;
	a.bp_len = len;
	return rdb_sys6(__NR_perf_event_open, (long)&a, 0, -1, -1, 8 /* FD_CLOEXEC */, 0);
}

/* Whether a breakpoint the kernel grants also fires: some virtual
 * machines accept perf_event_open and never trigger it (seen: a count of
 * 0 after writes to the address), and a watch on those would see no
 * write at all.  0 with the error or the count in *why. */
static int hw_works(long *why)
{
	struct rdb_watch *w = &RT->watch;
	long fd = bp_open((uint64_t)&w->probe, 8, 0);
	if (fd < 0) {
		*why = fd;
		return 0;
	}
	__atomic_store_n(&w->probe, w->probe + 1, __ATOMIC_SEQ_CST);
	uint64_t count = 0;
	long r = rdb_sys3(__NR_read, fd, (long)&count, sizeof count);
	rdb_sys1(__NR_close, fd);
	*why = r == (long)sizeof count ? (long)count : r;
	return r == (long)sizeof count && count == 1;
}

/* 1 if every piece got a breakpoint; 0 (none kept) if the kernel refuses
 * one: no debug registers (a container's seccomp, perf_event_paranoid,
 * another debugger), or they never fire: the shadow pages do instead. */
static int hw_open(struct rdb_watch *w)
{
	long why;
	if (!hw_works(&why)) {
		if (RT->start.debug)
			rdb_printf("rdb: watch: no working hardware breakpoint (probe: %ld): "
			           "watching through the shadow pages\n", why);
		return 0;
	}
	for (int i = 0; i < w->nhw; i++) {
		long fd = bp_open(w->hw_addr[i], w->hw_len[i], 1);
		if (fd < 0) {
			if (RT->start.debug)
				rdb_printf("rdb: watch: no hardware breakpoint (perf_event_open: error %ld): "
				           "watching through the shadow pages\n", -fd);
			while (i--)
				rdb_sys1(__NR_close, w->hw_fd[i]);
			return 0;
		}
		w->hw_fd[i] = (int)rdb_high_fd(fd, RDB_WATCH_FD);
	}
	return 1;
}

static void hw_enable(int on)
{
	for (int i = 0; i < RT->watch.nhw; i++)
		rdb_sys3(__NR_ioctl, RT->watch.hw_fd[i], on ? 0x2400 : 0x2401 /* PERF_EVENT_IOC_ */, 0);
}

void rdb_watch_init(const struct rdb_tf_watch *req)
{
	struct rdb_watch *w = &RT->watch;
	if (!req->len || !rdb_covered(req->addr, req->len))
		rdb_die("watch: [%p, +%lu) is not program memory rdb traces\n",
		        (void *)req->addr, (unsigned long)req->len);
	w->addr = req->addr;
	w->len = req->len;
	w->nhw = pieces(req->addr, req->len, w->hw_addr, w->hw_len);
	if (w->nhw > RDB_WATCH_HW || !hw_open(w))
		w->nhw = 0;
	w->page_lo = rdb_s_of(req->addr) & ~0xfffull;
	w->page_hi = (rdb_s_of(req->addr + req->len - 1) | 0xfff) + 1;
	/* The breakpoints' SIGTRAP must never wait behind a mask: it would
	 * arrive later, at another instruction. */
	rdb_signal_reserve(RDB_SIGTRAP);
}

/* The program runs from here on: replay from the start, or from K once
 * its memory is restored. */
void rdb_watch_arm(void)
{
	struct rdb_watch *w = &RT->watch;
	if (!w->len || w->on)
		return;
	w->on = 1;
	if (w->nhw)
		hw_enable(1);
	else
		protect(RDB_PROT_READ);
}

/* The writing instruction of a debug-register trap at pc (just past it):
 * where its group's hooks end, the instruction's first byte; else one
 * byte back, inside it (an unhooked store, such as one through %rsp). */
static uint64_t writer(uint64_t pc)
{
	uintptr_t insn = rdb_iot_insn_start(pc - 1);
	return insn && insn <= pc - 1 ? insn : pc - 1;
}

/* The runtime restores memory (a boundary's values): not the program's
 * writes. */
void rdb_watch_pause(int pause)
{
	if (RT->watch.on && RT->watch.nhw)
		hw_enable(!pause);
}

int rdb_watch_trap(const void *si, void *uc)
{
	struct rdb_watch *w = &RT->watch;
	int code = *(const int *)((const char *)si + 8);
	uint64_t data = *(const uint64_t *)((const char *)si + 24); /* si_perf_data */
	uint32_t flags = *(const uint32_t *)((const char *)si + 36); /* si_perf_flags */
	if (code != 6 /* TRAP_PERF */ || data != BP_SIG_DATA)
		return 0;
	/* A replayed syscall's writes (the runtime's copies, or the kernel's
	 * read(2) of big data) are noted by rdb_shadow_syswrite, whole. */
	if (!w->on || TH->watch_sys)
		return 1;
	uint64_t *g = rdb_gregs(uc);
	uint64_t at = *(const uint64_t *)((const char *)si + 16); /* si_addr: the piece */
	uint32_t len = 1;
	for (int i = 0; i < w->nhw; i++)
		if (w->hw_addr[i] == at)
			len = w->hw_len[i];
	if (flags & 1) /* TRAP_PERF_FLAG_ASYNC: delivered late, %rip is elsewhere */
		note(RDB_TF_WH_LATE, 0, at, len, g[REG_R15]);
	else /* %rip is past the writing instruction */
		note(RDB_TF_WH_PROGRAM, writer(g[REG_RIP]), at, len, g[REG_R15]);
	return 1;
}

/* The runtime is about to write the S plane of [a, a + n) (shadow.c) for
 * a write of kind RDB_WATCH_* : 1 if the watched pages had to be opened
 * for it, with every signal blocked (a handler's write must fault). */
int rdb_watch_open(uintptr_t a, size_t n, int kind)
{
	struct rdb_watch *w = &RT->watch;
	if (!w->on)
		return 0;
	uint64_t r15;
	__asm__ volatile("mov %%r15, %0" : "=r"(r15));
	if (kind == RDB_WATCH_SYSCALL)
		note(RDB_TF_WH_SYSCALL, 0, a, n, r15);
	if (w->nhw || rdb_s_of(a) >= w->page_hi || rdb_s_of(a + n) <= w->page_lo)
		return 0;
	w->mask = rdb_block_all();
	if (kind == RDB_WATCH_RUNTIME)
		note(w->str_pc ? RDB_TF_WH_PROGRAM : RDB_TF_WH_RUNTIME, w->str_pc, a, n, r15);
	protect(RDB_PROT_RW);
	return 1;
}

void rdb_watch_interval(void)
{
	RT->watch.n = RT->watch.total = 0;
}

void rdb_watch_close(int opened)
{
	if (!opened)
		return;
	protect(RDB_PROT_READ);
	rdb_set_mask(RT->watch.mask);
}

/* ---- a hook's store, decoded and done here ------------------------------ */

static const int gpr[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP,
                            REG_RSI, REG_RDI, REG_R8,  REG_R9,  REG_R10, REG_R11,
                            REG_R12, REG_R13, REG_R14, REG_R15};

/* The hook's store at p: a write hook's (planeop.h), S plane only. */
static int decode_store(const uint8_t *p, const uint64_t *g, struct rdb_planeop *in)
{
	uint64_t m[16];
	for (int i = 0; i < 16; i++)
		m[i] = g[gpr[i]];
	return rdb_planeop_decode(p, m, in) && in->plane == 'S' && in->op != RDB_PLANEOP_CMP;
}

int rdb_watch_fault(const void *si, void *uc)
{
	struct rdb_watch *w = &RT->watch;
	uint64_t f = *(const uint64_t *)((const char *)si + 16); /* si_addr */
	if (!w->on || w->nhw || f < w->page_lo || f >= w->page_hi)
		return 0;
	uint64_t *g = rdb_gregs(uc);
	struct rdb_planeop in;
	if (!decode_store((const uint8_t *)g[REG_RIP], g, &in))
		rdb_die("watch: a write to the watched shadow page at %p by an instruction "
		        "that is not a hook's store (pc %p)\n", (void *)f, (void *)g[REG_RIP]);
	uint64_t old = 0, res;
	rdb_memcpy(&old, (const void *)in.ea, in.size);
	res = in.op == RDB_PLANEOP_OR ? old | in.src : in.src;
	/* /proc/self/mem writes through the protection: one syscall, where
	 * opening the page and closing it again would be two mprotects */
	rdb_poke_mem(in.ea, &res, in.size);
	if (in.op == RDB_PLANEOP_OR)
		g[REG_EFL] = rdb_planeop_or_flags(g[REG_EFL], res, in.size);
	/* A wide store's helper (hooks.S) runs the stores for the program's
	 * instruction: its return address stands for that instruction. */
	uint64_t pc = g[REG_RIP];
	if (pc >= (uint64_t)__rdb_wide_begin && pc < (uint64_t)__rdb_wide_end)
		pc = *(const uint64_t *)g[REG_RSP] - 1; /* its return address */
	note(RDB_TF_WH_PROGRAM, pc, in.ea + RDB_S_OFFSET, in.size, g[REG_R15]);
	g[REG_RIP] += in.len;
	return 1;
}

/* The replay stops or ends: the last writes, then END with the bytes now. */
void rdb_watch_report(void)
{
	struct rdb_watch *w = &RT->watch;
	if (!w->len || w->reported)
		return;
	w->reported = 1;
	uint64_t first = w->n > RDB_TF_WATCH_KEEP ? w->n - RDB_TF_WATCH_KEEP : 0;
	for (uint64_t i = first; i < w->n; i++) {
		struct rdb_tf_rec h = {RDB_TF_WATCH_HIT, sizeof w->hits[0]};
		rdb_write_all(RDB_CHAN_FD, (const char *)&h, sizeof h);
		rdb_write_all(RDB_CHAN_FD, (const char *)&w->hits[i % RDB_TF_WATCH_KEEP],
		              sizeof w->hits[0]);
	}
	struct rdb_tf_watch_hit e;
	rdb_memset(&e, 0, sizeof e);
	e.kind = RDB_TF_WH_END;
	e.interval = RT->interval;
	e.sc_id = RT->rr.sc_id;
	e.total = w->total;
	e.addr = w->addr;
	e.len = w->len;
	/* the kernel reads it: the memory may be gone */
	uint32_t want = w->len < sizeof e.value ? (uint32_t)w->len : sizeof e.value;
	e.nvalue = rdb_peek(e.value, w->addr, want) == (long)want ? want : 0;
	/* A replay of one interval has the values it read (traced) and those
	 * it wrote; a byte it never touched is whatever the replay started
	 * with, not the recording's.  One from the start has them all. */
	for (uint32_t i = 0; i < e.nvalue; i++)
		if (RT->chan.from <= 1 ||
		    (rdb_covered(w->addr + i, 1) &&
		     (*(const uint8_t *)(w->addr + i - RDB_R_OFFSET) | *(const uint8_t *)rdb_s_of(w->addr + i))))
			e.known |= 1ull << i;
	struct rdb_tf_rec h = {RDB_TF_WATCH_HIT, sizeof e};
	rdb_write_all(RDB_CHAN_FD, (const char *)&h, sizeof h);
	rdb_write_all(RDB_CHAN_FD, (const char *)&e, sizeof e);
}
