/* recursion: deep call chains.  A 100,000-frame recursion that keeps a
 * linked list through its frames (so no frame can be elided), mutual
 * recursion, Ackermann's function, recursion with variable-length
 * arrays, and a recursive quicksort. */
#include "prog.h"

struct frame {
	long value;
	struct frame *up;
};

static __attribute__((noinline)) long deep(long n, struct frame *up)
{
	struct frame f = { n * 2 + 1, up };
	if (n == 0) {
		long sum = 0, count = 0;
		for (struct frame *p = &f; p; p = p->up) {
			sum += p->value;
			count++;
		}
		return sum * 1000000 + count;
	}
	long r = deep(n - 1, &f);
	return r + (f.value & 1) - 1;
}

static int is_odd(unsigned n);
static __attribute__((noinline)) int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static __attribute__((noinline)) int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static unsigned long ack_calls;
static unsigned long ack(unsigned long m, unsigned long n)
{
	ack_calls++;
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

static __attribute__((noinline)) unsigned vla(unsigned n)
{
	if (n == 0)
		return 0;
	volatile unsigned char buf[n % 61 + 1];
	for (unsigned i = 0; i < sizeof buf; i++)
		buf[i] = (unsigned char)(n + i);
	unsigned s = 0;
	for (unsigned i = 0; i < sizeof buf; i++)
		s += buf[i];
	return s + vla(n - 1);
}

static void quicksort(int *a, int lo, int hi)
{
	if (lo >= hi)
		return;
	int p = a[(lo + hi) / 2], i = lo, j = hi;
	while (i <= j) {
		while (a[i] < p)
			i++;
		while (a[j] > p)
			j--;
		if (i <= j) {
			int t = a[i];
			a[i++] = a[j];
			a[j--] = t;
		}
	}
	quicksort(a, lo, j);
	quicksort(a, i, hi);
}

int main(void)
{
	printf("deep(100000) = %ld\n", deep(100000, NULL));
	printf("is_even(100001) = %d, is_odd(77777) = %d\n", is_even(100001), is_odd(77777));
	unsigned long a1 = ack(2, 2000), calls = ack_calls, a2 = ack(3, 7);
	printf("ack(2, 2000) = %lu in %lu calls; ack(3, 7) = %lu\n", a1, calls, a2);
	printf("vla(20000) = %u\n", vla(20000));
	static int a[200000];
	uint64_t s = 42;
	for (int i = 0; i < 200000; i++)
		a[i] = (int)(rng(&s) % 1000003);
	quicksort(a, 0, 199999);
	int sorted = 1;
	for (int i = 1; i < 200000; i++)
		sorted &= a[i - 1] <= a[i];
	printf("quicksort: sorted %d, hash %016llx\n", sorted, (unsigned long long)fnv(a, sizeof a, 0));
	return prog_done("recursion");
}
