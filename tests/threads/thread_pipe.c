/* thread_pipe: a thread blocks in read() on a pipe while three others
 * compute; main writes to the pipe only once they are done, so the
 * reader's wait must not stop them. */
#include "../programs/prog.h"
#include <pthread.h>

#define NC 3

static int fds[2];

static void *reader(void *arg)
{
	char buf[64];
	(void)arg;
	long got = 0, n;
	while ((n = read(fds[0], buf, sizeof buf)) > 0)
		got += n;
	return (void *)got;
}

static void *compute(void *arg)
{
	uint64_t h = 0;
	long id = (long)arg;
	for (long i = 0; i < 300000; i++)
		h = fnv(&i, sizeof i, h + (uint64_t)id);
	return (void *)(uintptr_t)(h & 0xffff);
}

int main(void)
{
	CHECK(pipe(fds) == 0);
	pthread_t r, c[NC];
	CHECK(pthread_create(&r, 0, reader, 0) == 0);
	usleep(20000); /* (the reader is most likely in read() by now) */
	for (long i = 0; i < NC; i++)
		CHECK(pthread_create(&c[i], 0, compute, (void *)i) == 0);
	for (int i = 0; i < NC; i++) {
		void *v;
		CHECK(pthread_join(c[i], &v) == 0);
		printf("compute %d: %04lx\n", i, (unsigned long)(uintptr_t)v);
	}
	CHECK(write(fds[1], "hello, reader", 13) == 13);
	close(fds[1]);
	void *got;
	CHECK(pthread_join(r, &got) == 0);
	printf("reader got %ld bytes\n", (long)got);
	CHECK((long)got == 13);
	return prog_done("thread_pipe");
}
