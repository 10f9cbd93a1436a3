/* rr: a non-zero exit status, after output to both streams.
 * rr-expect-status: 3
 * rr-expect-out: ^about to fail$
 * rr-expect-err: ^error: something failed$ */
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	printf("about to fail\n");
	fprintf(stderr, "error: something failed\n");
	exit(3);
}
