/* thread_robust: a robust mutex whose owner thread ends while holding
 * it: the next lock returns EOWNERDEAD, pthread_mutex_consistent makes
 * it usable again; a second owner dies and the lock is then left
 * inconsistent: ENOTRECOVERABLE. */
#include "../programs/prog.h"
#include <pthread.h>

static pthread_mutex_t m;

static void *owner(void *arg)
{
	(void)arg;
	CHECK(pthread_mutex_lock(&m) == 0);
	return 0; /* ends holding it */
}

int main(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	CHECK(pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST) == 0);
	CHECK(pthread_mutex_init(&m, &a) == 0);
	pthread_t t;
	CHECK(pthread_create(&t, 0, owner, 0) == 0);
	CHECK(pthread_join(t, 0) == 0);
	int r = pthread_mutex_lock(&m);
	printf("lock after the owner died: %s\n", r == EOWNERDEAD ? "EOWNERDEAD" : "other");
	CHECK(r == EOWNERDEAD);
	CHECK(pthread_mutex_consistent(&m) == 0);
	CHECK(pthread_mutex_unlock(&m) == 0);
	CHECK(pthread_mutex_lock(&m) == 0);
	CHECK(pthread_mutex_unlock(&m) == 0);
	printf("consistent again: lock and unlock work\n");
	CHECK(pthread_create(&t, 0, owner, 0) == 0);
	CHECK(pthread_join(t, 0) == 0);
	r = pthread_mutex_lock(&m);
	CHECK(r == EOWNERDEAD);
	CHECK(pthread_mutex_unlock(&m) == 0); /* not made consistent */
	r = pthread_mutex_lock(&m);
	printf("left inconsistent: %s\n", r == ENOTRECOVERABLE ? "ENOTRECOVERABLE" : "other");
	CHECK(r == ENOTRECOVERABLE);
	return prog_done("thread_robust");
}
