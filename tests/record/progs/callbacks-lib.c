/* callbacks-lib.c: an instrumentation library (rdb.h; built like librdb:
 * gcc, no libc) that registers many callbacks, for callbacks.c: 40
 * signal callbacks and 40 termination callbacks, then one more of each
 * that reports.  The runtime's tables held 16 of each (RDB_MAX_CB): the
 * rest were refused. */
#include "librdb.h"

#define MANY 40

int rdb_test_cb_refused, rdb_test_cb_sigs, rdb_test_cb_terms;

void rdb_test_cb_init(void);
RDB_INIT(rdb_test_cb_init);

static int on_sig(int sig, void *si, void *uc)
{
	(void)si, (void)uc;
	if (sig == 10 /* SIGUSR1 */)
		rdb_test_cb_sigs++;
	return 0; /* not the library's: the program's handler runs */
}

static void on_term(int status, int signo)
{
	(void)status, (void)signo;
	rdb_test_cb_terms++;
}

/* The last one: what the others did, on stdout. */
static void report(int status, int signo)
{
	char line[] = "term callbacks: 00\n";
	(void)status, (void)signo;
	line[16] = (char)('0' + rdb_test_cb_terms / 10 % 10);
	line[17] = (char)('0' + rdb_test_cb_terms % 10);
	rdb_syscall6(1 /* write */, 1, (long)line, sizeof line - 1, 0, 0, 0);
}

void rdb_test_cb_init(void)
{
	for (int i = 0; i < MANY; i++)
		rdb_test_cb_refused += (rdb_on_signal(on_sig) != 0) + (rdb_on_term(on_term) != 0);
	rdb_test_cb_refused += rdb_on_term(report) != 0;
}
