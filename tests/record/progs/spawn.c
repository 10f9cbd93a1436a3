/* system(), posix_spawn (clone(CLONE_VM|CLONE_VFORK) in musl) and vfork
 * while recording: as forks (untraced, or each recording itself from the
 * clone to its exec or exit with intervals).  The "hi" of /bin/sh (not
 * built with rdb-cc: its output is not recorded) is in the recording's
 * output, not in the replay's (checks.sh spawn); the statuses
 * the parent prints are in both. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(void)
{
	int st = system("echo hi");
	printf("system: status %d, exited %d, exit status %d\n", st, WIFEXITED(st),
	       WEXITSTATUS(st));
	st = system("exit 3");
	printf("system exit 3: exit status %d\n", WEXITSTATUS(st));

	pid_t pid;
	char *argv[] = {"true", NULL};
	int r = posix_spawn(&pid, "/bin/true", NULL, NULL, argv, environ);
	printf("posix_spawn /bin/true: %d, pid > 0: %d\n", r, pid > 0);
	if (waitpid(pid, &st, 0) != pid)
		return 1;
	printf("true: exited %d, exit status %d\n", WIFEXITED(st), WEXITSTATUS(st));

	r = posix_spawn(&pid, "/nonexistent/prog", NULL, NULL, argv, environ);
	printf("posix_spawn /nonexistent/prog: %d\n", r);

	pid = vfork();
	if (pid == 0)
		_exit(5);
	if (waitpid(pid, &st, 0) != pid)
		return 1;
	printf("vfork child: exit status %d\n", WEXITSTATUS(st));
	return 0;
}
