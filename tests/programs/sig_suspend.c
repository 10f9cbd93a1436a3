/* sig_suspend: sigsuspend and ppoll let in every signal their mask
 * unblocks, nested, each handler running with that mask plus its own
 * (sa_mask), then the mask the program had comes back. */
#include "prog.h"
#include <poll.h>
#include <signal.h>
static char order[64];
static int n;
static void on_sig(int s)
{
	sigset_t now;
	sigprocmask(SIG_SETMASK, NULL, &now);
	n += snprintf(order + n, sizeof order - (size_t)n, "%d%s,", s,
	              sigismember(&now, SIGHUP) ? "h" : "");
}
static void show(const char *what, int r)
{
	sigset_t now;
	sigprocmask(SIG_SETMASK, NULL, &now);
	printf("%s: %d [%s] usr1 %d usr2 %d\n", what, r, order, sigismember(&now, SIGUSR1),
	       sigismember(&now, SIGUSR2));
	n = 0;
	order[0] = 0;
}
int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sig;
	sigaddset(&sa.sa_mask, SIGHUP);
	sigaction(SIGUSR1, &sa, 0);
	sigaction(SIGUSR2, &sa, 0);
	sigset_t both, none;
	sigemptyset(&both);
	sigaddset(&both, SIGUSR1);
	sigaddset(&both, SIGUSR2);
	sigemptyset(&none);
	sigprocmask(SIG_BLOCK, &both, 0);
	raise(SIGUSR1);
	raise(SIGUSR2);
	show("blocked", 0);
	show("sigsuspend", sigsuspend(&none));
	raise(SIGUSR2);
	raise(SIGUSR1);
	struct timespec ts = {5, 0};
	show("ppoll", ppoll(NULL, 0, &ts, &none));
	return prog_done("sig_suspend");
}
