/* rr: prints a token to stdout and stderr.
 * rr-expect-out: ^hello from rdb$
 * rr-expect-err: ^to stderr$ */
#include <stdio.h>
int main(void)
{
	printf("hello from rdb\n");
	fprintf(stderr, "to stderr\n");
	return 0;
}
