/* hwbp-probe.c: exit 0 if a write breakpoint perf_event_open grants also
 * counts a write, 1 if not (granted but dead: some virtual machines), 2 if
 * the kernel refuses one.  Built with the host's cc by the tests that need
 * working debug registers (flowback.sh, tests/gdb, tests/gdb-server): rdb
 * flowback watches a small variable through the debug registers only where
 * they work (runtime/watch.c probes the same way), else through its shadow
 * page, where every write to the page's other bytes costs a signal. */
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile uint64_t word;

int main(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.size = sizeof a;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uintptr_t)&word;
	a.bp_len = 8;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		perror("hwbp-probe: perf_event_open");
		return 2;
	}
	word = 1;
	uint64_t n = 0;
	if (read(fd, &n, sizeof n) != (ssize_t)sizeof n || n != 1) {
		printf("hwbp-probe: a write breakpoint was granted and counted %llu writes of 1\n",
		       (unsigned long long)n);
		return 1;
	}
	return 0;
}
