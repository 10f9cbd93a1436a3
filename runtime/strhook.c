/* strhook.c: the shadow side of string instructions, called from the
 * helpers in hooks.S just before the instruction runs.  It marks the bytes
 * the instruction will read (R) and then folds its writes into S, so a
 * byte both read and written (overlapping movs) counts as read first: the
 * safe side for tracing.  repe/repne cmps/scas stop early: the helper
 * finds where by running the comparison itself over the same bytes, so a
 * strlen-style `repne scasb` with %rcx = -1 marks only what it reads. */
#include "rt.h"

enum str_kind { MOVS, STOS, LODS, CMPS, SCAS }; /* hooks.S STR_SIZES */

struct rdb_strregs { /* the frame rdb_str_common builds */
	uint64_t r11, r10, r9, r8, rdi, rsi, rdx, rcx, rax, rflags, ret;
};

__attribute__((visibility("hidden"))) void rdb_str_hook(unsigned op, struct rdb_strregs *r);

static uint64_t load(uintptr_t p, unsigned size)
{
	switch (size) {
	case 1: return *(const volatile uint8_t *)p;
	case 2: return *(const volatile uint16_t *)p;
	case 4: return *(const volatile uint32_t *)p;
	default: return *(const volatile uint64_t *)p;
	}
}

/* 1 for repne, 0 for rep/repe, from the prefixes of the instruction that
 * follows the call (the string rules are final: nothing comes between). */
static int is_repne(const unsigned char *p)
{
	int ne = 0;
	for (int k = 0; k < 15; k++, p++) {
		unsigned c = *p;
		if (c == 0xf2 || c == 0xf3)
			ne = c == 0xf2;
		else if (c == 0x66 || c == 0x67 || c == 0x2e || c == 0x3e || c == 0x26 ||
		         c == 0x36 || c == 0x64 || c == 0x65 || (c & 0xf0) == 0x40)
			continue;
		else if (c == 0xa6 || c == 0xa7 || c == 0xae || c == 0xaf)
			return ne;
		else
			break;
	}
	rdb_die("rep cmps/scas helper called at %p, not before a cmps/scas\n",
	        (const void *)(p - 1));
}

/* The number of iterations a repe/repne cmps/scas will run. */
static uint64_t scan_count(enum str_kind kind, unsigned size, uint64_t n,
                           const struct rdb_strregs *r, int down)
{
	int ne = is_repne((const unsigned char *)r->ret);
	uint64_t mask = size == 8 ? ~0ull : (1ull << (size * 8)) - 1;
	uintptr_t si = r->rsi, di = r->rdi;
	intptr_t step = down ? -(intptr_t)size : (intptr_t)size;
	uint64_t i = 0;
	while (i < n) {
		i++;
		uint64_t a = kind == SCAS ? r->rax & mask : load(si, size);
		int eq = a == load(di, size);
		if (ne ? eq : !eq)
			break;
		si += (uintptr_t)step;
		di += (uintptr_t)step;
	}
	return i;
}

/* [lo, lo + len) covered by n elements of size from p. */
static void span(uintptr_t p, uint64_t n, unsigned size, int down,
                 uintptr_t *lo, size_t *len)
{
	uint64_t max = (RDB_COVER_HI - RDB_COVER_LO) / size;
	if (n > max)
		n = max; /* the instruction faults long before */
	*len = (size_t)(n * size);
	*lo = down ? p - (uintptr_t)((n - 1) * size) : p;
}

void rdb_str_hook(unsigned op, struct rdb_strregs *r)
{
	enum str_kind kind = (enum str_kind)(op & 7);
	unsigned size = (op >> 3) & 15;
	int rep = (op >> 7) & 1;
	int down = (r->rflags >> 10) & 1; /* DF */
	uint64_t n = rep ? r->rcx : 1;
	if (n == 0)
		return;
	if (rep && (kind == CMPS || kind == SCAS))
		n = scan_count(kind, size, n, r, down);
	uintptr_t lo;
	size_t len;
	if (kind == MOVS || kind == LODS || kind == CMPS) {
		span(r->rsi, n, size, down, &lo, &len);
		rdb_shadow_read(lo, len);
	}
	span(r->rdi, n, size, down, &lo, &len);
	if (kind == CMPS || kind == SCAS)
		rdb_shadow_read(lo, len);
	else if (kind == MOVS || kind == STOS) {
		RT->watch.str_pc = r->ret; /* watch.c: the writer is the instruction */
		rdb_shadow_write(lo, len);
		RT->watch.str_pc = 0;
	}
}
