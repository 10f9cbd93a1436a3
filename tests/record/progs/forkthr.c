/* forkthr: fork while another thread lives.  "main": the main thread
 * forks while a second thread waits on a pipe; "thread": the second
 * thread forks while the main thread waits in pthread_join.  In the
 * child only the caller lives on; it computes, starts a thread of its
 * own, which waits on a pipe while it computes more, joins it, prints
 * and exits with 7.  The parent prints the child's
 * status (record-check-forkthr). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int fds[2];

static unsigned long work(const char *s, int n)
{
	unsigned long h = 5381;
	for (int i = 0; i < n; i++)
		for (const char *p = s; *p; p++)
			h = h * 33 + (unsigned char)*p + (unsigned long)i;
	return h % 100000;
}

static int kid_pipe[2];

/* (it lives, blocked in read, while the child computes: a replay from
 * the interval that started it has it alive for a while, forkthr.sh) */
static void *twice(void *arg)
{
	char c;
	return read(kid_pipe[0], &c, 1) == 1 ? (void *)((long)arg * 2) : 0;
}

static void child(const char *who)
{
	unsigned long h = work(who, 20000);
	pthread_t t;
	void *r = 0;
	int ok = pipe(kid_pipe) == 0 && pthread_create(&t, 0, twice, (void *)21) == 0;
	h += work("more", 20000);
	ok = ok && write(kid_pipe[1], "x", 1) == 1 && pthread_join(t, &r) == 0;
	printf("child of %s: %lu, its thread gave %ld\n", who, h, ok ? (long)r : -1);
	fflush(stdout);
	_exit(7);
}

static void parent(pid_t p, const char *who)
{
	int st = 0;
	if (p < 0 || waitpid(p, &st, 0) != p)
		printf("%s: no child\n", who);
	else
		printf("%s: child exit status %d\n", who, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

static void *waiter(void *arg)
{
	char c;
	(void)arg;
	return read(fds[0], &c, 1) == 1 ? (void *)1 : 0;
}

static void *forker(void *arg)
{
	(void)arg;
	fflush(stdout);
	pid_t p = fork();
	if (p == 0)
		child("a thread");
	parent(p, "thread");
	return (void *)1;
}

int main(int argc, char **argv)
{
	pthread_t t;
	void *r = 0;
	printf("start: %lu\n", work("start", 5000));
	if (argc == 2 && strcmp(argv[1], "main") == 0) {
		if (pipe(fds) || pthread_create(&t, 0, waiter, 0))
			return 1;
		fflush(stdout);
		pid_t p = fork();
		if (p == 0)
			child("main");
		parent(p, "main");
		if (write(fds[1], "x", 1) != 1)
			return 1;
	} else if (argc == 2 && strcmp(argv[1], "thread") == 0) {
		if (pthread_create(&t, 0, forker, 0))
			return 1;
	} else {
		return 2;
	}
	if (pthread_join(t, &r) || r != (void *)1)
		return 1;
	printf("end: %lu\n", work("end", 5000));
	return 0;
}
