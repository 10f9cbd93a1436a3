/* thread_procsig: signals to one thread and to the process.  pthread_kill
 * sends SIGUSR1 to one worker (its handler runs in that thread); kill()
 * sends SIGUSR2 to the process while four threads have it unblocked, so
 * any of them may take it: only the count is printed. */
#include "../programs/prog.h"
#include <pthread.h>
#include <signal.h>

#define NT 4

static volatile sig_atomic_t usr1_in_target, usr1_elsewhere, usr2_taken, stop;
static __thread int is_target;
static pthread_barrier_t ready;

static void on_usr1(int sig)
{
	(void)sig;
	if (is_target)
		usr1_in_target++;
	else
		usr1_elsewhere++;
}

static void on_usr2(int sig)
{
	(void)sig;
	usr2_taken++;
}

static void *worker(void *arg)
{
	is_target = arg != 0;
	pthread_barrier_wait(&ready);
	uint64_t h = 0;
	while (!stop)
		h = fnv(&h, sizeof h, h);
	return 0;
}

int main(void)
{
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGUSR2);
	struct sigaction sa = {0};
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, 0);
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, 0);
	pthread_barrier_init(&ready, 0, NT + 1);
	pthread_t t[NT];
	for (long i = 0; i < NT; i++)
		CHECK(pthread_create(&t[i], 0, worker, (void *)(long)(i == 2)) == 0);
	/* main leaves them to the workers */
	CHECK(pthread_sigmask(SIG_BLOCK, &s, 0) == 0);
	pthread_barrier_wait(&ready);
	for (int i = 0; i < 5; i++) {
		CHECK(pthread_kill(t[2], SIGUSR1) == 0);
		while (usr1_in_target + usr1_elsewhere < i + 1)
			usleep(1000);
		CHECK(kill(getpid(), SIGUSR2) == 0);
		while (usr2_taken < i + 1)
			usleep(1000);
	}
	stop = 1;
	for (int i = 0; i < NT; i++)
		CHECK(pthread_join(t[i], 0) == 0);
	printf("usr1 in the target %d, elsewhere %d; usr2 taken %d\n", (int)usr1_in_target,
	       (int)usr1_elsewhere, (int)usr2_taken);
	CHECK(usr1_in_target == 5 && usr1_elsewhere == 0 && usr2_taken == 5);
	return prog_done("thread_procsig");
}
