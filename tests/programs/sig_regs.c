/* sig_regs: a signal handler starts with the interrupted code's %rbx and
 * %rbp, as the kernel leaves them (only the argument registers, %rax, %rsp
 * and %rip are set for it).  An entry stub in assembly saves the two
 * before any C code runs, and the handler compares them with the saved
 * context: for a fault (stepped over, as in sig_skip) and for a raise().
 * Under rdb the runtime calls the handler; what its own path left in
 * these registers differs between record and replay. */
#include "prog.h"
#include <signal.h>
#include <ucontext.h>

unsigned long sig_regs_rbx, sig_regs_rbp;
static volatile int same, calls;

__attribute__((used)) static void handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	(void)si;
	calls++;
	same += sig_regs_rbx == (unsigned long)uc->uc_mcontext.gregs[REG_RBX] &&
	        sig_regs_rbp == (unsigned long)uc->uc_mcontext.gregs[REG_RBP];
	if (sig == SIGSEGV)
		uc->uc_mcontext.gregs[REG_RIP] += 2; /* movl (%rdx), %eax */
}

void sig_regs_entry(int, siginfo_t *, void *);
__asm__(".text\n"
        ".globl sig_regs_entry\n"
        "sig_regs_entry:\n"
        "\tmovq %rbx, sig_regs_rbx(%rip)\n"
        "\tmovq %rbp, sig_regs_rbp(%rip)\n"
        "\tjmp handler\n");

/* sig_regs_fault(rbx, rbp): faults with those values in %rbx and %rbp */
void sig_regs_fault(unsigned long, unsigned long);
__asm__(".text\n"
        ".globl sig_regs_fault\n"
        "sig_regs_fault:\n"
        "\tpushq %rbx\n"
        "\tpushq %rbp\n"
        "\tmovq %rdi, %rbx\n"
        "\tmovq %rsi, %rbp\n"
        "\txorl %edx, %edx\n"
        "\tmovl (%rdx), %eax\n"
        "\tpopq %rbp\n"
        "\tpopq %rbx\n"
        "\tret\n");

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = sig_regs_entry;
	sa.sa_flags = SA_SIGINFO;
	CHECK(sigaction(SIGSEGV, &sa, NULL) == 0);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	for (unsigned long i = 0; i < 100; i++) {
		sig_regs_fault(0x1234 + i, 0x5678 * i);
		raise(SIGUSR1);
	}
	printf("handler calls %d, interrupted %%rbx and %%rbp seen %d times\n", calls, same);
	CHECK(calls == 200 && same == 200);
	return prog_done("sig_regs");
}
