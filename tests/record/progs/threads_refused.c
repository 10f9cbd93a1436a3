/* threads_refused: recorded, a thread cannot start yet (issue 19):
 * pthread_create fails with EAGAIN after rdb's message, and the program
 * does the work itself; the recording ends whole and replays.  Run
 * unrecorded, the thread runs. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void *work(void *arg)
{
	long *sum = arg;
	for (long i = 1; i <= 1000; i++)
		*sum += i;
	return 0;
}

int main(void)
{
	long sum = 0;
	pthread_t t;
	int e = pthread_create(&t, 0, work, &sum);
	if (e == 0) {
		pthread_join(t, 0);
		printf("pthread_create: a thread did the work\n");
	} else {
		printf("pthread_create: %s, main does the work\n", e == EAGAIN ? "EAGAIN" : "other error");
		work(&sum);
	}
	printf("sum %ld\n", sum);
	return 0;
}
