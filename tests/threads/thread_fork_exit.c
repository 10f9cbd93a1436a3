/* thread_fork_exit: a thread forks (only it goes on in the child, which
 * starts a thread of its own), another sleeps in a loop, and a third
 * ends the whole process with exit() while main waits in pthread_join
 * for the sleeper. */
#include "../programs/prog.h"
#include <pthread.h>
#include <sys/wait.h>

static void *child_thread(void *arg)
{
	return (void *)((long)arg * 2);
}

static void *forker(void *arg)
{
	(void)arg;
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		pthread_t t;
		void *r = 0;
		int ok = pthread_create(&t, 0, child_thread, (void *)21) == 0 &&
		         pthread_join(t, &r) == 0;
		_exit(ok ? (int)(long)r : 1);
	}
	int st = 0;
	CHECK(p > 0 && waitpid(p, &st, 0) == p);
	printf("child of a thread exited with %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 42);
	return 0;
}

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		usleep(1000);
}

static void *ender(void *arg)
{
	pthread_t f = *(pthread_t *)arg;
	CHECK(pthread_join(f, 0) == 0);
	exit(prog_done("thread_fork_exit")); /* every thread ends */
}

int main(void)
{
	pthread_t f, s, e;
	CHECK(pthread_create(&s, 0, sleeper, 0) == 0);
	CHECK(pthread_create(&f, 0, forker, 0) == 0);
	CHECK(pthread_create(&e, 0, ender, &f) == 0);
	pthread_join(s, 0); /* never returns: ender's exit ends the process */
	printf("not reached\n");
	return 1;
}
