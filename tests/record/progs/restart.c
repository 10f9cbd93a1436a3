/* restart: a blocking read interrupted by a signal whose handler has
 * SA_RESTART: the runtime cuts the call short, runs the handler, and runs
 * the call again, as the kernel would restart it.  The child signals the
 * parent while it waits, then writes. */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int handled;

static void on_usr1(int sig) { handled += sig == SIGUSR1; }

int main(void)
{
	struct sigaction sa = {.sa_handler = on_usr1, .sa_flags = SA_RESTART};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, 0);
	int p[2];
	if (pipe(p))
		return 1;
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		usleep(200000); /* the parent waits in read by then */
		kill(parent, SIGUSR1);
		usleep(100000);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		_exit(0);
	}
	char c = 0;
	ssize_t n = read(p[0], &c, 1);
	int st;
	waitpid(pid, &st, 0);
	printf("read %zd '%c', handler ran %d, child status %d\n", n, c, handled, WEXITSTATUS(st));
	return 0;
}
