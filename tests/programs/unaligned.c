/* unaligned: accesses at every misalignment.  Packed structs (fields at
 * odd offsets, arrays of them), 2/4/8/16-byte loads and stores through
 * aligned(1) types at offsets 0..15 (8-byte accesses spanning two words,
 * a cache line, and a page boundary), memcpy into misaligned buffers, and
 * bit-field updates. */
#include "prog.h"
#include <sys/mman.h>

typedef uint16_t u16u __attribute__((aligned(1), may_alias));
typedef uint32_t u32u __attribute__((aligned(1), may_alias));
typedef uint64_t u64u __attribute__((aligned(1), may_alias));
typedef double f64u __attribute__((aligned(1), may_alias));
typedef unsigned __int128 u128u __attribute__((aligned(1), may_alias));

struct __attribute__((packed)) rec {
	char tag;
	uint32_t id;
	uint64_t value;
	uint16_t small;
	double d;
	char end;
};

struct bits {
	unsigned a : 3, b : 7, c : 13;
	signed d : 5;
	uint64_t e : 41;
};

int main(void)
{
	printf("packed size %zu, offsets %zu %zu %zu %zu\n", sizeof(struct rec), __builtin_offsetof(struct rec, id),
	       __builtin_offsetof(struct rec, value), __builtin_offsetof(struct rec, small),
	       __builtin_offsetof(struct rec, d));
	static struct rec recs[100];
	for (int i = 0; i < 100; i++) {
		recs[i].tag = (char)('A' + i % 26);
		recs[i].id = 1000003u * i;
		recs[i].value = 0x0123456789abcdefull * i;
		recs[i].small = (uint16_t)(i * 7);
		recs[i].d = i / 3.0;
		recs[i].end = '!';
	}
	uint64_t s = 0;
	double ds = 0;
	for (int i = 0; i < 100; i++) {
		recs[i].value += recs[i].id;
		recs[i].small ^= 0x5a5a;
		s += recs[i].value ^ recs[i].small;
		ds += recs[i].d;
	}
	printf("packed: %016llx %.17g %016llx\n", (unsigned long long)s, ds,
	       (unsigned long long)fnv(recs, sizeof recs, 0));

	static unsigned char buf[256];
	for (int i = 0; i < 256; i++)
		buf[i] = (unsigned char)(i * 29 + 3);
	uint64_t acc = 0;
	for (int off = 0; off < 16; off++) {
		unsigned char *p = buf + 48 + off; /* crosses the 64-byte line */
		acc = acc * 31 + *(u16u *)p;
		acc = acc * 31 + *(u32u *)p;
		acc = acc * 31 + *(u64u *)p;
		u128u w = *(u128u *)p;
		acc = acc * 31 + (uint64_t)(w >> 64) + (uint64_t)w;
		*(u64u *)(p + 100) = acc;
		*(u32u *)(p + 40) += off;
		*(u16u *)(p + 20) ^= 0xffff;
	}
	printf("unaligned loads/stores: %016llx %016llx\n", (unsigned long long)acc,
	       (unsigned long long)fnv(buf, sizeof buf, 0));

	/* a double at an odd address */
	double d = 3.25;
	memcpy(buf + 3, &d, 8);
	*(f64u *)(buf + 3) *= 2;
	printf("unaligned double %g\n", *(f64u *)(buf + 3));

	/* 8-byte accesses spanning a page boundary */
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(m != MAP_FAILED);
	for (int k = 1; k < 8; k++) {
		*(u64u *)(m + pg - k) = 0x1122334455667788ull * k;
		acc += *(u64u *)(m + pg - k) + *(u32u *)(m + pg - (k & 3) - 1);
	}
	printf("page-spanning: %016llx\n", (unsigned long long)acc);
	munmap(m, 2 * pg);

	/* memcpy between misaligned buffers of all small sizes */
	unsigned char a[64], b[64];
	uint64_t h = 0;
	for (int n = 1; n <= 33; n++)
		for (int i = 0; i < 8; i++) {
			memset(b, 0, sizeof b);
			memcpy(a + i, buf + n, n);
			memcpy(b + 7 - i, a + i, n);
			h = fnv(b, sizeof b, h);
		}
	printf("misaligned memcpy: %016llx\n", (unsigned long long)h);

	struct bits bf = { 0 };
	for (int i = 0; i < 1000; i++) {
		bf.a += i;
		bf.b ^= i;
		bf.c += 3 * i;
		bf.d -= 1;
		bf.e += 0x123456789ull;
	}
	printf("bit-fields: %u %u %u %d %llu\n", bf.a, bf.b, bf.c, bf.d, (unsigned long long)bf.e);
	return prog_done("unaligned");
}
