/*
 * loads.c: a freestanding program (no libc) whose every load happens in
 * code altr instruments: arrays, structs, pointers chasing, a switch
 * table, function pointers, floating point, atomics, recursion.  The
 * count-loads test compares altr's counter with valgrind lackey's count of
 * the same program built without instrumentation.
 */
struct node { struct node *next; long v; };
static struct node nodes[64];
static int table[256];
static double fp[32];
static long long counter64;
static volatile int sink;

static int __attribute__((noinline)) fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static long __attribute__((noinline)) chase(struct node *n)
{
	long s = 0;
	for (; n; n = n->next)
		s += n->v;
	return s;
}

static int __attribute__((noinline)) op_add(int a, int b) { return a + b; }
static int __attribute__((noinline)) op_mul(int a, int b) { return a * b; }
static int (*const ops[])(int, int) = {op_add, op_mul};

static int __attribute__((noinline)) classify(int x)
{
	switch (x & 7) {
	case 0: return table[x & 255] + 1;
	case 1: return table[(x * 3) & 255] - 2;
	case 2: return table[(x * 5) & 255] ^ 3;
	case 3: return table[(x * 7) & 255] | 4;
	case 4: return table[(x * 11) & 255] & 5;
	case 5: return 6;
	default: return table[1];
	}
}

int main(void)
{
	for (int i = 0; i < 64; i++) {
		nodes[i].next = i + 1 < 64 ? &nodes[i + 1] : 0;
		nodes[i].v = i * 3;
	}
	for (int i = 0; i < 256; i++)
		table[i] = i * 7 + (i > 0 ? table[i - 1] : 0);
	for (int i = 0; i < 32; i++)
		fp[i] = i * 0.5 + (i ? fp[i - 1] : 1.0);
	long s = chase(nodes);
	for (int i = 0; i < 1000; i++) {
		s += classify(i);
		s += ops[i & 1](i, (int)s);
		__atomic_fetch_add(&counter64, i, __ATOMIC_SEQ_CST);
	}
	double d = 0;
	for (int i = 0; i < 32; i++)
		d += fp[i] * fp[31 - i];
	sink = (int)d + fib(12) + (int)s + (int)counter64;
	return 0;
}
