/* thread_manyalive: more threads alive at once than the runtime has slots
 * for (runtime/layout.h RDB_THREAD_MAX, 1024, main included).  Each thread
 * blocks in read() on a pipe; main creates up to TOTAL of them.  Under
 * rdb-cc pthread_create fails with EAGAIN once the slots are taken, and a
 * recording must record that failure and replay it (docs/threads.md);
 * built with gcc, all may be made.  Only what is true of both is printed;
 * stderr goes to /dev/null meanwhile (the runtime says why clone failed). */
#include "../programs/prog.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#define TOTAL 1100

static int pipefd[2];

static void *waiter(void *arg)
{
	char c;
	CHECK(read(pipefd[0], &c, 1) == 1);
	return arg;
}

int main(void)
{
	static pthread_t t[TOTAL];
	CHECK(pipe(pipefd) == 0);
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 64 << 10);
	int made = 0, err = 0;
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	CHECK(saved >= 0 && null >= 0 && dup2(null, 2) == 2);
	while (made < TOTAL) {
		err = pthread_create(&t[made], &a, waiter, (void *)(long)made);
		if (err)
			break;
		made++;
	}
	CHECK(dup2(saved, 2) == 2);
	close(saved);
	close(null);
	CHECK(err == 0 || err == EAGAIN);
	CHECK(made >= 300);
	printf("at least 300 threads alive at once, any failure EAGAIN\n");
	/* One byte each: every thread ends. */
	static char bytes[TOTAL];
	CHECK(write(pipefd[1], bytes, made) == made);
	long sum = 0;
	for (int k = 0; k < made; k++) {
		void *r;
		CHECK(pthread_join(t[k], &r) == 0);
		sum += (long)r;
	}
	CHECK(sum == (long)made * (made - 1) / 2);
	printf("all joined\n");
	/* and the slots serve again */
	CHECK(pthread_create(&t[0], 0, waiter, 0) == 0);
	CHECK(write(pipefd[1], bytes, 1) == 1);
	CHECK(pthread_join(t[0], 0) == 0);
	return prog_done("thread_manyalive");
}
