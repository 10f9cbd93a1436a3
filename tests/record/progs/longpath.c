/* rr: a file mapping whose /proc/self/maps line is longer than the
 * runtime's 4 KiB read buffer (a path of ~6 KiB through nested
 * directories).  The mappings listed after it (the image, the stack) must
 * stay in every boundary's MAPS, or replay from a middle interval breaks.
 * The work after the mapping reads it across many intervals.
 * rr-expect-out: ^round 39 630089606ba00001$ */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define LEVELS 30
#define PAGES 4

int main(void)
{
	char name[201];
	memset(name, 'd', 200);
	name[200] = 0;
	for (int i = 0; i < LEVELS; i++) {
		name[0] = (char)('a' + i % 26);
		if ((mkdir(name, 0755) && access(name, F_OK)) || chdir(name)) {
			perror("mkdir/chdir");
			return 1;
		}
	}
	int fd = open("data-with-a-long-path", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror("open");
		return 1;
	}
	static unsigned char page[4096];
	for (int p = 0; p < PAGES; p++) {
		for (int i = 0; i < 4096; i++)
			page[i] = (unsigned char)(i * 7 + p * 13);
		if (write(fd, page, sizeof page) != (ssize_t)sizeof page) {
			perror("write");
			return 1;
		}
	}
	const unsigned char *m = mmap(0, PAGES * 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	close(fd);
	unsigned long x = 1;
	for (int round = 0; round < 40; round++) {
		for (int k = 0; k < 20; k++)
			for (int i = 0; i < PAGES * 4096; i++)
				x = x * 31 + m[(i * 97 + round) % (PAGES * 4096)];
		printf("round %d %lx\n", round, x);
	}
	return 0;
}
