/* thread_mutex: 8 threads add to a counter under a mutex; the total is
 * exact, and each thread's own share is what it added. */
#include "../programs/prog.h"
#include <pthread.h>

#define NT 8
#define N 20000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *work(void *arg)
{
	long id = (long)arg, mine = 0;
	for (int i = 0; i < N; i++) {
		pthread_mutex_lock(&lock);
		counter += id + 1;
		pthread_mutex_unlock(&lock);
		mine += id + 1;
	}
	return (void *)mine;
}

int main(void)
{
	pthread_t t[NT];
	for (long i = 0; i < NT; i++)
		CHECK(pthread_create(&t[i], 0, work, (void *)i) == 0);
	long sum = 0;
	for (int i = 0; i < NT; i++) {
		void *r;
		CHECK(pthread_join(t[i], &r) == 0);
		printf("thread %d added %ld\n", i, (long)r);
		sum += (long)r;
	}
	printf("counter %ld\n", counter);
	CHECK(counter == sum && counter == (long)N * NT * (NT + 1) / 2);
	return prog_done("thread_mutex");
}
