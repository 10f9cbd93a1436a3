/* thnest: a thread that starts threads while the main thread waits in
 * pthread_join.  Boundaries (--every-sic) fall in the worker's loop, so
 * an interval begins with thread 0 alive but parked and the worker
 * holding the token, which starts a thread a little later.  Replayed
 * --from such an interval, the worker runs as soon as the replay's first
 * thread has made it again, while that thread may still be making the
 * others (record-check-threads-revive, threvive.c). */
#include <pthread.h>
#include <stdio.h>

static unsigned long work(unsigned long h, int n)
{
	for (int i = 0; i < n; i++)
		h = h * 33 + (unsigned long)i % 7;
	return h;
}

static void *inner(void *arg)
{
	return (void *)(work((unsigned long)arg, 3000) % 100000);
}

static void *outer(void *arg)
{
	unsigned long h = (unsigned long)arg;
	for (int round = 0; round < 3; round++) {
		pthread_t t;
		void *r = 0;
		h = work(h, 30000); /* past --every-sic: a boundary here */
		if (pthread_create(&t, 0, inner, (void *)h) || pthread_join(t, &r))
			return 0;
		h += (unsigned long)r;
	}
	return (void *)(h % 100000 + 1);
}

int main(void)
{
	pthread_t t;
	void *r = 0;
	if (pthread_create(&t, 0, outer, (void *)5381) || pthread_join(t, &r) || !r)
		return 1;
	printf("outer: %ld\n", (long)r - 1);
	return 0;
}
