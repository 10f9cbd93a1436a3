/* checksum.c: the hashes record --checksum stores at every boundary (and
 * at the exit) and replay --verify recomputes (invariant 4).  "touched":
 * the values of the bytes the interval read or wrote (the planes say
 * which), stacks included, and the live stack whole, from %rsp to the top
 * of its stack, which replay from any interval must reproduce; "full":
 * every nonzero word of writable memory but the stacks, which only a
 * replay from the start can (see below).  Both include the registers.
 * Words are hashed with their addresses, maps in address order, so equal
 * memory gives equal hashes. */
#include "rt.h"

static uint64_t mix(uint64_t h, uint64_t a, uint64_t v)
{
	h ^= a * 0x9e3779b97f4a7c15ull;
	h = (h << 27 | h >> 37) * 0xbf58476d1ce4e5b9ull;
	h ^= v;
	return (h << 31 | h >> 33) * 0x94d049bb133111ebull;
}

/* RDB_DEBUG=1: every hashed word goes to /tmp/rdb-hash.M.N (M: 1 record,
 * 2 replay; N: the interval), so that `diff` names the bytes behind a
 * --verify failure; each line says which part: t (touched), s (the live
 * stack), f (full). */
static void dump(char which, uintptr_t a, uint64_t v)
{
	if (RT->checksum.hash_fd <= 0)
		return;
	char line[40];
	int n = 0;
	line[n++] = which;
	line[n++] = ' ';
	for (int sh = 44; sh >= 0; sh -= 4)
		line[n++] = "0123456789abcdef"[(a >> sh) & 15];
	line[n++] = ' ';
	for (int sh = 60; sh >= 0; sh -= 4)
		line[n++] = "0123456789abcdef"[(v >> sh) & 15];
	line[n++] = '\n';
	rdb_write_all(RT->checksum.hash_fd, line, (size_t)n);
}


/* The word at a overlaps a buffer another thread's read may be writing
 * (the kernel, at any moment of the boundary). */
static int unsettled(uintptr_t a)
{
	for (int i = 0; i < RT->checksum.nunsettled; i++)
		if (a + 8 > RT->checksum.unsettled[i][0] && a < RT->checksum.unsettled[i][1])
			return 1;
	return 0;
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
		if (RT->checksum.nunsettled && unsettled(a))
			continue;
		*h = mix(*h, a, *(const uint64_t *)a & mask);
		dump('t', a, *(const uint64_t *)a & mask);
	}
}

static uint64_t span(uint64_t h, uintptr_t lo, uintptr_t hi, char which)
{
	for (uintptr_t a = lo & ~7ull; a + 8 <= hi; a += 8) {
		if (RT->checksum.alt_skip && a >= RT->checksum.alt_lo && a < RT->checksum.alt_hi)
			continue;
		if (which == 'f' && rdb_ran_holds(a))
			continue;
		if (RT->checksum.nunsettled && unsettled(a))
			continue;
		uint64_t v = *(const uint64_t *)a;
		if (v)
			h = mix(h, a, v);
		if (v && RT->checksum.hash_fd > 0)
			dump(which, a, v);
	}
	return h;
}

/* Nonzero words of the resident pages of [lo, hi): a page never touched
 * reads as zero, resident or not. */
