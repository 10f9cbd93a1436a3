/* thread_exit_loop: threads end (pthread_exit from a nested call, and a
 * detached one returning) while main keeps computing; main notices each
 * end by a flag the thread set just before, and goes on. */
#include "../programs/prog.h"
#include <pthread.h>

static volatile int ended[2];

static void leave(long v)
{
	ended[0] = 1;
	pthread_exit((void *)v);
}

static void *quitter(void *arg)
{
	(void)arg;
	leave(42);
	return 0;
}

static void *detached(void *arg)
{
	(void)arg;
	ended[1] = 1;
	return 0;
}

int main(void)
{
	pthread_t a, b;
	pthread_attr_t at;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	CHECK(pthread_create(&a, 0, quitter, 0) == 0);
	CHECK(pthread_create(&b, &at, detached, 0) == 0);
	uint64_t h = 0;
	long rounds = 0;
	while (!(ended[0] && ended[1]) || rounds < 100000)
		h = fnv(&rounds, sizeof rounds, h), rounds++;
	void *r;
	CHECK(pthread_join(a, &r) == 0);
	printf("the thread left with %ld; main went on computing: %s\n", (long)r,
	       rounds >= 100000 ? "yes" : "no");
	CHECK((long)r == 42);
	return prog_done("thread_exit_loop");
}
