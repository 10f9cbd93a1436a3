/* gdb.c: rdb record|replay --gdb.  rdb starts gdb on this process once it
 * runs; the runtime, set up (and, replaying, with its hooks made no-ops:
 * unhook.c rewrites the text, which must not happen under a debugger's
 * breakpoints), waits here before the program's first instruction until
 * a tracer has attached, so that breakpoints are in place before the
 * program runs.  Nothing of the wait is recorded or changes the program's
 * memory: record and replay stay the same run. */
#include "rt.h"

/* The "TracerPid:" field of /proc/self/status: nonzero when traced. */
static long tracer_pid(void)
{
	static const char key[] = "TracerPid:";
	char buf[1024];
	long fd = rdb_sys4(__NR_openat, -100, (long)"/proc/self/status",
	                   RDB_O_RDONLY | RDB_O_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	long n = rdb_sys3(__NR_read, fd, (long)buf, sizeof buf - 1);
	rdb_sys1(__NR_close, fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	for (long i = 0; i + (long)sizeof key - 1 < n; i++) {
		if (rdb_memcmp(buf + i, key, sizeof key - 1) != 0)
			continue;
		long v = 0;
		for (char *p = buf + i + sizeof key - 1; *p; p++)
			if (*p >= '0' && *p <= '9')
				v = v * 10 + (*p - '0');
			else if (*p != ' ' && *p != '\t')
				break;
		return v;
	}
	return -1;
}

void rdb_gdb_wait(void)
{
	/* Yama's ptrace_scope 1 lets only ancestors attach; gdb is rdb's
	 * other child */
	rdb_sys2(__NR_prctl, 0x59616d61 /* PR_SET_PTRACER */, -1 /* ANY */);
	struct {
		long sec, nsec;
	} tick = {0, 20 * 1000 * 1000};
	for (long waited = 0; tracer_pid() == 0; waited++) {
		if (waited == 3000) /* a minute */
			rdb_die("--gdb: no debugger attached within a minute\n");
		rdb_sys2(__NR_nanosleep, &tick, 0);
	}
}
