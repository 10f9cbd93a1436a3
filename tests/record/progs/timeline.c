/* rr: a run with something in every lane of rdb timeline's page: syscalls
 * in many intervals, timer signals delivered to a handler while it
 * computes, and a fork child that writes and exits (tests/timeline).
 * rr-expect-out: ^child$
 * rr-expect-out: ^timeline ok$ */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int ticks;
volatile unsigned long sink; /* keeps the work */
unsigned long first_value; /* written once, first: rdb flowback looks back at every interval */
static void on_alarm(int s)
{
	(void)s;
	ticks++;
}

static unsigned long work(unsigned long n)
{
	unsigned long x = 1;
	for (unsigned long i = 0; i < n; i++)
		x = x * 6364136223846793005ul + i;
	return x;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, 0);
	unsigned long sum = 0;
	first_value = (unsigned long)getpid() | 1;
	for (int i = 0; i < 40; i++) { /* syscalls spread over the run */
		sum += work(200000);
		sum += (unsigned long)getpid();
	}
	struct itimerval it = {{0, 3000}, {0, 3000}};
	setitimer(ITIMER_REAL, &it, 0);
	while (ticks < 3) /* the signals come while it computes */
		sum += work(100000);
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &off, 0);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		sum += work(300000);
		write(1, "child\n", 6);
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	for (int i = 0; i < 20; i++)
		sum += work(200000) + (unsigned long)getppid();
	sink = sum;
	printf("timeline ok\n");
	return st != 0;
}
