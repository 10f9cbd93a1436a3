/* altstack_quiet: a program that registers a small alternate signal stack
 * (MINSIGSTKSZ, 2048 bytes) for a signal it never gets, then loops long
 * enough for rdb's counter to move its window many times (each move is a
 * SIGSEGV the runtime takes).  Nothing may touch the alternate stack:
 * the runtime's deliveries ran on it, which changed its bytes and, at
 * this size, overflowed it (killed by SIGSEGV even unrecorded). */
#include "prog.h"
#include <signal.h>

static struct {
	unsigned char before[4096];
	unsigned char alt[2048];
	unsigned char after[4096];
} s;

static void handler(int sig) { (void)sig; }

int main(void)
{
	stack_t ss = {.ss_sp = s.alt, .ss_size = sizeof s.alt, .ss_flags = 0};
	CHECK(sigaltstack(&ss, NULL) == 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sa.sa_flags = SA_ONSTACK;
	CHECK(sigaction(SIGUSR2, &sa, NULL) == 0);
	volatile unsigned long w = 0;
	for (unsigned long i = 0; i < 30000000; i++)
		w += i;
	size_t changed = 0;
	for (size_t i = 0; i < sizeof s; i++)
		changed += ((unsigned char *)&s)[i] != 0;
	printf("w=%lu, bytes of the alternate stack and around it changed: %zu\n",
	       (unsigned long)w, changed);
	CHECK(changed == 0);
	return prog_done("altstack_quiet");
}
