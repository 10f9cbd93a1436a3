/* thslow: boundaries taken by a thread other than the main one, each
 * followed by an interval that lasts longer than a second of wall time
 * (the worker sleeps; the main thread waits in pthread_join).  The
 * snapshot child such a boundary forks looks at its parent once a second
 * while it waits for its ranges; it once took that timeout for its ranges
 * and sent its values under a stale interval number, and the interval's
 * own values never came (record-check-threads-slow). */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static unsigned long work(unsigned long h, int n)
{
	for (int i = 0; i < n; i++)
		h = h * 33 + (unsigned long)i % 7;
	return h;
}

static void *worker(void *arg)
{
	unsigned long h = (unsigned long)arg;
	for (int round = 0; round < 2; round++) {
		h = work(h, 300000); /* past --every-sic: a boundary here */
		struct timespec ts = {1, 300000000};
		nanosleep(&ts, 0);
	}
	return (void *)(h % 100000);
}

int main(void)
{
	pthread_t t;
	void *r = 0;
	if (pthread_create(&t, 0, worker, (void *)5381) || pthread_join(t, &r))
		return 1;
	printf("worker: %ld\n", (long)r);
	return 0;
}
