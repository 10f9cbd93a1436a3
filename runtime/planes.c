/* planes.c: a walk over the shadow words of a memory range that skips
 * plane pages the kernel never populated (mincore), so the boundary's
 * scan costs what the interval touched, not the size of the mappings. */
#include "rt.h"

#include <linux/sysinfo.h>

#define CHUNK (4u << 20) /* data bytes per mincore call */
#define R_OF(a) ((a) - RDB_R_OFFSET)

/* The planes' mapped bounds (start.c maps them whole). */
#define R_LO ((RDB_COVER_LO - RDB_R_OFFSET) & ~0xfffull)
#define R_HI ((RDB_COVER_HI - RDB_R_OFFSET + 0xfff) & ~0xfffull)
#define S_LO ((RDB_COVER_LO - RDB_S_OFFSET) & ~0xfffull)
#define S_HI ((RDB_COVER_HI - RDB_S_OFFSET + 0xfff) & ~0xfffull)
_Static_assert(S_HI <= R_LO, "the S plane lies below the R plane");
_Static_assert(RDB_S_OFFSET == 2 * RDB_R_OFFSET, "the S plane is (a,%r14,2)");
_Static_assert(R_HI <= RDB_SIC_WIN, "the R plane lies below the runtime's regions");
_Static_assert(S_LO >= 0x10000, "the S plane lies above mmap_min_addr");

/* Residency of plane pages, asked of mincore and kept: for one walk or
 * clear, or through a batch (a boundary's pass over every mapping: 40,000
 * one-page mappings made as many mincore calls per plane and pass).  A
 * lookup that misses asks for the pages up to the end its caller needs,
 * within one CHUNK (mincore's cost grows with the range), and in a batch
 * for LOOKAHEAD pages at least: the next mappings' planes come with it.
 * A batch's cache stays true: nothing maps plane pages in it, and a
 * clear drops only pages wholly inside one mapping's plane bytes, which
 * no other mapping of the pass looks at. */
#define LOOKAHEAD (64u << 12)
static void forget_residency(void)
{
	RT->planes.res[0].lo = RT->planes.res[0].hi = RT->planes.res[1].lo = RT->planes.res[1].hi = 0;
}

void rdb_planes_batch(int on)
{
	RT->planes.res_batch = on;
	forget_residency();
}

/* Marks in vec the pages of [pg, e) that mincore called absent but that
 * are swapped out: their bytes are in swap, not zero, and must be read
 * (reading faults them back in).  /proc/self/pagemap's bit 62 tells, and
 * only when the system has swap (sysinfo, asked once; without swap no
 * page is ever swapped out, and the boundary's pass pays nothing).  The
 * file is opened for each call: an fd kept open would go on naming the
 * opener's memory in a fork child.  Anything failing marks the pages
 * present, as a failing mincore does: read, never wrongly taken for zero. */
#define PM_SWAPPED (1ull << 62)
static void add_swapped(uintptr_t pg, uintptr_t e, unsigned char *vec)
{
	size_t n = (e - pg) >> 12, i, j;
	for (i = 0; i < n && (vec[i] & 1); i++)
		;
	if (i == n)
		return;
	if (!RT->planes.swap) {
		struct sysinfo si;
		RT->planes.swap = rdb_sys1(__NR_sysinfo, (long)&si) < 0 || si.totalswap ? 1 : -1;
	}
	if (RT->planes.swap < 0)
		return;
	long fd = rdb_sys4(__NR_openat, -100, (long)"/proc/self/pagemap", RDB_O_RDONLY | RDB_O_CLOEXEC, 0);
	for (; i < n; i += 512) {
		size_t k = n - i < 512 ? n - i : 512;
		long got = fd < 0 ? -1 : rdb_sys4(__NR_pread64, fd, (long)RT->planes.pm,
			(long)(k * 8), (long)(((pg >> 12) + i) * 8));
		for (j = 0; j < k; j++)
			if (got != (long)(k * 8) || (RT->planes.pm[j] & PM_SWAPPED))
				vec[i + j] |= 1;
	}
	if (fd >= 0)
		rdb_sys1(__NR_close, fd);
}

