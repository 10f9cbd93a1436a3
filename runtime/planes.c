/* planes.c: a walk over the shadow words of a memory range that skips
 * plane pages the kernel never populated (mincore), so the boundary's
 * scan costs what the interval touched, not the size of the mappings. */
#include "rt.h"

#define CHUNK (4u << 20) /* data bytes per mincore call */
#define R_OF(a) ((a) - RDB_R_OFFSET)

static void residency(uintptr_t plane_lo, size_t n, unsigned char *vec)
{
	uintptr_t p = plane_lo & ~0xfffull;
	size_t len = ((plane_lo + n + 0xfff) & ~0xfffull) - p;
	long r = rdb_sys3(__NR_mincore, p, len, vec);
	if (r < 0) /* cannot tell: look at everything */
		rdb_memset(vec, 1, len >> 12);
}

/* Whether a plane page under [d, d + 4096) is resident: the range spans
 * at most two plane pages (the offsets are not page multiples). */
static int any(const unsigned char *vec, uintptr_t plane_lo, uintptr_t plane_d)
{
	size_t i = ((plane_d & ~0xfffull) - (plane_lo & ~0xfffull)) >> 12;
	return (vec[i] | vec[i + 1]) & 1;
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
 * per page and boundary (mesh: 6,500 faults an interval).  A resident page
 * already zero goes back to the kernel, so memory the program stopped
 * using does not keep its planes. */
static void clear_plane(uintptr_t p, size_t n)
{
	uintptr_t end = p + n;
	unsigned char *vec = RT->mincore_r;
	/* chunks end on page boundaries: no page is partial in two of them */
	for (uintptr_t c = p, next; c < end; c = next) {
		next = (c & ~0xfffull) + CHUNK;
		uintptr_t e = next < end ? next : end, base = c & ~0xfffull, run = 0;
		residency(c, e - c, vec);
		for (uintptr_t pg = base; pg < e; pg += 4096) {
			uintptr_t lo = pg < c ? c : pg, hi = pg + 4096 > e ? e : pg + 4096;
			int whole = lo == pg && hi == pg + 4096;
			if (!(vec[(pg - base) >> 12] & 1)) {
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
		release(&run, e & ~0xfffull);
	}
}

void rdb_planes_clear_maps(void)
{
	RT->in_boundary = 1;
	for (size_t i = 0; i < RT->nmaps; i++) {
		const struct rdb_tf_map *m = &RT->maps[i];
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
	RT->in_boundary = 0;
}

void rdb_planes_walk(uintptr_t lo, uintptr_t hi, rdb_word_fn *fn, void *ctx)
{
	static const size_t nvec = CHUNK / 4096 + 2;
	unsigned char *vr = RT->mincore_r, *vs = RT->mincore_s;
	lo &= ~7ull;
	hi = (hi + 7) & ~7ull;
	for (uintptr_t c = lo; c < hi; c += CHUNK) {
		uintptr_t e = hi - c > CHUNK ? c + CHUNK : hi;
		rdb_memset(vr, 0, nvec);
		rdb_memset(vs, 0, nvec);
		residency(R_OF(c), e - c, vr);
		residency(rdb_s_of(c), e - c, vs);
		for (uintptr_t d = c; d < e; d += 4096) {
			if (!any(vr, R_OF(c), R_OF(d)) && !any(vs, rdb_s_of(c), rdb_s_of(d)))
				continue;
			uintptr_t de = e - d > 4096 ? d + 4096 : e;
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
}
