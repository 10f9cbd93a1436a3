/* spawntree: an rdb-cc program that starts itself again through
 * posix_spawn and through system() (clone(CLONE_VM|CLONE_VFORK) on a
 * stack of its own in musl, then exec; system() by /bin/sh -c).  Under
 * rdb record each child records itself from the clone to its exec, and
 * the program it execs (below sh for system()) joins as a process of its
 * own (record-check-spawn-tree).  Each process computes for a while so
 * that it has several intervals. */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static unsigned long work(const char *s, int n)
{
	unsigned long h = 5381;
	for (int i = 0; i < n; i++)
		for (const char *p = s; *p; p++)
			h = h * 33 + (unsigned char)*p + (unsigned long)i;
	return h % 100000;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "leaf") == 0) {
		printf("leaf %s: %lu\n", argv[2], work(argv[2], 20000));
		return 0;
	}
	printf("root: %lu\n", work("root", 20000));
	fflush(stdout); /* before the children print to the same file */
	pid_t pid;
	char *av[] = {argv[0], "leaf", "spawn", NULL};
	int r = posix_spawn(&pid, argv[0], NULL, NULL, av, environ);
	int st = -1;
	if (r == 0 && waitpid(pid, &st, 0) != pid)
		return 1;
	printf("posix_spawn: %d, exit status %d\n", r, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	fflush(stdout);
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "%s leaf system", argv[0]);
	st = system(cmd);
	printf("system: exit status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	printf("root again: %lu\n", work("again", 20000));
	return 0;
}
