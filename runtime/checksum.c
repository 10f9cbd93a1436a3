/* checksum.c: the hashes record --checksum stores at every boundary and
 * replay --verify recomputes (invariant 4).  "touched": the values of the
 * bytes the interval read or wrote (the planes say which), which replay
 * from any interval must reproduce; "full": every nonzero word of writable
 * memory, which only a replay from the start can.  Both leave out the
 * stacks (see below) and include the registers.  Words are hashed with their addresses,
 * maps in address order, so equal memory gives equal hashes. */
#include "rt.h"

static uint64_t mix(uint64_t h, uint64_t a, uint64_t v)
{
	h ^= a * 0x9e3779b97f4a7c15ull;
	h = (h << 27 | h >> 37) * 0xbf58476d1ce4e5b9ull;
	h ^= v;
	return (h << 31 | h >> 33) * 0x94d049bb133111ebull;
}

/* RDB_DEBUG=1: every hashed word goes to /tmp/rdb-hash.PID.N (record and
 * replay), so that `diff` names the bytes behind a --verify failure. */
static void dump(uintptr_t a, uint64_t v)
{
	if (RT->hash_fd <= 0)
		return;
	char line[40];
	int n = 0;
	for (int sh = 44; sh >= 0; sh -= 4)
		line[n++] = "0123456789abcdef"[(a >> sh) & 15];
	line[n++] = ' ';
	for (int sh = 60; sh >= 0; sh -= 4)
		line[n++] = "0123456789abcdef"[(v >> sh) & 15];
	line[n++] = '\n';
	rdb_write_all(RT->hash_fd, line, (size_t)n);
}


static void touched_word(void *ctx, uintptr_t a, uint64_t r, uint64_t s, size_t n)
{
	uint64_t x = r | s;
	x |= x >> 4;
	x |= x >> 2;
	x |= x >> 1;
	uint64_t mask = (x & 0x0101010101010101ull) * 0xff;
	uint64_t *h = ctx;
	for (; n; n--, a += 8) {
		if (a >= RT->alt_lo && a < RT->alt_hi)
			continue;
		*h = mix(*h, a, *(const uint64_t *)a & mask);
		dump(a, *(const uint64_t *)a & mask);
	}
}

static uint64_t span(uint64_t h, uintptr_t lo, uintptr_t hi)
{
	for (uintptr_t a = lo & ~7ull; a + 8 <= hi; a += 8) {
		if (a >= RT->alt_lo && a < RT->alt_hi)
			continue;
		uint64_t v = *(const uint64_t *)a;
		if (v)
			h = mix(h, a, v);
		if (v && RT->hash_fd > 0)
			dump(a, v);
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
	return mix(h, REG_EFL, g[REG_EFL] & rdb_live_flags(g[REG_RIP]));
}

void rdb_checksum(const uint64_t *g, const struct rdb_tf_map *m, size_t n,
                  uint64_t *touched, uint64_t *full)
{
	if (RT->debug) {
		char name[64];
		rdb_snprintf(name, sizeof name, "/tmp/rdb-hash.%d.%lu",
		             RT->mode == RDB_TF_MODE_REPLAY ? 2 : 1, (unsigned long)RT->interval);
		RT->hash_fd = (int)rdb_sys4(__NR_openat, -100, name, 01101 /* O_WRONLY|O_CREAT|O_TRUNC */, 0644);
	}
	/* The program's alternate signal stack is a stack too: its handlers'
	 * frames, left out like the main stack's. */
	rdb_altstack(&RT->alt_lo, &RT->alt_hi);
	uint64_t ht = regs(0x7264622d68617368ull, g), hf = ht;
	rdb_planes_batch(1); /* (the walks below share mincore's answers) */
	for (size_t i = 0; i < n; i++) {
		if (m[i].kind == RDB_TF_MAP_SPECIAL || !(m[i].prot & 1))
			continue;
		/* Shared memory that fork children may write: whatever they made
		 * of it at this instant (its changes are SHARED records). */
		if (m[i].kind == RDB_TF_MAP_SHARED_EXT)
			continue;
		/* Stacks are left out: a frame's uninitialized slots hold what
		 * earlier frames left there (the registers are compared
		 * instead). */
		if (m[i].kind == RDB_TF_MAP_STACK ||
		    (g[REG_RSP] >= m[i].start && g[REG_RSP] < m[i].end))
			continue;
		rdb_planes_walk(m[i].start, m[i].end, touched_word, &ht);
		if (m[i].prot & 2)
			hf = resident(hf, m[i].start, m[i].end);
	}
	rdb_planes_batch(0);
	if (RT->hash_fd > 0)
		rdb_sys1(__NR_close, RT->hash_fd);
	RT->hash_fd = 0;
	*touched = ht;
	*full = hf;
}
