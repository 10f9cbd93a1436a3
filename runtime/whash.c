/* whash.c: the bytes a write-like call hands the kernel (syscalls.spec
 * SENDS: write, pwrite64, writev, pwritev, pwritev2, sendto, sendmsg,
 * sendmmsg: the first `ret` bytes it took; msgsnd, mq_timedsend: the
 * message), hashed.  With record --checksum each such TRAP carries
 * the hash (flag WHASH) and replay --verify, which does not run those
 * calls (but for writes to stdout and stderr), hashes what the program
 * asks to write and compares: files, pipes and sockets are checked too.
 * The kernel's reads of those bytes count as the program's (the planes
 * mark them), so a replay from a later interval has their values. */
#include "rt.h"

typedef void each_fn(void *ctx, uintptr_t a, size_t n);

/* The first `left` bytes of iovec array iov (cnt entries); iov itself is
 * passed to fn too when arr.  Returns what is left. */
static long iovecs(uintptr_t iov, long cnt, long left, int arr, each_fn *fn, void *ctx)
{
	if (cnt < 0 || cnt > 1024 || !rdb_covered(iov, (size_t)cnt * 16))
		return left;
	if (arr)
		fn(ctx, iov, (size_t)cnt * 16);
	const uint64_t *v = (const uint64_t *)iov;
	for (long i = 0; i < cnt && left > 0; i++) {
		size_t n = v[2 * i + 1] < (uint64_t)left ? v[2 * i + 1] : (size_t)left;
		if (n && rdb_covered(v[2 * i], n))
			fn(ctx, v[2 * i], n);
		left -= (long)n;
	}
	return left;
}

/* A msghdr's payload: its iovecs (the header is read by the kernel too). */
static void msghdr(uintptr_t m, long len, int arr, each_fn *fn, void *ctx)
{
	if (!rdb_covered(m, 56))
		return;
	if (arr)
		fn(ctx, m, 56);
	const uint64_t *h = (const uint64_t *)m;
	iovecs(h[2], (long)h[3], len, arr, fn, ctx);
}

/* fn for every region of the program's memory whose bytes the call wrote
 * (arr: and the arrays describing them); 0 if nr writes none.  Which
 * calls, which argument, how many bytes: syscalls.spec SENDS; here only
 * how each shape is read from memory, never beyond the program's. */
int rdb_whash_regions(long nr, const long *a, long r, int arr, each_fn *fn, void *ctx)
{
	long v[4];
	if (!(rdb_systab_attrs(nr) & RDB_ATTR_SENDS))
		return 0;
	if (!rdb_systab_fact(RDB_FACT_SENDS, nr, a, r, v))
		return 1; /* (it sent nothing) */
	uintptr_t p = (uintptr_t)v[1];
	switch (v[0]) {
	case RDB_SHAPE_PLAIN:
		if (rdb_covered(p, (size_t)v[3]))
			fn(ctx, p, (size_t)v[3]);
		break;
	case RDB_SHAPE_IOVEC:
		iovecs(p, v[2], v[3], arr, fn, ctx);
		break;
	case RDB_SHAPE_MSGHDR:
		msghdr(p, v[3], arr, fn, ctx);
		break;
	case RDB_SHAPE_MMSG: /* v[2] messages, each msg_len bytes (struct mmsghdr: 64) */
		if (v[2] <= 1024 && rdb_covered(p, (size_t)v[2] * 64))
			for (long i = 0; i < v[2]; i++) {
				uintptr_t m = p + (uintptr_t)i * 64;
				msghdr(m, *(const uint32_t *)(m + 56), arr, fn, ctx);
			}
		break;
	}
	return 1;
}

/* Four independent lanes of 8 bytes (a multiply's latency each), then
 * the rest a byte at a time: one lane waits for every multiply in turn
 * (docs/perf.md). */
static void hash_bytes(void *ctx, uintptr_t a, size_t n)
{
	uint64_t *h = ctx, l[4] = {*h, *h ^ 1, *h ^ 2, *h ^ 3};
	const unsigned char *p = (const unsigned char *)a;
	for (; n >= 32; n -= 32, p += 32)
		for (int i = 0; i < 4; i++) {
			uint64_t w;
			__builtin_memcpy(&w, p + 8 * i, 8);
			l[i] = (l[i] ^ w) * 0x100000001b3ull;
			l[i] ^= l[i] >> 29;
		}
	uint64_t x = l[0];
	for (int i = 1; i < 4; i++)
		x = (x ^ l[i]) * 0x9e3779b97f4a7c15ull;
	for (; n; n--, p++)
		x = (x ^ *p) * 0x100000001b3ull;
	*h = x;
}

/* 1 and *h the hash if nr is a write-like call (r: what it returned). */
int rdb_whash(long nr, const long *a, long r, uint64_t *h)
{
	*h = 0xcbf29ce484222325ull ^ (uint64_t)(r < 0 ? 0 : r);
	return rdb_whash_regions(nr, a, r, 0, hash_bytes, h);
}
