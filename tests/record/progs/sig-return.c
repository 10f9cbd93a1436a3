/* sig-return: what a handler's mask held back is delivered as the handler
 * returns, before the interrupted code's next instruction, as the kernel
 * does at rt_sigreturn.  Each case reads what the handlers changed right
 * after the raise() that started them, with no loop (no SIC check) in
 * between: a delivery at a later check comes too late to be seen.
 *   - a handler raising its own signal (without SA_NODEFER): three calls,
 *     never nested;
 *   - one raising a signal its sa_mask blocks, and queueing a real-time
 *     one twice: all of them run before raise() returns (the kernel nests
 *     the frames: the later ones run first);
 *   - a handler let in at a return that raises again: a chain.
 * rr-expect-out: ^own: calls 3 depth 1$
 * rr-expect-out: ^masked: \[10,rt,rt,12,\] values 7 8$
 * rr-expect-out: ^chain: 5$
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile int calls, depth, max_depth, chain, v1, v2;
static char order[64];
static volatile int norder;

static void note(const char *s)
{
	size_t n = strlen(s);
	if (norder + n + 1 < sizeof order) {
		memcpy(order + norder, s, n);
		order[norder + n] = ',';
		norder += (int)n + 1;
	}
}

static void on_own(int sig)
{
	if (++depth > max_depth)
		max_depth = depth;
	if (++calls < 3)
		raise(sig);
	depth--;
}

static void on_usr1(int sig)
{
	(void)sig;
	note("10");
	raise(SIGUSR2);
	sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = 7});
	sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = 8});
}

static void on_usr2(int sig)
{
	(void)sig;
	note("12");
}

static void on_rt(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	note("rt");
	if (!v1)
		v1 = si->si_value.sival_int;
	else
		v2 = si->si_value.sival_int;
}

static void on_chain(int sig)
{
	if (++chain < 5)
		raise(sig);
}

int main(void)
{
	struct sigaction a = {.sa_handler = on_own};
	sigemptyset(&a.sa_mask);
	sigaction(SIGUSR1, &a, 0);
	raise(SIGUSR1);
	int c = calls, d = max_depth;
	printf("own: calls %d depth %d\n", c, d);

	a.sa_handler = on_usr1;
	sigaddset(&a.sa_mask, SIGUSR2);
	sigaddset(&a.sa_mask, SIGRTMIN);
	sigaction(SIGUSR1, &a, 0);
	a.sa_handler = on_usr2;
	sigemptyset(&a.sa_mask);
	sigaction(SIGUSR2, &a, 0);
	struct sigaction r = {.sa_sigaction = on_rt, .sa_flags = SA_SIGINFO};
	sigemptyset(&r.sa_mask);
	sigaction(SIGRTMIN, &r, 0);
	raise(SIGUSR1);
	int x = v1, y = v2;
	order[norder] = 0;
	printf("masked: [%s] values %d %d\n", order, x, y);

	a.sa_handler = on_chain;
	sigaction(SIGHUP, &a, 0);
	raise(SIGHUP);
	int n = chain;
	printf("chain: %d\n", n);
	return 0;
}
