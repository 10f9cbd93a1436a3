/* stale-stack: reads of stack memory the program never wrote (undefined
 * behaviour, but real programs do it: musl's printf reads stale slots).
 * They see what earlier frames left below %rsp, which only the program
 * writes (the runtime runs on its own stacks): a replay from the start
 * prints the same hashes, and one from any boundary too (the boundary
 * saves the dead stack).  Before, the runtime's syscall and signal frames
 * were there, other ones in replay; a replay from the middle diverged on
 * a register (57 of 73 boundaries), and the hash differed even from the
 * start. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline)) static unsigned long stale(int n)
{
	volatile unsigned char never_written[1024];
	unsigned long h = 1469598103934665603ul;
	for (int i = 0; i < n; i++)
		h = (h ^ never_written[i]) * 1099511628211ul;
	return h;
}

__attribute__((noinline)) static unsigned long calls(int r)
{
	struct utsname u;
	struct sysinfo si;
	struct rusage ru;
	struct timespec ts;
	uname(&u);
	sysinfo(&si);
	getrusage(RUSAGE_SELF, &ru);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long)u.machine[0] + (unsigned long)r + (unsigned long)getpid() * 0;
}

int main(void)
{
	unsigned long acc = 0;
	for (int r = 0; r < 40; r++) {
		acc += calls(r);
		for (volatile int k = 0; k < 3000; k++)
			;
		printf("%d %lu %lx\n", r, acc, stale(1024));
	}
	return 0;
}
