/* checks.sh execfail: an execve that fails (ENOENT) must not end the
 * intervals: the work after it spans many of them, each replayable from
 * its start.  With an argument, the program then execs /bin/sh, which says
 * whether rdb's values socket (fd 1001) leaked into it (it must not: it is
 * close-on-exec). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static unsigned long work(unsigned long x, int n)
{
	static unsigned long table[4096];
	for (int i = 0; i < n; i++) {
		table[i % 4096] += x;
		x = x * 6364136223846793005ul + table[(i * 7) % 4096];
	}
	return x;
}

int main(int argc, char **argv)
{
	unsigned long x = work(1, 1000);
	char *args[] = {"/nonexistent/rdb-no-such-prog", 0};
	char *env[] = {0};
	int r = execve(args[0], args, env);
	printf("execve: %d (%s)\n", r, strerror(errno));
	fflush(stdout);
	for (int round = 0; round < 30; round++) {
		x = work(x, 200000);
		printf("round %d %lx\n", round, x);
		fflush(stdout);
	}
	if (argc > 1) {
		char *sh[] = {"sh", "-c",
		              "if [ -e /proc/self/fd/1001 ]; then echo 'fd 1001: open'; "
		              "else echo 'fd 1001: closed'; fi", 0};
		execve("/bin/sh", sh, env);
		perror("execve /bin/sh");
		return 1;
	}
	return 0;
}
