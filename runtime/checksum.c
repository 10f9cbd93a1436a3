/* checksum.c: the hashes record --checksum stores at every boundary and
 * replay --verify recomputes (invariant 4).  "touched": the values of the
 * bytes the interval read or wrote (the planes say which), which replay
 * from any interval must reproduce; "full": every nonzero word of writable
 * memory, which only a replay from the start can.  Both include the stack
 * from %rsp up and the registers.  Words are hashed with their addresses,
 * maps in address order, so equal memory gives equal hashes. */
#include "rt.h"

static uint64_t mix(uint64_t h, uint64_t a, uint64_t v)
{
	h ^= a * 0x9e3779b97f4a7c15ull;
	h = (h << 27 | h >> 37) * 0xbf58476d1ce4e5b9ull;
	h ^= v;
	return (h << 31 | h >> 33) * 0x94d049bb133111ebull;
}

static void touched_word(void *ctx, uintptr_t a, uint64_t r, uint64_t s)
{
	uint64_t x = r | s;
	x |= x >> 4;
	x |= x >> 2;
	x |= x >> 1;
	uint64_t mask = (x & 0x0101010101010101ull) * 0xff;
	uint64_t *h = ctx;
	*h = mix(*h, a, *(const uint64_t *)a & mask);
}

static uint64_t span(uint64_t h, uintptr_t lo, uintptr_t hi)
{
	for (uintptr_t a = lo & ~7ull; a + 8 <= hi; a += 8) {
		uint64_t v = *(const uint64_t *)a;
		if (v)
			h = mix(h, a, v);
	}
	return h;
}

/* Nonzero words of the resident pages of [lo, hi): a page never touched
 * reads as zero, resident or not. */
static uint64_t resident(uint64_t h, uintptr_t lo, uintptr_t hi)
{
	unsigned char *vec = RT->mincore_r;
	const size_t chunk = (sizeof RT->mincore_r - 2) * 4096;
	for (uintptr_t c = lo; c < hi; c += chunk) {
		uintptr_t e = hi - c > chunk ? c + chunk : hi;
		if (rdb_sys3(__NR_mincore, c, e - c, vec) < 0)
			rdb_memset(vec, 1, (e - c + 4095) >> 12);
		for (uintptr_t d = c; d < e; d += 4096)
			if (vec[(d - c) >> 12] & 1)
				h = span(h, d, d + 4096 < e ? d + 4096 : e);
	}
	return h;
}

static uint64_t regs(uint64_t h, const uint64_t *g)
{
	static const int which[] = {REG_R8, REG_R9, REG_R10, REG_R11, REG_R13, REG_R14,
	                            REG_RDI, REG_RSI, REG_RBP, REG_RBX, REG_RDX, REG_RAX,
	                            REG_RCX, REG_RSP, REG_RIP};
	for (size_t i = 0; i < sizeof which / sizeof which[0]; i++)
		h = mix(h, (uint64_t)which[i], g[which[i]]);
	return mix(h, REG_EFL, g[REG_EFL] & RDB_EFLAGS_STATUS);
}

void rdb_checksum(const uint64_t *g, const struct rdb_tf_map *m, size_t n,
                  uint64_t *touched, uint64_t *full)
{
	uint64_t ht = regs(0x7264622d68617368ull, g), hf = ht;
	uintptr_t sp = g[REG_RSP];
	for (size_t i = 0; i < n; i++) {
		if (m[i].kind == RDB_TF_MAP_SPECIAL || !(m[i].prot & 1))
			continue;
		uintptr_t lo = m[i].start, hi = m[i].end;
		int has_sp = sp >= lo && sp < hi;
		if (has_sp) /* below %rsp: dead, and the runtime's frames differ */
			lo = sp & ~7ull;
		else
			rdb_planes_walk(lo, hi, touched_word, &ht);
		if (has_sp)
			ht = span(ht, lo, hi);
		if ((m[i].prot & 2) || has_sp)
			hf = has_sp ? span(hf, lo, hi) : resident(hf, lo, hi);
	}
	*touched = ht;
	*full = hf;
}
