/* mapchurn: mappings made, grown, read, written and unmapped at a high
 * rate, with a table that lives throughout, read and rewritten every
 * round.  A boundary scans each mapping's read planes and clears them in
 * the same pass; a plane word left set would hide the next interval's
 * first read of that byte from the trace, and a replay from a later
 * boundary would read another value and diverge.  Addresses are reused
 * as mappings come and go, so stale plane words of an unmapped range
 * would show too. */
#define _GNU_SOURCE /* mremap */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define SLOTS 48
#define ROUNDS 600

static uint64_t seed = 88172645463325252ull;
static uint64_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

static struct {
	unsigned char *p;
	size_t len;
} slot[SLOTS];
static uint64_t table[4096]; /* read before written every round */

int main(void)
{
	uint64_t h = 1469598103934665603ull;
	for (int r = 0; r < ROUNDS; r++) {
		int i = rnd() % SLOTS;
		if (slot[i].p && rnd() % 3 == 0) {
			munmap(slot[i].p, slot[i].len);
			slot[i].p = 0;
		} else if (slot[i].p && rnd() % 2 == 0) {
			size_t len = slot[i].len + ((rnd() % 16) + 1) * 4096;
			void *q = mremap(slot[i].p, slot[i].len, len, MREMAP_MAYMOVE);
			if (q != MAP_FAILED) {
				slot[i].p = q;
				slot[i].len = len;
			}
		} else if (!slot[i].p) {
			size_t len = ((rnd() % 64) + 1) * 4096;
			void *q = mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (q != MAP_FAILED) {
				slot[i].p = q;
				slot[i].len = len;
			}
		}
		for (int j = 0; j < SLOTS; j++) {
			if (!slot[j].p)
				continue;
			/* A read before the write, at both ends and in between
			 * (unaligned too), then the write. */
			for (int k = 0; k < 8; k++) {
				size_t at = rnd() % (slot[j].len - 8);
				uint64_t v;
				memcpy(&v, slot[j].p + at, 8);
				h = (h ^ v) * 1099511628211ull;
				v += r * 7 + k;
				memcpy(slot[j].p + at, &v, 8);
			}
			h = (h ^ slot[j].p[slot[j].len - 1]) * 1099511628211ull;
			slot[j].p[slot[j].len - 1] += (unsigned char)r;
		}
		for (int k = 0; k < 4096; k += 3) {
			h = (h ^ table[k]) * 1099511628211ull;
			table[k] += h >> 60;
		}
		if (r % 50 == 49)
			printf("round %d: %016llx\n", r + 1, (unsigned long long)h);
	}
	return 0;
}
