/* thread_cancel: a thread blocked in read() on a pipe (a cancellation
 * point) is cancelled; its cleanup handler runs and join sees
 * PTHREAD_CANCELED.  Another disables cancellation until it is done. */
#include "../programs/prog.h"
#include <pthread.h>

static int fds[2];
static volatile int cleaned, started;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;

static void cleanup(void *arg)
{
	cleaned = (int)(long)arg;
}

static void *reader(void *arg)
{
	(void)arg;
	char c;
	pthread_cleanup_push(cleanup, (void *)7);
	pthread_mutex_lock(&lock);
	started = 1;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	for (;;)
		read(fds[0], &c, 1); /* never returns: nothing is written */
	pthread_cleanup_pop(0);
	return 0;
}

static void *stubborn(void *arg)
{
	(void)arg;
	int old;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	pthread_mutex_lock(&lock);
	started = 2;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	usleep(20000); /* a cancellation point, but cancellation is off */
	pthread_setcancelstate(old, 0);
	pthread_testcancel();
	return (void *)1;
}

int main(void)
{
	CHECK(pipe(fds) == 0);
	pthread_t t;
	void *r;
	CHECK(pthread_create(&t, 0, reader, 0) == 0);
	pthread_mutex_lock(&lock);
	while (started != 1)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	usleep(10000); /* let it block in read() */
	CHECK(pthread_cancel(t) == 0);
	CHECK(pthread_join(t, &r) == 0);
	printf("reader: %s, cleanup %d\n", r == PTHREAD_CANCELED ? "cancelled" : "returned", cleaned);
	CHECK(r == PTHREAD_CANCELED && cleaned == 7);

	CHECK(pthread_create(&t, 0, stubborn, 0) == 0);
	pthread_mutex_lock(&lock);
	while (started != 2)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	CHECK(pthread_cancel(t) == 0);
	CHECK(pthread_join(t, &r) == 0);
	printf("stubborn: %s\n", r == PTHREAD_CANCELED ? "cancelled at testcancel" : "returned");
	CHECK(r == PTHREAD_CANCELED);
	return prog_done("thread_cancel");
}