/* Whether the plane page pg is resident or swapped out; want: the end of
 * the plane bytes the caller will look at. */
static int page_in(uintptr_t pg, uintptr_t want)
{
	int w = pg < R_LO; /* (the S plane lies below) */
	unsigned char *vec = RT->planes.res[w].vec;
	if (pg < RT->planes.res[w].lo || pg >= RT->planes.res[w].hi) {
		uintptr_t hi = w ? S_HI : R_HI, e = (want + 0xfff) & ~0xfffull;
		if (RT->planes.res_batch && e < pg + LOOKAHEAD)
			e = pg + LOOKAHEAD;
		if (e > pg + CHUNK)
			e = pg + CHUNK;
		if (e > hi)
			e = hi;
		if (e <= pg)
			e = pg + 4096;
		if (rdb_sys3(__NR_mincore, pg, e - pg, vec) < 0) /* cannot tell: look */
			rdb_memset(vec, 1, (e - pg) >> 12);
		else
			add_swapped(pg, e, vec);
		RT->planes.res[w].lo = pg;
		RT->planes.res[w].hi = e;
	}
	return vec[(pg - RT->planes.res[w].lo) >> 12] & 1;
}

static int nonzero(uintptr_t lo, uintptr_t hi)
{
	for (; lo < hi && (lo & 7); lo++)
		if (*(const unsigned char *)lo)
			return 1;
	for (; lo + 8 <= hi; lo += 8)
		if (*(const uint64_t *)lo)
			return 1;
	for (; lo < hi; lo++)
		if (*(const unsigned char *)lo)
			return 1;
	return 0;
}

static void release(uintptr_t *run, uintptr_t end)
{
	if (*run && end > *run)
		rdb_sys3(__NR_madvise, *run, end - *run, RDB_MADV_DONTNEED);
	*run = 0;
}

/* Zeroes one plane's bytes [p, p + n).  A page the interval touched stays
 * resident, zeroed in place: the next interval most likely touches it
 * again, and MADV_DONTNEED would cost a fault and the kernel's zeroing
 * per page and boundary (thousands an interval: docs/perf.md).  A resident page
 * already zero goes back to the kernel, so memory the program stopped
 * using does not keep its planes. */
static void clear_plane(uintptr_t p, size_t n)
{
	uintptr_t end = p + n, run = 0;
	for (uintptr_t pg = p & ~0xfffull; pg < end; pg += 4096) {
		uintptr_t lo = pg < p ? p : pg, hi = pg + 4096 > end ? end : pg + 4096;
		int whole = lo == pg && hi == pg + 4096;
		if (!page_in(pg, end)) {
			/* never touched (page_in reads swapped pages) */
			if (whole && !run)
				run = pg;
			else if (!whole)
				release(&run, pg);
		} else if (nonzero(lo, hi)) {
			release(&run, pg);
			rdb_memset((void *)lo, 0, hi - lo);
		} else if (whole) {
			if (!run)
				run = pg;
		} else
			release(&run, pg);
	}
	release(&run, end & ~0xfffull);
}

void rdb_planes_clear_maps(int (*taken)(const struct rdb_tf_map *))
{
	RT->intervals.in_boundary = 1;
	rdb_planes_batch(1);
	for (size_t i = 0; i < RT->procmaps.nmaps; i++) {
		const struct rdb_tf_map *m = &RT->procmaps.maps[i];
		if (m->kind == RDB_TF_MAP_SPECIAL || (taken && taken(m)))
			continue;
		if (!(m->prot & 3)) { /* a reservation, maybe huge: the kernel skips its holes */
			rdb_shadow_clear(m->start, m->end - m->start);
			continue;
		}
		clear_plane(R_OF(m->start), m->end - m->start);
		int w = rdb_watch_open(m->start, m->end - m->start, RDB_WATCH_FORGET);
		clear_plane(rdb_s_of(m->start), m->end - m->start);
		rdb_watch_close(w);
	}
	rdb_planes_batch(0);
	RT->intervals.in_boundary = 0;
}

