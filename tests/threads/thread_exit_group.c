/* thread_exit_group: a thread ends the whole process with _exit (the
 * exit_group syscall) while main and two others loop: the status is the
 * thread's, and nothing main would print comes out. */
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

static void *ender(void *arg)
{
	(void)arg;
	while (!go)
		;
	printf("ok thread_exit_group\n");
	fflush(stdout);
	_exit(7);
}

int main(void)
{
	pthread_t t;
	setvbuf(stdout, 0, _IOFBF, 1 << 12);
	CHECK(pthread_create(&t, 0, spin, (void *)1) == 0);
	CHECK(pthread_create(&t, 0, spin, (void *)2) == 0);
	CHECK(pthread_create(&t, 0, ender, 0) == 0);
	go = 1;
	uint64_t h = 0;
	for (;;)
		h = fnv(&h, sizeof h, h);
	printf("main never gets here\n");
	return 0;
}
