/* mremap_move: a page's contents moved back and forth between two
 * addresses by mremap(MREMAP_MAYMOVE | MREMAP_FIXED), and read after each
 * move, with work between moves so that intervals start and end among
 * them.  A replay from such an interval needs the moved bytes' start
 * values, which its snapshot has at the old address only (a replay from
 * the middle printed other sums). */
#include "prog.h"
#include <sys/mman.h>

int main(void)
{
	size_t n = 4096;
	unsigned char *a = mmap(0, 4 * n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(a != MAP_FAILED);
	unsigned char *slot[2] = {a, a + 2 * n};
	CHECK(munmap(a + 2 * n, n) == 0);
	for (size_t i = 0; i < n; i++)
		a[i] = (unsigned char)(i * 7 + 1);
	unsigned char *p = a;
	unsigned long sum = 0;
	for (int r = 0; r < 400; r++) {
		p = mremap(p, n, n, MREMAP_MAYMOVE | MREMAP_FIXED, slot[(r + 1) & 1]);
		CHECK(p == slot[(r + 1) & 1]);
		if (p == MAP_FAILED)
			return 1;
		for (size_t i = (size_t)r % 61; i < n; i += 61)
			sum = sum * 31 + p[i];
		p[(size_t)r % n] ^= (unsigned char)r;
		for (volatile int k = 0; k < 3000; k++)
			;
		if (r % 50 == 0)
			printf("r=%d sum=%lu\n", r, sum);
	}
	printf("final %lu\n", sum);
	return prog_done("mremap_move");
}
