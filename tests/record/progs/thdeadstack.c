/* thdeadstack: a thread ends deep below where it exits (its stack holds
 * what the hooks left below each frame's %rsp), and main computes for a
 * while before it joins, so boundaries come while the ended thread's
 * stack is still mapped.  The full hash (replay --verify-full, which
 * replays without hooks) must leave that stack out: it once differed
 * there (runtime/checksum.c rdb_checksum_thread_stack). */
#include <pthread.h>
#include <stdio.h>

static unsigned long table[512];
static volatile int ended;

/* deep frames whose loads with live flags push them below %rsp in the
 * recording (trace.rules: a hook saves flags it would clobber) */
static unsigned long deep(const unsigned long *t, int depth)
{
	unsigned long local[64], h = (unsigned long)depth;
	for (int i = 0; i < 64; i++)
		local[i] = t[(i * 7 + depth) & 511] ^ h;
	if (depth > 0)
		h += deep(t + 1, depth - 1);
	for (int i = 0; i < 64; i++)
		if (local[i] > t[i & 511])
			h = h * 31 + local[i];
	return h;
}

static void *worker(void *arg)
{
	unsigned long h = deep(table, (int)(long)arg);
	__atomic_store_n(&ended, 1, __ATOMIC_RELEASE);
	return (void *)(h % 1000003);
}

int main(void)
{
	for (int i = 0; i < 512; i++)
		table[i] = (unsigned long)i * 2654435761u;
	pthread_t t;
	void *r = 0;
	if (pthread_create(&t, 0, worker, (void *)40))
		return 1;
	while (!__atomic_load_n(&ended, __ATOMIC_ACQUIRE))
		;
	unsigned long h = 0;
	for (int round = 0; round < 200; round++)
		for (int i = 0; i < 512; i++)
			h = h * 33 + table[(i * 13 + round) & 511];
	if (pthread_join(t, &r))
		return 1;
	printf("worker: %ld, main: %lu\n", (long)r, h % 1000003);
	return 0;
}
