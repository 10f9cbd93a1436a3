/* thread_pool: 4 workers take 200 tasks from a queue (a mutex and two
 * condition variables); each task's result lands in its own slot, so the
 * results and their sum do not depend on which worker ran what. */
#include "../programs/prog.h"
#include <pthread.h>

#define NW 4
#define NTASK 200

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t have_work = PTHREAD_COND_INITIALIZER, all_done = PTHREAD_COND_INITIALIZER;
static int queue[NTASK], head, tail, done, stop;
static uint64_t result[NTASK];

static uint64_t task(int k)
{
	uint64_t h = 0;
	for (int i = 0; i <= k * 10; i++)
		h = fnv(&i, sizeof i, h);
	return h;
}

static void *worker(void *arg)
{
	long ran = 0;
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&lock);
		while (head == tail && !stop)
			pthread_cond_wait(&have_work, &lock);
		if (head == tail && stop) {
			pthread_mutex_unlock(&lock);
			return (void *)ran;
		}
		int k = queue[head++];
		pthread_mutex_unlock(&lock);
		result[k] = task(k);
		ran++;
		pthread_mutex_lock(&lock);
		if (++done == NTASK)
			pthread_cond_signal(&all_done);
		pthread_mutex_unlock(&lock);
	}
}

int main(void)
{
	pthread_t t[NW];
	for (int i = 0; i < NW; i++)
		CHECK(pthread_create(&t[i], 0, worker, 0) == 0);
	for (int k = 0; k < NTASK; k++) {
		pthread_mutex_lock(&lock);
		queue[tail++] = k;
		pthread_cond_signal(&have_work);
		pthread_mutex_unlock(&lock);
	}
	pthread_mutex_lock(&lock);
	while (done < NTASK)
		pthread_cond_wait(&all_done, &lock);
	stop = 1;
	pthread_cond_broadcast(&have_work);
	pthread_mutex_unlock(&lock);
	long ran = 0;
	for (int i = 0; i < NW; i++) {
		void *r;
		CHECK(pthread_join(t[i], &r) == 0);
		ran += (long)r;
	}
	uint64_t h = fnv(result, sizeof result, 0);
	printf("tasks run %ld, results hash %016llx\n", ran, (unsigned long long)h);
	CHECK(ran == NTASK && result[NTASK - 1] == task(NTASK - 1));
	return prog_done("thread_pool");
}
