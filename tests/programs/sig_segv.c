/* sig_segv: synchronous SIGSEGV caught by a SA_SIGINFO handler that
 * siglongjmps out: a read of a PROT_NONE page, a write to a read-only
 * page, a read through a null pointer, a stack overflow on an alternate
 * signal stack; si_addr and si_code checked, the signal mask restored. */
#include "prog.h"
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>

static sigjmp_buf jb;
static volatile void *fault_addr;
static volatile int fault_code, faults;
static volatile int on_altstack;

static void handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	stack_t ss;
	sigaltstack(NULL, &ss);
	on_altstack = !!(ss.ss_flags & SS_ONSTACK);
	fault_addr = si->si_addr;
	fault_code = si->si_code;
	faults++;
	siglongjmp(jb, sig);
}

static volatile int depth_limit = 1 << 30; /* never reached */

static int recurse(volatile char *p, int n)
{
	volatile char pad[512];
	if (n >= depth_limit)
		return 0;
	pad[0] = (char)n;
	pad[511] = *p;
	return recurse(pad, n + 1) + pad[0];
}

int main(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	static char alt[1 << 16];
	stack_t ss = { .ss_sp = alt, .ss_size = sizeof alt };
	CHECK(sigaltstack(&ss, NULL) == 0);
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO | SA_ONSTACK };
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGSEGV, &sa, NULL) == 0);

	char *none = mmap(NULL, 2 * pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(none != MAP_FAILED);
	int sig;
	if ((sig = sigsetjmp(jb, 1)) == 0) {
		volatile char c = none[pg + 17];
		(void)c;
		printf("no fault on PROT_NONE read\n");
	} else {
		printf("read PROT_NONE: signal %d, addr exact %d, SEGV_ACCERR %d\n", sig,
		       fault_addr == none + pg + 17, fault_code == SEGV_ACCERR);
	}

	char *ro = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if ((sig = sigsetjmp(jb, 1)) == 0) {
		*(volatile long *)(ro + 40) = 1;
		printf("no fault on read-only write\n");
	} else {
		printf("write read-only: signal %d, addr exact %d, SEGV_ACCERR %d\n", sig,
		       fault_addr == ro + 40, fault_code == SEGV_ACCERR);
	}

	volatile int *volatile nullp = NULL;
	if ((sig = sigsetjmp(jb, 1)) == 0) {
		printf("null read gave %d\n", *nullp);
	} else {
		printf("null read: signal %d, addr null %d, SEGV_MAPERR %d\n", sig,
		       fault_addr == NULL, fault_code == SEGV_MAPERR);
	}
	if ((sig = sigsetjmp(jb, 1)) == 0) {
		nullp[256] = 3;
	} else {
		printf("null write: signal %d, addr exact %d\n", sig, fault_addr == (void *)(nullp + 256));
	}

	/* the handler ran with SIGSEGV blocked; siglongjmp restored the mask */
	sigset_t now;
	sigprocmask(SIG_BLOCK, NULL, &now);
	printf("SIGSEGV blocked after siglongjmp: %d\n", sigismember(&now, SIGSEGV));

	/* after the fault the memory becomes accessible: the access retried */
	CHECK(mprotect(none, 2 * pg, PROT_READ | PROT_WRITE) == 0);
	none[pg + 17] = 'k';
	printf("after mprotect: %c\n", none[pg + 17]);

	/* stack overflow: only an alternate stack can run the handler */
	if ((sig = sigsetjmp(jb, 1)) == 0) {
		char c = 1;
		recurse(&c, 0);
	} else {
		printf("stack overflow: signal %d, handler on alternate stack %d\n", sig, on_altstack);
	}
	printf("faults: %d\n", faults);
	return prog_done("sig_segv");
}
