/* atomics: __atomic and __sync builtins on char, short, int and long:
 * fetch-add/sub/and/or/xor, add-fetch, exchange, compare-exchange (strong
 * and weak, success and failure), test-and-set, a CAS loop computing a
 * maximum, fences; and a counter in shared memory incremented by a parent
 * and a child at the same time (the total is exact). */
#include "prog.h"
#include <sys/mman.h>
#include <sys/wait.h>

#define EXERCISE(T, name)                                                            \
	do {                                                                         \
		static T v;                                                          \
		T old, exp;                                                          \
		uint64_t trace = 0;                                                  \
		__atomic_store_n(&v, (T)5, __ATOMIC_SEQ_CST);                        \
		old = __atomic_fetch_add(&v, (T)3, __ATOMIC_SEQ_CST);                \
		trace = trace * 257 + (uint8_t)old;                                  \
		old = __atomic_fetch_sub(&v, (T)1, __ATOMIC_ACQ_REL);                \
		trace = trace * 257 + (uint8_t)old;                                  \
		old = __atomic_fetch_or(&v, (T)0x40, __ATOMIC_RELAXED);              \
		trace = trace * 257 + (uint8_t)old;                                  \
		old = __atomic_fetch_and(&v, (T)0x7c, __ATOMIC_RELEASE);             \
		old = __atomic_fetch_xor(&v, (T)0x11, __ATOMIC_ACQUIRE);             \
		trace = trace * 257 + (uint8_t)old;                                  \
		trace = trace * 257 + (uint8_t)__atomic_add_fetch(&v, (T)2, __ATOMIC_SEQ_CST); \
		old = __atomic_exchange_n(&v, (T)99, __ATOMIC_SEQ_CST);              \
		trace = trace * 257 + (uint8_t)old;                                  \
		exp = 98;                                                            \
		int ok1 = __atomic_compare_exchange_n(&v, &exp, (T)1, 0, __ATOMIC_SEQ_CST, \
		                                      __ATOMIC_SEQ_CST);             \
		trace = trace * 257 + (uint8_t)exp;                                  \
		int ok2 = __atomic_compare_exchange_n(&v, &exp, (T)7, 0, __ATOMIC_SEQ_CST, \
		                                      __ATOMIC_SEQ_CST);             \
		int ok3;                                                             \
		exp = 7;                                                             \
		do                                                                   \
			ok3 = __atomic_compare_exchange_n(&v, &exp, (T)8, 1,         \
			                                  __ATOMIC_SEQ_CST, __ATOMIC_RELAXED); \
		while (!ok3 && exp == 7);                                            \
		trace = trace * 257 + (uint8_t)__sync_fetch_and_add(&v, (T)10);      \
		trace = trace * 257 + (uint8_t)__sync_sub_and_fetch(&v, (T)4);       \
		trace = trace * 257 + (uint8_t)__sync_val_compare_and_swap(&v, (T)14, (T)20); \
		trace = trace * 257 + (uint8_t)__sync_bool_compare_and_swap(&v, (T)20, (T)21); \
		trace = trace * 257 + (uint8_t)__sync_lock_test_and_set(&v, (T)1);   \
		__sync_lock_release(&v);                                             \
		__sync_synchronize();                                                \
		trace = trace * 257 + (uint8_t)__sync_or_and_fetch(&v, (T)6);        \
		printf("%-5s cas %d %d %d final %lld trace %016llx\n", name, ok1, ok2, ok3, \
		       (long long)__atomic_load_n(&v, __ATOMIC_ACQUIRE),             \
		       (unsigned long long)trace);                                   \
	} while (0)

static long atomic_max(long *p, long val)
{
	long cur = __atomic_load_n(p, __ATOMIC_RELAXED);
	while (cur < val && !__atomic_compare_exchange_n(p, &cur, val, 1, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
	return cur;
}

int main(void)
{
	EXERCISE(signed char, "char");
	EXERCISE(unsigned short, "short");
	EXERCISE(int, "int");
	EXERCISE(long, "long");

	long mx = 0;
	uint64_t g = 5;
	for (int i = 0; i < 1000; i++)
		atomic_max(&mx, (long)(rng(&g) % 100000));
	printf("atomic max: %ld\n", mx);
	static unsigned char flag;
	int t1 = __atomic_test_and_set(&flag, __ATOMIC_SEQ_CST);
	int t2 = __atomic_test_and_set(&flag, __ATOMIC_SEQ_CST);
	printf("test_and_set: %d %d", t1, t2);
	__atomic_clear(&flag, __ATOMIC_SEQ_CST);
	printf(" cleared %d\n", flag);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);

	/* a parent and a child add to shared counters concurrently */
	long *shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(shared != MAP_FAILED);
	fflush(stdout);
	pid_t pid = fork();
	for (int i = 0; i < 200000; i++) {
		__atomic_fetch_add(&shared[0], 1, __ATOMIC_SEQ_CST);
		__sync_fetch_and_add((int *)&shared[1], 2);
		__atomic_fetch_add((char *)&shared[2], 1, __ATOMIC_RELAXED);
	}
	if (pid == 0)
		_exit(0);
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	printf("shared counters: %ld %d %d\n", shared[0], *(int *)&shared[1], *(unsigned char *)&shared[2]);
	printf("lock-free: int %d long %d\n", __atomic_always_lock_free(sizeof(int), 0),
	       __atomic_always_lock_free(sizeof(long), 0));
	return prog_done("atomics");
}
