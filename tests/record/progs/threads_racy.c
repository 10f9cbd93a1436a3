/* threads_racy.c: 8 threads increment one counter without a lock (a real
 * data race), and each its own one with it.  The load and the store of
 * the shared counter lie on both sides of a call, whose SIC check a time
 * slice may end at while recording (and a CPU anywhere natively): the
 * total is racy, and the replay must print the recording's total.  Each
 * thread also counts its iterations in a shared `ticks` (its load and its
 * store with no check between: exact) and hashes what it loaded of both:
 * the hash tells apart interleavings that end with the same total (where
 * each thread resumes storing a stale counter, the counter alone does
 * not), since a thread's first `ticks` after a switch is the number of
 * iterations all threads ran before it. */
#include <pthread.h>
#include <stdio.h>

#define NT 8
#define N 200000

static volatile long counter, ticks;
static long own[NT];
static unsigned long seen[NT];

static __attribute__((noinline)) long next(long v)
{
	__asm__ volatile("" : : : "memory");
	return v + 1;
}

static void *work(void *arg)
{
	long k = (long)arg;
	for (long i = 0; i < N; i++) {
		long v = counter, t = ticks;
		ticks = t + 1;
		seen[k] = seen[k] * 31 + (unsigned long)(v ^ t << 32);
		counter = next(v);
		own[k]++;
	}
	return 0;
}

int main(void)
{
	pthread_t t[NT];
	for (long k = 0; k < NT; k++)
		if (pthread_create(&t[k], 0, work, (void *)k)) {
			perror("pthread_create");
			return 1;
		}
	long sum = 0;
	unsigned long h = 0;
	for (int k = 0; k < NT; k++) {
		pthread_join(t[k], 0);
		sum += own[k];
		h = h * 1000003 + seen[k];
	}
	printf("threads %d, increments %ld, counter %ld (%s), loads hash %016lx\n", NT, sum,
	       counter, counter == sum ? "no race seen" : "racy", h);
	return 0;
}
