/* brk: the heap grown by many small malloc calls (the C library extends
 * it with brk or mmap), and the program break moved directly with the
 * brk system call: grown, touched, shrunk, grown again (fresh zeros). */
#include "prog.h"
#include <sys/syscall.h>

static long sys_brk(unsigned long a) { return syscall(SYS_brk, a); }

int main(void)
{
	enum { N = 200000 };
	static char *p[N];
	uint64_t h = 0;
	for (int i = 0; i < N; i++) {
		size_t sz = 8 + i % 120;
		p[i] = malloc(sz);
		CHECK(p[i] != NULL);
		memset(p[i], i & 0xff, sz);
	}
	for (int i = 0; i < N; i += 3) {
		free(p[i]);
		p[i] = NULL;
	}
	for (int i = 0; i < N; i++)
		if (p[i])
			h = fnv(p[i], 8 + i % 120, h);
	printf("small blocks: hash %016llx\n", (unsigned long long)h);
	for (int i = 0; i < N; i++)
		free(p[i]);

	/* the break itself, beyond anything malloc owns */
	unsigned long cur = sys_brk(0);
	CHECK(cur != 0);
	unsigned long want = (cur + 0xfff) & ~0xfffUL;
	unsigned long grown = sys_brk(want + (4 << 20));
	printf("brk grew by 4MB: %d\n", grown == want + (4 << 20));
	if (grown == want + (4 << 20)) {
		char *mem = (char *)want;
		int zero = 1;
		for (long i = 0; i < (4 << 20); i += 4096)
			zero &= mem[i] == 0;
		printf("new break memory is zero: %d\n", zero);
		for (long i = 0; i < (4 << 20); i += 4096)
			mem[i] = (char)(i >> 12);
		long sum = 0;
		for (long i = 0; i < (4 << 20); i += 4096)
			sum += mem[i];
		printf("break memory sum: %ld\n", sum);
		CHECK(sys_brk(want + 4096) == (long)(want + 4096));
		CHECK(sys_brk(want + (1 << 20)) == (long)(want + (1 << 20)));
		printf("regrown page is zero again: %d, kept page: %d\n", mem[8192] == 0, mem[0]);
	}
	CHECK(sys_brk(cur) == (long)cur);
	printf("brk restored: %d\n", sys_brk(0) == (long)cur);

	/* growth through malloc after that still works */
	char *big = malloc(1 << 20);
	CHECK(big != NULL);
	memset(big, 7, 1 << 20);
	printf("after: %d\n", big[12345]);
	free(big);
	return prog_done("brk");
}
