/* thread_vfork: vfork from two threads at once (each child runs on its
 * thread's stack and slot while that thread sleeps; each _exits with its
 * own status), and clone(CLONE_VM) without CLONE_THREAD: a process
 * sharing our memory writes a variable, ends with _exit, and main reads
 * the value after waitpid. */
#include "../programs/prog.h"
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

static pthread_barrier_t both;
static volatile int shared_word;

static void *vforker(void *arg)
{
	long k = (long)arg;
	pthread_barrier_wait(&both);
	pid_t p = vfork();
	if (p == 0)
		_exit((int)(10 + k));
	int st = 0;
	CHECK(p > 0 && waitpid(p, &st, 0) == p);
	return (void *)(long)(WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

static int child(void *arg)
{
	shared_word = (int)(long)arg;
	_exit(3);
}

int main(void)
{
	pthread_t t[2];
	pthread_barrier_init(&both, 0, 2);
	for (long k = 0; k < 2; k++)
		CHECK(pthread_create(&t[k], 0, vforker, (void *)k) == 0);
	for (int k = 0; k < 2; k++) {
		void *r;
		CHECK(pthread_join(t[k], &r) == 0);
		printf("vfork child of thread %d exited %ld\n", k, (long)r);
		CHECK((long)r == 10 + k);
	}
	static char stack[1 << 16] __attribute__((aligned(16)));
	pid_t p = clone(child, stack + sizeof stack, CLONE_VM | SIGCHLD, (void *)1234);
	int st = 0;
	CHECK(p > 0 && waitpid(p, &st, 0) == p);
	printf("CLONE_VM child exited %d, wrote %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1,
	       shared_word);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 3 && shared_word == 1234);
	return prog_done("thread_vfork");
}
