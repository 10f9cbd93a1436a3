/* sig_mask: signal masks.  sigprocmask blocks, sigpending shows what is
 * held, sigsuspend waits with a temporary mask; handler masks (sa_mask),
 * SA_NODEFER, SA_RESETHAND, sigqueue values with SA_SIGINFO, delivery
 * order of several pending signals, SIG_IGN discarding, sigwaitinfo. */
#include "prog.h"
#include <signal.h>

static char order[64];
static int norder;
static volatile int nested_depth, max_depth, calls, qval, rt_count;

/* Real-time signals are shown relative to SIGRTMIN (glibc's is 34,
 * musl's 35). */
static void record(int sig)
{
	if (norder < 56)
		norder += sig >= SIGRTMIN ? sprintf(order + norder, "rt%d,", sig - SIGRTMIN)
		                          : sprintf(order + norder, "%d,", sig);
}

static void on_usr(int sig) { record(sig); }

static void on_info(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	record(sig);
	rt_count++;
	qval = si->si_code == SI_QUEUE ? si->si_value.sival_int : -1;
}

static void on_nested(int sig)
{
	nested_depth++;
	if (nested_depth > max_depth)
		max_depth = nested_depth;
	if (++calls < 3)
		raise(sig); /* delivered at once only with SA_NODEFER */
	nested_depth--;
}

static void show(const char *what)
{
	printf("%s: [%s]\n", what, order);
	norder = 0;
	order[0] = 0;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_usr };
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	CHECK(sigaction(SIGUSR2, &sa, NULL) == 0);
	CHECK(sigaction(SIGHUP, &sa, NULL) == 0);

	sigset_t block, old, pend;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	sigaddset(&block, SIGHUP);
	CHECK(sigprocmask(SIG_BLOCK, &block, &old) == 0);
	raise(SIGUSR2);
	raise(SIGUSR1);
	raise(SIGUSR1); /* standard signals do not queue: one delivery */
	raise(SIGHUP);
	sigpending(&pend);
	printf("pending: USR1 %d USR2 %d HUP %d TERM %d\n", sigismember(&pend, SIGUSR1),
	       sigismember(&pend, SIGUSR2), sigismember(&pend, SIGHUP), sigismember(&pend, SIGTERM));
	show("while blocked");
	CHECK(sigprocmask(SIG_SETMASK, &old, NULL) == 0);
	show("after unblock");

	/* sigsuspend: wait with USR1 unblocked, USR2 kept blocked */
	CHECK(sigprocmask(SIG_BLOCK, &block, NULL) == 0);
	raise(SIGUSR2);
	raise(SIGUSR1);
	sigset_t wait_mask = block;
	sigdelset(&wait_mask, SIGUSR1);
	int r = sigsuspend(&wait_mask);
	printf("sigsuspend: %d %s\n", r, errname(errno));
	show("delivered in sigsuspend");
	sigset_t cur;
	sigprocmask(SIG_SETMASK, NULL, &cur);
	printf("mask restored after sigsuspend: USR1 %d USR2 %d\n", sigismember(&cur, SIGUSR1),
	       sigismember(&cur, SIGUSR2));
	CHECK(sigprocmask(SIG_UNBLOCK, &block, NULL) == 0);
	show("USR2 after unblock");

	/* sigqueue with a value, SA_SIGINFO */
	struct sigaction si = { .sa_sigaction = on_info, .sa_flags = SA_SIGINFO };
	sigemptyset(&si.sa_mask);
	CHECK(sigaction(SIGRTMIN + 1, &si, NULL) == 0);
	union sigval v = { .sival_int = 1234 };
	CHECK(sigqueue(getpid(), SIGRTMIN + 1, v) == 0);
	printf("sigqueue value: %d\n", qval);
	show("queued");

	/* real-time signals queue: three sent while blocked, three delivered */
	sigset_t rt;
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN + 1);
	sigprocmask(SIG_BLOCK, &rt, NULL);
	rt_count = 0;
	for (int i = 0; i < 3; i++) {
		v.sival_int = i;
		sigqueue(getpid(), SIGRTMIN + 1, v);
	}
	sigprocmask(SIG_UNBLOCK, &rt, NULL);
	printf("realtime deliveries: %d, last value %d\n", rt_count, qval);
	show("rt");

	/* sa_mask blocks during the handler; SA_NODEFER does not */
	sa.sa_handler = on_nested;
	sa.sa_flags = 0;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	raise(SIGUSR1);
	printf("nesting without SA_NODEFER: %d, calls %d\n", max_depth, calls);
	max_depth = nested_depth = calls = 0;
	sa.sa_flags = SA_NODEFER;
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	raise(SIGUSR1);
	printf("nesting with SA_NODEFER: %d, calls %d\n", max_depth, calls);

	/* SA_RESETHAND: the second one would take the default action */
	sa.sa_handler = on_usr;
	sa.sa_flags = SA_RESETHAND;
	CHECK(sigaction(SIGUSR2, &sa, NULL) == 0);
	raise(SIGUSR2);
	struct sigaction now;
	sigaction(SIGUSR2, NULL, &now);
	printf("after SA_RESETHAND: default %d\n", now.sa_handler == SIG_DFL);
	show("resethand");

	/* ignored signals vanish, even when pending */
	signal(SIGHUP, SIG_IGN);
	raise(SIGHUP);
	sigprocmask(SIG_BLOCK, &block, NULL);
	signal(SIGHUP, on_usr);
	raise(SIGHUP);
	signal(SIGHUP, SIG_IGN);
	sigpending(&pend);
	printf("pending HUP discarded by SIG_IGN: %d\n", !sigismember(&pend, SIGHUP));

	/* sigwaitinfo takes a blocked signal without a handler */
	raise(SIGUSR2);
	siginfo_t info;
	sigset_t w;
	sigemptyset(&w);
	sigaddset(&w, SIGUSR2);
	r = sigwaitinfo(&w, &info);
	printf("sigwaitinfo: %d, si_signo %d, from self %d\n", r, info.si_signo, info.si_pid == getpid());
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	show("end");
	return prog_done("sig_mask");
}
