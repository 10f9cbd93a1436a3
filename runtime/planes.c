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

void rdb_planes_clear_maps(void)
{
	RT->in_boundary = 1; /* the boundary's scan already has these reads */
	for (size_t i = 0; i < RT->nmaps; i++)
		if (RT->maps[i].kind != RDB_TF_MAP_SPECIAL)
			rdb_shadow_clear(RT->maps[i].start, RT->maps[i].end - RT->maps[i].start);
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
			for (uintptr_t a = d; a < de; a += 8) {
				uint64_t r = *(const uint64_t *)R_OF(a), s = *(const uint64_t *)rdb_s_of(a);
				if (r | s)
					fn(ctx, a, r, s);
			}
		}
	}
}
