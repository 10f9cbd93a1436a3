/* thread_condvar: a producer and two consumers share a bounded queue on a
 * mutex and two condition variables; every item is taken once. */
#include "../programs/prog.h"
#include <pthread.h>

#define CAP 4
#define ITEMS 3000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static int queue[CAP], head, count, done;

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 1; i <= ITEMS; i++) {
		pthread_mutex_lock(&lock);
		while (count == CAP)
			pthread_cond_wait(&not_full, &lock);
		queue[(head + count++) % CAP] = i;
		pthread_cond_signal(&not_empty);
		pthread_mutex_unlock(&lock);
	}
	pthread_mutex_lock(&lock);
	done = 1;
	pthread_cond_broadcast(&not_empty);
	pthread_mutex_unlock(&lock);
	return 0;
}

static void *consumer(void *arg)
{
	long *sum = arg;
	for (;;) {
		pthread_mutex_lock(&lock);
		while (count == 0 && !done)
			pthread_cond_wait(&not_empty, &lock);
		if (count == 0) {
			pthread_mutex_unlock(&lock);
			return 0;
		}
		int v = queue[head];
		head = (head + 1) % CAP;
		count--;
		pthread_cond_signal(&not_full);
		pthread_mutex_unlock(&lock);
		sum[0] += v;
		sum[1]++;
	}
}

int main(void)
{
	pthread_t p, c[2];
	long sums[2][2] = {{0, 0}, {0, 0}};
	CHECK(pthread_create(&c[0], 0, consumer, sums[0]) == 0);
	CHECK(pthread_create(&c[1], 0, consumer, sums[1]) == 0);
	CHECK(pthread_create(&p, 0, producer, 0) == 0);
	CHECK(pthread_join(p, 0) == 0);
	CHECK(pthread_join(c[0], 0) == 0);
	CHECK(pthread_join(c[1], 0) == 0);
	long total = sums[0][0] + sums[1][0], n = sums[0][1] + sums[1][1];
	printf("items %ld sum %ld\n", n, total);
	CHECK(n == ITEMS && total == (long)ITEMS * (ITEMS + 1) / 2);
	return prog_done("thread_condvar");
}
