/* thread_many: 200 short-lived threads, a few at a time, each returning a
 * value of its own; the runtime's per-thread slots are reused. */
#include "../programs/prog.h"
#include <pthread.h>

#define TOTAL 200
#define AT_ONCE 5

static void *square(void *arg)
{
	long v = (long)arg;
	return (void *)(v * v);
}

int main(void)
{
	long sum = 0;
	for (long i = 0; i < TOTAL; i += AT_ONCE) {
		pthread_t t[AT_ONCE];
		for (long j = 0; j < AT_ONCE; j++)
			CHECK(pthread_create(&t[j], 0, square, (void *)(i + j)) == 0);
		for (long j = 0; j < AT_ONCE; j++) {
			void *r;
			CHECK(pthread_join(t[j], &r) == 0);
			sum += (long)r;
		}
	}
	/* and a few detached ones, which free their own stacks */
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	for (long i = 0; i < 10; i++) {
		pthread_t t;
		CHECK(pthread_create(&t, &a, square, (void *)i) == 0);
	}
	printf("threads %d sum of squares %ld\n", TOTAL, sum);
	CHECK(sum == (long)(TOTAL - 1) * TOTAL * (2 * TOTAL - 1) / 6);
	return prog_done("thread_many");
}
