/* refused: a syscall rdb cannot record (an ioctl request syscalls.spec
 * does not model) fails with ENOSYS, and rdb says so on stderr
 * ("rdb: refused ..."); the program goes on, as one with a fallback
 * would.  Natively the call fails with ENOTTY (a pipe is no terminal).
 * The replay returns the recorded ENOSYS, without the message. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(void)
{
	int p[2];
	char c = 'x';
	if (pipe(p) != 0)
		return 1;
	int r = ioctl(p[0], TIOCSTI, &c);
	printf("ioctl(TIOCSTI): %d, %s\n", r, r < 0 ? strerror(errno) : "ok");
	printf("the program went on\n");
	return 0;
}
