/* limits (stop): kidsnofile.c with RLIMIT_NOFILE's hard limit lowered to
 * 64 too: no fds 1002-1003 for the fork child's recorded output can be
 * had, so its output would be missing from the trace (it was, silently).
 * The recording stops cleanly at the fork; both processes run on. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	struct rlimit rl = {64, 64};
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		perror("setrlimit");
		return 2;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		printf("child: hello\n");
		return 0;
	}
	int st = -1;
	waitpid(pid, &st, 0);
	printf("parent: child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
