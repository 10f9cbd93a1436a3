/* rr: death by a fault (SIGSEGV).
 * rr-expect-status: 139
 * rr-expect-out: ^faulting$ */
#include <stdio.h>
int main(int argc, char **argv)
{
	(void)argv;
	printf("faulting\n");
	fflush(stdout);
	volatile int *p = (volatile int *)(long)(argc - 1);
	return *p;
}
