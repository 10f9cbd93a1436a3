/* interval.c: intervals while recording (paper 4.6, Figs. 29-31).
 *
 * A CPU-time timer (signal RDB_SIG_TIMER) asks for a boundary; the next
 * SIC check faults (sic.c) and the boundary is taken there, at an exact
 * (count, pc) that replay can stop at again.  At the boundary the runtime
 *   1. scans the planes of every mapping: a byte the interval read
 *      (R == 0x03) needs its value from the interval's start, which only
 *      the snapshot child of that interval still has (read before it was
 *      written or not: the hooks do not keep the order, and a value the
 *      program overwrites before reading it is harmless); the ranges go
 *      to it through shared memory;
 *   2. sends BOUNDARY, CONTEXT (registers, FPU state, fs base, signal
 *      view, brk), MAPS and STACK (from %rsp up) on the channel;
 *   3. clears the planes and forks the next snapshot child, a
 *      copy-on-write image of the new interval's start.
 * A snapshot child waits on a futex until its ranges arrive, sends their
 * values (VALUES records on RDB_VALUES_FD, a SOCK_SEQPACKET socket), and
 * exits.  Asynchronous signals wait for the next check the same way, so
 * replay delivers them at the same point (signal.c).  Everything runs
 * with signals blocked. */
#include "rt.h"

#define SNAP_ADDR 0x500100000000ull /* two shared range buffers */
#define SNAP_SIZE (256ull << 20)
#define SNAP_SLOTS 2
#define GAP 32 /* bytes between ranges merged into one: extra values are harmless */

struct snap_buf {
	uint32_t state; /* futex: 0 wait, 1 ranges ready, 2 exit, 3 exec, 4 seen (exec_wait) */
	uint32_t full;
	uint64_t interval;
	uint64_t n;
	uint64_t exec_n; /* the parent's: n and full before the exec's scan */
	uint32_t exec_full;
	uint32_t fds_shut; /* futex: the child closed the program's fds */
	struct { uint64_t addr, len; } r[];
};
#define SNAP_MAXR ((SNAP_SIZE - sizeof(struct snap_buf)) / 16)

static struct snap_buf *slot_buf(int slot)
{
	return (struct snap_buf *)(SNAP_ADDR + (uint64_t)slot * SNAP_SIZE);
}

static uint64_t cpu_ns(void)
{
	uint64_t ts[2] = {0, 0};
	rdb_sys2(__NR_clock_gettime, 2 /* CLOCK_PROCESS_CPUTIME_ID */, ts);
	return ts[0] * 1000000000ull + ts[1];
}

/* The process's system CPU time (the kernel's split of its CPU time). */
static uint64_t sys_ns(void)
{
	uint64_t ru[18] = {0}; /* struct rusage: ru_utime, ru_stime, 14 longs */
	rdb_sys2(__NR_getrusage, 0 /* RUSAGE_SELF */, ru);
	return ru[2] * 1000000000ull + ru[3] * 1000;
}

/* ---- the snapshot child ------------------------------------------------ */

struct vsend {
	char msg[RDB_TF_VALUES_MSG];
	size_t n;
	uint64_t interval, nranges, nbytes;
};

static void vflush(struct vsend *v)
{
	if (!v->n)
		return;
	for (;;) {
		long r = rdb_sys6(__NR_sendto, RDB_VALUES_FD, (long)v->msg, (long)v->n, RDB_MSG_NOSIGNAL, 0, 0);
		if (r == -RDB_EINTR)
			continue;
		if (r < 0)
			rdb_sys1(__NR_exit_group, 1); /* rdb is gone: nothing to keep */
		break;
	}
	v->n = 0;
}

/* Copies [a, a + len) from our own memory into the message; 0 if the
 * kernel cannot read it (not mapped at the interval's start: the interval
 * mapped it, and replay maps it again the same way).  Memory that was
 * PROT_NONE at the start (a handler made it readable later, and the
 * interval read it) comes through /proc/self/mem, which reads it anyway;
 * replay writes it the same way (replay.c, load_blob). */
static int vcopy(void *to, uint64_t a, uint64_t len)
{
	long got = rdb_peek(to, a, len);
	if (got != (long)len && RT->intervals.snap_mem >= 0)
		got = rdb_sys4(__NR_pread64, RT->intervals.snap_mem, (long)to, (long)len, (long)a);
	/* MAP_SHARED memory moved on: its start values (from the copies, also
	 * where the mapping's file has been cut short since the boundary) */
	if (rdb_shared_overlay(to, a, len))
		return 1;
	return got == (long)len;
}

/* The part of [a, a + len) the child can copy without a syscall: *len
 * cut to it, 1; 0 if none (then *len is the part before the next mapping
 * when a lies in none: memory the interval mapped, which needs no
 * values; or unchanged: copy it as before).  A heap under churn reads
 * memory mapped since the interval began in most ranges: two failing
 * syscalls a range cost its snapshot child seconds (docs/perf.md). */
