/* thread_exec: a thread runs execve (of this program, with an argument)
 * while main and another thread loop: the other threads end, and the new
 * image starts as a single-threaded process that starts a thread itself. */
#include "../programs/prog.h"
#include <pthread.h>

static volatile int go;

static void *spin(void *arg)
{
	uint64_t h = (uint64_t)(uintptr_t)arg;
	for (;;)
		h = fnv(&h, sizeof h, h);
	return 0;
}

static void *add(void *arg) { return (void *)((long)arg + 1); }

static void *execer(void *arg)
{
	char *argv[] = {(char *)arg, "again", 0};
	while (!go)
		;
	execv("/proc/self/exe", argv);
	printf("execv failed\n");
	_exit(1);
}

int main(int argc, char **argv)
{
	pthread_t t;
	if (argc > 1) {
		void *r;
		CHECK(pthread_create(&t, 0, add, (void *)41) == 0);
		CHECK(pthread_join(t, &r) == 0);
		printf("after exec: a thread of the new image gave %ld\n", (long)r);
		CHECK((long)r == 42);
		return prog_done("thread_exec");
	}
	printf("before exec\n");
	fflush(stdout);
	CHECK(pthread_create(&t, 0, spin, (void *)1) == 0);
	CHECK(pthread_create(&t, 0, execer, argv[0]) == 0);
	go = 1;
	uint64_t h = 0;
	for (;;)
		h = fnv(&h, sizeof h, h);
}
