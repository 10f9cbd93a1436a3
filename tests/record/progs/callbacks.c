/* callbacks: linked with callbacks-lib.o (checks.sh callbacks), whose
 * init registered 40 signal and 40 termination callbacks: every one
 * must be taken and run, recorded or not. */
#include <signal.h>
#include <stdio.h>

extern int rdb_test_cb_refused, rdb_test_cb_sigs;
static volatile int handled;

static void on_usr1(int sig) { handled += sig == SIGUSR1; }

int main(void)
{
	signal(SIGUSR1, on_usr1);
	raise(SIGUSR1);
	printf("refused %d, signal callbacks ran %d, handler %d\n", rdb_test_cb_refused,
	       rdb_test_cb_sigs, handled);
	fflush(stdout);
	return 0;
}
