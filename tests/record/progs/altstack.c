/* altstack: signal handlers on an alternate stack (SA_ONSTACK) that fill
 * a local buffer through a pointer and read it back, thousands of times.
 * The runtime's boundary handler runs on that stack too: replay must not
 * write traced values over its own frames there.  checks.sh case
 * everysic-signals records it with --every-sic: each raise() waits for a
 * SIC check, whose poke once overshot an --every-sic limit (a fault at
 * 0x100001 the runtime did not take for a check: the program died).
 * rr-expect-out: ^total 195840000 sink 201757725000$ */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long total;

__attribute__((noinline)) static void touch(char *p, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (char)(i + total);
	for (int i = 0; i < n; i++)
		total += (unsigned char)p[i];
}

static void on_usr1(int s)
{
	char b[512];
	(void)s;
	touch(b, sizeof b);
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
	for (int i = 0; i < 3000; i++) {
		raise(SIGUSR1);
		for (int j = 0; j < 300; j++)
			sink += (unsigned long)j * i;
	}
	printf("total %lu sink %lu\n", total, sink);
	return 0;
}
