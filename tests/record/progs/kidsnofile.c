/* rr: a program that lowers RLIMIT_NOFILE's soft limit to 64, below the
 * fds 1002-1003 a fork child's recorded output needs, then forks: the
 * child's output was missing from the trace (the runtime's dup3 failed,
 * silently), so the replay printed only the parent's.  The runtime raises
 * the soft limit while it makes those fds.
 *   With the argument "hard" the hard limit goes to 64 too: no fds
 * 1002-1003 can be had then, and the recording stops cleanly at the fork
 * (limits.sh); both processes run on.
 * limits-variant: hard (stop)
 * rr-expect-out: ^child: hello$
 * rr-expect-out: ^parent: child status 0$ */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int hard = argc > 1 && strcmp(argv[1], "hard") == 0;
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = 64;
	if (hard) {
		rl.rlim_max = 64;
	} else if (rl.rlim_max < 1004) {
		printf("the hard limit is already low\n");
		return 2;
	}
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
