/* sig_storm: signals from another process, hundreds of them, landing
 * anywhere: in computation, in blocking calls (read, nanosleep, ppoll,
 * ppoll with a mask, waitpid), in handlers.  Handlers pass stack addresses to
 * syscalls (their depth must be the recording's in replay), nest (one
 * with SA_NODEFER), and restart calls (SA_RESTART) or make them fail
 * with EINTR.  Only what does not depend on timing is printed. */
#include "prog.h"
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

static volatile int hits[3], depth, max_depth;

static void on_sig(int sig)
{
	struct timespec ts;
	char b[32];
	int i = sig == SIGUSR1 ? 0 : sig == SIGUSR2 ? 1 : 2;
	if (++depth > max_depth)
		max_depth = depth;
	clock_gettime(CLOCK_MONOTONIC, &ts); /* a stack address in a syscall */
	snprintf(b, sizeof b, "%d %ld", sig, (long)ts.tv_nsec);
	hits[i]++;
	depth--;
}

int main(void)
{
	struct sigaction sa = {.sa_handler = on_sig, .sa_flags = SA_RESTART};
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);
	sa.sa_flags = 0; /* blocking calls fail with EINTR */
	CHECK(sigaction(SIGUSR2, &sa, NULL) == 0);
	sa.sa_flags = SA_NODEFER | SA_RESTART;
	CHECK(sigaction(SIGRTMIN, &sa, NULL) == 0);

	int p[2];
	CHECK(pipe(p) == 0);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		for (int i = 0; i < 600; i++) {
			kill(parent, i % 3 == 0 ? SIGUSR1 : i % 3 == 1 ? SIGUSR2 : SIGRTMIN);
			if (i % 50 == 49 && write(p[1], "d", 1) != 1)
				_exit(1);
			usleep(200);
		}
		_exit(0);
	}
	close(p[1]);
	uint64_t acc = 0;
	int got = 0, eintr = 0;
	sigset_t usr1, none;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigemptyset(&none);
	for (int round = 0; round < 400; round++) {
		for (int j = 0; j < 2000; j++)
			acc += (uint64_t)j * (unsigned)round;
		switch (round % 4) {
		case 0: {
			struct timespec ts = {0, 50000};
			nanosleep(&ts, NULL);
			break;
		}
		case 1: {
			struct pollfd pf = {p[0], POLLIN, 0};
			struct timespec ts = {0, 50000};
			int r = ppoll(&pf, 1, &ts, &usr1); /* USR1 held back while it waits */
			if (r > 0) {
				char c;
				got += read(p[0], &c, 1) == 1;
			}
			break;
		}
		case 2: {
			/* USR1 blocked around a wait that lets it in (sigsuspend's
			 * way, with a timeout: the child may be done) */
			sigset_t old;
			struct timespec ts = {0, 200000};
			sigprocmask(SIG_BLOCK, &usr1, &old);
			ppoll(NULL, 0, &ts, &none);
			sigprocmask(SIG_SETMASK, &old, NULL);
			break;
		}
		case 3: {
			char c;
			/* data comes 12 times: a read that waits would wait long */
			struct pollfd pf = {p[0], POLLIN, 0};
			if (poll(&pf, 1, 0) == 1) {
				ssize_t r = read(p[0], &c, 1);
				got += r == 1;
				eintr += r < 0 && errno == EINTR;
			}
			break;
		}
		}
	}
	/* the rest of the data, read in blocking reads the signals interrupt
	 * (USR2: EINTR) or restart (USR1, SIGRTMIN) */
	for (;;) {
		char c;
		ssize_t r = read(p[0], &c, 1);
		if (r == 0)
			break;
		got += r == 1;
		eintr += r < 0 && errno == EINTR;
	}
	int st;
	while (waitpid(pid, &st, 0) != pid)
		;
	printf("computed %llu\n", (unsigned long long)acc);
	printf("data bytes: %d, child status %d\n", got, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	printf("handlers ran: %d %d %d, depth >= 1: %d\n", hits[0] > 0, hits[1] > 0, hits[2] > 0,
	       max_depth >= 1);
	(void)eintr;
	return prog_done("sig_storm");
}
