/* selfmem: writes to the program's own memory through the kernel, by
 * process_vm_writev to its own pid and by pwrite on /proc/self/mem.  No
 * hook sees those writes and no record holds them: a recording refuses
 * both (EPERM, EACCES, with a message), so that the replay prints what
 * the recording printed (it printed 0 where the recording had 42).
 * rr-native: differs: a recording refuses both writes, a plain run makes them
 * rr-expect-out: ^process_vm_writev: Operation not permitted, x=0$
 * rr-expect-out: ^y=0$ */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static volatile long x, y;

int main(void)
{
	long v = 42;
	struct iovec l = {&v, sizeof v}, r = {(void *)&x, sizeof v};
	ssize_t n = process_vm_writev(getpid(), &l, 1, &r, 1, 0);
	printf("process_vm_writev: %s, x=%ld\n", n < 0 ? strerror(errno) : "written", x);
	int fd = open("/proc/self/mem", O_RDWR);
	if (fd < 0)
		printf("open /proc/self/mem: %s\n", strerror(errno));
	else if (pwrite(fd, &v, sizeof v, (off_t)(unsigned long)&y) != sizeof v)
		printf("pwrite: %s\n", strerror(errno));
	printf("y=%ld\n", y);
	return 0;
}
