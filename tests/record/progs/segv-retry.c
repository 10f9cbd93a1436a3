/* segv-retry: a SIGSEGV handler that runs long (interval boundaries fall
 * inside it under --every-sic), then makes the page readable and returns,
 * so the faulting read runs again, in a later interval than its hook did.
 * The value it reads must be in that interval's trace: a replay from there
 * prints the same sum. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

static char *page;
static volatile unsigned long sink;
static volatile int faults;

static void handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si, (void)uc;
	faults++;
	for (unsigned long i = 0; i < 3000000; i++)
		sink += i;
	mprotect(page, 4096, PROT_READ | PROT_WRITE);
}

/* The fault is in here, with the address in a register the handler
 * cannot see: only the instruction's own hook can mark it. */
__attribute__((noinline)) static unsigned long load(const unsigned long *p, int i)
{
	return p[i];
}

int main(void)
{
	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return 1;
	for (int i = 0; i < 4096; i++)
		page[i] = (char)(i * 7 + 1);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	unsigned long sum = 0;
	for (int round = 0; round < 3; round++) {
		mprotect(page, 4096, PROT_NONE);
		sum += load((const unsigned long *)page, round * 100 + 1);
		sum += load((const unsigned long *)page, round * 100 + 2);
	}
	printf("faults %d sum %lx\n", faults, sum);
	return 0;
}
