/* rr: anonymous memory mapped right after the image's .bss, which the
 * kernel merges with it into one line of /proc/self/maps: a replay from
 * the middle must restore the mapping and leave the fresh image's .bss
 * where it is (runtime/procmaps.c split_bss; mapping the whole line again
 * failed with EEXIST, as malloc's mappings did in SQLite's replays).
 * rr-expect-out: ^round 3999: ffa93085e95b3e01 16000$ */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

extern char _end[]; /* the linker's: the end of .bss */
static unsigned bss_counts[1000];

int main(void)
{
	uintptr_t at = ((uintptr_t)_end + 4095) & ~(uintptr_t)4095;
	unsigned *p = mmap((void *)at, 8 * 4096, PROT_READ | PROT_WRITE,
	                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED)
		return perror("mmap after .bss"), 1;
	FILE *f = fopen("/proc/self/maps", "r");
	char line[256];
	int merged = 0;
	while (f && fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo < at && hi > at)
			merged = 1;
	}
	if (f)
		fclose(f);
	printf("the mapping %s the .bss in /proc/self/maps\n", merged ? "merged with" : "apart from");
	uint64_t h = 1;
	for (unsigned round = 0; round < 4000; round++) {
		for (unsigned i = 0; i < 8 * 1024; i++) {
			p[i] = p[i] * 2654435761u + round + i;
			bss_counts[i % 1000] += p[i] & 1;
		}
		h = h * 31 + p[round % (8 * 1024)];
		if (round % 1000 == 999)
			printf("round %u: %016llx %u\n", round, (unsigned long long)h, bss_counts[round % 1000]);
	}
	return 0;
}
