/* rr: the program's own fork children (runtime/children.c, shared.c).
 * Their writes to stdout and stderr are replayed where they came: before
 * the parent's waitpid, in order with a grandchild's and an exec'd rdb-cc
 * program's; a child whose stdout is a pipe is not (the parent prints what
 * it read).  A child writes a lot to stdout while the parent's records
 * carry 64 KiB each: records never interleave.  A child writes MAP_SHARED
 * memory in steps the parent waits for on a pipe.  The last child outlives
 * the parent: rdb record must not wait for it (checks.sh children).
 * rr-expect-out: ^shared total 733$
 * rr-expect-out: ^parent: done$ */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void say(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0)
		_exit(9);
}

static void wait_ok(pid_t pid, const char *who)
{
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		printf("%s: bad exit\n", who);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "exec")) {
		printf("exec'd child %s: argc %d\n", argv[2], argc);
		fprintf(stderr, "exec'd child %s: on stderr\n", argv[2]);
		return 0;
	}
	say(1, "parent: before\n");
	pid_t pid = fork();
	if (pid == 0) {
		say(1, "child: hello\n");
		say(2, "child: to stderr\n");
		_exit(0);
	}
	wait_ok(pid, "child");
	say(1, "parent: after\n");

	/* many small writes and a big one, while the parent sends big records */
	pid = fork();
	if (pid == 0) {
		char line[64];
		for (int i = 0; i < 2000; i++) {
			int n = snprintf(line, sizeof line, "busy child line %d\n", i);
			if (write(1, line, n) != n)
				_exit(1);
		}
		static char big[300000];
		for (size_t i = 0; i < sizeof big; i++)
			big[i] = i % 61 == 60 ? '\n' : (char)('a' + i % 26);
		_exit(write(1, big, sizeof big) != sizeof big);
	}
	static char zeros[65536];
	int z = open("/dev/zero", O_RDONLY);
	unsigned long sum = 0;
	for (int i = 0; i < 60 && z >= 0; i++) {
		if (read(z, zeros, sizeof zeros) != sizeof zeros)
			break;
		sum += zeros[i * 7];
	}
	close(z);
	wait_ok(pid, "busy child");
	printf("\nparent read zeros: %lu\n", sum);
	fflush(stdout);

	/* a grandchild, then an exec'd copy of this program */
	pid = fork();
	if (pid == 0) {
		pid_t g = fork();
		if (g == 0) {
			say(1, "grandchild: hello\n");
			_exit(0);
		}
		wait_ok(g, "grandchild");
		say(1, "child: my child is done\n");
		_exit(0);
	}
	wait_ok(pid, "child with a grandchild");
	pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "exec", "E", (char *)NULL);
		_exit(127);
	}
	wait_ok(pid, "exec'd child");

	/* a child whose stdout is a pipe: only the parent's copy is output */
	int p[2];
	if (pipe(p))
		return 1;
	pid = fork();
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		printf("piped child line 1\npiped child line 2\n");
		fflush(stdout);
		_exit(0);
	}
	close(p[1]);
	char buf[256];
	ssize_t n, got = 0;
	while ((n = read(p[0], buf + got, sizeof buf - 1 - got)) > 0)
		got += n;
	buf[got] = 0;
	close(p[0]);
	wait_ok(pid, "piped child");
	printf("parent read from the pipe:\n%s", buf);

	/* MAP_SHARED memory, written by a child step by step */
	int *sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int up[2], down[2];
	if (sh == MAP_FAILED || pipe(up) || pipe(down))
		return 1;
	sh[0] = 100;
	pid = fork();
	if (pid == 0) {
		char c = 0;
		for (int i = 1; i <= 6; i++) {
			sh[i % 3] = sh[0] + i * i;
			if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	long total = 0;
	for (int i = 1; i <= 6; i++) {
		char c;
		if (read(up[0], &c, 1) != 1)
			return 1;
		printf("step %d: shared %d %d %d\n", i, sh[0], sh[1], sh[2]);
		total += sh[i % 3];
		sh[0] += 1; /* the parent writes too */
		if (write(down[1], &c, 1) != 1)
			return 1;
	}
	wait_ok(pid, "shared-memory child");
	printf("shared total %ld\n", total);
	fflush(stdout);

	/* outlives us, silently: 5 s, or (checks.sh children) until the file
	 * $KIDS_RELEASE exists, at most 60 s; then it creates $KIDS_RELEASE.gone */
	pid = fork();
	if (pid == 0) {
		const char *rel = getenv("KIDS_RELEASE");
		if (!rel) {
			sleep(5);
			_exit(0);
		}
		for (int i = 0; i < 600 && access(rel, F_OK) != 0; i++)
			usleep(100000);
		char gone[4096];
		snprintf(gone, sizeof gone, "%s.gone", rel);
		close(open(gone, O_WRONLY | O_CREAT, 0644));
		_exit(0);
	}
	say(1, "parent: done\n");
	return 0;
}
