/* thread_sync: a reader-writer lock, a semaphore and pthread_once among
 * 6 threads: writers keep an invariant readers check, the semaphore
 * hands out a fixed number of tokens, the once routine runs once. */
#include "../programs/prog.h"
#include <pthread.h>
#include <semaphore.h>

#define NT 6
#define ROUNDS 2000

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static long a, b = 1000; /* a + b == 1000 under the lock */
static sem_t tokens;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs, bad_reads;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long tokens_taken;

static void init_once(void) { once_runs++; }

static void *work(void *arg)
{
	long id = (long)arg;
	pthread_once(&once, init_once);
	for (int i = 0; i < ROUNDS; i++) {
		if ((i + id) % 4 == 0) {
			pthread_rwlock_wrlock(&rw);
			a++, b--;
			pthread_rwlock_unlock(&rw);
		} else {
			pthread_rwlock_rdlock(&rw);
			if (a + b != 1000)
				__atomic_add_fetch(&bad_reads, 1, __ATOMIC_RELAXED);
			pthread_rwlock_unlock(&rw);
		}
		if (sem_trywait(&tokens) == 0) {
			pthread_mutex_lock(&lock);
			tokens_taken++;
			pthread_mutex_unlock(&lock);
		}
	}
	return 0;
}

int main(void)
{
	CHECK(sem_init(&tokens, 0, 100) == 0);
	pthread_t t[NT];
	for (long i = 0; i < NT; i++)
		CHECK(pthread_create(&t[i], 0, work, (void *)i) == 0);
	for (int i = 0; i < NT; i++)
		CHECK(pthread_join(t[i], 0) == 0);
	int left;
	sem_getvalue(&tokens, &left);
	printf("writes %ld, bad reads %d, once %d, tokens taken %ld, left %d\n", a, bad_reads,
	       once_runs, tokens_taken, left);
	CHECK(a == NT * ROUNDS / 4 && bad_reads == 0 && once_runs == 1 && tokens_taken == 100 && left == 0);
	return prog_done("thread_sync");
}
