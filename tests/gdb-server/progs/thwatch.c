/* thwatch.c: three workers write one global in turns (tests/gdb-server/
 * threads.sh watch): in each of two rounds alpha, then beta, then gamma
 * (each posting the next one's semaphore) stores its value in `shared`
 * (1, 2, 3, then 11, 12, 13), whatever the schedule; spin() between
 * makes time slices and intervals.  main waits in pthread_join. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

volatile long shared;
static sem_t turn[4];

static long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

static void *worker(void *a)
{
	long k = (long)a;
	for (long r = 0; r < 2; r++) {
		sem_wait(&turn[k]);
		spin(20000);
		shared = 10 * r + k;
		sem_post(&turn[k % 3 + 1]);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	for (int i = 0; i < 4; i++)
		sem_init(&turn[i], 0, 0);
	for (long k = 1; k <= 3; k++)
		pthread_create(&t[k - 1], NULL, worker, (void *)k);
	sem_post(&turn[1]);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("shared %ld\n", shared);
	return 0;
}
