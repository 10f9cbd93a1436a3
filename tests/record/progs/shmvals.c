/* rr: MAP_SHARED memory (anonymous, and a file's) read and written by the
 * program itself across many intervals, no child: replay --from K needs
 * each interval's start values of it, which the snapshot child (sharing
 * the mapping) no longer has; the runtime keeps copies (shared.c).
 * rr-expect-out: ^after pwrite: 04030201$ */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static unsigned long churn(unsigned *m, int n, int rounds)
{
	unsigned long h = 0;
	for (int r = 0; r < rounds; r++)
		for (int i = 0; i < n; i++) {
			unsigned x = m[(i * 7 + r) % n];
			m[i] = x * 3 + (unsigned)r;
			h = h * 31 + x;
		}
	return h;
}

int main(void)
{
	unsigned *a = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char path[] = "shmvals.XXXXXX";
	int fd = mkstemp(path);
	if (a == MAP_FAILED || fd < 0 || ftruncate(fd, 8192))
		return 1;
	unlink(path);
	unsigned *f = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (f == MAP_FAILED)
		return 1;
	for (int i = 0; i < 1024; i++)
		a[i] = (unsigned)i, f[i] = (unsigned)(i * 5);
	unsigned long h1 = churn(a, 1024, 60), h2 = churn(f, 2048, 30);
	printf("anonymous %016lx file %016lx\n", h1, h2);
	/* the file changed through the fd: the mapping shows it */
	if (pwrite(fd, "\1\2\3\4", 4, 4096) != 4)
		return 1;
	printf("after pwrite: %08x\n", f[1024]);
	return 0;
}
