/* flowback: writes with known source lines, far apart in time, for
 * `rdb flowback` (tests/record/checks.sh case flowback reads the FLOWBACK
 * markers).  `target` is written by a plain store, then only its
 * neighbours are written for a long time (same page), then by read(2),
 * then by memset, then by a store again.  `rec` (48 bytes: too big for the
 * debug registers, watched through its shadow page) is written once, in
 * the middle, by a loop; it has pages of its own, so the watch's page is
 * quiet.  `op` is written once and then called through (`call *op(%rip)`
 * reads it, and its hook must not count as a write). */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

long neighbour[8];
volatile int target = 7;
long after[8];
static volatile unsigned long sink;
static char *rec;
unsigned long (*op)(unsigned long);

static unsigned long twice(unsigned long x) { return 2 * x; }

__attribute__((noinline)) static void set_op(void)
{
	op = twice; /* FLOWBACK op */
}

__attribute__((noinline)) static void fill(const char *msg)
{
	for (int i = 0; msg[i]; i++)
		rec[i] = msg[i]; /* FLOWBACK fill */
}

static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		neighbour[i & 7] += i; /* same page as target, never target */
		after[i & 3] ^= i;
		sink += i * 2654435761u;
	}
}

int main(void)
{
	char *pages = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		return 1;
	rec = pages + 4096 + 2048;
	printf("rec at %p\n", (void *)rec);
	spin(2000000);
	target = 42; /* FLOWBACK store1 */
	spin(6000000);
	int fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0 || read(fd, (void *)&target, 4) != 4) /* FLOWBACK read */
		return 1;
	close(fd);
	spin(3000000);
	fill("hello, flowback");
	spin(3000000);
	memset((void *)&target, 0x11, sizeof target); /* FLOWBACK memset */
	spin(6000000);
	target = 1234; /* FLOWBACK store2 */
	set_op();
	spin(6000000);
	for (unsigned long i = 0; i < 1000; i++)
		sink += op(i);
	printf("target %d\n", target);
	return 0;
}
