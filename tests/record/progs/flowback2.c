/* flowback2: writes rdb flowback must attribute right (checks.sh case
 * flowback reads the FLOWBACK markers): a handler's write (all signals
 * blocked in it), a write with every signal blocked, a write while
 * SIGTRAP is ignored, a 64-byte struct copy (wide stores), a 256 KiB
 * read(2) straight into memory; then the run dies by abort(). */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

volatile int flag, crit, ign;
struct big { long a[8]; } dst, src = {{1, 2, 3, 4, 5, 6, 7, 8}};
char buf[1 << 18];
static volatile unsigned long sink;

static void spin(void)
{
	for (unsigned long i = 0; i < 300000; i++)
		sink += i;
}

static void on_usr1(int s)
{
	(void)s;
	flag = 7; /* FLOWBACK handler */
}

__attribute__((noinline)) static void copy(struct big *d, const struct big *s)
{
	*d = *s; /* FLOWBACK copy */
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigfillset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, 0);
	spin();
	raise(SIGUSR1);
	spin();
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	crit = 5; /* FLOWBACK crit */
	sigprocmask(SIG_SETMASK, &old, 0);
	spin();
	signal(SIGTRAP, SIG_IGN);
	ign = 3; /* FLOWBACK ign */
	spin();
	copy(&dst, &src);
	spin();
	int fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof buf) != sizeof buf)
		return 1;
	spin();
	abort();
}
