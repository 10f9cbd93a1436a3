/* thstack: two worker threads whose stack mappings the kernel merged with
 * 4 MiB of data mapped just above them, as xz -T4's encoder buffers were
 * (main maps the data, then pthread_create maps the thread's stack below
 * it: mmap goes top-down, and musl's mprotect of the stack merges it with
 * the data).  Each worker computes and reads stack slots it never wrote
 * (stale-stack.c), which see what its earlier frames left below %rsp.  A
 * boundary saved each thread's whole mapping (4 MiB of data a boundary:
 * record-check-threads-stack bounds the STACK bytes), and of the thread
 * that took the boundary only what lay above its %rsp (a replay from
 * there could read other stale bytes). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define DATA (4u << 20)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) static unsigned long stale(int n)
{
	volatile unsigned char never_written[512];
	unsigned long h = 1469598103934665603ul;
	for (int i = 0; i < n; i++)
		h = (h ^ never_written[i]) * 1099511628211ul;
	return h;
}

__attribute__((noinline)) static unsigned long deep(unsigned long h, int d)
{
	volatile unsigned char frame[256];
	frame[d % 256] = (unsigned char)h;
	return d ? deep(h * 31 + frame[d % 256], d - 1) : h;
}

/* Whether the mapping holding a runs over the data mapped at d. */
static int merged(unsigned long a, unsigned long d)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int yes = 0;
	while (f && fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && a >= lo && a < hi)
			yes = hi >= d + DATA;
	}
	if (f)
		fclose(f);
	return yes;
}

static char *data[2];

static void *worker(void *arg)
{
	long id = (long)arg;
	unsigned long h = (unsigned long)id;
	pthread_mutex_lock(&lock);
	printf("worker %ld: stack mapping %s the data above it\n", id,
	       merged((unsigned long)&h, (unsigned long)data[id - 1]) ? "holds" : "does not hold");
	pthread_mutex_unlock(&lock);
	for (int round = 0; round < 12; round++) {
		for (int i = 0; i < 20000; i++)
			h = h * 33 + (unsigned long)i % 5;
		h = deep(h, 40 + round);
		unsigned long s = stale(512);
		pthread_mutex_lock(&lock);
		printf("worker %ld round %d: %lu %lx\n", id, round, h % 100000, s);
		pthread_mutex_unlock(&lock);
	}
	return (void *)(h % 1000);
}

int main(void)
{
	pthread_t t[2];
	long sum = 0;
	setvbuf(stdout, 0, _IOLBF, 0);
	for (long k = 0; k < 2; k++) {
		data[k] = mmap(0, DATA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (data[k] == MAP_FAILED)
			return 1;
		memset(data[k], 0x5a, DATA);
		if (pthread_create(&t[k], 0, worker, (void *)(k + 1)))
			return 1;
	}
	for (int k = 0; k < 2; k++) {
		void *v;
		pthread_join(t[k], &v);
		sum += (long)v;
	}
	printf("sum %ld\n", sum);
	return 0;
}
