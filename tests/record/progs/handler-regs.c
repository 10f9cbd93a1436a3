/* handler-regs: a SIGSEGV handler that makes the page readable and
 * returns (the access runs again), called thousands of times, with main
 * keeping a loop counter in a callee-saved register the handler never
 * sets.  A boundary inside the handler (in its mprotect) compares that
 * register, and the retried reads need values from pages that were
 * PROT_NONE when their interval started.  (At -O2 with --every-sic 1000,
 * --verify-full once diverged on %rbp here: the handler started with the
 * runtime's %rbp.  tests/programs/sig_regs.c checks that directly.)
 * rr-expect-out: ^final 1687033697092990208 faults=525$ */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static unsigned char *base;
static const size_t n = 8 * 4096;
static volatile int faults;

static void handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	uintptr_t a = (uintptr_t)si->si_addr & ~4095ul;
	faults++;
	mprotect((void *)a, 4096, PROT_READ | PROT_WRITE);
	((unsigned char *)a)[8] += 1;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, 0);
	base = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (base == MAP_FAILED)
		return 1;
	for (size_t i = 0; i < n; i++)
		base[i] = (unsigned char)(i * 13);
	unsigned long sum = 0;
	for (int r = 0; r < 200; r++) {
		size_t at = 4096 * (size_t)(r % 8), len = 4096 * 3 > n - at ? n - at : 4096 * 3;
		mprotect(base + at, len, PROT_NONE);
		for (size_t i = 0; i < n; i += 64) {
			sum = sum * 3 + base[i + (size_t)(r % 64)];
			if ((i & 4095) == 0)
				base[i + 8 + (size_t)(r & 1)] ^= (unsigned char)r;
		}
		if (r % 20 == 0)
			printf("r=%d sum=%lu faults=%d\n", r, sum, faults);
	}
	printf("final %lu faults=%d\n", sum, faults);
	return 0;
}
