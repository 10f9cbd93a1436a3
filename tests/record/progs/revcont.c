/* revcont.c: for checks.sh reverse.  hit(n) is the n-th call; the work
 * between calls spans several intervals when recorded with --every-sic. */
#include <stdio.h>

static volatile unsigned long sink;

__attribute__((noinline)) void hit(int n)
{
	sink += (unsigned long)n;
}

int main(void)
{
	unsigned long h = 1;
	for (int n = 1; n <= 8; n++) {
		for (int i = 0; i < 20000; i++)
			h = h * 31 + (unsigned long)i;
		hit(n);
	}
	printf("h %lx sink %lu\n", h, (unsigned long)sink);
	return 0;
}
