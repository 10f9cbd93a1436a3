/* rr: death by the kernel's SIGPIPE (default action), status 141 in the
 * recording and in replay.
 * rr-expect-status: 141
 * rr-expect-out: ^writing to a closed pipe$ */
#include <stdio.h>
#include <unistd.h>
int main(void)
{
	int p[2];
	pipe(p);
	close(p[0]);
	printf("writing to a closed pipe\n");
	fflush(stdout);
	write(p[1], "x", 1);
	printf("not reached\n");
	return 0;
}
