/* rr: a signal that comes with a syscall's result runs its handler after
 * the call's effects, in the recording and in replay: the child's exit
 * sends SIGCHLD and wakes waitpid, whose status the handler prints.
 * rr-native: differs: on a loaded machine the child may exit before waitpid
 * rr-expect-out: ^handler 17: status 0x\(700\|0\)$
 * rr-expect-out: ^waitpid: 1, status 0x700$ */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
static int status = -1;
static void on_chld(int s)
{
	char buf[64];
	int n = snprintf(buf, sizeof buf, "handler %d: status 0x%x\n", s, status);
	write(1, buf, (size_t)n);
}
int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_chld;
	sigaction(SIGCHLD, &sa, 0);
	pid_t pid = fork();
	if (pid == 0) {
		usleep(100000); /* the parent waits in waitpid by then */
		_exit(7);
	}
	write(1, "A\n", 2);
	pid_t r = waitpid(pid, &status, 0);
	write(1, "B\n", 2);
	printf("waitpid: %d, status 0x%x\n", r == pid, status);
	return 0;
}
