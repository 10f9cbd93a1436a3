/* sig_alarm: asynchronous signals.  SIGALRM from a repeating setitimer
 * (ITIMER_REAL) counted by a handler while the program computes, a
 * one-shot alarm() waited for with pause(), a read() interrupted by a
 * signal without SA_RESTART (EINTR) and restarted with it.  The number
 * of ticks differs run to run: printed only as "at least N". */
#include "prog.h"
#include <signal.h>
#include <sys/time.h>
#include <sys/wait.h>

static volatile sig_atomic_t ticks, alarms;

static void on_tick(int sig) { (void)sig; ticks++; }
static void on_alarm(int sig) { (void)sig; alarms++; }

int main(void)
{
	struct sigaction sa = { .sa_handler = on_tick };
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);
	/* compute until enough ticks came; the result does not depend on them */
	uint64_t s = 88172645463325252ull, acc = 0;
	unsigned long rounds = 0;
	while (ticks < 20 || rounds < 1000000) {
		acc += rng(&s) >> 40;
		rounds++;
	}
	struct itimerval off = { { 0, 0 }, { 0, 0 } }, old;
	CHECK(setitimer(ITIMER_REAL, &off, &old) == 0);
	printf("ticks: at least 20: %d; old interval %ld us\n", ticks >= 20, (long)old.it_interval.tv_usec);
	printf("first million rounds fine: %d\n", rounds >= 1000000 && acc != 0);

	/* one-shot alarm, waited for with pause() */
	sa.sa_handler = on_alarm;
	CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
	alarm(1);
	int r = pause();
	printf("pause: %d %s, alarms %d\n", r, errname(errno), (int)alarms);
	CHECK(alarm(0) == 0);

	/* an interrupted read: EINTR without SA_RESTART */
	int p[2];
	CHECK(pipe(p) == 0);
	it.it_interval.tv_usec = 0;
	it.it_value.tv_usec = 20000;
	CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);
	char c;
	r = read(p[0], &c, 1);
	printf("read interrupted: %d %s, alarms %d\n", r, errname(errno), (int)alarms);

	/* with SA_RESTART the read goes on; a second tick's handler writes */
	sa.sa_flags = SA_RESTART;
	CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		usleep(100000);
		if (write(p[1], "R", 1) != 1)
			_exit(1);
		_exit(0);
	}
	CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);
	r = read(p[0], &c, 1);
	/* on a loaded machine the child may write before the tick: wait for it */
	sigset_t alrm, old_mask;
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, &old_mask);
	while (alarms < 3)
		sigsuspend(&old_mask);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	printf("restarted read: %d '%c', alarms %d\n", r, r == 1 ? c : '?', (int)alarms);
	int st;
	while (wait(&st) != pid)
		;
	return prog_done("sig_alarm");
}
