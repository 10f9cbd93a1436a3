/* limits (stop): a program that holds every fd its hard limit allows
 * while it runs across interval boundaries.  The runtime cannot open
 * /proc/self/maps for a boundary then (no fd to be had without
 * privilege): the recording must stop there cleanly, with a message, a
 * trace that replays up to that point, and the program running on to
 * its end unrecorded (it was killed: "cannot open /proc/self/maps"). */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void)
{
	struct rlimit rl = {64, 64};
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		perror("setrlimit");
		return 2;
	}
	int n = 0, last = -1, fd;
	while ((fd = open("/dev/null", O_RDONLY)) >= 0)
		n++, last = fd;
	unsigned long h = 0;
	for (unsigned long i = 0; i < 30000000; i++)
		h += i ^ h >> 5;
	for (fd = 3; fd <= last; fd++)
		close(fd);
	printf("fdhard: %d fds opened, the last %d, hash %lx\n", n, last, h);
	return 0;
}
