/* rr: a program that holds every fd its soft limit allows while it runs
 * across interval boundaries (each boundary opened /proc/self/maps and
 * died: "cannot open /proc/self/maps (error 24)", the program killed).
 * The runtime raises the soft limit by one for that open. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void)
{
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = 64;
	if (rl.rlim_max < 65) {
		printf("manyfds: hard limit too low\n");
		return 0;
	}
	setrlimit(RLIMIT_NOFILE, &rl);
	int n = 0, last = -1, fd;
	while ((fd = open("/dev/null", O_RDONLY)) >= 0)
		n++, last = fd;
	unsigned long h = 0;
	for (unsigned long i = 0; i < 30000000; i++)
		h += i ^ h >> 5;
	for (fd = 3; fd <= last; fd++)
		close(fd);
	printf("manyfds: %d fds opened, the last %d, hash %lx\n", n, last, h);
	return 0;
}
