/* signal.c: a handler changes a global; watchpoints and breakpoints stop
 * in the handler going forward and going back, and reverse steps go
 * back out of and into it. */
#include <signal.h>

volatile int flag;
volatile int count;

static void on_usr1(int sig)
{
	count += 10; // @handler
	flag = count; // @set_flag
}

int main(void)
{
	signal(SIGUSR1, on_usr1);
	count = 1; // @before
	raise(SIGUSR1); // @raise
	count += 2; // @after
	raise(SIGUSR1);
	count += 3; // @after2
	return flag != 23; // @end
}
