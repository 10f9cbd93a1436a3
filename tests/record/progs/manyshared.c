/* rr: hundreds of MAP_SHARED mappings (the runtime tracked 64, the rest
 * silently not: a replay from the middle then lacked their start
 * values), anonymous ones and pieces of a file, written and read over
 * many intervals, some unmapped and mapped again, one split by a munmap
 * in its middle. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#define N 600
#define PAGE 4096

static unsigned *m[N];

static unsigned *map(int i, int fd)
{
	unsigned *p = i % 3 == 0
	                  ? mmap(0, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)i * 2 * PAGE)
	                  : mmap(0, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		_exit(2);
	}
	return p;
}

int main(void)
{
	int fd = open("shared.dat", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, (off_t)N * 2 * PAGE)) {
		perror("shared.dat");
		return 2;
	}
	for (int i = 0; i < N; i++) {
		m[i] = map(i, fd);
		m[i][0] = (unsigned)i;
	}
	unsigned long h = 0;
	for (int r = 0; r < 40; r++) {
		for (int i = 0; i < N; i++) {
			unsigned x = m[(i * 7 + r) % N][r % 1024];
			m[i][(r + i) % 2048] += x * 3 + (unsigned)r;
			h = h * 31 + x;
		}
		int k = (r * 37) % N; /* one again, fresh */
		munmap(m[k], 2 * PAGE);
		m[k] = map(k, fd);
		for (unsigned long s = 0; s < 200000; s++)
			h += s ^ h >> 3;
	}
	munmap((char *)m[1] + PAGE, PAGE); /* the first half stays */
	for (int i = 0; i < N; i++)
		h = h * 31 + m[i][0];
	printf("manyshared: %d mappings, hash %lx\n", N, h);
	return 0;
}
