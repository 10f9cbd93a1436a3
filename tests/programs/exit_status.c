/* exit_status: a program that fails on purpose: atexit handlers run in
 * reverse order of registration, stdio buffers are flushed by exit(), and
 * the exit status is 3.  A child's statuses (0, 1, 255, 256 -> 0) are
 * seen by the parent; _exit skips the handlers and the buffers.
 * rr-expect-status: 3 */
#include "prog.h"
#include <sys/wait.h>

static void h1(void) { printf("atexit handler 1 (registered first, runs last)\n"); }
static void h2(void) { printf("atexit handler 2\n"); }
static void h3(void)
{
	printf("atexit handler 3 (registered last, runs first)\n");
	fprintf(stderr, "exit_status: leaving with status 3\n");
}

int main(void)
{
	static const int codes[] = { 0, 1, 42, 255, 256, 257 };
	for (unsigned i = 0; i < sizeof codes / sizeof *codes; i++) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0)
			exit(codes[i]);
		int st;
		CHECK(waitpid(pid, &st, 0) == pid);
		printf("child exit(%d): parent sees %d\n", codes[i], WEXITSTATUS(st));
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		atexit(h1);
		printf("this buffered line is lost by _exit\n");
		_exit(9);
	}
	int st;
	CHECK(waitpid(pid, &st, 0) == pid);
	printf("child _exit(9): %d\n", WEXITSTATUS(st));

	CHECK(atexit(h1) == 0 && atexit(h2) == 0 && atexit(h3) == 0);
	prog_done("exit_status");
	printf("buffered until exit()\n");
	exit(3);
}
