/* sys_readv.c: readv(2) scatters into two buffers; both are undone going
 * back, and a watchpoint in the second stops at the call. */
#include <sys/uio.h>
#include <unistd.h>

char head[4];
char tail[8];

int main(void)
{
	int p[2];
	pipe(p);
	write(p[1], "0123456789AB", 12);
	struct iovec iov[2] = {{head, sizeof head}, {tail, sizeof tail}};
	head[0] = 'x'; // @before
	long n = readv(p[0], iov, 2); // @readv
	head[1] = tail[7]; // @after
	return n != 12; // @end
}
