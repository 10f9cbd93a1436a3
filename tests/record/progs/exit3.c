/* rr: a non-zero exit status, after output to both streams. */
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	printf("about to fail\n");
	fprintf(stderr, "error: something failed\n");
	exit(3);
}
