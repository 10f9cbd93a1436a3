/* limits (stop): a program that asks for fds 1000-1003 by number, which
 * the recording holds (its channel, its values socket, a fork child's
 * channel and lock).  A fork child gets fd 1002 from fcntl(F_DUPFD):
 * rdb stops recording that child's output; then the program's dup2 onto
 * fd 1000 (it failed with EBADF, the program saw another run than its
 * native one): the recording stops cleanly there and the program gets
 * its fd and runs on, as natively.  Boundaries pass before and after. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long work(unsigned long n)
{
	volatile unsigned long s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += i * i;
	return s;
}

static int say(int fd, const char *what)
{
	return write(fd, what, strlen(what)) == (ssize_t)strlen(what) ? 0 : 1;
}

int main(void)
{
	unsigned long s = work(3000000);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = fcntl(1, F_DUPFD, 1002);
		_exit(fd != 1002 || say(fd, "child: fd 1002\n"));
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("the child failed\n");
		return 1;
	}
	s += work(3000000);
	int r = dup2(1, 1000);
	if (r != 1000 || say(1000, "parent: fd 1000\n")) {
		printf("dup2(1, 1000) = %d\n", r);
		return 1;
	}
	s += work(3000000);
	printf("sum %lu\n", s);
	return 0;
}
