/* refeed.c: reads much bigger than the runtime's channel buffer, so a
 * replay reads its channel between a checkpoint and where it stops
 * (rdb's gdb server then cannot hand the replay's feeder on to the
 * checkpoint's copy, target.c); stepping back over the reads and forward
 * again must give the same bytes. */
#include <fcntl.h>
#include <unistd.h>

enum { N = 200000 };
char block[256];
char big[3][N];
long got[3];

int main(void)
{
	int fd = open("in.bin", O_CREAT | O_TRUNC | O_RDWR, 0600);
	for (int i = 0; i < 256; i++)
		block[i] = (char)(i * 7 + 1);
	for (int k = 0; k < 3 * N / 256 + 1; k++)
		write(fd, block, sizeof block);
	lseek(fd, 0, SEEK_SET);
	got[0] = read(fd, big[0], N); // @a
	got[1] = read(fd, big[1], N); // @b
	got[2] = read(fd, big[2], N); // @c
	close(fd); // @close
	unlink("in.bin");
	return got[2] != N; // @end
}
