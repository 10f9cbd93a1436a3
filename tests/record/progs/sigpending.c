/* rr: two queued real-time signals held back by the mask while the
 * program lowers RLIMIT_SIGPENDING's soft limit to 1, then let in
 * together.  Both come, with their values (natively: the limit counts
 * only new signals).  The runtime takes them off the kernel's queue and
 * puts them back at the next check, one over the limit: the recording
 * died ("cannot queue signal 35 again (error 11)"); it raises the soft
 * limit for that call.
 *   With the argument "hard" the hard limit goes to 1 too: the runtime
 * cannot put the second signal back with its siginfo then (the recording
 * died: "cannot queue signal 35 again"), and no unprivileged process may
 * raise the limit.  The recording stops there cleanly (limits.sh) and the
 * signal still comes, as one the kernel had no room for (its value lost),
 * so the program prints only how many came.
 * limits-variant: hard (stop)
 * rr-expect-out: ^signals 2: values 11 22, si_code -1 -1$ */
#include <signal.h>
#include <stdio.h>
#include <string.h>
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

int main(int argc, char **argv)
{
	int hard = argc > 1 && strcmp(argv[1], "hard") == 0;
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
	rl.rlim_cur = 1;
	if (hard)
		rl.rlim_max = 1;
	if (setrlimit(RLIMIT_SIGPENDING, &rl)) {
		perror("setrlimit");
		return 2;
	}
	sigprocmask(SIG_SETMASK, &old, 0);
	if (hard) {
		printf("signals %d\n", n);
		return n == 2 ? 0 : 1;
	}
	printf("signals %d: values %d %d, si_code %d %d\n", n, vals[0], vals[1], codes[0],
	       codes[1]);
	return n == 2 && vals[0] == 11 && vals[1] == 22 && codes[0] == SI_QUEUE ? 0 : 1;
}
