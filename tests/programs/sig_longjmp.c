/* sig_longjmp: handlers left by siglongjmp, tens of thousands of times,
 * some on an alternate stack, some nested two deep.  The runtime calls a
 * handler from its own signal stack and keeps its frames there while the
 * handler runs (a nested signal must not land on them); a handler that
 * never returns leaves them behind, and the runtime must reclaim that
 * space (it ran out after a few thousand). */
#include "prog.h"
#include <setjmp.h>
#include <signal.h>

static sigjmp_buf jb;
static volatile int depth, max_depth, inner, inner_on_alt;

static void on_usr2(int sig)
{
	(void)sig;
	stack_t o;
	sigaltstack(NULL, &o);
	inner_on_alt += !!(o.ss_flags & SS_ONSTACK); /* SA_ONSTACK: always */
	inner++;
	siglongjmp(jb, 2); /* out of both handlers */
}

static void on_usr1(int sig)
{
	(void)sig;
	if (++depth > max_depth)
		max_depth = depth;
	char local[256];
	memset(local, depth, sizeof local);
	if (local[depth] % 2 == 0)
		raise(SIGUSR2); /* nested, then out of both */
	siglongjmp(jb, 1);
}

int main(void)
{
	static char alt[1 << 16];
	stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
	CHECK(sigaltstack(&ss, NULL) == 0);
	struct sigaction sa = {.sa_handler = on_usr1};
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	sa.sa_handler = on_usr2;
	sa.sa_flags = SA_ONSTACK;
	CHECK(sigaction(SIGUSR2, &sa, NULL) == 0);
	long ones = 0, twos = 0;
	for (int i = 0; i < 30000; i++) {
		depth = i % 3;
		int r = sigsetjmp(jb, 1);
		if (r == 0) {
			if (i % 5 == 0) {
				sa.sa_handler = on_usr1;
				sa.sa_flags = i % 10 == 0 ? SA_ONSTACK : 0;
				CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
			}
			raise(SIGUSR1);
			CHECK(0); /* never back here */
		}
		ones += r == 1;
		twos += r == 2;
	}
	printf("left by longjmp: %ld from the first handler, %ld from a nested one (%d, %d on "
	       "the alternate stack)\n",
	       ones, twos, inner, inner_on_alt);
	printf("max depth %d\n", max_depth);
	sigset_t cur;
	sigprocmask(SIG_BLOCK, NULL, &cur);
	printf("USR1 blocked at the end: %d\n", sigismember(&cur, SIGUSR1));
	return prog_done("sig_longjmp");
}
