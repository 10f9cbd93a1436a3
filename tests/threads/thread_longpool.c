/* thread_longpool: four workers live for the whole run (a pool), each
 * waiting in read() on its own pipe for main's go, then mixing racy
 * unlocked updates into a shared table and locked ones into a total
 * (a mutex held across time slices: futex waits).  Recorded with short intervals
 * (record-check-threads-bound), boundaries fall while all of them live:
 * parked after a time slice, blocked in read(), or not yet started.
 * Only what does not depend on the interleaving is printed. */
#include "../programs/prog.h"
#include <pthread.h>

#define NW 4
#define ROUNDS 40
#define WORK 10000

static int pipes[NW][2];
static volatile uint64_t table[64]; /* racy on purpose */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t locked_total; /* under lock: its end value is known */

static void *worker(void *arg)
{
	long id = (long)arg, got = 0;
	uint64_t h = (uint64_t)id;
	char c;
	for (int r = 0; r < ROUNDS; r++) {
		CHECK(read(pipes[id][0], &c, 1) == 1);
		got++;
		for (long i = 0; i < WORK; i++) {
			h = fnv(&i, sizeof i, h);
			table[(h >> 7) % 64] += h & 0xff;
			if (i % 512 == 0) { /* (held across slices: futex waits) */
				CHECK(pthread_mutex_lock(&lock) == 0);
				for (int k = 0; k < 200; k++)
					locked_total += (uint64_t)k;
				CHECK(pthread_mutex_unlock(&lock) == 0);
			}
		}
	}
	return (void *)got;
}

int main(void)
{
	pthread_t t[NW];
	for (long i = 0; i < NW; i++) {
		CHECK(pipe(pipes[i]) == 0);
		CHECK(pthread_create(&t[i], 0, worker, (void *)i) == 0);
	}
	uint64_t h = 0;
	for (int r = 0; r < ROUNDS; r++) {
		for (int i = 0; i < NW; i++)
			CHECK(write(pipes[i][1], "g", 1) == 1);
		for (long i = 0; i < WORK / 2; i++)
			h = fnv(&i, sizeof i, h);
	}
	for (int i = 0; i < NW; i++) {
		void *v;
		CHECK(pthread_join(t[i], &v) == 0);
		printf("worker %d: %ld rounds\n", i, (long)v);
	}
	printf("main: %04lx\n", (unsigned long)(h & 0xffff));
	printf("locked total: %lu\n", (unsigned long)locked_total);
	return prog_done("thread_longpool");
}
