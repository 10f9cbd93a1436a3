/* rep_movs: string instructions.  rep movsb/movsw/movsl/movsq,
 * rep stosb/stosq, repe cmpsb, repne scasb (inline assembly), a backward
 * copy with the direction flag set (std ... cld), copies across a page
 * boundary, and large struct assignments, which gcc compiles to rep movsq
 * or calls to memcpy. */
#include "prog.h"
#include <sys/mman.h>

static void movsb(void *d, const void *s, size_t n)
{
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}
static void movsw(void *d, const void *s, size_t n)
{
	__asm__ volatile("rep movsw" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}
static void movsl(void *d, const void *s, size_t n)
{
	__asm__ volatile("rep movsl" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}
static void movsq(void *d, const void *s, size_t n)
{
	__asm__ volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}
static void stosb(void *d, int c, size_t n)
{
	__asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}
static void stosq(void *d, uint64_t v, size_t n)
{
	__asm__ volatile("rep stosq" : "+D"(d), "+c"(n) : "a"(v) : "memory");
}
/* backward: the last byte first, with DF set */
static void movsb_back(void *d, const void *s, size_t n)
{
	char *de = (char *)d + n - 1;
	const char *se = (const char *)s + n - 1;
	__asm__ volatile("std\n\trep movsb\n\tcld" : "+D"(de), "+S"(se), "+c"(n) : : "memory", "cc");
}
/* index of the first difference, or n */
static size_t cmpsb(const void *a, const void *b, size_t n)
{
	size_t left = n;
	unsigned char eq;
	if (!n)
		return 0;
	__asm__ volatile("repe cmpsb\n\tsete %3"
	                 : "+D"(b), "+S"(a), "+c"(left), "=r"(eq) : : "memory", "cc");
	return eq ? n : n - left - 1;
}
/* index of the first byte c, or n */
static size_t scasb(const void *p, int c, size_t n)
{
	size_t left = n;
	unsigned char found;
	if (!n)
		return 0;
	__asm__ volatile("repne scasb\n\tsete %2" : "+D"(p), "+c"(left), "=r"(found) : "a"(c) : "memory", "cc");
	return found ? n - left - 1 : n;
}

struct big {
	long a[37];
	char tail[13];
};

static __attribute__((noinline)) struct big make_big(int seed)
{
	struct big b;
	for (int i = 0; i < 37; i++)
		b.a[i] = seed * 1000 + i;
	for (int i = 0; i < 13; i++)
		b.tail[i] = (char)('a' + (seed + i) % 26);
	return b;
}

static __attribute__((noinline)) void copy_big(struct big *d, const struct big *s) { *d = *s; }

int main(void)
{
	static unsigned char src[8192], dst[8192];
	for (int i = 0; i < 8192; i++)
		src[i] = (unsigned char)(i * 13 + (i >> 7));
	uint64_t h = 0;
	for (size_t n = 0; n < 600; n += 7)
		for (int a = 0; a < 8; a++) {
			memset(dst, 0, 1300);
			movsb(dst + a, src + 3 * a, n);
			h = fnv(dst, 1300, h);
			movsw(dst + a, src + a, n / 2);
			movsl(dst + 2 * a, src + 1, n / 4);
			movsq(dst + 3, src + a, n / 8);
			h = fnv(dst, 1300, h);
			stosb(dst + a, a * 11, n);
			stosq(dst + 8 * a, 0x0102030405060708ull * a, n / 8);
			h = fnv(dst, 1300, h);
		}
	printf("forward string ops: %016llx\n", (unsigned long long)h);

	/* overlapping backward copy (memmove to a higher address) */
	memcpy(dst, src, 4096);
	movsb_back(dst + 100, dst, 3000);
	printf("backward copy matches: %d, df clear after: %d\n", memcmp(dst + 100, src, 3000) == 0,
	       !(__builtin_ia32_readeflags_u64() & 0x400));

	printf("cmpsb: %zu %zu %zu\n", cmpsb(src, src, 5000), cmpsb(src, dst + 100, 3000),
	       (dst[1234] ^= 1, cmpsb(src + 1134, dst + 1234, 1000)));
	printf("scasb: %zu %zu\n", scasb("hello, world", ',', 12), scasb("abc", 'z', 3));

	/* across a page boundary, into a page followed by nothing */
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(m != MAP_FAILED);
	CHECK(munmap(m + 2 * pg, pg) == 0);
	movsb(m + pg - 300, src, 300 + pg); /* ends exactly at the hole */
	stosb(m + 5, 0x77, pg);
	movsq(m + pg - 8 * 20, src + 8, 40);
	printf("page-crossing copies: %016llx\n", (unsigned long long)fnv(m, 2 * pg, 0));
	munmap(m, 2 * pg);

	/* struct copies */
	struct big b1 = make_big(3), b2, arr[8];
	copy_big(&b2, &b1);
	for (int i = 0; i < 8; i++)
		arr[i] = i & 1 ? b2 : make_big(i);
	b2 = arr[5];
	uint64_t hs = 0; /* fields only: the 3 padding bytes are not copied values */
	for (int i = 0; i < 8; i++)
		hs = fnv(arr[i].tail, sizeof arr[i].tail, fnv(arr[i].a, sizeof arr[i].a, hs));
	printf("struct copies: %016llx %ld %.13s\n", (unsigned long long)hs, b2.a[36], b2.tail);
	return prog_done("rep_movs");
}