static uint64_t resident(uint64_t h, uintptr_t lo, uintptr_t hi)
{
	unsigned char *vec = RT->checksum.mincore_r;
	const size_t chunk = (sizeof RT->checksum.mincore_r - 2) * 4096;
	for (uintptr_t c = lo; c < hi; c += chunk) {
		uintptr_t e = hi - c > chunk ? c + chunk : hi;
		if (rdb_sys3(__NR_mincore, c, e - c, vec) < 0)
			rdb_memset(vec, 1, (e - c + 4095) >> 12);
		for (uintptr_t d = c; d < e; d += 4096)
			if (vec[(d - c) >> 12] & 1)
				h = span(h, d, d + 4096 < e ? d + 4096 : e, 'f');
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

/* The live stack: from %rsp to the top of the main stack or of the
 * program's alternate stack when %rsp is there (0 if it is elsewhere: a
 * coroutine's stack in the heap, hashed through the planes as the rest of
 * its mapping).  From K it is exact too: the STACK records restored the
 * main and the alternate stack whole, from below the interval's %rsp. */
static void live_stack(const uint64_t *g, const struct rdb_tf_map *m, size_t n,
                       uintptr_t *lo, uintptr_t *hi)
{
	uintptr_t sp = g[REG_RSP];
	*lo = *hi = 0;
	if (sp >= RT->checksum.alt_lo && sp < RT->checksum.alt_hi) {
		*lo = sp & ~7ull;
		*hi = RT->checksum.alt_hi;
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (m[i].kind == RDB_TF_MAP_STACK && sp >= m[i].start && sp < m[i].end) {
			*lo = sp & ~7ull;
			*hi = m[i].end;
		}
}

/* Threads' stacks, as the main one, are out of the full hash: below a
 * thread's %rsp lie what the hooks' helpers left, which a replay without
 * hooks does not write, and an ended thread's stack stays mapped until
 * its joiner unmaps it, with no %rsp to bound it (progs/thnest.c and
 * thslow.c diverged there).  Noted at each clone, record and replay at
 * the same position; the table grows with the threads whose stacks are
 * still mapped. */
void rdb_checksum_thread_stack(uint64_t top)
{
	if (!RT->chan.checksum && !RT->chan.verify)
		return;
	uint64_t k = RT->checksum.nstack_tops;
	if (!rdb_grow(RDB_G_STACKS, (k + 1) * sizeof *RT->checksum.stack_tops)) {
		if (!RT->checksum.stack_tops_lost++)
			rdb_printf("rdb: %lu threads' stacks are mapped: the others are in the full "
			           "hash (replay --verify-full may differ in them)\n", (unsigned long)k);
		return;
	}
	RT->checksum.stack_tops[k] = top;
	RT->checksum.nstack_tops = k + 1;
}

/* The stacks whose mapping is gone leave the table. */
static void prune_stack_tops(const struct rdb_tf_map *m, size_t n)
{
	uint64_t *t = RT->checksum.stack_tops, kept = 0;
	for (uint64_t i = 0; i < RT->checksum.nstack_tops; i++)
		if (rdb_map_find(m, n, t[i] - 1))
			t[kept++] = t[i];
	RT->checksum.nstack_tops = kept;
}

/* Of mapping m, the end of the thread stacks at its start (m->start if
 * none): up to the highest top in it (rdb_clone_stack_end, as
 * interval.c's own_top). */
static uint64_t stacks_end(const struct rdb_tf_map *m)
{
	uint64_t hi = m->start;
	for (uint64_t i = 0; i < RT->checksum.nstack_tops; i++) {
		uint64_t top = RT->checksum.stack_tops[i];
		if (top > m->start && top <= m->end) {
			top = rdb_clone_stack_end(top);
			hi = top > hi ? top : hi;
		}
	}
	return hi < m->end ? hi : m->end;
}

void rdb_checksum(const uint64_t *g, const struct rdb_tf_map *m, size_t n,
                  uint64_t *touched, uint64_t *full)
{
	if (RT->start.debug) {
		char name[64];
		rdb_snprintf(name, sizeof name, "/tmp/rdb-hash.%d.%lu",
		             RT->mode == RDB_TF_MODE_REPLAY ? 2 : 1, (unsigned long)RT->interval);
		RT->checksum.hash_fd = (int)rdb_sys4(__NR_openat, -100, name, 01101 /* O_WRONLY|O_CREAT|O_TRUNC */, 0644);
	}
	rdb_altstack(&RT->checksum.alt_lo, &RT->checksum.alt_hi);
	RT->checksum.nunsettled = rdb_sched_unsettled(RT->checksum.unsettled);
	uint64_t ht = regs(0x7264622d68617368ull, g), hf = ht;
	uintptr_t slo, shi;
	live_stack(g, m, n, &slo, &shi);
	RT->checksum.alt_skip = 0;
	if (shi > slo)
		ht = mix(span(ht, slo, shi, 's'), slo, shi);
	prune_stack_tops(m, n);
	rdb_planes_batch(1); /* (the walks below share mincore's answers) */
	for (size_t i = 0; i < n; i++) {
		if (m[i].kind == RDB_TF_MAP_SPECIAL || !(m[i].prot & 1))
			continue;
		/* Shared memory that fork children may write: whatever they made
		 * of it at this instant (its changes are SHARED records). */
		if (m[i].kind == RDB_TF_MAP_SHARED_EXT)
			continue;
		rdb_planes_walk(m[i].start, m[i].end, touched_word, &ht);
		/* The full hash leaves the stacks out (the main one, the
		 * mapping holding %rsp, the program's alternate stack, the
		 * threads' stacks: rdb_checksum_thread_stack): it is
		 * also --verify-full's, whose replay runs without the hooks, and
		 * a wide access's hook calls a helper (trace.rules), so the dead
		 * stack below %rsp, which a frame's uninitialized slots show
		 * later, holds other return addresses there. */
		if (m[i].kind == RDB_TF_MAP_STACK ||
		    (g[REG_RSP] >= m[i].start && g[REG_RSP] < m[i].end))
			continue;
		RT->checksum.alt_skip = 1;
		if (m[i].prot & 2)
			hf = resident(hf, stacks_end(&m[i]), m[i].end);
		RT->checksum.alt_skip = 0;
	}
	rdb_planes_batch(0);
	if (RT->checksum.hash_fd > 0)
		rdb_sys1(__NR_close, RT->checksum.hash_fd);
	RT->checksum.hash_fd = 0;
	RT->checksum.nunsettled = 0;
	*touched = ht;
	*full = hf;
}
