/* thread_tls: __thread variables and pthread_key_* values are each
 * thread's own; key destructors run at each thread's exit. */
#include "../programs/prog.h"
#include <pthread.h>
#include <sched.h>

#define NT 6

static __thread long tls_counter = 100;
static __thread char tls_name[16];
static pthread_key_t key;
static long destroyed;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void destroy(void *v)
{
	pthread_mutex_lock(&lock);
	destroyed += (long)v;
	pthread_mutex_unlock(&lock);
}

static void *work(void *arg)
{
	long id = (long)arg;
	snprintf(tls_name, sizeof tls_name, "t%ld", id);
	CHECK(pthread_getspecific(key) == 0);
	CHECK(pthread_setspecific(key, (void *)(id + 1)) == 0);
	for (int i = 0; i < 1000 * (int)(id + 1); i++)
		tls_counter++;
	sched_yield();
	CHECK(tls_name[1] == '0' + id);
	CHECK(pthread_getspecific(key) == (void *)(id + 1));
	return (void *)tls_counter;
}

int main(void)
{
	CHECK(pthread_key_create(&key, destroy) == 0);
	pthread_t t[NT];
	for (long i = 0; i < NT; i++)
		CHECK(pthread_create(&t[i], 0, work, (void *)i) == 0);
	for (int i = 0; i < NT; i++) {
		void *r;
		CHECK(pthread_join(t[i], &r) == 0);
		printf("thread %d counter %ld\n", i, (long)r);
	}
	printf("main counter %ld, destructors saw %ld\n", tls_counter, destroyed);
	CHECK(tls_counter == 100 && destroyed == NT * (NT + 1) / 2);
	CHECK(pthread_key_delete(key) == 0);
	return prog_done("thread_tls");
}
