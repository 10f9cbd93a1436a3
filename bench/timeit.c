/* timeit.c: run a command N times and print its best wall and best CPU
 * time (user + system, from wait4's rusage, so a loaded machine inflates
 * it less than wall time), in seconds, as "wall cpu".  Used by
 * bench/instrumented.sh; built there with the host's gcc.
 * Usage: timeit N IN OUT CMD ARGS...  (stdin from IN, stdout to OUT, both
 * may be /dev/null; OUT is truncated before each run.)  Exits non-zero,
 * saying why, if a run fails. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double secs(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: timeit N IN OUT CMD ARGS...\n");
		return 2;
	}
	int n = atoi(argv[1]);
	double best_wall = 1e300, best_cpu = 1e300;
	for (int i = 0; i < n; i++) {
		double t0 = now();
		pid_t pid = fork();
		if (pid < 0) {
			perror("timeit: fork");
			return 1;
		}
		if (pid == 0) {
			int in = open(argv[2], O_RDONLY);
			int out = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0644);
			if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0) {
				perror("timeit: redirect");
				_exit(127);
			}
			execv(argv[4], argv + 4);
			perror("timeit: exec");
			_exit(127);
		}
		int st;
		struct rusage ru;
		if (wait4(pid, &st, 0, &ru) < 0) {
			perror("timeit: wait4");
			return 1;
		}
		double wall = now() - t0;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "timeit: %s failed (status 0x%x)\n", argv[4], st);
			return 1;
		}
		double cpu = secs(ru.ru_utime) + secs(ru.ru_stime);
		if (wall < best_wall)
			best_wall = wall;
		if (cpu < best_cpu)
			best_cpu = cpu;
	}
	printf("%.4f %.4f\n", best_wall, best_cpu);
	return 0;
}
