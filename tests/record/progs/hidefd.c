/* rr: the channel's fd is invisible to the program (EBADF, as natively),
 * and closing every fd does not cut the recording (a program that asks for
 * fd 1000 itself: progs/fdwanted.c).
 * rr-expect-out: ^fcntl(1000) = -1 (Bad file descriptor)$
 * rr-expect-out: ^still recorded$ */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
int main(void)
{
	int r = fcntl(1000, F_GETFD);
	printf("fcntl(1000) = %d (%s)\n", r, r < 0 ? strerror(errno) : "open");
	r = close(1000);
	printf("close(1000) = %d (%s)\n", r, r < 0 ? strerror(errno) : "closed");
	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	r = (int)syscall(436 /* close_range */, 3u, ~0u, 0u);
	printf("close_range(3, ~0) = %d\n", r);
	printf("still recorded\n");
	return 0;
}
