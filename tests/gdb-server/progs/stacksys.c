/* stacksys.c: a local buffer of main written by a syscall (read(2): the
 * runtime copies the recorded bytes in, in replay) and by libc's memset,
 * each apart from the next by work that spans intervals when recorded
 * with --every-sic (tests/gdb-server run.sh watch-stack-sys). */
#include <string.h>
#include <unistd.h>

volatile long sink;

static void spin(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

int main(void)
{
	char buf[16] = {0};
	int fd[2];
	if (pipe(fd) || write(fd[1], "abcdefgh", 8) != 8)
		return 1;
	spin(4000); /* the start */
	long n = read(fd[0], buf, 8);
	spin(4000);
	memset(buf, 'x', sizeof buf);
	spin(4000);
	return n != 8 || buf[4] != 'x'; /* the end */
}
