/* altstack: signal handlers on an alternate stack (SA_ONSTACK) that fill
 * a local buffer through a pointer and read it back, many times, over
 * many intervals.  The runtime's boundary handler runs on that stack too:
 * replay must not write traced values over its own frames there. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long total;

static void fill(char *b, size_t n, int v)
{
	snprintf(b, n, "signal %d, total %lu", v, total);
}

static void on_usr1(int s)
{
	char buf[96];
	fill(buf, sizeof buf, s);
	total += strlen(buf);
}

int main(void)
{
	stack_t ss = {.ss_sp = malloc(1 << 16), .ss_size = 1 << 16, .ss_flags = 0};
	if (!ss.ss_sp || sigaltstack(&ss, 0))
		return 1;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR1, &sa, 0);
	unsigned long sink = 0;
	for (int i = 0; i < 400; i++) {
		raise(SIGUSR1);
		for (int j = 0; j < 2000; j++)
			sink += (unsigned long)j * i;
	}
	printf("total %lu sink %lu\n", total, sink);
	return 0;
}
