/* tree.c: the processes of checks/tree-*.sh (a process tree under rdb
 * record: docs/process-trees.md).  By its first argument:
 *   hi WORD      prints "hi WORD"
 *   tag TAG      copies stdin to stdout, each line prefixed "TAG " (a
 *                pipeline stage), with some work per line for intervals;
 *                tag_lines counts the lines (rdb flowback --pid asks it)
 *   exec N       prints "exec N", then execs itself (argv[0]) with N - 1
 *                (N > 0)
 *   fork D       forks 3 children (D = 2) or 2 (D = 1), each doing
 *                "fork D-1", waits for them, prints its own line */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

unsigned long tag_lines;

static unsigned long work(const char *s)
{
	unsigned long h = 5381;
	for (int r = 0; r < 2000; r++)
		for (const char *p = s; *p; p++)
			h = h * 33 + (unsigned char)*p + (unsigned long)r;
	return h;
}

static int forks(int d, const char *who)
{
	int n = d == 2 ? 3 : d == 1 ? 2 : 0, bad = 0;
	for (int i = 0; i < n; i++) {
		fflush(stdout);
		pid_t p = fork();
		if (p < 0)
			return 1;
		if (p == 0) {
			char me[64];
			snprintf(me, sizeof me, "%s.%d", who, i);
			_exit(forks(d - 1, me));
		}
	}
	for (int i = 0; i < n; i++) {
		int st;
		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	}
	printf("fork %s: %d children, %lu\n", who, n, work(who) % 1000);
	fflush(stdout);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "hi")) {
		printf("hi %s\n", argv[2]);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "tag")) {
		char line[256];
		while (fgets(line, sizeof line, stdin)) {
			tag_lines++;
			printf("%s %lu %s", argv[2], work(line) % 1000, line);
		}
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "exec")) {
		int n = atoi(argv[2]);
		printf("exec %d: %lu\n", n, work(argv[2]) % 1000);
		fflush(stdout);
		if (n <= 0)
			return 0;
		char next[16];
		snprintf(next, sizeof next, "%d", n - 1);
		execl(argv[0], argv[0], "exec", next, (char *)0);
		perror("execl");
		return 1;
	}
	if (argc == 3 && !strcmp(argv[1], "fork"))
		return forks(atoi(argv[2]), "root");
	fprintf(stderr, "usage: tree hi WORD | tag TAG | exec N | fork D\n");
	return 2;
}
