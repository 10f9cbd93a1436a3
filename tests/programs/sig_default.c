/* sig_default: default signal actions and the exit statuses a parent
 * sees: children killed by SIGTERM (sent by the parent, and raised by
 * themselves), by abort() (SIGABRT), by SIGSEGV with no handler, by
 * SIGKILL; a child ignoring SIGTERM; stop and continue (SIGSTOP/SIGCONT
 * seen through waitpid WUNTRACED/WCONTINUED); SIGCHLD's default (ignored).
 * Last, this program kills itself with SIGTERM after printing its token:
 * its own exit status is 143 to the shell.  Core-dump flags are not
 * printed (they depend on the system's core limit).
 * rr-expect-status: 143 */
#include "prog.h"
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

static void show(const char *what, int st)
{
	if (WIFEXITED(st))
		printf("%s: exited with %d\n", what, WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		printf("%s: killed by signal %d\n", what, WTERMSIG(st));
	else if (WIFSTOPPED(st))
		printf("%s: stopped by signal %d\n", what, WSTOPSIG(st));
	else if (WIFCONTINUED(st))
		printf("%s: continued\n", what);
	else
		printf("%s: status %#x\n", what, st);
}

static pid_t spawn(int how)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	struct rlimit no_core = { 0, 0 };
	setrlimit(RLIMIT_CORE, &no_core);
	switch (how) {
	case 0: /* wait for the parent's SIGTERM */
		for (;;)
			pause();
	case 1:
		raise(SIGTERM);
		_exit(1);
	case 2:
		abort();
	case 3:
		*(volatile int *)0 = 1;
		_exit(1);
	case 4:
		signal(SIGTERM, SIG_IGN);
		raise(SIGTERM);
		_exit(7);
	case 5:
		raise(SIGKILL);
		_exit(1);
	case 6: /* stopped by the parent, then continued */
		for (int i = 0; i < 1000; i++)
			usleep(1000);
		_exit(11);
	case 7: { /* abort() even with SIGABRT caught and blocked */
		signal(SIGABRT, SIG_IGN);
		sigset_t s;
		sigemptyset(&s);
		sigaddset(&s, SIGABRT);
		sigprocmask(SIG_BLOCK, &s, NULL);
		abort();
	}
	}
	_exit(0);
}

int main(void)
{
	int st;
	pid_t pid = spawn(0);
	usleep(20000);
	CHECK(kill(pid, SIGTERM) == 0);
	CHECK(waitpid(pid, &st, 0) == pid);
	show("SIGTERM from parent", st);

	const char *what[] = { NULL, "raise(SIGTERM)", "abort()", "null write", "SIGTERM ignored",
	                       "raise(SIGKILL)" };
	for (int how = 1; how <= 5; how++) {
		pid = spawn(how);
		CHECK(waitpid(pid, &st, 0) == pid);
		show(what[how], st);
	}
	pid = spawn(7);
	CHECK(waitpid(pid, &st, 0) == pid);
	show("abort() with SIGABRT ignored and blocked", st);

	pid = spawn(6);
	CHECK(kill(pid, SIGSTOP) == 0);
	CHECK(waitpid(pid, &st, WUNTRACED) == pid);
	show("SIGSTOP", st);
	CHECK(kill(pid, SIGCONT) == 0);
	CHECK(waitpid(pid, &st, WCONTINUED) == pid);
	show("SIGCONT", st);
	CHECK(waitpid(pid, &st, 0) == pid);
	show("after continuing", st);

	/* SIGCHLD's default is to ignore: no effect on us */
	raise(SIGCHLD);
	printf("SIGCHLD ignored by default\n");
	prog_done("sig_default");
	fflush(stdout);
	raise(SIGTERM);
	printf("not reached\n");
	return 3;
}
