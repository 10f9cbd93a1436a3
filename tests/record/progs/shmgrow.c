/* rr: a MAP_SHARED file mapping that mremap grows (and moves) over bytes
 * the process wrote to the file beyond the mapping with pwrite (no
 * mapping showed them, so no sync sent them), and a part that O_APPEND
 * pwrite appended (the offset argument is ignored): every byte read
 * through the grown mapping must come from the trace, as replay has no
 * file.  Then a pwrite with an offset into the mapping, truncating it to
 * a size inside a page (the kernel zeroes that page's tail), and reading
 * the zeroed tail.
 * rr-before-replay: rm -f shmgrow.dat
 * rr-expect-out: ^MREMAP_DONTUNMAP: refused$
 * rr-expect-out: ^page 1 after the cut: 72b8c87fbedac79a$ */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096u

static uint64_t sum(const unsigned char *p, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s = s * 31 + p[i];
	return s;
}

int main(void)
{
	int fd = open("shmgrow.dat", O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return perror("open"), 1;
	unsigned char buf[PAGE];
	for (unsigned i = 0; i < PAGE; i++)
		buf[i] = (unsigned char)(i * 7 + 1);
	if (pwrite(fd, buf, PAGE, 0) != PAGE)
		return perror("pwrite"), 1;
	unsigned char *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return perror("mmap"), 1;
	printf("page 0: %016llx\n", (unsigned long long)sum(p, PAGE));
	/* a second page, beyond the mapping */
	for (unsigned i = 0; i < PAGE; i++)
		buf[i] = (unsigned char)(i * 13 + 5);
	if (pwrite(fd, buf, PAGE, PAGE) != PAGE)
		return perror("pwrite 2"), 1;
	/* a third, appended by an O_APPEND fd's pwrite whatever its offset */
	int afd = open("shmgrow.dat", O_WRONLY | O_APPEND);
	for (unsigned i = 0; i < PAGE; i++)
		buf[i] = (unsigned char)(i * 3 + 11);
	if (afd < 0 || pwrite(afd, buf, PAGE, 0) != PAGE)
		return perror("pwrite append"), 1;
	close(afd);
	/* something mapped right after the mapping, so that growing moves it */
	void *block = mmap(p + PAGE, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char *q = mremap(p, PAGE, 3 * PAGE, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		return perror("mremap"), 1;
	printf("grown%s: %016llx %016llx %016llx\n", q == p ? " in place" : "",
	       (unsigned long long)sum(q, PAGE), (unsigned long long)sum(q + PAGE, PAGE),
	       (unsigned long long)sum(q + 2 * PAGE, PAGE));
	/* rdb refuses MREMAP_DONTUNMAP of MAP_SHARED memory (EINVAL, and says
	 * so on stderr, in the recording and in the replay alike) */
	void *d = mremap(q, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_DONTUNMAP);
	printf("MREMAP_DONTUNMAP: %s\n", d == MAP_FAILED ? "refused" : "done");
	if (d != MAP_FAILED)
		munmap(d, PAGE);
	/* an offset pwrite into the mapped range, then a cut inside page 1 */
	memset(buf, 0x5a, 100);
	if (pwrite(fd, buf, 100, PAGE + 50) != 100)
		return perror("pwrite 3"), 1;
	printf("page 1 after pwrite: %016llx\n", (unsigned long long)sum(q + PAGE, PAGE));
	if (ftruncate(fd, PAGE + 1000) != 0)
		return perror("ftruncate"), 1;
	printf("page 1 after the cut: %016llx\n", (unsigned long long)sum(q + PAGE, PAGE));
	munmap(q, 3 * PAGE);
	if (block != MAP_FAILED)
		munmap(block, PAGE);
	close(fd);
	unlink("shmgrow.dat");
	return 0;
}
