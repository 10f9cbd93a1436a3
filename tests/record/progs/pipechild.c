/* rr: a pipe to a fork child, which runs untraced; only the parent prints
 * (kids.c has children that print).
 * rr-native: differs: the child's pid
 * rr-expect-out: ^parent got: child pid [1-9][0-9]* says hi$
 * rr-expect-out: ^child exit 7$ */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void)
{
	int p[2];
	if (pipe(p))
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		char msg[64];
		int n = snprintf(msg, sizeof msg, "child pid %d says hi\n", (int)getpid());
		write(p[1], msg, n);
		_exit(7);
	}
	close(p[1]);
	char buf[128];
	ssize_t n = read(p[0], buf, sizeof buf - 1);
	buf[n > 0 ? n : 0] = 0;
	int st;
	waitpid(pid, &st, 0);
	printf("parent got: %s", buf);
	printf("child exit %d\n", WEXITSTATUS(st));
	return 0;
}
