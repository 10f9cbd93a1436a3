/* fault-flags: the status flags a SIGSEGV handler finds in its context
 * for a read whose flags are dead, read through a null pointer (below the
 * planes: it faults in the read hook's compare) and from a PROT_NONE page
 * (it faults in the program's instruction, after the hook), with the flags
 * an unequal compare left just before.  A read hook with a check leaves
 * the flags of an equal compare, and the runtime gives a handler those
 * when the hook's compare faults; a replay without hooks has cmp %r13,
 * %r13 in its place (docs/hooks.md): the handler must see the same in
 * both (checks.sh unhook).  Without rdb it sees the cmpl's. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

static sigjmp_buf back;
static unsigned long seen;

static void handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	(void)sig, (void)si;
	seen = (unsigned long)uc->uc_mcontext.gregs[REG_EFL] & 0x8d5; /* OF SF ZF AF PF CF */
	siglongjmp(back, 1);
}

/* The cmpl sets the flags, nothing reads them: dead at the movl. */
static int load(const int *p)
{
	int v;
	__asm__ volatile("cmpl $7, %%ecx\n\tmovl (%%rdx), %%eax"
	                 : "=a"(v) : "d"(p), "c"(3) : "cc", "memory");
	return v;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	int *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (none == MAP_FAILED)
		return 2;
	const int *where[2] = {(const int *)0, none + 5};
	for (int k = 0; k < 2; k++) {
		seen = 0;
		if (!sigsetjmp(back, 1))
			load(where[k]);
		printf("%s: flags 0x%lx\n", k ? "PROT_NONE read" : "null read", seen);
	}
	return 0;
}
