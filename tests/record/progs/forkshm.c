/* forkshm: a parent and its fork child both write and read MAP_SHARED
 * memory, an anonymous mapping and a mapping of a file (argv[1], made
 * here), in turns handed over through pipes (an acquire each: shared.c).
 * Each prints what it read, so the replay of either alone must give it
 * the other's stores (checks/forkshm.sh, docs/process-trees.md). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define STEPS 40

static void spin(volatile long *sink, int n)
{
	/* some work between turns: intervals end here too */
	for (int i = 0; i < n; i++)
		*sink += i ^ (*sink >> 3);
}

int main(int argc, char **argv)
{
	/* (rr.sh runs it with no argument, in a work folder of its own) */
	int fd = open(argc > 1 ? argv[1] : "forkshm.map", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, 8192))
		return 1;
	long *an = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	long *fm = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int up[2], down[2];
	if (an == MAP_FAILED || fm == MAP_FAILED || pipe(up) || pipe(down))
		return 1;
	an[0] = 7;
	fm[600] = 11;
	fflush(stdout);
	pid_t pid = fork();
	volatile long sink = 0;
	char c = 0;
	long sum = 0;
	if (pid == 0) {
		for (int i = 1; i <= STEPS; i++) {
			if (read(down[0], &c, 1) != 1)
				_exit(1);
			sum += an[i % 5] * 3 + fm[600 + i % 7];
			an[(i + 1) % 5] = sum % 1000 + i;
			fm[600 + (i + 2) % 7] = an[0] + i;
			spin(&sink, 20000);
			if (i % 10 == 0)
				printf("child %d: %ld %ld %ld\n", i, sum, an[1], fm[601]);
			if (i == STEPS) /* (before the parent's turn: one order) */
				printf("child sum %ld\n", sum);
			fflush(stdout);
			if (write(up[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	for (int i = 1; i <= STEPS; i++) {
		an[i % 5] += i;
		fm[600 + i % 7] += an[(i + 3) % 5];
		spin(&sink, 20000);
		if (write(down[1], &c, 1) != 1 || read(up[0], &c, 1) != 1)
			return 1;
		sum += an[(i + 1) % 5] + fm[600 + (i + 2) % 7];
		if (i % 10 == 0) /* (after the child's line of the same turn) */
			printf("parent %d: %ld %ld %ld\n", i, sum, an[2], fm[603]);
		fflush(stdout);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return 1;
	printf("parent sum %ld, file %ld\n", sum, fm[600] + fm[606]);
	return 0;
}
