/* clocks: clock_gettime on several clocks, gettimeofday, time, nanosleep,
 * clock_nanosleep, getrandom and /dev/urandom.  Values vary run to run,
 * so only their properties are printed; with PROGTEST_SHOW_RANDOM set the
 * random bytes' hash and the time are printed too (a recording must
 * replay them exactly). */
#include "prog.h"
#include <fcntl.h>
#include <sys/random.h>
#include <sys/time.h>
#include <time.h>

static double secs(struct timespec t) { return t.tv_sec + t.tv_nsec / 1e9; }

int main(void)
{
	int show = getenv("PROGTEST_SHOW_RANDOM") != NULL;
	struct timespec r0, m0, m1, c0, c1, res;
	CHECK(clock_gettime(CLOCK_REALTIME, &r0) == 0);
	CHECK(clock_gettime(CLOCK_MONOTONIC, &m0) == 0);
	CHECK(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0) == 0);
	printf("realtime after 2020: %d\n", r0.tv_sec > 1577836800);
	CHECK(clock_getres(CLOCK_MONOTONIC, &res) == 0);
	printf("monotonic resolution at most 1ms: %d\n", res.tv_sec == 0 && res.tv_nsec <= 1000000);

	struct timeval tv;
	CHECK(gettimeofday(&tv, NULL) == 0);
	time_t t = time(NULL);
	/* glibc's time() reads the coarse clock, which may still show the
	 * previous second just after clock_gettime saw a new one */
	printf("time agrees with realtime: %d\n", t >= r0.tv_sec - 1 && t - r0.tv_sec < 60 &&
	       tv.tv_sec >= r0.tv_sec && tv.tv_usec < 1000000);

	struct timespec d = { 0, 3 * 1000 * 1000 };
	CHECK(nanosleep(&d, NULL) == 0);
	CHECK(clock_nanosleep(CLOCK_MONOTONIC, 0, &d, NULL) == 0);
	struct timespec until;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_nsec += 2000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	CHECK(clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == 0);
	CHECK(clock_gettime(CLOCK_MONOTONIC, &m1) == 0);
	printf("slept at least 8ms: %d\n", secs(m1) - secs(m0) >= 0.008);
	volatile double x = 0;
	for (int i = 0; i < 3000000; i++)
		x += i * 0.5;
	CHECK(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1) == 0);
	printf("cpu clock advanced: %d\n", secs(c1) > secs(c0));

	unsigned char rb[256];
	ssize_t n = getrandom(rb, sizeof rb, 0);
	int distinct = 0, seen[256] = { 0 };
	for (int i = 0; i < n; i++)
		if (!seen[rb[i]]++)
			distinct++;
	printf("getrandom: %zd bytes, more than 64 distinct: %d\n", n, distinct > 64);
	uint64_t h = fnv(rb, sizeof rb, 0);

	int fd = open("/dev/urandom", O_RDONLY);
	CHECK(fd >= 0);
	unsigned char ub[4096];
	n = read(fd, ub, sizeof ub);
	close(fd);
	int zeros = 0;
	for (int i = 0; i < n; i++)
		zeros += ub[i] == 0;
	printf("urandom: %zd bytes, fewer than 64 zeros: %d\n", n, zeros < 64);
	h = fnv(ub, sizeof ub, h);
	if (show)
		printf("random hash %016llx time %lld.%09ld\n", (unsigned long long)h,
		       (long long)r0.tv_sec, r0.tv_nsec);
	return prog_done("clocks");
}
