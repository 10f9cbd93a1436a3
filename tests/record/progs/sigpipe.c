/* rr: signals the kernel sends for a syscall (si_code SI_USER, our own
 * pid, as if we had sent them): SIGPIPE for a write to a pipe nobody
 * reads, SIGXFSZ for a write past RLIMIT_FSIZE; their handlers run in
 * the recording and in replay, after the call.
 * rr-expect-out: ^write to a closed pipe: -1 EPIPE, SIGPIPE 1, code 0, own pid 1$
 * rr-expect-out: ^write past RLIMIT_FSIZE: 10 -1 EFBIG, SIGXFSZ 1$ */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
static volatile int got[32], code, pid_ok;
static void on_sig(int s, siginfo_t *si, void *uc)
{
	(void)uc;
	got[s]++;
	code = si->si_code;
	pid_ok = si->si_pid == getpid();
}
int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGPIPE, &sa, 0);
	sigaction(SIGXFSZ, &sa, 0);
	int p[2];
	pipe(p);
	close(p[0]);
	ssize_t r = write(p[1], "x", 1);
	printf("write to a closed pipe: %zd %s, SIGPIPE %d, code %d, own pid %d\n", r,
	       r < 0 && errno == EPIPE ? "EPIPE" : "?", got[SIGPIPE], code, pid_ok);
	fflush(stdout); /* stdout may be a file: the limit would apply to it */
	struct rlimit rl = {10, RLIM_INFINITY}, was;
	getrlimit(RLIMIT_FSIZE, &was);
	setrlimit(RLIMIT_FSIZE, &rl);
	int fd = open("big.out", O_WRONLY | O_CREAT | O_TRUNC, 0600);
	r = write(fd, "0123456789", 10);
	ssize_t r2 = write(fd, "a", 1);
	setrlimit(RLIMIT_FSIZE, &was);
	printf("write past RLIMIT_FSIZE: %zd %zd %s, SIGXFSZ %d\n", r, r2,
	       r2 < 0 && errno == EFBIG ? "EFBIG" : "?", got[SIGXFSZ]);
	close(fd);
	unlink("big.out");
	return 0;
}
