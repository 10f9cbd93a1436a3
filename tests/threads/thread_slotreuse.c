/* thread_slotreuse: two threads, one after the other, in the same runtime
 * slot, running the same loop: the second one's recorded event (its time
 * slice's end, a signal) comes at a count and pc the first one passed too.
 * Replay must arm only the second (the TARGET's born), or the first takes
 * the second's event and the replay diverges. */
#include "../programs/prog.h"
#include <pthread.h>
#include <signal.h>

static volatile sig_atomic_t stop;
static volatile long sink;

static void on_usr1(int sig)
{
	(void)sig;
	stop = 1;
}

static void *spin(void *arg)
{
	long n = (long)arg;
	for (long i = 0; !stop && i < n; i++)
		sink += i;
	return 0;
}

int main(void)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, 0);
	pthread_t t;
	/* the first: alone while main waits in join, it passes counts the
	 * second's events come at */
	CHECK(pthread_create(&t, 0, spin, (void *)3000000L) == 0);
	CHECK(pthread_join(t, 0) == 0);
	/* the second, in the freed slot: main wakes during its loop (its
	 * slice ends: a switch), then signals it */
	CHECK(pthread_create(&t, 0, spin, (void *)(1L << 40)) == 0);
	usleep(20000);
	CHECK(pthread_kill(t, SIGUSR1) == 0);
	CHECK(pthread_join(t, 0) == 0);
	printf("second thread stopped by its signal\n");
	return prog_done("thread_slotreuse");
}
