/* planes.c: a walk over the shadow words of a memory range that skips
 * plane pages the kernel never populated (mincore), so the boundary's
 * scan costs what the interval touched, not the size of the mappings. */
#include "rt.h"

#define CHUNK (4u << 20) /* data bytes per mincore call */
#define R_OF(a) ((a) - RDB_R_OFFSET)

/* The planes' mapped bounds (start.c maps them whole). */
#define R_LO ((RDB_COVER_LO - RDB_R_OFFSET) & ~0xfffull)
#define R_HI ((RDB_COVER_HI - RDB_R_OFFSET + 0xfff) & ~0xfffull)
#define S_LO ((RDB_COVER_LO - RDB_S_OFFSET) & ~0xfffull)
#define S_HI ((RDB_COVER_HI - RDB_S_OFFSET + 0xfff) & ~0xfffull)
_Static_assert(R_HI <= S_LO, "the R plane lies below the S plane");

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

/* Whether the plane page pg is resident; want: the end of the plane
 * bytes the caller will look at. */
static int page_in(uintptr_t pg, uintptr_t want)
{
	int w = pg >= S_LO;
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
		RT->planes.res[w].lo = pg;
		RT->planes.res[w].hi = e;
	}
	return vec[(pg - RT->planes.res[w].lo) >> 12] & 1;
}

/* Whether a plane page under plane bytes [a, b] is resident (want: as
 * page_in's). */
static int any_in(uintptr_t a, uintptr_t b, uintptr_t want)
{
	return page_in(a & ~0xfffull, want) || page_in(b & ~0xfffull, want);
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
			/* never touched, or swapped out (mincore cannot tell):
			 * MADV_DONTNEED drops a swapped page's bytes too */
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

void rdb_planes_clear_maps(void)
{
	RT->intervals.in_boundary = 1;
	rdb_planes_batch(1);
	for (size_t i = 0; i < RT->procmaps.nmaps; i++) {
		const struct rdb_tf_map *m = &RT->procmaps.maps[i];
		if (m->kind == RDB_TF_MAP_SPECIAL)
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

void rdb_planes_walk(uintptr_t lo, uintptr_t hi, rdb_word_fn *fn, void *ctx)
{
	if (!RT->planes.res_batch)
		forget_residency();
	lo &= ~7ull;
	hi = (hi + 7) & ~7ull;
	for (uintptr_t d = lo, de; d < hi; d = de) {
		de = (d & ~0xfffull) + 4096 < hi ? (d & ~0xfffull) + 4096 : hi;
		if (!any_in(R_OF(d), R_OF(de - 1), R_OF(hi)) &&
		    !any_in(rdb_s_of(d), rdb_s_of(de - 1), rdb_s_of(hi)))
			continue;
		for (uintptr_t a = d, b; a < de; a = b) {
			uint64_t r = *(const uint64_t *)R_OF(a), s = *(const uint64_t *)rdb_s_of(a);
			for (b = a + 8; b < de && *(const uint64_t *)R_OF(b) == r &&
			                *(const uint64_t *)rdb_s_of(b) == s; b += 8)
				;
			if (r | s)
				fn(ctx, a, r, s, (b - a) / 8);
		}
	}
}
