/* sys_time.c: time(2) and clock_gettime(2) write the caller's memory; going
 * back they are zero again.  Called through syscall(): libc would use
 * the vDSO, which record full cannot record (rdtscp).  The values differ
 * from run to run, so the
 * session prints only comparisons. */
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

time_t t;
struct timespec ts;
int later;

int main(void)
{
	t = 0; // @before
	syscall(SYS_time, &t); // @time
	syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts); // @clock
	later = t > 1000000000 && (ts.tv_sec > 0 || ts.tv_nsec > 0); // @later
	return !later; // @end
}
