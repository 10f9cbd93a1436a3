/* gdb.c: rdb record --gdb (a replay's gdb has rdb as its target instead:
 * rdb/gdbserver.c).  rdb starts gdb on this process once it runs; the
 * runtime, set up, waits here before the program's first instruction until
 * gdb has attached, so that breakpoints are in place before the program
 * runs.  Nothing of the wait is recorded or changes the program's
 * memory: record and replay stay the same run. */
#include "rt.h"

void rdb_gdb_wait(void)
{
	/* Yama's ptrace_scope 1 lets only ancestors attach; gdb is rdb's
	 * other child */
	rdb_sys2(__NR_prctl, 0x59616d61 /* PR_SET_PTRACER */, -1 /* ANY */);
	struct {
		long sec, nsec;
	} tick = {0, 20 * 1000 * 1000};
	/* gdb sets RT->gdb_in as it attaches (rdb/gdb.c), before any command
	 * of the user's, who may quit at once */
	for (long waited = 0; !*(volatile long *)&RT->gdb_in; waited++) {
		if (waited == 3000) /* a minute */
			rdb_die("--gdb: no debugger attached within a minute\n");
		rdb_sys2(__NR_nanosleep, &tick, 0);
	}
}
