/* thread_clonevm_exec: a process made with clone(CLONE_VM) but not
 * CLONE_THREAD execs /bin/true.  Unrecorded it works; recorded, the exec
 * fails with ENOSYS and a message (runtime/record.c is_refused_exec:
 * docs/threads.md), and the replay gives the program the same failure.
 * Both ways the child's end is seen by main after waitpid. */
#include "../programs/prog.h"
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

static volatile int exec_errno;

static int child(void *arg)
{
	(void)arg;
	execl("/bin/true", "true", (char *)0);
	exec_errno = errno;
	_exit(127);
}

int main(void)
{
	static char stack[1 << 16] __attribute__((aligned(16)));
	pid_t p = clone(child, stack + sizeof stack, CLONE_VM | SIGCHLD, 0);
	int st = 0;
	CHECK(p > 0 && waitpid(p, &st, 0) == p && WIFEXITED(st));
	if (WEXITSTATUS(st) == 0)
		printf("the child exec'd /bin/true\n");
	else
		printf("the child's exec failed (%s)\n", exec_errno == ENOSYS ? "ENOSYS" : "?");
	CHECK(WEXITSTATUS(st) == 0 || (WEXITSTATUS(st) == 127 && exec_errno == ENOSYS));
	return prog_done("thread_clonevm_exec");
}