/* Plane pages a take (rdb_planes_take) leaves behind: one run per plane
 * of whole pages to give back (resident and zero all along: the interval
 * did not touch them, or never populated), and the page being looked at. */
struct keep {
	uintptr_t lo, hi;  /* this walk's plane bytes: only pages wholly inside go */
	uintptr_t pg, run; /* the current plane page (0: none), the run to release */
	int dirty;         /* a word of it was not zero */
};

/* The walk moves on to plane page pg (0: it ends). */
static void keep_next(struct keep *k, uintptr_t pg)
{
	if (k->pg == pg)
		return;
	if (k->pg) {
		int whole = k->pg >= k->lo && k->pg + 4096 <= k->hi;
		if (whole && !k->dirty) {
			if (!k->run)
				k->run = k->pg;
		} else
			release(&k->run, k->pg);
		if (k->run && k->pg + 4096 != pg)
			release(&k->run, k->pg + 4096);
	}
	k->pg = pg;
	k->dirty = 0;
}

static void zero_words(uintptr_t p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((uint64_t *)p)[i] = 0;
}

/* The walk, and with take the clear: each word reported is zeroed, and
 * plane pages wholly inside the range that held nothing go back to the
 * kernel, as clear_plane does.  A plane page not resident is read as
 * zero, not touched: reading it would map the zero page (a fault), and
 * the hook's next store there a second one.  Each step stays within one
 * data page and one page of either plane (the planes' skews differ). */
static void walk(uintptr_t lo, uintptr_t hi, rdb_word_fn *fn, void *ctx, int take)
{
	if (!RT->planes.res_batch)
		forget_residency();
	lo &= ~7ull;
	hi = (hi + 7) & ~7ull;
	struct keep kr = {R_OF(lo), R_OF(hi), 0, 0, 0}, ks = {rdb_s_of(lo), rdb_s_of(hi), 0, 0, 0};
	int w = take ? rdb_watch_open(lo, hi - lo, RDB_WATCH_FORGET) : 0;
	for (uintptr_t d = lo, de; d < hi; d = de) {
		uintptr_t rp = R_OF(d) & ~0xfffull, sp = rdb_s_of(d) & ~0xfffull;
		de = (d & ~0xfffull) + 4096;
		if (de > d + (rp + 4096 - R_OF(d)))
			de = d + (rp + 4096 - R_OF(d));
		if (de > d + (sp + 4096 - rdb_s_of(d)))
			de = d + (sp + 4096 - rdb_s_of(d));
		if (de > hi)
			de = hi;
		int rin = page_in(rp, R_OF(hi)), sin = page_in(sp, rdb_s_of(hi));
		if (take) {
			keep_next(&kr, rp);
			keep_next(&ks, sp);
		}
		if (!rin && !sin)
			continue;
		for (uintptr_t a = d, b; a < de; a = b) {
			uint64_t r = rin ? *(const uint64_t *)R_OF(a) : 0;
			uint64_t sw = sin ? *(const uint64_t *)rdb_s_of(a) : 0;
			for (b = a + 8; b < de && (!rin || *(const uint64_t *)R_OF(b) == r) &&
			                (!sin || *(const uint64_t *)rdb_s_of(b) == sw); b += 8)
				;
			if (!(r | sw))
				continue;
			fn(ctx, a, r, sw, (b - a) / 8);
			if (!take)
				continue;
			if (r) {
				zero_words(R_OF(a), (b - a) / 8);
				kr.dirty = 1;
			}
			if (sw) {
				zero_words(rdb_s_of(a), (b - a) / 8);
				ks.dirty = 1;
			}
		}
	}
	if (take) {
		keep_next(&kr, 0);
		keep_next(&ks, 0);
	}
	rdb_watch_close(w);
}

void rdb_planes_walk(uintptr_t lo, uintptr_t hi, rdb_word_fn *fn, void *ctx)
{
	walk(lo, hi, fn, ctx, 0);
}

void rdb_planes_take(uintptr_t lo, uintptr_t hi, rdb_word_fn *fn, void *ctx)
{
	walk(lo, hi, fn, ctx, 1);
}
