/* sig_fpe: SIGFPE from integer division by zero and from INT_MIN / -1
 * (idiv in 32 and 64 bits, and a remainder), caught by a SA_SIGINFO
 * handler that siglongjmps out; si_code checked.  Floating point
 * division by zero does not trap (exceptions masked) and gives inf. */
#include "prog.h"
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>

static sigjmp_buf jb;
static volatile int code, count;

static void handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	code = si->si_code;
	count++;
	siglongjmp(jb, sig);
}

static volatile int zero32 = 0, minus1 = -1, min32 = INT_MIN;
static volatile long zero64 = 0, minus1l = -1, min64 = LONG_MIN;
static volatile unsigned uzero = 0;

int main(void)
{
	struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGFPE, &sa, NULL) == 0);
	int sig;

	if ((sig = sigsetjmp(jb, 1)) == 0)
		printf("no trap: %d\n", 7 / zero32);
	else
		printf("int 7/0: signal %d, FPE_INTDIV %d\n", sig, code == FPE_INTDIV);
	if ((sig = sigsetjmp(jb, 1)) == 0)
		printf("no trap: %ld\n", 7L % zero64);
	else
		printf("long 7%%0: signal %d, FPE_INTDIV %d\n", sig, code == FPE_INTDIV);
	if ((sig = sigsetjmp(jb, 1)) == 0)
		printf("no trap: %u\n", 9u / uzero);
	else
		printf("unsigned 9/0: signal %d\n", sig);
	if ((sig = sigsetjmp(jb, 1)) == 0)
		printf("no trap: %d\n", min32 / minus1);
	else
		printf("INT_MIN/-1: signal %d\n", sig);
	if ((sig = sigsetjmp(jb, 1)) == 0)
		printf("no trap: %ld\n", min64 / minus1l);
	else
		printf("LONG_MIN/-1: signal %d\n", sig);

	/* division that works after all that */
	printf("100/7 = %d, -100%%7 = %d, %ld\n", 100 / (zero32 + 7), -100 % (zero32 + 7), min64 / 2);
	volatile double dz = 0.0;
	double inf = 1.0 / dz;
	printf("1.0/0.0: isinf %d, positive %d; 0.0/0.0 isnan %d\n", !!isinf(inf), inf > 0, !!isnan(dz / dz));
	printf("traps: %d\n", count);
	return prog_done("sig_fpe");
}
