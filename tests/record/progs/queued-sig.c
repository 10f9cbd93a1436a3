/* queued-sig: signals that wait in the kernel's queue across interval
 * boundaries.  Each round blocks SIGUSR1, SIGUSR2 and SIGRTMIN, raises
 * them (the real-time one twice), and unblocks them at once: the runtime
 * queues all four again together, the kernel runs SIGUSR1's handler
 * first, and that handler's sa_mask holds the others back while it runs
 * long (boundaries fall inside it under --every-sic).  A replay from such
 * a boundary must queue them again, or their handlers never run there. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile unsigned long sum;
static volatile int order[64], norder;

static void on_usr1(int sig)
{
	order[norder++ & 63] = sig;
	for (unsigned long i = 0; i < 400000; i++)
		sum += i ^ (unsigned long)norder;
}

static void on_other(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	order[norder++ & 63] = sig;
	sum = sum * 31 + (unsigned long)sig + (unsigned long)si->si_value.sival_int;
}

int main(void)
{
	struct sigaction a = {.sa_handler = on_usr1};
	sigemptyset(&a.sa_mask);
	sigaddset(&a.sa_mask, SIGUSR2);
	sigaddset(&a.sa_mask, SIGRTMIN);
	sigaction(SIGUSR1, &a, 0);
	struct sigaction b = {.sa_sigaction = on_other, .sa_flags = SA_SIGINFO};
	sigemptyset(&b.sa_mask);
	sigaction(SIGUSR2, &b, 0);
	sigaction(SIGRTMIN, &b, 0);

	sigset_t all, old;
	sigemptyset(&all);
	sigaddset(&all, SIGUSR1);
	sigaddset(&all, SIGUSR2);
	sigaddset(&all, SIGRTMIN);
	for (int round = 0; round < 4; round++) {
		sigprocmask(SIG_BLOCK, &all, &old);
		raise(SIGUSR2);
		sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = round * 10 + 1});
		sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = round * 10 + 2});
		raise(SIGUSR1);
		sigprocmask(SIG_SETMASK, &old, 0);
	}
	printf("handlers %d:", norder);
	for (int i = 0; i < norder; i++)
		printf(" %d", order[i]);
	printf("\nsum %lu\n", sum);
	return 0;
}
