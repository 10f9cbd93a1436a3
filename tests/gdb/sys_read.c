/* sys_read.c: read(2) fills a buffer; going back over the call must
 * empty it again, and a watchpoint on the buffer stops at the syscall
 * both ways. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

char buf[16];
int sum;

int main(void)
{
	int fd = open("in.txt", O_CREAT | O_TRUNC | O_RDWR, 0600);
	write(fd, "abcdefghij", 10);
	lseek(fd, 0, SEEK_SET);
	sum = 1; // @before
	long n = read(fd, buf, 8); // @read
	for (int i = 0; i < n; i++)
		sum += buf[i]; // @sum
	close(fd);
	unlink("in.txt");
	return sum == 0; // @end
}
