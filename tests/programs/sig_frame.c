/* sig_frame: what the kernel's signal frame gives a handler and what its
 * return takes back, and what happens when there is no room for it:
 * - the handler's ucontext holds the interrupted mask and the alternate
 *   stack (its flags without SS_ONSTACK); a mask the handler writes there
 *   is the mask after it returns;
 * - a frame that does not fit on the stack (one page left, a guard page
 *   below) is a SIGSEGV (si_code SI_KERNEL) for SIGSEGV's handler instead,
 *   and the signal is lost;
 * - a fault in a SIGSEGV handler (SIGSEGV blocked there) kills, and so
 *   does a stack overflow without an alternate stack (children). */
#include "prog.h"
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>

void costack_run(void *top, void (*fn)(void));
__asm__(".text\n.globl costack_run\ncostack_run:\n\tpushq %rbx\n\tmovq %rsp, %rbx\n"
        "\tmovq %rdi, %rsp\n\tcall *%rsi\n\tmovq %rbx, %rsp\n\tpopq %rbx\n\tret\n");

static char alt[1 << 16];
static volatile int usr1, usr2_blocked, usr1_blocked, ss_flags, ss_on_alt, add_mask;
static volatile int segv, segv_code;

static void on_usr1(int sig, siginfo_t *si, void *u)
{
	(void)sig, (void)si;
	ucontext_t *uc = u;
	usr1++;
	usr2_blocked = sigismember(&uc->uc_sigmask, SIGUSR2);
	usr1_blocked = sigismember(&uc->uc_sigmask, SIGUSR1);
	ss_flags = uc->uc_stack.ss_flags;
	ss_on_alt = uc->uc_stack.ss_sp == alt;
	if (add_mask)
		sigaddset(&uc->uc_sigmask, SIGTERM);
}

static void on_segv(int sig, siginfo_t *si, void *u)
{
	(void)sig, (void)u;
	segv++;
	segv_code = si->si_code;
}

/* One page of stack left: not enough for SIGUSR1's frame. */
static void nearly_full(void)
{
	volatile char pad[3200];
	pad[0] = 1;
	raise(SIGUSR1);
	(void)pad[0];
}

static int child_status(void (*fn)(void))
{
	fflush(stdout);
	pid_t p = fork();
	if (p == 0) {
		fn();
		_exit(0);
	}
	int st = 0;
	waitpid(p, &st, 0);
	return st;
}

static void segv_in_segv(int sig)
{
	(void)sig;
	*(volatile int *)0 = 1; /* SIGSEGV blocked here */
}

static void fault_twice(void)
{
	signal(SIGSEGV, segv_in_segv);
	*(volatile int *)0 = 1;
}

static int overflow(volatile char *p, int n)
{
	volatile char buf[1024];
	buf[0] = (char)n;
	return overflow(buf, n + 1) + p[0];
}

static void overflow_without_altstack(void)
{
	signal(SIGSEGV, segv_in_segv);
	overflow(alt, 0);
}

int main(void)
{
	stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
	CHECK(sigaltstack(&ss, NULL) == 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	CHECK(sigaction(SIGSEGV, &sa, NULL) == 0);

	sigset_t m, old;
	sigemptyset(&m);
	sigaddset(&m, SIGUSR2);
	sigprocmask(SIG_BLOCK, &m, &old);
	raise(SIGUSR1);
	printf("handler: ran %d, mask had SIGUSR2 %d, SIGUSR1 %d; uc_stack flags %d, on alt %d\n",
	       usr1, usr2_blocked, usr1_blocked, ss_flags, ss_on_alt);
	CHECK(usr1 == 1 && usr2_blocked == 1 && usr1_blocked == 0 && ss_flags == 0 && ss_on_alt);

	add_mask = 1;
	raise(SIGUSR1);
	add_mask = 0;
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	printf("mask the handler wrote in its context: SIGTERM blocked after it %d\n",
	       sigismember(&now, SIGTERM));
	CHECK(sigismember(&now, SIGTERM) == 1);
	sigprocmask(SIG_SETMASK, &old, NULL);

	char *s = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(s != MAP_FAILED);
	CHECK(mprotect(s, 4096, PROT_NONE) == 0);
	usr1 = 0;
	costack_run(s + 2 * 4096, nearly_full);
	printf("no room for the frame: SIGUSR1 handler ran %d, SIGSEGV handler ran %d (SI_KERNEL %d)\n",
	       usr1, segv, segv_code == SI_KERNEL);
	CHECK(usr1 == 0 && segv == 1 && segv_code == SI_KERNEL);

	int st = child_status(fault_twice);
	printf("fault in a SIGSEGV handler: killed by signal %d\n",
	       WIFSIGNALED(st) ? WTERMSIG(st) : -1);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	stack_t off = {.ss_flags = SS_DISABLE};
	CHECK(sigaltstack(&off, NULL) == 0);
	st = child_status(overflow_without_altstack);
	printf("stack overflow without an alternate stack: killed by signal %d\n",
	       WIFSIGNALED(st) ? WTERMSIG(st) : -1);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
	return prog_done("sig_frame");
}
