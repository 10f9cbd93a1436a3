/* rr: many real-time signals at once (the runtime held 32 deferred
 * signals and 64 queued again, then dropped the rest or died: "more than
 * 64 signals queued again").  Each round blocks SIGRTMIN, queues 300 of
 * them with distinct values, and unblocks it: the kernel delivers all 300
 * to the runtime together, which must defer and queue every one again;
 * the handler's sa_mask keeps the rest waiting while it runs, across
 * boundaries, so they are in a boundary's context too.  The handler sees
 * every value once, in order. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#define PER 300
#define ROUNDS 8

static volatile unsigned long sum;
static volatile int got, bad, last;

static void on_rt(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	int v = si->si_value.sival_int;
	if (v != last + 1)
		bad++;
	last = v;
	got++;
	for (unsigned long i = 0; i < 20000; i++)
		sum += i ^ (unsigned long)v;
}

int main(void)
{
	struct sigaction sa = {0};
	sa.sa_sigaction = on_rt;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGRTMIN, &sa, 0);
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGRTMIN);
	int v = 0;
	for (int r = 0; r < ROUNDS; r++) {
		sigprocmask(SIG_BLOCK, &m, 0);
		for (int i = 0; i < PER; i++) {
			union sigval val = {.sival_int = ++v};
			if (sigqueue(getpid(), SIGRTMIN, val)) {
				perror("sigqueue");
				return 2;
			}
		}
		sigprocmask(SIG_UNBLOCK, &m, 0);
	}
	printf("manysigs: %d of %d delivered, %d out of order, sum %lx\n", got, ROUNDS * PER, bad,
	       sum);
	return got == ROUNDS * PER && !bad ? 0 : 1;
}
