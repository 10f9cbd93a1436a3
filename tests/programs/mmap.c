/* mmap: anonymous private and shared mappings (shared with a child), a
 * file mapping written through memory and read back with read(), partial
 * munmap, mprotect, mremap (grow in place or moved, shrink), madvise
 * DONTNEED zero-filling, msync.  Addresses are never printed. */
#include "prog.h"
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *a = mmap(NULL, 16 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(a != MAP_FAILED);
	int zero = 1;
	for (long i = 0; i < 16 * pg; i += 512)
		zero &= a[i] == 0;
	printf("fresh anonymous memory is zero: %d\n", zero);
	for (long i = 0; i < 16 * pg; i++)
		a[i] = (char)(i ^ (i >> 9));
	printf("anon hash %016llx\n", (unsigned long long)fnv(a, 16 * pg, 0));

	/* unmap the middle, keep both ends */
	CHECK(munmap(a + 4 * pg, 4 * pg) == 0);
	printf("ends kept: %d %d\n", a[0] == 0 && a[1] == 1, a[8 * pg + 3] == (char)((8 * pg + 3) ^ ((8 * pg + 3) >> 9)));
	/* map it again at the same place: fresh zeros */
	char *b = mmap(a + 4 * pg, 4 * pg, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	CHECK(b == a + 4 * pg);
	printf("refilled hole is zero: %d\n", b[0] == 0 && b[4 * pg - 1] == 0);

	/* mprotect: read only, then writable again */
	CHECK(mprotect(a, pg, PROT_READ) == 0);
	printf("read-only page still reads: %d\n", a[5] == 5);
	CHECK(mprotect(a, pg, PROT_READ | PROT_WRITE) == 0);
	a[5] = 55;

	/* madvise DONTNEED on private anonymous memory zero-fills */
	memset(a + 12 * pg, 0x5a, 2 * pg);
	CHECK(madvise(a + 12 * pg, 2 * pg, MADV_DONTNEED) == 0);
	printf("after MADV_DONTNEED: %d\n", a[12 * pg] + a[14 * pg - 1]);

	/* mremap: grow (may move), contents kept; then shrink */
	char *c = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (long i = 0; i < 2 * pg; i++)
		c[i] = (char)(i * 3);
	uint64_t h1 = fnv(c, 2 * pg, 0);
	char *c2 = mremap(c, 2 * pg, 64 * pg, MREMAP_MAYMOVE);
	CHECK(c2 != MAP_FAILED);
	printf("mremap grow keeps contents: %d, new tail zero: %d\n",
	       fnv(c2, 2 * pg, 0) == h1, c2[63 * pg] == 0);
	c2[63 * pg] = 9;
	char *c3 = mremap(c2, 64 * pg, pg, 0);
	CHECK(c3 == c2);
	printf("mremap shrink in place: %d, first byte %d\n", c3 == c2, c3[1]);
	CHECK(munmap(c3, pg) == 0);

	/* shared anonymous memory seen by a child */
	int *sh = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(sh != MAP_FAILED);
	sh[0] = 1;
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		sh[1] = sh[0] + 41;
		a[0] = 99; /* private: the parent must not see it */
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	printf("shared write from child: %d, private write hidden: %d\n", sh[1], a[0] == 0);
	CHECK(munmap(sh, pg) == 0);

	/* a file mapping */
	char dir[256], path[300];
	prog_tmpdir(dir, sizeof dir, "mmap");
	snprintf(path, sizeof path, "%s/map.bin", dir);
	int fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0600);
	CHECK(fd >= 0 && ftruncate(fd, 3 * pg) == 0);
	char *f = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CHECK(f != MAP_FAILED);
	for (long i = 0; i < 3 * pg; i++)
		f[i] = "mapped file "[i % 12];
	CHECK(msync(f, 3 * pg, MS_SYNC) == 0);
	char buf[24] = { 0 };
	CHECK(pread(fd, buf, 23, pg + 5) == 23);
	printf("read through fd: %s\n", buf);
	CHECK(pwrite(fd, "WRITTEN", 7, 2 * pg) == 7);
	printf("seen through mapping: %.7s\n", f + 2 * pg);
	char *ro = mmap(NULL, pg, PROT_READ, MAP_PRIVATE, fd, pg);
	CHECK(ro != MAP_FAILED);
	printf("offset mapping: %.12s\n", ro);
	munmap(ro, pg);
	munmap(f, 3 * pg);
	close(fd);
	unlink(path);
	rmdir(dir);

	printf("private hash %016llx\n", (unsigned long long)fnv(a, 16 * pg, 0));
	CHECK(munmap(a, 16 * pg) == 0);
	CHECK(mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED);
	printf("mmap of length 0: %s\n", errname(errno));
	return prog_done("mmap");
}
