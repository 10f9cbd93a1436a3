/* bigmem: large memory touched sparsely.  A 768 MB anonymous mapping
 * (MAP_NORESERVE) with one write every 256 KB, a 256 MB malloc block
 * with one write every 64 KB, both read back and summed; part of the
 * mapping released with munmap and MADV_DONTNEED and checked. */
#include "prog.h"
#include <sys/mman.h>

int main(void)
{
	size_t len = (size_t)768 << 20;
	unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	CHECK(m != MAP_FAILED);
	if (m == MAP_FAILED)
		return prog_done("bigmem");
	uint64_t sum = 0;
	size_t touched = 0;
	for (size_t off = 0; off < len; off += 256 << 10) {
		m[off] = (unsigned char)(off >> 18);
		*(uint64_t *)(m + off + 4088) = off * 3;
		touched++;
	}
	for (size_t off = 0; off < len; off += 256 << 10)
		sum += m[off] + *(uint64_t *)(m + off + 4088) + m[off + 100000];
	printf("mapping: %zu pages touched, sum %llu\n", touched, (unsigned long long)sum);

	CHECK(madvise(m, len / 2, MADV_DONTNEED) == 0);
	sum = 0;
	for (size_t off = 0; off < len; off += 256 << 10)
		sum += m[off];
	printf("after DONTNEED of the first half: %llu\n", (unsigned long long)sum);
	CHECK(munmap(m + len / 2, len / 4) == 0);
	m[len - 1] = 1;
	m[0] = 2;
	printf("ends still writable: %d\n", m[len - 1] + m[0]);
	CHECK(munmap(m, len / 2) == 0 && munmap(m + 3 * (len / 4), len / 4) == 0);

	size_t blen = (size_t)256 << 20;
	unsigned char *b = malloc(blen);
	CHECK(b != NULL);
	if (!b)
		return prog_done("bigmem");
	for (size_t off = 0; off < blen; off += 64 << 10)
		b[off + (off >> 16) % 4096] = (unsigned char)(off >> 16);
	sum = 0;
	for (size_t off = 0; off < blen; off += 64 << 10)
		sum += b[off + (off >> 16) % 4096];
	b = realloc(b, blen + (64 << 20));
	CHECK(b != NULL);
	b[blen + 12345] = 77;
	sum += b[(64 << 10) + 1] + b[blen + 12345];
	printf("malloc block: sum %llu\n", (unsigned long long)sum);
	free(b);
	return prog_done("bigmem");
}
