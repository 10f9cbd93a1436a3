/* malloc_churn: heavy malloc/calloc/realloc/free traffic driven by a
 * fixed generator, blocks from 1 byte to 1 MB (large ones are mmap'd by
 * the C library), every block filled with a pattern from its id and
 * checked before it is freed or moved; posix_memalign and aligned_alloc
 * alignment; a checksum of the live contents at the end. */
#include "prog.h"

enum { SLOTS = 1024, ROUNDS = 100000 };

struct slot {
	unsigned char *p;
	size_t n;
	uint32_t id;
};

static void fill(struct slot *s, size_t from)
{
	for (size_t i = from; i < s->n; i++)
		s->p[i] = (unsigned char)(s->id * 131 + i * 7);
}

static int intact(const struct slot *s, size_t upto)
{
	for (size_t i = 0; i < upto && i < s->n; i++)
		if (s->p[i] != (unsigned char)(s->id * 131 + i * 7))
			return 0;
	return 1;
}

static size_t pick_size(uint64_t *g)
{
	uint64_t r = rng(g);
	switch (r % 256) {
	case 0: return 1 + (r >> 8) % (1 << 20);   /* up to 1 MB */
	case 1: case 2: case 3: return 1 + (r >> 8) % 16384;
	default: return 1 + (r >> 8) % 256;
	}
}

int main(void)
{
	static struct slot slots[SLOTS];
	uint64_t g = 0x9e3779b97f4a7c15ull;
	uint32_t next_id = 1;
	unsigned long bad = 0, mallocs = 0, frees = 0, reallocs = 0;
	for (int round = 0; round < ROUNDS; round++) {
		struct slot *s = &slots[rng(&g) % SLOTS];
		uint64_t op = rng(&g) % 10;
		if (!s->p) {
			s->n = pick_size(&g);
			s->id = next_id++;
			s->p = op < 3 ? calloc(1, s->n) : malloc(s->n);
			if (!s->p) {
				bad++;
				continue;
			}
			if (op < 3)
				for (size_t i = 0; i < s->n; i += 97)
					bad += s->p[i] != 0;
			fill(s, 0);
			mallocs++;
		} else if (op < 4) {
			size_t n = s->n;
			size_t m = op < 2 || n > 65536 ? n / 2 + 1 : n + pick_size(&g);
			unsigned char *q = realloc(s->p, m);
			if (!q) {
				bad++;
				continue;
			}
			s->p = q;
			s->n = m;
			bad += !intact(s, n < m ? n : m);
			fill(s, 0);
			reallocs++;
		} else {
			bad += !intact(s, s->n);
			free(s->p);
			s->p = NULL;
			frees++;
		}
	}
	uint64_t h = 0;
	size_t live = 0, bytes = 0;
	for (int i = 0; i < SLOTS; i++)
		if (slots[i].p) {
			bad += !intact(&slots[i], slots[i].n);
			h = fnv(slots[i].p, slots[i].n, h);
			live++;
			bytes += slots[i].n;
			free(slots[i].p);
		}
	printf("mallocs %lu, reallocs %lu, frees %lu, bad %lu\n", mallocs, reallocs, frees, bad);
	printf("live blocks %zu, %zu bytes, hash %016llx\n", live, bytes, (unsigned long long)h);

	int aligned = 1;
	for (size_t al = 16; al <= 65536; al *= 4) {
		void *p = NULL;
		CHECK(posix_memalign(&p, al, 1000) == 0);
		aligned &= ((uintptr_t)p & (al - 1)) == 0;
		memset(p, 1, 1000);
		free(p);
		p = aligned_alloc(al, al * 2);
		aligned &= p && ((uintptr_t)p & (al - 1)) == 0;
		free(p);
	}
	printf("alignment honoured: %d\n", aligned);
	void *p;
	printf("posix_memalign bad alignment: %s\n", errname(posix_memalign(&p, 3, 16)));
	free(malloc(0));
	p = realloc(NULL, 10);
	CHECK(p != NULL);
	free(p);
	CHECK(bad == 0);
	return prog_done("malloc_churn");
}
