/* rr: tens of thousands of distinct mappings (the runtime's table of
 * them was 4,096 entries: "more than 4096 mappings in the covered range"
 * killed the recording of a heap-churn program).  40,000 one-page
 * anonymous mmaps at fixed places one page apart, so each is its own
 * line in /proc/self/maps (a hole between neighbours; the protections
 * alternate too), every one written and read, some unmapped and mapped
 * again, over many intervals: every boundary's MAPS, checksum and scan
 * see them all, and a replay from the middle maps them all again. */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>

#define N 40000
#define PAGE 4096ul
#define BASE ((char *)0x7e0000000000ul) /* in the covered range, far from the rest */

static char *at(unsigned i) { return BASE + 2 * PAGE * i; }

static int map(unsigned i)
{
	/* odd ones read-only after their write: no two neighbours alike */
	char *p = mmap(at(i), PAGE, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != at(i))
		return -1;
	p[0] = (char)i;
	p[PAGE - 1] = (char)(i >> 8);
	if (i & 1)
		mprotect(p, PAGE, PROT_READ);
	return 0;
}

static uint64_t sum(void)
{
	uint64_t s = 0;
	for (unsigned i = 0; i < N; i++)
		s = s * 31 + (unsigned char)at(i)[0] + (unsigned char)at(i)[PAGE - 1];
	return s;
}

int main(void)
{
	for (unsigned i = 0; i < N; i++)
		if (map(i)) {
			perror("mmap");
			return 1;
		}
	uint64_t s = 0;
	/* rounds: a tenth unmapped and mapped again, then everything read */
	for (unsigned r = 0; r < 3; r++) {
		for (unsigned i = r; i < N; i += 10) {
			if (munmap(at(i), PAGE)) {
				perror("munmap");
				return 1;
			}
			if (map(i)) {
				perror("mmap again");
				return 1;
			}
		}
		s += sum();
	}
	/* and some stay unmapped to the end */
	for (unsigned i = 7; i < N; i += 100)
		munmap(at(i), PAGE);
	unsigned left = 0;
	for (unsigned i = 0; i < N; i++)
		left += (i % 100 != 7) && at(i)[0] == (char)i;
	printf("manymaps: %u mappings, %u left, sum %llx\n", N, left, (unsigned long long)s);
	return left == N - N / 100 ? 0 : 1;
}
