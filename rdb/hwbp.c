/* hwbp.c: whether this machine's debug registers fire.  Some virtual
 * machines grant a hardware breakpoint (perf_event_open, or a debug
 * register set through ptrace) and never trigger it: a watchpoint there
 * would miss every write, silently.  One counting write breakpoint on a
 * word of rdb's own, one write to it: the count says. */
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rdb.h"

static volatile uint64_t word;

int rdb_hw_watch_works(void)
{
	static int known; /* 0 not asked, 1 yes, -1 no */
	if (known)
		return known > 0;
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
	uint64_t n = 0;
	if (fd >= 0) {
		word = word + 1;
		if (read(fd, &n, sizeof n) != (ssize_t)sizeof n)
			n = 0;
		close(fd);
	}
	/* (no perf_event_open at all, e.g. seccomp: ptrace's debug registers
	 * may still work; only a granted breakpoint that stays silent says no) */
	known = fd < 0 || n == 1 ? 1 : -1;
	return known > 0;
}
