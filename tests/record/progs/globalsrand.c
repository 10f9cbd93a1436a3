/* globalsrand: a hash table of globals read and written at random, as
 * bench/heapchurn's is: a 4 MB array in .bss and a 256 KB one in .data
 * (initialised: file-backed until written).  Every interval reads tens of
 * thousands of scattered words of them, so its VALUES are as many
 * ranges, copied by the snapshot child from the image's writable
 * segments (runtime/interval.c, vdirect) and fed back, batched, by rdb
 * replay --from K (rdb/replay.c).  Prints a hash of what it read.
 * rr-expect-out: ^globalsrand: c4ca91ed6f45e7ab$ */
#include <stdint.h>
#include <stdio.h>

#define BSS_WORDS (1u << 20)
#define DATA_WORDS (1u << 16)
#define STEPS 600000

static uint32_t bss[BSS_WORDS];
static uint32_t data[DATA_WORDS] = {1, 2, 3, 5, 8, 13, 21, 34};

static uint64_t seed = 0x2545f4914f6cdd1dull;
static uint64_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return seed;
}

int main(void)
{
	uint64_t h = 1469598103934665603ull;
	for (uint32_t i = 0; i < DATA_WORDS; i += 64)
		data[i] += i; /* some of .data written, the rest still the file's */
	for (long s = 0; s < STEPS; s++) {
		uint64_t r = rnd();
		uint32_t b = (uint32_t)(r >> 8) % BSS_WORDS, d = (uint32_t)(r >> 40) % DATA_WORDS;
		h = (h ^ bss[b] ^ ((uint64_t)data[d] << 32)) * 1099511628211ull;
		if (r & 1)
			bss[(b * 7 + 1) % BSS_WORDS] = (uint32_t)h;
		if ((r & 0x3f) == 2)
			data[(d * 5 + 3) % DATA_WORDS] ^= (uint32_t)r;
	}
	printf("globalsrand: %016llx\n", (unsigned long long)h);
	return 0;
}
