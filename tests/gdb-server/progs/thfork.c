/* thfork.c: a fork by a thread other than the main one, for gdb on the
 * child's replay (tests/gdb-server/threads.sh fork).  The main thread
 * waits in pthread_join while its worker forks; in the child only the
 * worker lives on (in its runtime slot, 1): it calls in_child three
 * times with work between (intervals with --every-sic), starts a thread
 * of its own (in_kid) between the second and third, and exits 7.  The
 * parent prints the child's status. */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

volatile long last;

static long spin(long n)
{
	long s = 0;
	for (long i = 0; i < n; i++)
		s += i ^ (s >> 3);
	return s;
}

static void __attribute__((noinline)) in_child(long v) { last = v; }
static void *__attribute__((noinline)) in_kid(void *a) { last = (long)a; return a; }

static _Noreturn void child(void)
{
	pthread_t t;
	void *r = 0;
	in_child(1);
	spin(30000);
	in_child(2);
	if (pthread_create(&t, NULL, in_kid, (void *)40) || pthread_join(t, &r))
		_exit(1);
	spin(30000);
	in_child(3);
	printf("child: last %ld, its thread gave %ld\n", last, (long)r);
	fflush(stdout);
	_exit(7);
}

static void *forker(void *a)
{
	(void)a;
	fflush(stdout);
	pid_t p = fork();
	if (p == 0)
		child();
	int st = 0;
	if (p < 0 || waitpid(p, &st, 0) != p)
		printf("no child\n");
	else
		printf("child exit status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return NULL;
}

int main(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, forker, NULL) || pthread_join(t, NULL))
		return 1;
	return 0;
}
