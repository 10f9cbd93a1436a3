/* heapchurn.c: a heap under churn, for bench/ and for the runtime's
 * limits (issue 16: recording such a program died at 4,096 mappings).
 * 3 million steps of malloc, realloc and free on a hash table of up to
 * ~1 million nodes with payloads of 16 bytes to 256 KiB (the big ones are
 * mmaps of their own in musl: thousands of mappings), about 150 MB live,
 * read and written at random.  Deterministic (a fixed xorshift seed), so
 * its output is the same natively, instrumented, recorded and replayed.
 *   heapchurn [STEPS]      (default 3000000)
 * Prints a checksum of everything it read, the live bytes and the number
 * of its mappings at the end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUCKETS (1u << 20)
#define MAX_LIVE (150u << 20)

struct node {
	struct node *next;
	uint64_t key;
	size_t len;
	unsigned char *data;
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Mostly small, some medium, a few big (an mmap each in musl). */
static size_t size_of(uint64_t r)
{
	unsigned k = (unsigned)(r % 10000);
	if (k < 9700)
		return 16 + (size_t)(r >> 14) % 96;
	if (k < 9990)
		return 256 + (size_t)(r >> 14) % (96u << 10);
	return (128u << 10) + (size_t)(r >> 14) % (128u << 10);
}

static struct node *table[BUCKETS];

static struct node **find(uint64_t key)
{
	struct node **p = &table[key % BUCKETS];
	while (*p && (*p)->key != key)
		p = &(*p)->next;
	return p;
}

int main(int argc, char **argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 3000000;
	uint64_t sum = 0, nodes = 0, live = 0, peak = 0;
	for (long i = 0; i < steps; i++) {
		uint64_t r = next();
		uint64_t key = (r >> 8) % (4u << 20);
		struct node **p = find(key);
		struct node *n = *p;
		unsigned op = (unsigned)(r & 0xff);
		if (!n) {
			if (live > MAX_LIVE)
				continue;
			n = malloc(sizeof *n);
			if (!n)
				return 2;
			n->key = key;
			n->len = size_of(next());
			n->data = malloc(n->len);
			if (!n->data)
				return 2;
			memset(n->data, (int)(key & 0xff), n->len);
			n->next = NULL;
			*p = n;
			nodes++;
			live += n->len;
		} else if (op < 40 || live > MAX_LIVE) {
			/* free */
			sum += n->data[n->len / 2] + n->len;
			*p = n->next;
			live -= n->len;
			free(n->data);
			free(n);
			nodes--;
		} else if (op < 128) {
			/* realloc: grow or shrink */
			size_t len = size_of(next());
			unsigned char *d = realloc(n->data, len);
			if (!d)
				return 2;
			if (len > n->len)
				memset(d + n->len, (int)(len & 0xff), len - n->len);
			live += len;
			live -= n->len;
			n->data = d;
			n->len = len;
		} else {
			/* random reads and a write */
			size_t a = (size_t)(next() % n->len), b = (size_t)(r >> 20) % n->len;
			sum = sum * 31 + n->data[a] + n->data[b];
			n->data[(a + b) / 2] ^= (unsigned char)r;
		}
		if (live > peak)
			peak = live;
	}
	int maps = 0, c;
	FILE *f = fopen("/proc/self/maps", "r");
	while (f && (c = getc(f)) != EOF)
		maps += c == '\n';
	if (f)
		fclose(f);
	printf("heapchurn: %ld steps, %llu nodes, %llu MB live (peak %llu MB), %d mappings, "
	       "sum %016llx\n", steps, (unsigned long long)nodes, (unsigned long long)(live >> 20),
	       (unsigned long long)(peak >> 20), maps, (unsigned long long)sum);
	return 0;
}