static int vdirect(uint64_t a, uint64_t *len, int *unmapped)
{
	*unmapped = 0;
	if (!RT->intervals.snap_maps)
		return 0;
	const struct rdb_tf_map *m = RT->procmaps.maps;
	size_t lo = 0, hi = RT->procmaps.nmaps;
	while (lo < hi) { /* the first mapping ending after a */
		size_t mid = lo + (hi - lo) / 2;
		if (m[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == RT->procmaps.nmaps || m[lo].start > a) {
		*unmapped = 1;
		if (lo < RT->procmaps.nmaps && m[lo].start - a < *len)
			*len = m[lo].start - a;
		return 0;
	}
	if (m[lo].end - a < *len)
		*len = m[lo].end - a;
	/* private anonymous memory, readable: no SIGBUS (a file cut short), no
	 * MAP_SHARED memory that moved on (vcopy's overlay); the image's .data
	 * and .bss too (a running executable is never cut short: docs/perf.md) */
	return (m[lo].prot & 1) && (m[lo].kind == RDB_TF_MAP_ANON || m[lo].kind == RDB_TF_MAP_BRK ||
	                            m[lo].kind == RDB_TF_MAP_STACK ||
	                            (m[lo].kind == RDB_TF_MAP_IMAGE && (m[lo].prot & 2)));
}

static void vput(struct vsend *v, uint64_t a, uint64_t len)
{
	const size_t head = sizeof(struct rdb_tf_rec) + sizeof(struct rdb_tf_blob);
	while (len) {
		if (sizeof v->msg - v->n < head + 64)
			vflush(v);
		uint64_t k = sizeof v->msg - v->n - head;
		if (k > len)
			k = len;
		int unmapped, direct = vdirect(a, &k, &unmapped);
		if (unmapped) {
			a += k;
			len -= k;
			continue;
		}
		char *at = v->msg + v->n + head;
		if (direct)
			rdb_memcpy(at, (const void *)a, k);
		else if (!vcopy(at, a, k)) {
			/* whole pages when a range crosses an unreadable one */
			uint64_t page_end = ((a + 4096) & ~0xfffull) - a;
			if (k > page_end)
				k = page_end;
			if (!vcopy(at, a, k)) {
				a += k;
				len -= k;
				continue;
			}
		}
		struct rdb_tf_rec h = {RDB_TF_VALUES, (uint32_t)(sizeof(struct rdb_tf_blob) + k)};
		struct rdb_tf_blob b = {v->interval, a, k};
		rdb_memcpy(v->msg + v->n, &h, sizeof h);
		rdb_memcpy(v->msg + v->n + sizeof h, &b, sizeof b);
		v->n += head + k;
		v->nranges++;
		v->nbytes += k;
		a += k;
		len -= k;
	}
}

/* Whether the process parent still has the image that forked us: it maps
 * the snapshot buffers (an exec'd program does not).  1 when that cannot
 * be read (a non-dumpable process): we then wait for the parent to go. */
static int parent_image(long parent)
{
	if (rdb_sys0(__NR_getppid) != parent)
		return 0;
	char path[32];
	rdb_snprintf(path, sizeof path, "/proc/%ld/maps", parent);
	long fd = rdb_sys4(__NR_openat, -100, (long)path, RDB_O_RDONLY | RDB_O_CLOEXEC, 0);
	if (fd < 0)
		return fd != -RDB_ENOENT;
	static const char want[] = "500100000000-"; /* SNAP_ADDR's line */
	_Static_assert(SNAP_ADDR == 0x500100000000ull, "want");
	char *buf = RT->procmaps.mapsbuf;
	size_t col = 0;   /* position in the current line */
	int match = 1, found = 0;
	for (;;) {
		long r = rdb_sys3(__NR_read, fd, (long)buf, sizeof RT->procmaps.mapsbuf);
		if (r == -RDB_EINTR)
			continue;
		if (r <= 0) {
			found |= r < 0; /* unreadable: assume it is still there */
			break;
		}
		for (long i = 0; i < r && !found; i++, col++) {
			if (buf[i] == '\n') {
				col = (size_t)-1, match = 1;
				continue;
			}
			if (col < sizeof want - 1 && buf[i] != want[col])
				match = 0;
			if (col == sizeof want - 2 && match)
				found = 1;
		}
		if (found)
			break;
	}
	rdb_sys1(__NR_close, fd);
	return found;
}

/* State 3: the parent is about to exec; the ranges of the interval so far
 * are ready.  We stop dying with the parent (the exec'd program may end
 * at once) and say so (state 4), and the parent execs.  If the exec fails
 * it sets the state back to 0 and the interval goes on; if it succeeds
 * nobody posts again: we send once its image is gone.  1: send now; 0:
 * wait as before. */
static int exec_wait(struct snap_buf *b, long parent)
{
	rdb_sys2(__NR_prctl, 1 /* PR_SET_PDEATHSIG */, 0);
	uint32_t st = 3;
	__atomic_compare_exchange_n(&b->state, &st, 4, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	rdb_sys6(__NR_futex, (long)&b->state, 1 /* FUTEX_WAKE */, 1, 0, 0, 0);
	for (;;) {
		uint64_t ts[2] = {0, 5000000}; /* 5 ms */
		rdb_sys6(__NR_futex, (long)&b->state, 0 /* FUTEX_WAIT */, 4, (long)ts, 0, 0);
		if (__atomic_load_n(&b->state, __ATOMIC_ACQUIRE) != 4) {
			rdb_sys2(__NR_prctl, 1 /* PR_SET_PDEATHSIG */, RDB_SIGKILL);
			if (rdb_sys0(__NR_getppid) != parent)
				rdb_sys1(__NR_exit_group, 0);
			return 0;
		}
		if (!parent_image(parent))
			return 1;
	}
}

/* by_main: forked by the main thread.  PDEATHSIG comes when the thread
 * that forked us ends, not the process: a child forked by another thread
 * (a boundary RDB_THREAD_BOUNDARIES=1 took there) would die with that
 * thread.  That child instead looks at its parent once a second while it
 * waits (a thread's end gives it to another thread of the process, whose
 * pid getppid gives as well). */
static _Noreturn void snap_child(int slot, long parent, int by_main)
{
	if (by_main)
		rdb_sys2(__NR_prctl, 1 /* PR_SET_PDEATHSIG */, RDB_SIGKILL);
	if (rdb_sys0(__NR_getppid) != parent)
		rdb_sys1(__NR_exit_group, 0);
	/* The program's descriptors (a pipe's write end!) must not stay open
	 * in us: a reader would wait for an EOF we delay.  The parent waits
	 * for this before the program closes one (rdb_interval_fds_shut). */
	struct snap_buf *b = slot_buf(slot);
	if (rdb_sys3(__NR_close_range, 0, RDB_VALUES_FD - 1, 0) < 0 ||
	    rdb_sys3(__NR_close_range, RDB_VALUES_FD + 1, ~0u, 0) < 0) {
		uint64_t lim[2] = {1024, 1024}; /* no close_range (Linux < 5.9) */
		rdb_sys4(__NR_prlimit64, 0, 7 /* RLIMIT_NOFILE */, 0, lim);
		for (uint64_t fd = 0; fd < lim[0] && fd < (1u << 20); fd++)
			if (fd != RDB_VALUES_FD)
				rdb_sys1(__NR_close, (long)fd);
	}
	__atomic_store_n(&b->fds_shut, 1, __ATOMIC_RELEASE);
	rdb_sys6(__NR_futex, (long)&b->fds_shut, 1 /* FUTEX_WAKE */, 1, 0, 0, 0);
	RT->mode = 0;
	for (;;) {
		/* The state is read again after every wait: a wait ends at its
		 * timeout (once a second when a thread forked us) or at a
		 * spurious wake-up as well as at a post.  Going on after a
		 * timeout sent the ranges of an interval not yet ended under
		 * the slot's stale interval number (from two boundaries
		 * before), and this interval's values never came: rdb record
		 * warned "values of interval N after its VALUES_END" whenever a
		 * boundary taken by a thread other than the main one began an
		 * interval longer than a second (record-check-threads-slow). */
		uint32_t st = __atomic_load_n(&b->state, __ATOMIC_ACQUIRE);
		if (st == 0) {
			uint64_t second[2] = {1, 0};
			rdb_sys6(__NR_futex, (long)&b->state, 0 /* FUTEX_WAIT */, 0,
			         by_main ? 0 : (long)second, 0, 0);
			if (!by_main && rdb_sys0(__NR_getppid) != parent)
				rdb_sys1(__NR_exit_group, 0);
			continue;
		}
		if (st != 3 || exec_wait(b, parent))
			break;
	}
	if (b->state == 2)
		rdb_sys1(__NR_exit_group, 0);
	RT->intervals.snap_mem = (int)rdb_sys4(__NR_openat, -100, (long)"/proc/self/mem",
	                             RDB_O_RDONLY | RDB_O_CLOEXEC, 0);
	RT->intervals.snap_maps = rdb_procmaps(); /* ours: the interval's start (vdirect) */
	/* The channel's read buffer: this process never reads the channel. */
	struct vsend *vs = (struct vsend *)RT->chan.rbuf;
	_Static_assert(sizeof(struct vsend) <= RDB_RBUF, "values message buffer");
	rdb_memset(vs, 0, sizeof *vs);
	vs->interval = b->interval;
	for (uint64_t i = 0; i < b->n; i++)
		vput(vs, b->r[i].addr, b->r[i].len);
	struct rdb_tf_values_end e = {b->interval, vs->nranges, vs->nbytes};
	struct rdb_tf_rec h = {RDB_TF_VALUES_END, sizeof e};
	if (sizeof vs->msg - vs->n < sizeof h + sizeof e)
		vflush(vs);
	rdb_memcpy(vs->msg + vs->n, &h, sizeof h);
	rdb_memcpy(vs->msg + vs->n + sizeof h, &e, sizeof e);
	vs->n += sizeof h + sizeof e;
	vflush(vs);
	rdb_sys1(__NR_exit_group, 0);
	for (;;)
		;
}

/* The planes stay out of the child (fork would copy their page
 * tables: docs/perf.md); exit signal 0: the program's wait() never sees
 * it.  0 if the fork failed (a NOTE says so). */
static int snap_fork(int slot)
{
	uintptr_t rlo = (RDB_COVER_LO - RDB_R_OFFSET) & ~0xfffull;
	uintptr_t slo = (RDB_COVER_LO - RDB_S_OFFSET) & ~0xfffull;
	size_t len = RDB_COVER_HI - RDB_COVER_LO;
	struct snap_buf *b = slot_buf(slot);
	b->state = 0;
	b->n = 0;
	b->full = 0;
	b->fds_shut = 0;
	rdb_sys3(__NR_madvise, rlo, len, 10 /* MADV_DONTFORK */);
	rdb_sys3(__NR_madvise, slo, len, 10);
	long parent = rdb_sys0(__NR_getpid);
	/* The child starts with every signal blocked: a terminal's ^C must not
	 * run the program's handler in it.  Untraced: a debugger or tracer
	 * of the program (strace -f) must not follow it, nor stop the
	 * program's step at its creation. */
	uint64_t old = rdb_block_all();
	long pid = rdb_sys6(__NR_clone, 0x00800000 /* CLONE_UNTRACED */, 0, 0, 0, 0, 0);
	if (pid == 0)
		snap_child(slot, parent, rdb_th_slot() == 0);
	rdb_set_mask(old);
	rdb_sys3(__NR_madvise, rlo, len, 11 /* MADV_DOFORK */);
	rdb_sys3(__NR_madvise, slo, len, 11);
	if (pid < 0) {
		RT->intervals.snap_pid[slot] = 0;
		struct rdb_tf_note note = {RDB_TF_NOTE_SNAPSHOT, 0, RT->rr.sc_id, pid};
		rdb_chan_put(RDB_TF_NOTE, &note, sizeof note, 0, 0);
		if (!RT->intervals.snap_stop)
			rdb_printf("rdb: cannot fork the interval snapshot (error %ld): the rest of "
			           "the run is one interval\n", -pid);
		return 0;
	}
	RT->intervals.snap_pid[slot] = (int)pid;
	return 1;
}

/* The program is about to close a descriptor (close, dup2 over one...):
 * a snapshot child that has not yet closed its copies (just forked, not
 * yet run) would keep the file open, and a pipe's reader would see no
 * hang-up.  Wait until every child has (a flag in shared memory: one load
 * when it has, as nearly always). */
void rdb_interval_fds_shut(void)
{
	for (int slot = 0; RT->intervals.snap_ok && slot < SNAP_SLOTS; slot++) {
		struct snap_buf *b = slot_buf(slot);
		while (RT->intervals.snap_pid[slot] > 0 && !__atomic_load_n(&b->fds_shut, __ATOMIC_ACQUIRE)) {
			uint64_t ts[2] = {0, 10000000}; /* 10 ms: then see whether it is gone */
			rdb_sys6(__NR_futex, (long)&b->fds_shut, 0 /* FUTEX_WAIT */, 0, (long)ts, 0, 0);
			uint8_t info[128];
			rdb_memset(info, 0, sizeof info);
			if (!__atomic_load_n(&b->fds_shut, __ATOMIC_ACQUIRE) &&
			    rdb_sys6(__NR_waitid, 1 /* P_PID */, RT->intervals.snap_pid[slot], (long)info,
			             4 | 1 | 0x01000000 | 0x40000000 /* WEXITED WNOHANG WNOWAIT __WALL */,
			             0, 0) == 0 && *(int *)(info + 16) /* si_pid */)
				break; /* exited (its fds with it) */
		}
	}
}

static void snap_reap(int slot)
{
	if (RT->intervals.snap_pid[slot] <= 0)
		return;
	while (rdb_sys4(__NR_wait4, RT->intervals.snap_pid[slot], 0, 0x40000000 /* __WALL */, 0) == -RDB_EINTR)
		;
	RT->intervals.snap_pid[slot] = 0;
}

static void snap_post(int slot, uint32_t state)
{
	struct snap_buf *b = slot_buf(slot);
	__atomic_store_n(&b->state, state, __ATOMIC_RELEASE);
	rdb_sys6(__NR_futex, (long)&b->state, 1 /* FUTEX_WAKE */, 1, 0, 0, 0);
}

/* ---- the scan ----------------------------------------------------------- */

struct scan {
	struct snap_buf *b;
	uint64_t lo, hi; /* the range being grown */
	int written;     /* also report the written bytes (written.c) */
	int reads;       /* the read bytes' ranges (not in dead stack) */
};

static void scan_emit(struct scan *s)
{
	if (s->hi == s->lo)
		return;
	struct snap_buf *b = s->b;
	if (b->n == SNAP_MAXR) { /* full: widen the last range, still correct */
		b->full = 1;
		b->r[b->n - 1].len = s->hi - b->r[b->n - 1].addr;
	} else {
		b->r[b->n].addr = s->lo;
		b->r[b->n].len = s->hi - s->lo;
		b->n++;
	}
	s->lo = s->hi = 0;
}

static void scan_word(void *ctx, uintptr_t a, uint64_t r, uint64_t sw, size_t n)
{
	struct scan *s = ctx;
	if (s->written)
		rdb_written_words(a, sw, n);
	uint64_t t = r; /* read: written first or not, its start value (docs/hooks.md) */
	if (!t || !s->reads)
		return;
	/* a run's words are at most 7 bytes apart: one range (GAP) */
	uint64_t lo = a + (uint64_t)__builtin_ctzll(t) / 8;
	uint64_t hi = a + 8 * (n - 1) + (uint64_t)(63 - __builtin_clzll(t)) / 8 + 1;
	if (s->hi != s->lo && lo <= s->hi + GAP) {
		s->hi = hi;
		return;
	}
	scan_emit(s);
	s->lo = lo;
	s->hi = hi;
}

/* The image's read-only segments never change: their reads need no values. */
static int scanned(const struct rdb_tf_map *m)
{
	/* (reads before an mprotect that took PROT_READ away were saved then:
	 * syscall.c; a reservation may be huge) */
	if (m->kind == RDB_TF_MAP_SPECIAL || !(m->prot & 1))
		return 0;
	return !(m->kind == RDB_TF_MAP_IMAGE && !(m->prot & 2));
}

/* Memory dead when the interval started, which gets no values: below the
 * interval's first %rsp (the main stack: its STACK record holds it whole;
 * a window in any other mapping: a coroutine's stack in the heap), and the
 * program's alternate stack unless %rsp was on it (docs/design.md invariant
 * 6).  Returns how many ranges.  The window: what the interval reads there
 * it has written first (a handler's or coroutine's locals) but for
 * uninitialised slots; it was 256 KiB, and a coroutine's data 64 KiB below
 * its stack in the same mapping was never traced. */
#define DEAD_WINDOW (32u << 10)
struct span {
	uintptr_t lo, hi;
};

static int dead_stack(struct span d[2])
{
	int n = 0;
	uintptr_t sp = RT->intervals.interval_sp;
	int on_alt = sp >= RT->intervals.iv_alt_lo && sp < RT->intervals.iv_alt_hi;
	for (size_t i = 0; i < RT->procmaps.nmaps && !on_alt; i++) {
		const struct rdb_tf_map *m = &RT->procmaps.maps[i];
		if (sp > m->start && sp < m->end) {
			d[n].lo = m->kind == RDB_TF_MAP_STACK || sp - m->start < DEAD_WINDOW
			              ? m->start : sp - DEAD_WINDOW;
			/* (up to another stack a switch went to: hooks.S) */
			d[n].hi = m->kind != RDB_TF_MAP_STACK && TH->dead_cut > d[n].lo &&
			                  TH->dead_cut < sp ? TH->dead_cut : sp;
			n++;
			break;
		}
	}
	if (RT->intervals.iv_alt_hi > RT->intervals.iv_alt_lo) { /* STACK holds it whole */
		d[n].lo = RT->intervals.iv_alt_lo;
		d[n++].hi = RT->intervals.iv_alt_hi;
	}
	return n;
}

/* take: the boundary's scan, which clears the planes as it goes
 * (rdb_planes_take; the mappings it skips are cleared after: scanned). */
static void scan_into(int slot, int take)
{
	void (*const walk)(uintptr_t, uintptr_t, rdb_word_fn *, void *) =
		take ? rdb_planes_take : rdb_planes_walk;
	struct scan s = {slot_buf(slot), 0, 0, 1, 1};
	s.b->interval = RT->interval;
	rdb_written_begin(RT->interval);
	struct span dead[2];
	int ndead = dead_stack(dead);
	rdb_planes_batch(1);
	for (size_t i = 0; i < RT->procmaps.nmaps; i++) {
		const struct rdb_tf_map *m = &RT->procmaps.maps[i];
		if (!scanned(m))
			continue;
		RT->wr.shared = m->kind == RDB_TF_MAP_SHARED || m->kind == RDB_TF_MAP_SHARED_EXT;
		uintptr_t lo = m->start;
		for (;;) { /* [lo, m->end) less the dead ranges, in address order */
			uintptr_t hi = m->end, next = m->end;
			for (int d = 0; d < ndead; d++)
				if (dead[d].hi > lo && dead[d].lo < hi) {
					hi = dead[d].lo > lo ? dead[d].lo : lo;
					next = dead[d].hi < m->end ? dead[d].hi : m->end;
				}
			if (hi > lo)
				walk(lo, hi, scan_word, &s);
			/* dead stack: no values (and no range grows across it),
			 * but what the interval wrote there is flowback's */
			if (next > hi) {
				scan_emit(&s);
				s.reads = 0;
				walk(hi, next, scan_word, &s);
				s.reads = 1;
			}
			if (next >= m->end)
				break;
			lo = next;
		}
	}
	scan_emit(&s);
	rdb_planes_batch(0);
	rdb_written_end();
	rdb_stackwrite_scan(RT->interval);
	rdb_ran_scan(RT->interval);
}

/* Memory about to be unmapped or replaced in the middle of an interval:
 * what the interval read of it still needs its values
 * (the snapshot has them), and the planes are about to forget. */
void rdb_interval_forget(uintptr_t a, size_t n)
{
	if (RT->mode != RDB_TF_MODE_RECORD || !RT->intervals.snap_ok || RT->intervals.in_boundary)
		return;
	struct scan s = {slot_buf((int)(RT->interval % SNAP_SLOTS)), 0, 0, 0, 1};
	s.b->interval = RT->interval;
	rdb_planes_walk(a, a + n, scan_word, &s);
	scan_emit(&s);
}

/* ---- the boundary's records --------------------------------------------- */

static void send_context(void *uc, uint64_t interval)
{
	struct rdb_tf_context *cp = &RT->ctx.c; /* off the (maybe alternate) signal stack */
	rdb_memset(cp, 0, sizeof *cp);
	cp->interval = interval;
	rdb_memcpy(cp->gregs, rdb_gregs(uc), sizeof cp->gregs);
	cp->fs_base = rdb_fs_base();
	cp->uc_flags = *(uint64_t *)uc;
	cp->sigmask = *(uint64_t *)((char *)uc + UC_SIGMASK);
	cp->ss_sp = TH->signal.prog_ss[RDB_SS_SP]; /* the program's view (the kernel's is ours) */
	cp->ss_flags = TH->signal.prog_ss[RDB_SS_FLAGS];
	cp->ss_size = TH->signal.prog_ss[RDB_SS_SIZE];
	cp->brk_cur = RT->syscall.brk_cur;
	cp->brk_mapped = RT->syscall.brk_mapped;
	cp->sc_id = RT->rr.sc_id;
	rdb_memcpy(cp->view, &RT->signal.view[1], sizeof cp->view);
	cp->reserved_blocked = TH->signal.reserved_blocked;
	cp->hframe = TH->hframe;
	const uint8_t *fp = *(const uint8_t **)((char *)uc + UC_FPREGS);
	cp->fpsize = fp ? rdb_xstate_size(fp) : 0;
	/* the queued signals and the xsave image: one piece, the record's
	 * second part (the image alone in the common case) */
	size_t qn = (size_t)RT->signal.nqueued * sizeof RT->signal.queued[0];
	if (qn && !rdb_grow(RDB_G_CTXQ, qn + cp->fpsize)) {
		rdb_printf("rdb: no memory to save the %d signals waiting at boundary %lu: a "
		           "replay from there will not have them\n", RT->signal.nqueued,
		           (unsigned long)interval);
		qn = 0;
	}
	cp->nqueued = qn / sizeof RT->signal.queued[0];
	if (!qn) {
		rdb_chan_put(RDB_TF_CONTEXT, cp, sizeof *cp, fp, cp->fpsize);
		return;
	}
	rdb_memcpy(RT->ctx.q, RT->signal.queued, qn);
	rdb_memcpy((char *)RT->ctx.q + qn, fp, cp->fpsize);
	rdb_chan_put(RDB_TF_CONTEXT, cp, sizeof *cp, RT->ctx.q, qn + cp->fpsize);
}

static void send_maps(uint64_t interval)
{
	struct rdb_tf_maps h = {interval, (uint32_t)RT->procmaps.nmaps, 0};
	rdb_chan_put(RDB_TF_MAPS, &h, sizeof h, RT->procmaps.maps, RT->procmaps.nmaps * sizeof RT->procmaps.maps[0]);
}

/* In records of at most RDB_TF_MAX_PAYLOAD bytes (a record's length is 32
 * bits; rdb holds one whole in a frame: a coroutine's stack in a heap
 * mapping of gigabytes), the highest first: replay clears the main stack
 * below each STACK record it loads (replay.c clear_below). */
static void send_blob(uint32_t type, uint64_t interval, uint64_t lo, uint64_t hi)
{
	do { /* (an empty one too, as before) */
		uint64_t k = hi - lo < RDB_TF_MAX_PAYLOAD ? hi - lo : RDB_TF_MAX_PAYLOAD;
		struct rdb_tf_blob b = {interval, hi - k, k};
		rdb_chan_put(type, &b, sizeof b, (const void *)(hi - k), k);
		hi -= k;
	} while (hi > lo);
}

/* The lowest page of the main stack with a nonzero byte: below it the
 * mapping holds zeros (replay clears it to match). */
static uint64_t stack_floor(const struct rdb_tf_map *m)
{
	for (uint64_t p = m->start; p < m->end; p += 4096) {
		const uint64_t *w = (const uint64_t *)p;
		for (int i = 0; i < 512; i++)
			if (w[i])
				return p;
	}
	return m->end;
}

/* The mapping holding a, or 0. */
static const struct rdb_tf_map *map_at(uint64_t a)
{
	return rdb_map_find(RT->procmaps.maps, RT->procmaps.nmaps, a);
}

/* The main stack whole, from the lowest page the program ever wrote: below
 * %rsp lies what its earlier frames left, which its uninitialised locals
 * read (only the program writes there: layout.h).  On another stack (a
 * handler's on the program's alternate stack, a coroutine's), from %rsp to
 * the top of that mapping, and the main stack whole as well: its frames
 * are live.  And the stacks the running handlers interrupted (a
 * coroutine's under a handler on the alternate stack), from their %rsp:
 * their frames chain from TH->hframe (a frame left by longjmp may still
 * look like one: saving its stack too costs bytes, not correctness). */
/* The handler frame at f (struct rdb_sigframe): 1 with the %rsp it
 * interrupted and the frame before it, or 0 if f is not one. */
static int frame_at(uint64_t f, uint64_t *isp, uint64_t *prev)
{
	const struct rdb_tf_map *fm = map_at(f);
	if (!f || !fm || !(fm->prot & 1) || fm->end - f < sizeof(struct rdb_sigframe))
		return 0;
	const struct rdb_sigframe *fr = (const struct rdb_sigframe *)f;
	if (fr->hs.magic != (RDB_HSTATE_MAGIC ^ f))
		return 0;
	*isp = rdb_gregs((void *)fr->uc)[REG_RSP];
	*prev = fr->hs.prev;
	return 1;
}

/* (as deep as handlers nest: a bound against a damaged chain only) */
#define MAX_FRAMES (1 << 16)

/* Thread t's own stack's mapping: for thread 0 the main stack, for
 * another the mapping holding the stack its clone gave it; or 0. */
static const struct rdb_tf_map *own_stack(const struct rdb_thread *t)
{
	if (t != rdb_th_at(0))
		return t->stack_top ? map_at(t->stack_top - 1) : 0;
	for (size_t i = 0; i < RT->procmaps.nmaps; i++)
		if (RT->procmaps.maps[i].kind == RDB_TF_MAP_STACK)
			return &RT->procmaps.maps[i];
	return 0;
}

/* The end of what a boundary saves of thread t's own stack m: thread 0's
 * mapping's end; another's, the page past the stack its clone gave it
 * (with the words the child pops there first: musl's __clone leaves the
 * start argument at the new %rsp).  Not the mapping's end: the kernel
 * merges the thread's mapping (guard page below, stack, then musl's TLS
 * and thread-specific data) with anonymous memory mapped next to it
 * later, and xz -T4's encoder buffers made each boundary save about
 * 90 MB.  Above its stack the program reads only through pointers
 * (%fs-relative ones included), which the hooks mark: the interval's
 * values have what it reads there. */
static uint64_t own_top(const struct rdb_thread *t, const struct rdb_tf_map *m)
{
	if (t == rdb_th_at(0) || !t->stack_top)
		return m->end;
	uint64_t top = rdb_clone_stack_end(t->stack_top);
	return top > m->start && top < m->end ? top : m->end;
}

static void send_stack(uint64_t interval, uint64_t sp)
{
	const struct rdb_tf_map *in = map_at(sp), *main = 0;
	for (size_t i = 0; i < RT->procmaps.nmaps; i++)
		if (RT->procmaps.maps[i].kind == RDB_TF_MAP_STACK)
			main = &RT->procmaps.maps[i];
	/* a thread's own stack (not the main one) whole up to its top, as
	 * the parked threads' (send_thread_stacks): a new frame's
	 * uninitialised slots below this %rsp read the recorded bytes in a
	 * replay from here too */
	if (in && in != main && in == own_stack(TH))
		send_blob(RDB_TF_STACK, interval, stack_floor(in), own_top(TH, in));
	else if (in)
		send_blob(RDB_TF_STACK, interval, in == main ? stack_floor(in) : sp & ~7ull, in->end);
	if (main && main != in)
		send_blob(RDB_TF_STACK, interval, stack_floor(main), main->end);
	uint64_t alo, ahi;
	rdb_altstack(&alo, &ahi);
	uint64_t f = TH->hframe, isp, prev;
	for (int depth = 0; depth < MAX_FRAMES && frame_at(f, &isp, &prev); depth++, f = prev) {
		const struct rdb_tf_map *m = map_at(isp);
		if (!m || m == in || m == main || (isp >= alo && isp < ahi))
			continue;
		/* once per mapping, from the innermost frame's %rsp there (the
		 * frames before this one, walked again: handlers nest shallow) */
		int dup = 0;
		uint64_t g = TH->hframe, gsp, gprev;
		for (int k = 0; k < depth && !dup && frame_at(g, &gsp, &gprev); k++, g = gprev)
			dup = map_at(gsp) == m;
		if (!dup)
			send_blob(RDB_TF_STACK, interval, isp & ~7ull, m->end);
	}
	/* the program's alternate stack whole: what its handlers left there */
	if (ahi > alo)
		send_blob(RDB_TF_STACK, interval, alo, ahi);
}

/* A boundary while other threads live (sched.c THCTX): their own stacks
 * whole as well, from their lowest written page, as the main stack: a
 * replay from here makes them again on them (threvive.c), and the
 * runtime reads their frames (a blocked call's stub frame) where the
 * program's reads left no values.  (The main stack went already, and the
 * holder's: send_stack.) */
static void send_thread_stacks(uint64_t interval, uint64_t sp)
{
	if (rdb_sched_alone())
		return;
	const struct rdb_tf_map *in = map_at(sp);
	for (unsigned k = 1; k <= RT->sched.top; k++) {
		const struct rdb_thread *t = rdb_th_at(k);
		const struct rdb_tf_map *m = t->sched.alive ? own_stack(t) : 0;
		if (!m || m == in || m->kind == RDB_TF_MAP_STACK || !(m->prot & 1))
			continue;
		send_blob(RDB_TF_STACK, interval, stack_floor(m), own_top(t, m));
	}
}

int rdb_thread_stack(const struct rdb_thread *t, uint64_t *lo, uint64_t *hi)
{
	const struct rdb_tf_map *m = own_stack(t);
	if (!m)
		return 0;
	*lo = stack_floor(m);
	*hi = own_top(t, m);
	return 1;
}

/* Thread t's stack-switch marks for the interval that begins with its
 * %rsp at sp (hooks.S __rdb_stack_switch: a switch into a stack saved
 * whole needs no marks): its own stack, which every boundary saves whole
 * (thread 0's bounds are fixed at the start); the stack the interval
 * begins on if another, as send_stack saved it, and the dead window below
 * (dead_stack).  Replay sets the same at each boundary: the marks are
 * compared (--verify). */
void rdb_interval_saved_stack(struct rdb_thread *t, uint64_t sp)
{
	const struct rdb_tf_map *m = map_at(sp), *own = own_stack(t);
	uint64_t alo, ahi;
	rdb_altstack(&alo, &ahi);
	if (t != rdb_th_at(0)) {
		t->stack_lo = own ? own->start : 0;
		t->stack_hi = own ? own_top(t, own) : 0;
	}
	t->saved_lo = t->saved_hi = t->dead_lo = t->dead_cut = 0;
	if (sp >= alo && sp < ahi) {
		t->saved_lo = alo;
		t->saved_hi = ahi;
	} else if (m && m->kind != RDB_TF_MAP_STACK && m != own) {
		t->saved_lo = sp & ~7ull;
		t->saved_hi = m->end;
		t->dead_lo = sp - m->start < DEAD_WINDOW ? m->start : sp - DEAD_WINDOW;
		t->dead_cut = sp;
	}
}

/* ---- stretched intervals ------------------------------------------------ */

/* Each page an interval writes costs a copy-on-write fault after the
 * boundary's fork: about 1-2 us on bare hardware, 75-90 us on a VM with
 * shadow page tables (docs/perf.md).  There, a program that writes all
 * over a large heap spends more time in those faults than in its own
 * work, each interval again.  Those faults are about as many per boundary
 * whatever the interval's length (a page is copied once per interval, and
 * such a program writes the same pages in every one), so when they cost
 * more than a quarter of the program's time in the interval, the next
 * one is made as much longer as brings them to a quarter, up to
 * STRETCH_MAX times -i; below a sixteenth it is halved again.  Their
 * cost is estimated as the pages the interval wrote (its WRITTEN ranges)
 * times one fault's, measured at the start on pages of the runtime's own
 * state region.  rdb record does this by default, not with -i
 * (--stretch, --no-stretch). */
#define STRETCH_MAX 8
#define COW_PROBE_PAGES 8
#define COW_PROBE_ADDR (RDB_STATE_ADDR + RDB_STATE_SIZE - COW_PROBE_PAGES * 4096)
_Static_assert(sizeof(struct rdb_state) <= COW_PROBE_ADDR - RDB_STATE_ADDR,
               "the state region has no room for the copy-on-write probe");

/* The thread's CPU time (the faults' kernel time is in it): a probe
 * preempted on a loaded machine must not look like dear faults. */
static uint64_t thread_ns(void)
{
	uint64_t ts[2] = {0, 0};
	rdb_sys2(__NR_clock_gettime, 3 /* CLOCK_THREAD_CPUTIME_ID */, ts);
	return ts[0] * 1000000000ull + ts[1];
}

/* Before the first snapshot fork: the pages must be there to be shared. */
static void cow_probe_touch(void)
{
	for (int i = 0; i < COW_PROBE_PAGES; i++)
		((volatile char *)COW_PROBE_ADDR)[i * 4096] = 1;
}

/* After it: the snapshot child shares them now. */
static void cow_probe(void)
{
	uint64_t t0 = thread_ns();
	for (int i = 0; i < COW_PROBE_PAGES; i++)
		((volatile char *)COW_PROBE_ADDR)[i * 4096] = 2;
	RT->intervals.cow_ns = (thread_ns() - t0) / COW_PROBE_PAGES;
}

/* At a boundary: the stretch of the interval it starts, from the one it
 * ends (its whole CPU time and the kernel's part of it, ns).  The faults
 * cannot have cost more than the kernel's time; a fork child's first
 * interval (its parent's run, its boundary at once) says nothing. */
static void stretch_next(uint64_t cpu, uint64_t sys)
{
	uint64_t user = cpu > sys ? cpu - sys : 0;
	uint64_t faults = RT->wr.pages * RT->intervals.cow_ns;
	uint64_t k = RT->intervals.stretch;
	if (faults > sys)
		faults = sys;
	if (RT->intervals.fixed)
		k = 1;
	else if (RT->intervals.stretch_skip)
		RT->intervals.stretch_skip = 0;
	else if (faults > user / 4) /* to a quarter at once, as if they stay as many */
		k = !user || k * 4 * faults / user >= STRETCH_MAX ? STRETCH_MAX
		                                                 : (k * 4 * faults + user - 1) / user;
	else if (faults < user / 16 && k > 1)
		k /= 2;
	if (!RT->intervals.fixed && RT->start.debug > 1)
		rdb_printf("rdb: interval %lu wrote %lu pages, %lu us of faults (a copy-on-write "
		           "fault: %lu ns; the kernel's time %lu us) in %lu us of the program's: "
		           "interval %lu is %lu times -i\n",
		           (unsigned long)RT->interval, (unsigned long)RT->wr.pages,
		           (unsigned long)(faults / 1000), (unsigned long)RT->intervals.cow_ns,
		           (unsigned long)(sys / 1000), (unsigned long)(user / 1000),
		           (unsigned long)RT->interval + 1, (unsigned long)k);
	RT->intervals.stretch = k;
}

static void arm_timer(void)
{
	uint64_t us = RT->intervals.interval_us * RT->intervals.stretch + RT->intervals.sys_allow_us;
	uint64_t sec = us / 1000000, ns = us % 1000000 * 1000;
	uint64_t its[4] = {sec, ns, sec, ns};
	long r = rdb_sys4(__NR_timer_settime, RT->intervals.timer_id, 0, its, 0);
	if (r < 0)
		rdb_die("cannot start the interval timer (error %ld)\n", -r);
}

/* Stops the interval timer (there is none with --every-sic). */
static void disarm_timer(void)
{
	uint64_t its[4] = {0, 0, 0, 0};
	if (!RT->intervals.every_sic)
		rdb_sys4(__NR_timer_settime, RT->intervals.timer_id, 0, its, 0);
}

/* ---- events --------------------------------------------------------------- */

/* 1 if the boundary was taken.  The next snapshot is forked first: if
 * that fails, nothing of the boundary is sent and the current interval
 * (its snapshot child still waits) runs on to the end of the run.  -1:
 * the mappings could not be read (no memory for the table, no fd). */
static int boundary(void *uc, uint64_t count, uint64_t pc, uint32_t flags)
{
	uint64_t *g = rdb_gregs(uc);
	uint64_t now = cpu_ns();
	uint64_t sys = RT->intervals.every_sic ? 0 : sys_ns() - RT->intervals.sys_start_ns;
	int cur = (int)(RT->interval % SNAP_SLOTS), next = (int)((RT->interval + 1) % SNAP_SLOTS);
	if (!rdb_procmaps())
		return -1; /* the recording stops here (rdb_record_event) */
	struct rdb_tf_boundary b;
	rdb_memset(&b, 0, sizeof b);
	if (RT->chan.checksum) {
		rdb_checksum(g, RT->procmaps.maps, RT->procmaps.nmaps, &b.hash_touched, &b.hash_full);
		flags |= RDB_TF_B_CHECKSUM;
	}
	snap_reap(next); /* its values first: the values stream stays in order */
	rdb_shared_boundary(); /* the snapshot's copies of MAP_SHARED memory */
	/* The fork first: the scan clears the planes as it goes, and if the
	 * fork fails the interval goes on, its end scanning it whole. */
	if (!snap_fork(next)) {
		if (!RT->intervals.snap_stop)
			disarm_timer();
		RT->intervals.snap_stop = 1;
		return 0;
	}
	RT->intervals.snap_stop = 0;
	scan_into(cur, 1);
	snap_post(cur, 1);
	b.interval = RT->interval + 1;
	b.sic = count;
	b.pc = pc;
	b.sc_id = RT->rr.sc_id;
	b.nondets = RT->nondet.nondets;
	b.cpu_ns = now - RT->intervals.cpu_start_ns;
	if (!RT->intervals.every_sic) /* (the scan counted the pages written) */
		stretch_next(b.cpu_ns, sys);
	b.flags = flags | (uint32_t)RT->intervals.stretch << RDB_TF_B_STRETCH_SHIFT;
	rdb_chan_put(RDB_TF_BOUNDARY, &b, sizeof b, 0, 0);
	send_context(uc, b.interval);
	send_maps(b.interval);
	send_stack(b.interval, g[REG_RSP]);
	send_thread_stacks(b.interval, g[REG_RSP]);
	rdb_sched_boundary_send(b.interval, count, pc); /* the other threads, parked */
	rdb_chan_flush();
	rdb_planes_clear_maps(scanned);
	RT->interval++;
	RT->intervals.interval_sp = g[REG_RSP];
	rdb_altstack(&RT->intervals.iv_alt_lo, &RT->intervals.iv_alt_hi); /* for dead_stack */
	rdb_interval_saved_stack(TH, g[REG_RSP]);
	if (!RT->intervals.every_sic) {
		/* The kernel's time in the interval (mostly copy-on-write
		 * faults after the snapshot fork: on a VM with shadow page
		 * tables each costs tens of microseconds) is added to the
		 * next one, so that an interval is -i milliseconds of the
		 * program's own work, which is what its replay costs (the
		 * replay forks nothing and emulates the syscalls).  Without
		 * it, a program that writes pages at random made almost no
		 * progress per interval at -i 1 and recorded for minutes
		 * what ran in 0.1 s. */
		uint64_t cap = 100 * RT->intervals.interval_us;
		RT->intervals.sys_allow_us = sys / 1000 < cap ? sys / 1000 : cap;
		arm_timer(); /* the program's interval starts now, after our work */
	}
	RT->intervals.cpu_start_ns = cpu_ns();
	if (!RT->intervals.every_sic)
		RT->intervals.sys_start_ns = sys_ns();
	return 1;
}

/* An interval ran the most counts a trace can hold and no boundary can
 * end it (no intervals, or the snapshot fork fails): what follows would
 * be recorded at counts that wrap.  The recording stops here, complete up
 * to this point (the interval's values, then a BOUNDARY saying so), as an
 * exec of an untraced program ends it; the program runs on untraced.
 * why: not an overflow, but a boundary that cannot be taken (no fd or no
 * memory to read the mappings with): then a NOTE says so. */
static void stop_tracing(uint64_t count, uint64_t pc, const char *why)
{
	rdb_interval_end();
	struct rdb_tf_boundary b;
	rdb_memset(&b, 0, sizeof b);
	b.interval = RT->interval + 1;
	b.sic = count;
	b.pc = pc;
	b.sc_id = RT->rr.sc_id;
	b.nondets = RT->nondet.nondets;
	b.cpu_ns = cpu_ns() - RT->intervals.cpu_start_ns;
	b.flags = RDB_TF_B_OVERFLOW | RDB_TF_B_UNTRACED;
	rdb_chan_put(RDB_TF_BOUNDARY, &b, sizeof b, 0, 0);
	if (why) { /* not an overflow: rdb info says so (after: replay stops at the BOUNDARY) */
		struct rdb_tf_note n = {RDB_TF_NOTE_STOPPED, 0, RT->rr.sc_id, 0};
		rdb_chan_put(RDB_TF_NOTE, &n, sizeof n, 0, 0);
	}
	rdb_chan_flush();
	if (why)
		rdb_printf("rdb: interval %lu: %s: the recording stops here, the program runs on "
		           "untraced\n", (unsigned long)RT->interval, why);
	else
		rdb_printf("rdb: interval %lu ran %lu counts of the instruction counter without a "
		           "boundary (%s): the recording stops here, the program runs on untraced\n",
		           (unsigned long)RT->interval, (unsigned long)count,
		           RT->intervals.interval_us || RT->intervals.every_sic ? "the snapshot fork failed" : "no intervals");
	rdb_record_stop();
}

static void send_signal(uint32_t kind, int signo, const uint8_t *info, uint64_t count,
                        uint64_t pc)
{
	struct rdb_tf_signal s;
	rdb_memset(&s, 0, sizeof s);
	s.interval = RT->interval;
	s.sic = count;
	s.pc = pc;
	s.sc_id = RT->rr.sc_id;
	s.nondets = RT->nondet.nondets;
	s.kind = kind;
	s.signo = signo;
	rdb_memcpy(s.siginfo, info, sizeof s.siginfo);
	RT->shared.shared_sig = 1; /* its handler may read what the sender wrote (shared.c) */
	rdb_chan_put(RDB_TF_SIGNAL, &s, sizeof s, 0, 0);
	rdb_chan_flush();
}

/* The oldest deferred signal, taken off the queue: its number; info gets
 * its siginfo. */
static int pop_pending(uint8_t info[128])
{
	int signo = rdb_pending()[0].signo;
	rdb_memcpy(info, rdb_pending()[0].info, 128);
	TH->sig.npending--;
	for (int i = 0; i < TH->sig.npending; i++)
		rdb_pending()[i] = rdb_pending()[i + 1];
	return signo;
}

void rdb_record_event(void *uc, uint64_t count, uint64_t pc)
{
	if (TH->sig.npending) {
		/* Every waiting signal, queued again at once: the kernel nests
		 * their handlers as it would have (signal.c). */
		uint32_t kind = RDB_TF_SIG_AT_SIC;
		while (TH->sig.npending) {
			uint8_t info[128];
			int signo = pop_pending(info);
			send_signal(kind, signo, info, count, pc);
			rdb_signal_requeue(signo, info);
			kind = RDB_TF_SIG_AT_SIC_TOO;
		}
	} else if (!rdb_sched_boundary_ok()) {
		/* Several threads: no boundary yet (one saves one thread's
		 * registers); a time slice may end here (sched.c). */
		if ((RT->intervals.want_boundary ||
		     (RT->intervals.every_sic && count >= RT->intervals.every_sic)) &&
		    !RT->sched.thbound && !RT->sched.said++)
			rdb_printf("rdb: threads run: interval boundaries wait until the main thread "
			           "is alone again (rdb replay --from starts only there; "
			           "docs/threads.md)\n");
		rdb_sched_event(uc, count, pc);
	} else if (RT->intervals.want_boundary || count >= RT->sic.sic_span ||
	           (RT->intervals.every_sic && count >= RT->intervals.every_sic)) {
		int over = count >= RT->sic.sic_span;
		uint32_t flags = over ? RDB_TF_B_OVERFLOW : 0;
		RT->intervals.want_boundary = 0;
		/* after a failed snapshot fork only an overflow tries again */
		int took = RT->intervals.snap_ok && (!RT->intervals.snap_stop || over) ? boundary(uc, count, pc, flags) : 0;
		if (took < 0 || (!took && over)) {
			stop_tracing(count, pc, took < 0 ? "the boundary cannot read the program's "
			                                   "mappings" : 0);
			rdb_sic_arm(uc, count, 0);
			return;
		}
		if (took && !rdb_sched_alone())
			rdb_sched_rebased(count);
		if (took)
			count = 0;
		else if (!rdb_sched_alone())
			rdb_sched_event(uc, count, pc); /* (boundaries while threads live) */
	} else if (!rdb_sched_alone()) {
		rdb_sched_event(uc, count, pc); /* holding the token, no boundary due */
	}
	rdb_sic_arm(uc, count,
	            rdb_sched_stop(count, RT->intervals.every_sic && RT->intervals.snap_ok &&
	                                      !RT->intervals.snap_stop ? RT->intervals.every_sic : 0));
	if (TH->sig.npending || (RT->intervals.want_boundary && rdb_sched_boundary_ok())) {
		TH->sic.in_event = 0;
		rdb_sic_want(uc);
		TH->sic.in_event = 1;
	}
}

void rdb_interval_timer(void *uc)
{
	RT->intervals.want_boundary = 1;
	if (rdb_sched_boundary_ok()) /* else at the time slice's end once it is */
		rdb_sic_want(uc);
}

/* ---- start and end -------------------------------------------------------- */

/* The CPU-time timer of the intervals, armed. */
static void timer_start(void)
{
	/* sigevent: value, signo, notify SIGEV_SIGNAL */
	struct { uint64_t value; int32_t signo, notify; int32_t pad[12]; } ev;
	rdb_memset(&ev, 0, sizeof ev);
	ev.signo = RDB_SIG_TIMER;
	int id = -1;
	long r = rdb_sys3(__NR_timer_create, 2 /* CLOCK_PROCESS_CPUTIME_ID */, &ev, &id);
	if (r < 0)
		rdb_die("cannot create the interval timer (error %ld)\n", -r);
	RT->intervals.timer_id = id;
	arm_timer();
}

void rdb_interval_init(void)
{
	if (!RT->intervals.interval_us && !RT->intervals.every_sic)
		return;
	long r = rdb_sys6(__NR_mmap, SNAP_ADDR, SNAP_SLOTS * SNAP_SIZE, RDB_PROT_RW,
	                  RDB_MAP_SHARED | RDB_MAP_ANONYMOUS | RDB_MAP_NORESERVE |
	                      RDB_MAP_FIXED_NOREPLACE,
	                  -1, 0);
	if (r != (long)SNAP_ADDR) {
		rdb_printf("rdb: cannot map the snapshot buffers (error %ld): recording "
		           "without intervals\n", -r);
		return;
	}
	RT->intervals.snap_ok = 1;
	rdb_stackwrite_start();
	RT->interval = 1;
	RT->intervals.interval_sp = (uintptr_t)RT->start.sp;
	RT->intervals.cpu_start_ns = cpu_ns();
	RT->intervals.sys_start_ns = sys_ns();
	RT->intervals.stretch = 1;
	int probe = !RT->intervals.fixed && !RT->intervals.every_sic;
	if (probe)
		cow_probe_touch();
	if (!snap_fork(1 % SNAP_SLOTS)) {
		RT->intervals.snap_ok = 0; /* no snapshot of interval 1: no intervals, no timer */
		return;
	}
	if (probe)
		cow_probe();
	if (RT->intervals.every_sic) { /* the first check past the count faults */
		rdb_sic_set(0, RT->intervals.every_sic);
		return;
	}
	rdb_signal_reserve_timer();
	timer_start();
}

/* A recorded process's fork child that records itself (join.c): its own
 * snapshot buffers (the parent's are shared with the parent's snapshot
 * children), no snapshot children, its own timer (fork does not copy
 * one), nothing deferred (the kernel gives a child no pending signals),
 * and a boundary at its next SIC check, where its recording starts:
 * interval 2 of its trace.  0: it cannot (no intervals). */
int rdb_interval_fork_child(void)
{
	if (!RT->intervals.snap_ok)
		return 0;
	long r = rdb_sys6(__NR_mmap, SNAP_ADDR, SNAP_SLOTS * SNAP_SIZE, RDB_PROT_RW,
	                  RDB_MAP_SHARED | RDB_MAP_ANONYMOUS | RDB_MAP_NORESERVE | RDB_MAP_FIXED,
	                  -1, 0);
	if (r != (long)SNAP_ADDR)
		return 0;
	for (int slot = 0; slot < SNAP_SLOTS; slot++)
		RT->intervals.snap_pid[slot] = 0;
	RT->interval = 1;
	rdb_stackwrite_start();
	RT->intervals.snap_stop = 0;
	TH->sig.npending = 0;
	RT->intervals.cpu_start_ns = cpu_ns();
	RT->intervals.sys_start_ns = sys_ns();
	RT->intervals.sys_allow_us = 0;
	RT->intervals.stretch = 1;
	RT->intervals.stretch_skip = 1;
	if (!RT->intervals.every_sic)
		timer_start();
	/* The event: as rdb_sic_want, on the live %r15 (the runtime never
	 * uses it: -ffixed-r15), which the entry stub's check reads next. */
	RT->intervals.want_boundary = 1;
	TH->sic.poked = 1;
	*rdb_sic_origin() += RDB_SIC_W;
	__asm__ volatile("add %0, %%r15" : : "r"((uint64_t)RDB_SIC_W) : "memory");
	return 1;
}

/* An execve is about to run: the interval's ranges so far go to its
 * snapshot child (state 3), which sends them once this image is gone; the
 * previous interval's child finishes first (it would die with the exec'd
 * program: PDEATHSIG).  The timer stops (its signal would kill the exec'd
 * program).  The written ranges go out now: if the exec fails, the
 * boundary sends them again with the rest (flowback takes the union). */
void rdb_interval_exec(void)
{
	if (!RT->intervals.snap_ok)
		return;
	uint64_t old = rdb_block_all();
	disarm_timer();
	int cur = (int)(RT->interval % SNAP_SLOTS);
	struct snap_buf *b = slot_buf(cur);
	b->exec_n = b->n;
	b->exec_full = b->full;
	if (!rdb_procmaps()) {
		rdb_set_mask(old);
		rdb_record_limit("the program's mappings before its exec cannot grow (no memory "
		                 "for it)");
		return;
	}
	scan_into(cur, 0);
	snap_reap(1 - cur);
	snap_post(cur, 3);
	/* until the child has stopped dying with us (state 4) */
	while (__atomic_load_n(&b->state, __ATOMIC_ACQUIRE) == 3) {
		uint64_t ts[2] = {0, 10000000};
		rdb_sys6(__NR_futex, (long)&b->state, 0 /* FUTEX_WAIT */, 3, (long)ts, 0, 0);
		if (__atomic_load_n(&b->state, __ATOMIC_ACQUIRE) == 3 && RT->intervals.snap_pid[cur] > 0 &&
		    rdb_sys4(__NR_wait4, RT->intervals.snap_pid[cur], 0, 1 /* WNOHANG */ | 0x40000000 /* __WALL */,
		             0) == RT->intervals.snap_pid[cur]) {
			RT->intervals.snap_pid[cur] = 0; /* gone: its interval will not be complete */
			break;
		}
	}
	rdb_set_mask(old);
}

/* The execve returned: it failed, the interval goes on.  Its child drops
 * the ranges (the next boundary scans the whole interval again). */
void rdb_interval_exec_failed(void)
{
	if (!RT->intervals.snap_ok)
		return;
	uint64_t old = rdb_block_all();
	int cur = (int)(RT->interval % SNAP_SLOTS);
	struct snap_buf *b = slot_buf(cur);
	b->n = b->exec_n;
	b->full = b->exec_full;
	snap_post(cur, 0);
	if (!RT->intervals.every_sic && !RT->intervals.snap_stop)
		arm_timer();
	rdb_set_mask(old);
}

/* The program ends (exit, a fatal signal; an exec: rdb_interval_exec):
 * the last interval's values, then wait for both children, so every value
 * is sent before the process (and with it the children's PDEATHSIG) goes. */
void rdb_interval_end(void)
{
	if (!RT->intervals.snap_ok)
		return;
	uint64_t old = rdb_block_all();
	if (!RT->intervals.every_sic)
		rdb_sys1(__NR_timer_delete, RT->intervals.timer_id);
	RT->intervals.snap_ok = 0;
	int cur = (int)(RT->interval % SNAP_SLOTS);
	if (rdb_procmaps()) {
		scan_into(cur, 0);
		snap_post(cur, 1);
	} else {
		/* no values: its child sends none (no VALUES_END), and rdb
		 * counts the interval as incomplete */
		snap_post(cur, 2);
	}
	snap_reap(cur);
	snap_reap(1 - cur);
	rdb_set_mask(old);
}
