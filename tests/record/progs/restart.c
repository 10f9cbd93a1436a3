/* restart: a blocking read interrupted by a signal whose handler has
 * SA_RESTART: the runtime cuts the call short, runs the handler, and runs
 * the call again, as the kernel would restart it.  The child signals the
 * parent once it waits in read (/proc/PID/syscall says so), then writes. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* 1 once pid is blocked in read(2) (syscall 0), within about 10 s; where
 * the file cannot be read (ptrace rules), 1 after 200 ms. */
static int wait_in_read(pid_t pid)
{
	char path[64], buf[64];
	snprintf(path, sizeof path, "/proc/%d/syscall", (int)pid);
	for (int i = 0; i < 5000; i++) {
		int fd = open(path, O_RDONLY);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
		if (fd >= 0)
			close(fd);
		if (n < 0) {
			usleep(200000);
			return 1;
		}
		if (n >= 2 && buf[0] == '0' && buf[1] == ' ')
			return 1;
		usleep(2000);
	}
	return 0;
}

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
		if (!wait_in_read(parent))
			_exit(2);
		usleep(20000);
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
