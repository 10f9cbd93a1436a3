/* sig_skip: a SIGSEGV handler that steps over the faulting instruction
 * (a 2-byte `movl (%rdx), %eax`) by adding its length to the saved pc, as
 * fault-tolerant code does, after checking that the pc is that
 * instruction.  Three kinds of fault: a mapped PROT_NONE page, a null
 * pointer (below everything mapped: with rdb it faults in the read hook's
 * own store), and none (a readable page).  The handler must see the
 * program's instruction, never a hook's, or a replay's no-op or prefix. */
#include "prog.h"
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>

static volatile int skipped, wrong_pc;

static void handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	const unsigned char *pc = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
	(void)sig, (void)si;
	if (pc[0] != 0x8b || pc[1] != 0x02) { /* movl (%rdx), %eax */
		wrong_pc++;
		_exit(3);
	}
	skipped++;
	uc->uc_mcontext.gregs[REG_RIP] += 2;
}

static int load(const int *p)
{
	int v = -1;
	__asm__ volatile("movl (%%rdx), %%eax" : "+a"(v) : "d"(p) : "memory");
	return v;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	CHECK(sigaction(SIGSEGV, &sa, NULL) == 0);
	int *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(page != MAP_FAILED && none != MAP_FAILED);
	long sum = 0;
	for (int i = 0; i < 3000; i++) {
		page[i % 1024] = i * 3;
		sum += load(page + i % 1024);
		sum += load(none + i % 1024);
		sum += load((const int *)0 + i % 8);
	}
	printf("skipped %d sum %ld\n", skipped, sum);
	CHECK(skipped == 6000 && sum == 13489500);
	return prog_done("sig_skip");
}
