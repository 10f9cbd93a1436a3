/* hits.c: for tests/gdb-server.  hit(n) is the n-th call; the loop
 * between calls spans several intervals when recorded with --every-sic. */
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) void hit(int n)
{
	sink += (unsigned long)n;
}

static unsigned long spin(unsigned long h)
{
	for (int i = 0; i < 5000; i++)
		h = h * 31 + (unsigned long)i;
	return h;
}

int main(void)
{
	unsigned long h = 1;
	for (int n = 1; n <= 8; n++) {
		h = spin(h);
		hit(n);
		h ^= sink;
	}
	printf("h %lx sink %lu\n", h, (unsigned long)sink);
	return 0;
}
