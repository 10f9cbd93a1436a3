/* cow-probe.c: what one page fault costs on this machine, the price of
 * every page a recorded program writes after a boundary's fork (the
 * snapshot child keeps the interval's first image, so the program's first
 * write to each page copies it).  Three kinds, each timed ROUNDS times on
 * MB megabytes, one write per 4 KiB page:
 *   fresh   first touch of new anonymous memory (a zero page mapped)
 *   cow     a write to a page shared with a forked child that waits
 *   cow-pin the same with this process and the child on CPU 0 (if the
 *           cost were TLB shootdowns to the other CPU, pinning would cut it)
 * and a write to pages already written, as the floor.  Prints each kind's
 * median [min-max] microseconds per page.  A probe, not a test.
 *   cow-probe [MB] [ROUNDS]     (default 160 5) */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096u

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static void touch(volatile char *p, size_t n)
{
	for (size_t i = 0; i < n; i += PAGE)
		p[i]++;
}

static void pin0(void)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(0, &s);
	if (sched_setaffinity(0, sizeof s, &s))
		perror("cow-probe: sched_setaffinity");
}

/* one KIND: microseconds per page of one pass over n bytes */
static double one(const char *kind, size_t n)
{
	char *p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("cow-probe: mmap");
		exit(1);
	}
	double t0, t1;
	if (!strcmp(kind, "fresh")) {
		t0 = now();
		touch(p, n);
		t1 = now();
	} else {
		touch(p, n);
		if (!strcmp(kind, "written")) {
			t0 = now();
			touch(p, n);
			t1 = now();
		} else {
			pid_t c = fork();
			if (c < 0) {
				perror("cow-probe: fork");
				exit(1);
			}
			if (!c) {
				pause();
				_exit(0);
			}
			t0 = now();
			touch(p, n);
			t1 = now();
			kill(c, SIGKILL);
			waitpid(c, 0, 0);
		}
	}
	munmap(p, n);
	return (t1 - t0) * 1e6 / (double)(n / PAGE);
}

int main(int argc, char **argv)
{
	size_t mb = argc > 1 ? strtoul(argv[1], 0, 10) : 160;
	int rounds = argc > 2 ? atoi(argv[2]) : 5;
	if (!mb || rounds < 1) {
		fprintf(stderr, "usage: cow-probe [MB] [ROUNDS]\n");
		return 2;
	}
	const char *kinds[] = {"fresh", "cow", "written", "cow-pin"};
	enum { NK = 4 };
	double *t[NK];
	for (int k = 0; k < NK; k++)
		t[k] = calloc((size_t)rounds, sizeof(double));
	/* interleaved; the pinned kind last in each round, then unpinned again */
	for (int r = 0; r < rounds; r++) {
		cpu_set_t all;
		sched_getaffinity(0, sizeof all, &all);
		for (int k = 0; k < NK; k++) {
			if (!strcmp(kinds[k], "cow-pin"))
				pin0();
			t[k][r] = one(!strcmp(kinds[k], "cow-pin") ? "cow" : kinds[k], mb << 20);
		}
		sched_setaffinity(0, sizeof all, &all);
	}
	printf("page faults, %zu MB, %d rounds: median [min-max] microseconds per 4 KiB page\n", mb,
	       rounds);
	for (int k = 0; k < NK; k++) {
		qsort(t[k], (size_t)rounds, sizeof(double), cmp);
		double m = rounds % 2 ? t[k][rounds / 2] : (t[k][rounds / 2 - 1] + t[k][rounds / 2]) / 2;
		printf("  %-8s %8.2f [%.2f-%.2f]\n", kinds[k], m, t[k][0], t[k][rounds - 1]);
	}
	return 0;
}
