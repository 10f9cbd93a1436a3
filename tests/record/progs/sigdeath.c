/* rr: death by a signal (SIGTERM sent to itself, then SIGSEGV-free).
 * rr-expect-status: 143
 * rr-expect-out: ^dying$ */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
int main(void)
{
	printf("dying\n");
	fflush(stdout);
	kill(getpid(), SIGTERM);
	printf("not reached\n");
	return 0;
}
