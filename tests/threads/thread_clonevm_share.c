/* thread_clonevm_share: clone(CLONE_VM | CLONE_SIGHAND | CLONE_FILES |
 * CLONE_FS) without CLONE_THREAD: a process that shares our memory, signal
 * handlers, fd table and cwd.  The child dups stdout (the fd is ours too),
 * installs a SIGUSR1 handler (ours too), chdirs to "/" (our cwd too) and
 * writes a word; main reads all four after waitpid.  Recorded, it runs as
 * a thread of the recording (docs/threads.md). */
#include "../programs/prog.h"
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

static volatile int shared_word, dup_fd = -1;
static volatile sig_atomic_t got;

static void on_usr1(int s) { got = s; }

static int child(void *arg)
{
	dup_fd = dup(1);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, 0);
	if (chdir("/") != 0)
		_exit(4);
	shared_word = (int)(long)arg;
	_exit(5);
}

int main(void)
{
	static char stack[1 << 16] __attribute__((aligned(16)));
	char cwd[4096];
	CHECK(getcwd(cwd, sizeof cwd) != 0);
	pid_t p = clone(child, stack + sizeof stack,
	                CLONE_VM | CLONE_SIGHAND | CLONE_FILES | CLONE_FS | SIGCHLD, (void *)77);
	int st = 0;
	CHECK(p > 0 && waitpid(p, &st, 0) == p);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 5);
	printf("child exited %d, wrote %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1, shared_word);
	CHECK(shared_word == 77);
	/* the fd table: the child's dup is ours */
	CHECK(dup_fd > 2 && fcntl(dup_fd, F_GETFD) >= 0);
	close(dup_fd);
	/* the handlers: the child's is ours */
	struct sigaction old;
	CHECK(sigaction(SIGUSR1, 0, &old) == 0 && old.sa_handler == on_usr1);
	raise(SIGUSR1);
	CHECK(got == SIGUSR1);
	/* the cwd: the child's chdir moved ours */
	char now[4096];
	CHECK(getcwd(now, sizeof now) != 0 && strcmp(now, "/") == 0);
	CHECK(chdir(cwd) == 0);
	printf("fd, handler and cwd shared\n");
	return prog_done("thread_clonevm_share");
}
