/* pipe_fork: pipes to and from a child made by fork, dup2 of the child's
 * stdout onto a pipe, fcntl (flags, O_NONBLOCK, F_DUPFD_CLOEXEC), wait
 * statuses, a pipe with no reader (EPIPE), and an exec of this program
 * itself in a child (argv "child"). */
#include "prog.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

static int child_mode(int argc, char **argv)
{
	/* exec'd: print our arguments and a sum read from stdin */
	long sum = 0, v;
	printf("exec child: argc %d, args", argc);
	for (int i = 1; i < argc; i++)
		printf(" [%s]", argv[i]);
	printf("\n");
	while (scanf("%ld", &v) == 1)
		sum += v;
	printf("exec child: sum %ld\n", sum);
	return 5;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child_mode(argc, argv);
	fflush(stdout);

	/* parent -> child -> parent through two pipes */
	int down[2], up[2];
	CHECK(pipe(down) == 0 && pipe2(up, O_CLOEXEC) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		close(down[1]);
		close(up[0]);
		char buf[256];
		ssize_t n;
		unsigned sum = 0, count = 0;
		while ((n = read(down[0], buf, sizeof buf)) > 0)
			for (ssize_t i = 0; i < n; i++) {
				sum = sum * 31 + (unsigned char)buf[i];
				count++;
			}
		char msg[64];
		int len = snprintf(msg, sizeof msg, "child got %u bytes, sum %u\n", count, sum);
		if (write(up[1], msg, len) != len)
			_exit(3);
		_exit(count == 100000 ? 0 : 1);
	}
	CHECK(pid > 0);
	close(down[0]);
	close(up[1]);
	char big[100000];
	for (size_t i = 0; i < sizeof big; i++)
		big[i] = (char)(i % 251);
	size_t off = 0;
	while (off < sizeof big) {
		ssize_t w = write(down[1], big + off, sizeof big - off);
		CHECK(w > 0);
		if (w <= 0)
			break;
		off += w;
	}
	close(down[1]);
	char reply[128];
	ssize_t r = read(up[0], reply, sizeof reply - 1);
	CHECK(r > 0);
	reply[r > 0 ? r : 0] = 0;
	fputs(reply, stdout);
	close(up[0]);
	int status;
	CHECK(waitpid(pid, &status, 0) == pid);
	printf("child 1: exited %d status %d\n", WIFEXITED(status), WEXITSTATUS(status));

	/* child's stdout dup2'd onto a pipe */
	int p[2];
	CHECK(pipe(p) == 0);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		for (int i = 0; i < 3; i++)
			printf("line %d from the child\n", i);
		fflush(stdout);
		_exit(0);
	}
	close(p[1]);
	FILE *f = fdopen(p[0], "r");
	char line[128];
	while (fgets(line, sizeof line, f))
		printf("parent read: %s", line);
	fclose(f);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* fcntl */
	CHECK(pipe(p) == 0);
	int fl = fcntl(p[0], F_GETFL);
	printf("pipe read end: rdonly %d, nonblock %d\n", (fl & O_ACCMODE) == O_RDONLY, !!(fl & O_NONBLOCK));
	CHECK(fcntl(p[0], F_SETFL, fl | O_NONBLOCK) == 0);
	char c;
	CHECK(read(p[0], &c, 1) == -1);
	printf("empty nonblocking read: %s\n", errname(errno));
	int d = fcntl(p[1], F_DUPFD_CLOEXEC, 50);
	printf("dupfd >= 50: %d, cloexec: %d\n", d >= 50, fcntl(d, F_GETFD) == FD_CLOEXEC);
	CHECK(write(d, "x", 1) == 1);
	CHECK(read(p[0], &c, 1) == 1 && c == 'x');
	int d2 = dup(p[0]);
	CHECK(dup2(d2, 60) == 60);
	CHECK(fcntl(60, F_GETFD) == 0);
	close(d2);
	close(60);
	close(d);
	close(p[1]);
	CHECK(read(p[0], &c, 1) == 0); /* all writers gone: end of file */
	close(p[0]);

	/* writing to a pipe without a reader: EPIPE (SIGPIPE ignored) */
	signal(SIGPIPE, SIG_IGN);
	CHECK(pipe(p) == 0);
	close(p[0]);
	CHECK(write(p[1], "y", 1) == -1);
	printf("write without reader: %s\n", errname(errno));
	close(p[1]);
	signal(SIGPIPE, SIG_DFL);

	/* a child that dies of SIGPIPE (no read end anywhere: closed first) */
	CHECK(pipe(p) == 0);
	close(p[0]);
	pid = fork();
	if (pid == 0) {
		if (write(p[1], "z", 1) < 0)
			_exit(4);
		_exit(4);
	}
	close(p[1]);
	CHECK(waitpid(pid, &status, 0) == pid);
	printf("child 3: signaled %d signal %d / exited %d\n", WIFSIGNALED(status),
	       WIFSIGNALED(status) ? WTERMSIG(status) : 0, WIFEXITED(status));

	/* exec this program in a child, feeding its stdin from a pipe */
	CHECK(pipe(p) == 0);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		dup2(p[0], 0);
		close(p[0]);
		close(p[1]);
		char *args[] = { argv[0], "child", "two words", "", NULL };
		execv("/proc/self/exe", args);
		_exit(127);
	}
	close(p[0]);
	const char *nums = "1 2 3 4 5 6 7 8 9 10\n";
	CHECK(write(p[1], nums, strlen(nums)) == (ssize_t)strlen(nums));
	close(p[1]);
	CHECK(waitpid(pid, &status, 0) == pid);
	printf("exec child: exited %d status %d\n", WIFEXITED(status), WEXITSTATUS(status));
	CHECK(waitpid(-1, &status, WNOHANG) == -1 && errno == ECHILD);
	return prog_done("pipe_fork");
}
