/* sig-at-start: a signal delivered at count 1 of an interval, and a
 * nested one inside its handler.  Each round sends itself SIGUSR1 after
 * a little work of varying length; under --every-sic some boundaries fall
 * on the syscall stub's check before that kill, so the signal comes at
 * the stub's check after it: count 1 of the new interval.  Its handler
 * sends SIGUSR2, whose handler runs nested inside it (a syscall with a
 * stack address in it: the handlers' depth must be the recording's).
 * checks.sh sig-at-start replays from each such interval with --verify
 * (issue 16: sig_storm's rare divergence of `replay --verify --from 4`
 * had this shape; this program does not reproduce that one). */
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sum;
static volatile int depth, maxd, n1, n2;

static void on_usr2(int sig)
{
	struct timespec ts;
	if (++depth > maxd)
		maxd = depth;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	sum = sum * 7 + (unsigned long)sig;
	n2++;
	depth--;
}

static void on_usr1(int sig)
{
	if (++depth > maxd)
		maxd = depth;
	kill(getpid(), SIGUSR2);
	sum = sum * 3 + (unsigned long)sig;
	n1++;
	depth--;
}

int main(void)
{
	struct sigaction a = {.sa_handler = on_usr1};
	sigemptyset(&a.sa_mask);
	sigaction(SIGUSR1, &a, 0);
	a.sa_handler = on_usr2;
	sigaction(SIGUSR2, &a, 0);
	for (int i = 0; i < 600; i++) {
		for (volatile int j = 0; j < i % 37; j++)
			sum += (unsigned long)j;
		kill(getpid(), SIGUSR1);
	}
	printf("handlers %d %d, depth %d, sum %lu\n", n1, n2, maxd, sum);
	return 0;
}
