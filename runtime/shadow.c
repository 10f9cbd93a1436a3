/* shadow.c: the monitoring machine's transitions over byte ranges, for
 * the runtime's callers (string instructions, syscall writes, unmaps) and
 * the query API.  The hooks in rules/trace.rules do the same per access:
 * read: R = 0x03; write: S = 0x03 (W|X); syscall write: S |= W|X|K
 * (docs/hooks.md). */
#include "rt.h"

#define R_OF(a) ((unsigned char *)((a) - RDB_R_OFFSET))
#define S_OF(a) ((unsigned char *)rdb_s_of(a))

/* Clips [*a, *a + *n) to the covered range; 0 if nothing is left. */
static int clip(uintptr_t *a, size_t *n)
{
	uintptr_t lo = *a, hi = *a + *n;
	if (hi < lo)
		hi = ~(uintptr_t)0;
	if (lo < RDB_COVER_LO)
		lo = RDB_COVER_LO;
	if (hi > RDB_COVER_HI)
		hi = RDB_COVER_HI;
	if (lo >= hi)
		return 0;
	*a = lo;
	*n = hi - lo;
	return 1;
}

void rdb_shadow_read(uintptr_t a, size_t n)
{
	if (clip(&a, &n))
		rdb_memset(R_OF(a), RDB_R_READ, n);
}

/* S |= W|X|extra: written (the hooks store W|X; K stays with it). */
static void fold(uintptr_t a, size_t n, uint64_t extra)
{
	if (!clip(&a, &n))
		return;
	int w = rdb_watch_open(a, n, extra ? RDB_WATCH_SYSCALL : RDB_WATCH_RUNTIME);
	unsigned char *s = S_OF(a);
	uint64_t v = (RDB_S_W | RDB_S_X | extra) * 0x0101010101010101ull;
	size_t i = 0;
	for (; i < n && ((uintptr_t)(s + i) & 7); i++)
		s[i] |= (unsigned char)v;
	for (; i + 8 <= n; i += 8)
		*(uint64_t *)(s + i) |= v;
	for (; i < n; i++)
		s[i] |= (unsigned char)v;
	rdb_watch_close(w);
}

void rdb_shadow_write(uintptr_t a, size_t n) { fold(a, n, 0); }

void rdb_shadow_syswrite(uintptr_t a, size_t n) { fold(a, n, RDB_S_K); }

/* Whole shadow pages go back to the kernel (they read as zero again);
 * the partial pages at either end are zeroed by hand. */
static void clear_plane(unsigned char *p, size_t n)
{
	uintptr_t lo = ((uintptr_t)p + 0xfff) & ~0xfffull;
	uintptr_t hi = ((uintptr_t)p + n) & ~0xfffull;
	if (lo >= hi) {
		rdb_memset(p, 0, n);
		return;
	}
	rdb_memset(p, 0, lo - (uintptr_t)p);
	rdb_sys3(__NR_madvise, lo, hi - lo, RDB_MADV_DONTNEED);
	rdb_memset((void *)hi, 0, (uintptr_t)p + n - hi);
}

void rdb_shadow_clear(uintptr_t a, size_t n)
{
	if (!clip(&a, &n))
		return;
	rdb_interval_forget(a, n);
	clear_plane(R_OF(a), n);
	int w = rdb_watch_open(a, n, RDB_WATCH_FORGET);
	clear_plane(S_OF(a), n);
	rdb_watch_close(w);
}

unsigned rdb_shadow_r(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	return rdb_covered(a, 1) && a < RDB_COVER_HI ? *R_OF(a) : 0;
}

unsigned rdb_shadow_s(const void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	return rdb_covered(a, 1) && a < RDB_COVER_HI ? *S_OF(a) : 0;
}
