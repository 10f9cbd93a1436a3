/* rr: a multi-MB file mapped MAP_SHARED (runtime/shared.c), read and
 * written through the mapping, changed behind it by the process's own
 * pwrite, write and ftruncate and by a fork child (through its fd and
 * through the mapping, on a pipe's or a signal's word), with thousands of
 * syscalls that change nothing of it in between.  Replay has no file (it
 * is deleted first) and no child: every byte read from the mapping comes
 * from the trace.
 *   One round of the child: the parent stores a word and tells the child
 * on a pipe (no sync there: the store is the parent's own), the child
 * puts the word's old value back (the copy's value: only "the process
 * wrote it" tells that replay's differs), changes other bytes through the
 * mapping and through its fd, and answers; the parent meanwhile computes
 * for a few ms, so boundaries fall between its store and its read of the
 * answer.
 * rr-before-replay: rm -f shmbig.dat
 * rr-native: differs: the last digit counts spins of a few ms (CPU time)
 * rr-expect-out: ^regrown: 0000000000000000 fbbdcba28d31411f$
 * rr-expect-out: ^end: [0-9a-f]\{16\} ([01])$ */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SIZE (6u << 20)
#define WORDS (SIZE / 8)

static uint64_t *m;
static int fd;
static volatile sig_atomic_t got;

static uint64_t rnd(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 17;
}

/* words of the mapping, sampled (they must be what the recording read) */
static uint64_t hash(uint64_t seed, int n)
{
	uint64_t h = 14695981039346656037ull, s = seed;
	for (int i = 0; i < n; i++)
		h = (h ^ m[rnd(&s) % WORDS]) * 1099511628211ull;
	return h;
}

static uint64_t spin(int ms)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	uint64_t x = 1;
	do {
		for (int i = 0; i < 20000; i++)
			x = x * 2862933555777941757ull + 3037000493ull;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
	return x;
}

static void on_usr1(int sig)
{
	(void)sig;
	got = 1;
}

int main(void)
{
	fd = open("shmbig.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, SIZE))
		return 1;
	static uint64_t blk[8192];
	for (uint64_t o = 0; o < SIZE; o += sizeof blk) {
		for (size_t i = 0; i < 8192; i++)
			blk[i] = (o / 8 + i) * 0x9e3779b97f4a7c15ull;
		if (pwrite(fd, blk, sizeof blk, (off_t)o) != (ssize_t)sizeof blk)
			return 1;
	}
	m = mmap(NULL, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return 1;
	printf("mapped: %016llx\n", (unsigned long long)hash(1, 4096));

	/* the process alone: stores, pwrite, write, many other syscalls */
	uint64_t s = 7, acc = 0;
	struct stat st;
	for (int i = 0; i < 3000; i++) {
		uint64_t w = rnd(&s) % WORDS, v = rnd(&s);
		m[w] += v; /* a store of its own */
		uint64_t p = rnd(&s) % (WORDS - 4);
		if (i % 3 == 0) {
			if (pwrite(fd, &v, 8, (off_t)(p * 8 + (i & 7))) != 8)
				return 1;
		} else if (i % 3 == 1) {
			if (lseek(fd, (off_t)(p * 8), SEEK_SET) < 0 || write(fd, &v, 5) != 5)
				return 1;
		}
		if (fstat(fd, &st) || getppid() < 0)
			return 1;
		acc = acc * 31 + m[p] + m[p + 1] + m[w];
		if (i % 500 == 499)
			printf("alone %d: %016llx\n", i, (unsigned long long)(acc ^ hash((uint64_t)i, 2048)));
	}

	/* the file shrinks and grows back: zeros where it was cut */
	if (ftruncate(fd, SIZE / 2) || ftruncate(fd, SIZE))
		return 1;
	printf("regrown: %016llx %016llx\n", (unsigned long long)m[WORDS - 1],
	       (unsigned long long)hash(3, 4096));

	/* a child, synchronized through pipes */
	int down[2], up[2];
	if (pipe(down) || pipe(up))
		return 1;
	signal(SIGUSR1, on_usr1);
	pid_t kid = fork();
	if (kid < 0)
		return 1;
	if (kid == 0) {
		uint64_t cs = 99;
		char c;
		close(down[1]);
		close(up[0]);
		for (int r = 0;; r++) {
			if (read(down[0], &c, 1) != 1)
				_exit(0);
			uint64_t w = WORDS / 2 + (uint64_t)r * 4099 % (WORDS / 2);
			m[w] = 0; /* the value the parent's copy has */
			for (int k = 0; k < 64; k++)
				m[rnd(&cs) % WORDS] ^= rnd(&cs);
			uint64_t v = rnd(&cs);
			if (pwrite(fd, &v, 8, (off_t)(rnd(&cs) % WORDS * 8)) != 8)
				_exit(1);
			if (c == 's') { /* answer with a signal instead */
				kill(getppid(), SIGUSR1);
				continue;
			}
			if (write(up[1], &c, 1) != 1)
				_exit(1);
		}
	}
	close(down[0]);
	close(up[1]);
	uint64_t x = 0;
	for (int r = 0; r < 12; r++) {
		/* (in the regrown half: zero, in the copy too) */
		uint64_t w = WORDS / 2 + (uint64_t)r * 4099 % (WORDS / 2);
		m[w] = 1;
		char c = r % 3 == 2 ? 's' : 'p';
		got = 0;
		if (write(down[1], &c, 1) != 1)
			return 1;
		x ^= spin(3);
		if (c == 's') { /* the answer is a signal */
			while (!got)
				x ^= spin(1);
			if (getppid() < 0) /* a syscall that changes nothing */
				return 1;
		} else if (read(up[0], &c, 1) != 1)
			return 1;
		printf("round %d: %llu %016llx\n", r, (unsigned long long)m[w],
		       (unsigned long long)hash((uint64_t)r, 8192));
	}
	close(down[1]);
	int wst;
	if (waitpid(kid, &wst, 0) != kid || !WIFEXITED(wst) || WEXITSTATUS(wst))
		return 1;
	printf("end: %016llx (%llu)\n", (unsigned long long)hash(5, 65536),
	       (unsigned long long)(x & 1));
	unlink("shmbig.dat");
	return 0;
}
