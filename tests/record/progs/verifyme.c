/* verifyme.c: the program tests/record/verify-corrupt.sh records with
 * --checksum and damages the trace of, one field at a time: every
 * damage must make `rdb replay --verify` stop.  Each piece of state lives
 * where one check alone sees it: pid_sum (memory, never printed), the
 * bytes written to verifyme.out, the pid it writes there (in a buffer wiped after the
 * write), hit_at (the interval of a signal), %ymm15's upper half (set
 * once, never touched again: musl's SSE code keeps the upper halves),
 * the x87 registers (long double arithmetic), table (read each round:
 * its bytes are traced values). */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile long hit_at = -1, iter;
static volatile long pid_sum;
static unsigned char table[4096];
static char pbuf[32];

static void on_usr1(int s)
{
	(void)s;
	hit_at = iter;
}

static void note_ppid(int fd)
{
	int n = snprintf(pbuf, sizeof pbuf, "ppid %d\n", (int)getppid());
	if (write(fd, pbuf, (size_t)n) != n)
		perror("write");
	memset(pbuf, 0, sizeof pbuf);
}

int main(void)
{
	long rounds = 40;
	for (int i = 0; i < 4096; i++)
		table[i] = (unsigned char)(i * 7 + 1);
	printf("table %p\n", (void *)table);
#ifdef USE_AVX /* (the test sets it where the processor has AVX) */
	__asm__ volatile("vpcmpeqd %%ymm15, %%ymm15, %%ymm15" : : : "xmm15");
#endif
	signal(SIGUSR1, on_usr1);
	int fd = open("verifyme.out", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror("verifyme.out");
		return 1;
	}
	volatile long double x = 1;
	unsigned long sum = 0;
	for (iter = 0; iter < rounds; iter++) {
		for (int k = 0; k < 20000; k++)
			sum += table[(k * 13 + iter) & 4095];
		x = x * 1.0000001L + (long double)iter;
		pid_sum += getpid() & 1;
		char buf[64];
		int n = snprintf(buf, sizeof buf, "round %ld\n", (long)iter);
		if (write(fd, buf, (size_t)n) != n)
			perror("write");
		if (iter == rounds / 2)
			raise(SIGUSR1);
	}
	note_ppid(fd);
	close(fd);
	printf("verifyme ok %lu %ld %d\n", sum, hit_at, (int)(x / 1e6L));
	return 0;
}
