/* sys_waitpid.c: a child exits with 7; waitpid(2) writes the status.
 * Going back the status is what it was, and a watchpoint on it stops at
 * the call both ways. */
#include <sys/wait.h>
#include <unistd.h>

int status = -1;
int code;

int main(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(7);
	status = -2; // @before
	pid_t w = waitpid(pid, &status, 0); // @waitpid
	code = WEXITSTATUS(status); // @code
	return (w == pid && code == 7) ? 0 : 1; // @end
}
