/* limits (stop): sigpending.c with the hard RLIMIT_SIGPENDING lowered to
 * 1 too: the runtime cannot put the second signal back on the kernel's
 * queue with its siginfo (the recording died: "cannot queue signal 35
 * again"), and no unprivileged process may raise the limit.  The recording
 * stops there cleanly and the signal still comes, as one the kernel had
 * no room for (its value lost), so the program prints only how many came. */
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

static volatile int n, vals[2], codes[2];

static void on_rt(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	int i = sig != SIGRTMIN; /* (the kernel runs SIGRTMIN + 1's first) */
	vals[i] = si->si_value.sival_int;
	codes[i] = si->si_code;
	n++;
}

int main(void)
{
	struct sigaction a = {.sa_sigaction = on_rt, .sa_flags = SA_SIGINFO};
	sigset_t rt, old;
	sigemptyset(&a.sa_mask);
	sigemptyset(&rt);
	for (int s = SIGRTMIN; s <= SIGRTMIN + 1; s++) {
		sigaction(s, &a, 0);
		sigaddset(&rt, s);
	}
	sigprocmask(SIG_BLOCK, &rt, &old);
	if (sigqueue(getpid(), SIGRTMIN, (union sigval){.sival_int = 11}) ||
	    sigqueue(getpid(), SIGRTMIN + 1, (union sigval){.sival_int = 22})) {
		perror("sigqueue");
		return 2;
	}
	struct rlimit rl;
	getrlimit(RLIMIT_SIGPENDING, &rl);
	rl.rlim_cur = rl.rlim_max = 1;
	if (setrlimit(RLIMIT_SIGPENDING, &rl)) {
		perror("setrlimit");
		return 2;
	}
	sigprocmask(SIG_SETMASK, &old, 0);
	printf("signals %d\n", n);
	return n == 2 ? 0 : 1;
}
