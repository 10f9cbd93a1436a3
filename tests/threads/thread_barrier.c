/* thread_barrier: 4 threads fill their part of an array in rounds, a
 * barrier between rounds; each round reads the others' last round. */
#include "../programs/prog.h"
#include <pthread.h>

#define NT 4
#define ROUNDS 50

static pthread_barrier_t barrier;
static long cell[2][NT];
static int serial_count;

static void *work(void *arg)
{
	long id = (long)arg;
	for (int r = 0; r < ROUNDS; r++) {
		long s = 0;
		for (int j = 0; j < NT; j++)
			s += cell[r & 1][j];
		cell[(r + 1) & 1][id] = (s + id + 1) % 1000003;
		if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
			serial_count++;
	}
	return 0;
}

int main(void)
{
	CHECK(pthread_barrier_init(&barrier, 0, NT) == 0);
	pthread_t t[NT];
	for (long i = 0; i < NT; i++)
		CHECK(pthread_create(&t[i], 0, work, (void *)i) == 0);
	for (int i = 0; i < NT; i++)
		CHECK(pthread_join(t[i], 0) == 0);
	for (int j = 0; j < NT; j++)
		printf("cell %d: %ld\n", j, cell[ROUNDS & 1][j]);
	printf("serial threads %d\n", serial_count);
	CHECK(serial_count == ROUNDS);
	CHECK(pthread_barrier_destroy(&barrier) == 0);
	return prog_done("thread_barrier");
}
