/* rr: output that differs run to run: time, pid, getrandom, /dev/urandom,
 * clock, localtime (a mapped file).
 * rr-native: differs: the time, the pids and the random bytes
 * rr-expect-out: ^time [0-9]*\.[0-9]\{9\} pid [1-9][0-9]* ppid [1-9][0-9]*$
 * rr-expect-out: ^getrandom [0-9a-f]\{16\}$
 * rr-expect-out: ^urandom [0-9a-f]\{8\}$
 * rr-expect-out: ^local 2[0-9]\{3\}-
 * rr-expect-out: ^host-len 1$ */
#include <fcntl.h>
#include <stdio.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
int main(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	printf("time %ld.%09ld pid %d ppid %d\n", (long)ts.tv_sec, ts.tv_nsec, (int)getpid(),
	       (int)getppid());
	unsigned char b[8];
	if (getrandom(b, sizeof b, 0) != sizeof b)
		return 1;
	printf("getrandom %02x%02x%02x%02x%02x%02x%02x%02x\n", b[0], b[1], b[2], b[3], b[4],
	       b[5], b[6], b[7]);
	int fd = open("/dev/urandom", O_RDONLY);
	if (fd < 0 || read(fd, b, sizeof b) != sizeof b)
		return 1;
	close(fd);
	printf("urandom %02x%02x%02x%02x\n", b[0], b[1], b[2], b[3]);
	time_t t = time(0);
	char buf[64];
	strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %Z", localtime(&t));
	printf("local %s\n", buf);
	char host[256];
	gethostname(host, sizeof host);
	printf("host-len %d\n", (int)sizeof host > 0);
	return 0;
}
