/* thread_signals: per-thread signal masks.  A worker blocks SIGUSR1 and
 * takes it with sigwait; pthread_kill sends SIGUSR2 to one thread, whose
 * handler records which thread ran it; main blocks SIGUSR2 throughout.
 * Each signal is sent once the last was taken. */
#include "../programs/prog.h"
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>

static pthread_t waiter_t, target_t;
static volatile sig_atomic_t handled_by_target, handled_elsewhere;
static __thread int is_target;
static pthread_barrier_t ready;
static sem_t took; /* the waiter took one: standard signals do not queue */

static void on_usr2(int sig)
{
	(void)sig;
	if (is_target)
		handled_by_target++;
	else
		handled_elsewhere++;
}

static void *waiter(void *arg)
{
	(void)arg;
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	int got = 0, n = 0;
	pthread_barrier_wait(&ready);
	for (int i = 0; i < 3; i++) {
		if (sigwait(&s, &got) == 0 && got == SIGUSR1)
			n++;
		sem_post(&took);
	}
	return (void *)(long)n;
}

static void *target(void *arg)
{
	(void)arg;
	is_target = 1;
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_UNBLOCK, &s, 0);
	pthread_barrier_wait(&ready);
	while (handled_by_target < 3)
		usleep(1000);
	return 0;
}

int main(void)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGUSR2);
	CHECK(pthread_sigmask(SIG_BLOCK, &s, 0) == 0); /* inherited by both */
	signal(SIGUSR2, on_usr2);
	pthread_barrier_init(&ready, 0, 3);
	sem_init(&took, 0, 0);
	CHECK(pthread_create(&waiter_t, 0, waiter, 0) == 0);
	CHECK(pthread_create(&target_t, 0, target, 0) == 0);
	pthread_barrier_wait(&ready);
	for (int i = 0; i < 3; i++) {
		CHECK(pthread_kill(waiter_t, SIGUSR1) == 0);
		CHECK(pthread_kill(target_t, SIGUSR2) == 0);
		sem_wait(&took);
		while (handled_by_target + handled_elsewhere < i + 1)
			usleep(1000);
	}
	void *r;
	CHECK(pthread_join(waiter_t, &r) == 0);
	CHECK(pthread_join(target_t, 0) == 0);
	sigset_t pending;
	sigpending(&pending);
	printf("sigwait took %ld, target handled %d, others %d, main pending usr2 %d\n", (long)r,
	       (int)handled_by_target, (int)handled_elsewhere, sigismember(&pending, SIGUSR2));
	CHECK((long)r == 3 && handled_by_target == 3 && handled_elsewhere == 0);
	return prog_done("thread_signals");
}
