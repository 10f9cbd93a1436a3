/* thread_racy: 8 threads increment one counter with no lock (a real data
 * race: updates get lost).  Unrecorded only what is deterministic is
 * printed: every thread ran its loop, and the total is at most 8 * N. */
#include "../programs/prog.h"
#include <pthread.h>

#define NT 8
#define N 200000

static volatile long counter;

static void *work(void *arg)
{
	long n = 0;
	(void)arg;
	for (int i = 0; i < N; i++, n++)
		counter = counter + 1; /* load, add, store: not atomic */
	return (void *)n;
}

int main(void)
{
	pthread_t t[NT];
	for (int i = 0; i < NT; i++)
		CHECK(pthread_create(&t[i], 0, work, 0) == 0);
	long loops = 0;
	for (int i = 0; i < NT; i++) {
		void *r;
		CHECK(pthread_join(t[i], &r) == 0);
		loops += (long)r;
	}
	printf("loops %ld, counter at most %ld: %s\n", loops, (long)NT * N,
	       counter > 0 && counter <= (long)NT * N ? "yes" : "no");
	CHECK(loops == (long)NT * N && counter > 0 && counter <= (long)NT * N);
	return prog_done("thread_racy");
}
