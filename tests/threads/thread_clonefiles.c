/* thread_clonefiles: clone(CLONE_FILES) without CLONE_VM, a fork-like child
 * sharing our fd table: its dup is ours after waitpid.  Unrecorded it
 * works; recorded, the clone fails with ENOSYS and a message (runtime/
 * record.c is_refused_clone: docs/threads.md says why), and the replay
 * gives the program the same failure. */
#include "../programs/prog.h"
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

static int child(void *arg)
{
	(void)arg;
	_exit(dup2(1, 57) == 57 ? 6 : 7);
}

int main(void)
{
	static char stack[1 << 16] __attribute__((aligned(16)));
	pid_t p = clone(child, stack + sizeof stack, CLONE_FILES | SIGCHLD, 0);
	if (p < 0) {
		printf("clone(CLONE_FILES) failed (%s)\n", errno == ENOSYS ? "ENOSYS" : "?");
		CHECK(errno == ENOSYS);
		return prog_done("thread_clonefiles");
	}
	int st = 0;
	CHECK(waitpid(p, &st, 0) == p && WIFEXITED(st) && WEXITSTATUS(st) == 6);
	CHECK(fcntl(57, F_GETFD) >= 0);
	printf("the child's dup2 is in our fd table\n");
	return prog_done("thread_clonefiles");
}
