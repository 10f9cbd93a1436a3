/* threads.c: three workers alive at once (tests/gdb-server/threads.sh),
 * each in a function of its own.  They take turns, in a fixed order
 * whatever the schedule (alpha, then beta, then gamma, each posting the
 * next one's semaphore), and each writes `shared` in its turn: the last
 * write is gamma's.  None ends before all three had their turn (a
 * barrier), so four threads live at every turn; main waits in
 * pthread_join meanwhile. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

volatile long shared;
static sem_t turn[4];
static pthread_barrier_t all_alive, done;

static long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

static void __attribute__((noinline)) in_alpha(long v) { shared = v; }
static void __attribute__((noinline)) in_beta(long v) { shared = v; }
static void __attribute__((noinline)) in_gamma(long v) { shared = v; }

static void *alpha(void *a)
{
	(void)a;
	pthread_barrier_wait(&all_alive);
	sem_wait(&turn[1]);
	in_alpha(100 + spin(20000) % 7);
	sem_post(&turn[2]);
	pthread_barrier_wait(&done);
	return NULL;
}

static void *beta(void *a)
{
	(void)a;
	pthread_barrier_wait(&all_alive);
	sem_wait(&turn[2]);
	in_beta(200 + spin(30000) % 7);
	sem_post(&turn[3]);
	pthread_barrier_wait(&done);
	return NULL;
}

static void *gamma_(void *a)
{
	(void)a;
	pthread_barrier_wait(&all_alive);
	sem_wait(&turn[3]);
	in_gamma(300 + spin(40000) % 7);
	pthread_barrier_wait(&done);
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	for (int i = 0; i < 4; i++)
		sem_init(&turn[i], 0, 0);
	pthread_barrier_init(&all_alive, NULL, 4);
	pthread_barrier_init(&done, NULL, 3);
	pthread_create(&t[0], NULL, alpha, NULL);
	pthread_create(&t[1], NULL, beta, NULL);
	pthread_create(&t[2], NULL, gamma_, NULL);
	pthread_barrier_wait(&all_alive);
	sem_post(&turn[1]);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("shared %ld\n", shared);
	return 0;
}
