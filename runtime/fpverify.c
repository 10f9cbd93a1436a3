/* fpverify.c: replay --verify's comparison of the FPU and vector state at
 * a boundary: the kernel's xsave image of the replay's fault against the
 * recorded one (CONTEXT).  Compared: the x87 control, status and tag
 * words, %st(0)-%st(7) (their 80 bits), MXCSR, %xmm0-15, and the xsave
 * components the processor has: the upper halves of %ymm0-15, %k0-7, the
 * upper halves of %zmm0-15 and %zmm16-31, and which components are in
 * use (XSTATE_BV but x87 and SSE).  A component in its initial state
 * (XSTATE_BV clear) reads as zeros: the bytes of the image are then
 * stale.  Left out: the last x87 instruction's opcode and its code and
 * data addresses, which a processor may leave unsaved (AMD's FXSAVE, when
 * no x87 exception is pending), so they would differ without a cause. */
#include "rt.h"

struct piece {
	uint8_t comp;   /* 0: legacy area, else the xsave component */
	uint8_t n;      /* registers */
	uint16_t off;   /* legacy: offset of the first; component: 0 */
	uint8_t size;   /* bytes compared of each */
	uint8_t stride; /* bytes from one to the next */
	uint8_t first;  /* number of the first register */
	char name[28];  /* printf format of one register's name */
};

static const struct piece pieces[] = {
	{0, 1, 0, 2, 2, 0, "the x87 control word"},
	{0, 1, 2, 2, 2, 0, "the x87 status word"},
	{0, 1, 4, 1, 1, 0, "the x87 tag word"},
	{0, 1, 24, 4, 4, 0, "MXCSR"},
	{0, 8, 32, 10, 16, 0, "%%st(%d)"},
	{0, 16, 160, 16, 16, 0, "%%xmm%d"},
	{2, 16, 0, 16, 16, 0, "the upper half of %%ymm%d"},
	{5, 8, 0, 8, 8, 0, "%%k%d"},
	{6, 16, 0, 32, 32, 0, "the upper half of %%zmm%d"},
	{7, 16, 0, 64, 64, 16, "%%zmm%d"},
};

/* The image's component bitmap, or 0 for a bare fxsave image. */
static uint64_t xstate_bv(const uint8_t *fp, uint32_t size)
{
	uint64_t bv = 0;
	if (size >= 576)
		rdb_memcpy(&bv, fp + 512, 8);
	return bv;
}

/* Register i of piece p in the image, or 0 when it is in its initial
 * state (zeros). */
static const uint8_t *reg_at(const struct piece *p, int i, const uint8_t *fp, uint32_t size)
{
	if (!p->comp)
		return fp + p->off + i * p->stride;
	uint32_t off = RT->signal.xs_off[p->comp] + (uint32_t)i * p->stride;
	if (!(xstate_bv(fp, size) & (1ull << p->comp)) || RT->signal.xs_off[p->comp] < 576 ||
	    off + p->size > size)
		return 0;
	return fp + off;
}

/* 0 if the images a (replay) and b (recording) agree; else 1 and the first
 * register that differs named in what. */
int rdb_fp_diff(const uint8_t *a, uint32_t na, const uint8_t *b, uint32_t nb, char *what,
                size_t cap)
{
	static const uint8_t zeros[64];
	rdb_xstate_layout();
	for (size_t k = 0; k < sizeof pieces / sizeof pieces[0]; k++) {
		const struct piece *p = &pieces[k];
		if (p->comp && !RT->signal.xs_size[p->comp])
			continue; /* the processor has no such registers */
		for (int i = 0; i < p->n; i++) {
			const uint8_t *x = reg_at(p, i, a, na), *y = reg_at(p, i, b, nb);
			if (!rdb_memcmp(x ? x : zeros, y ? y : zeros, p->size))
				continue;
			rdb_snprintf(what, cap, p->name, p->first + i);
			return 1;
		}
	}
	/* Which components are in use: a handler's frame shows it (in its
	 * XSTATE_BV), also with zeros in them; x87 and SSE the kernel marks
	 * in use in every image. */
	if ((xstate_bv(a, na) ^ xstate_bv(b, nb)) & ~3ull) {
		rdb_snprintf(what, cap, "the xsave in-use bitmap (XSTATE_BV)");
		return 1;
	}
	return 0;
}
