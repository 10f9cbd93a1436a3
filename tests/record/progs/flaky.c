/* flaky.c: a test of checks/pack.sh's test suite, which fails only when
 * told to: "flaky NAME" prints "NAME: draw N" (N from getrandom: another
 * number each run), works a while (for intervals), and fails (status 1,
 * "NAME: FAIL") when the environment's FLAKY is NAME, or is "random" and
 * the draw is below 64 (one run in four); else prints "NAME: ok". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: flaky NAME\n");
		return 2;
	}
	unsigned char r = 0;
	if (getrandom(&r, 1, 0) != 1)
		return 2;
	printf("%s: draw %u\n", argv[1], r);
	unsigned long h = 5381;
	for (int i = 0; i < 200000; i++)
		h = h * 33 + (unsigned long)i + r;
	const char *f = getenv("FLAKY");
	if (f && (!strcmp(f, argv[1]) || (!strcmp(f, "random") && r < 64))) {
		printf("%s: FAIL (%lu)\n", argv[1], h % 1000);
		return 1;
	}
	printf("%s: ok (%lu)\n", argv[1], h % 1000);
	return 0;
}
