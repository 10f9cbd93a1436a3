/* thbpwatch.c: writes of one global by put(), 1, 2, 3 each by a worker
 * of its own, one after the other, and 4 right after 3 by the third
 * (tests/gdb-server/threads.sh bpwatch: gdb's breakpoint on the
 * instruction after the write, where the watchpoint's stop is);
 * `thbpwatch one` makes the same calls from main, with no thread (a
 * recording without threads, to compare).  spin() between makes
 * intervals; 3 and 4 are in one. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

volatile long shared;

__attribute__((noipa)) static void put(long v)
{
	shared = v;
}

static long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

static void *worker(void *a)
{
	spin(20000);
	put((long)a);
	if ((long)a == 3)
		put(4);
	spin(20000);
	return NULL;
}

int main(int argc, char **argv)
{
	int one = argc > 1 && !strcmp(argv[1], "one");
	for (long k = 1; k <= 3; k++) {
		if (one) {
			worker((void *)k);
			continue;
		}
		pthread_t t;
		pthread_create(&t, NULL, worker, (void *)k);
		pthread_join(t, NULL);
	}
	printf("shared %ld\n", shared);
	return 0;
}
