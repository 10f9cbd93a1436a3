/* stackwatch.c: a local of main written a few times through %rsp (no
 * write hook: the trace's WRITTEN records miss it), with the work between
 * the writes in frames pages below it (pad), so the intervals of that
 * work write none of the local's page (tests/gdb-server run.sh
 * watch-stack-pages: STACK_WRITTEN lets reverse-continue leave them out).
 * With an argument the work runs in a fork child (recorded with --forks:
 * the child's own stack pages) while the parent waits for it. */
#include <sys/wait.h>
#include <unistd.h>

volatile long sink;

static void spin(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

/* set local = v through %rsp, as code the hooks do not see */
#define SET(v)                                                                           \
	__asm__ volatile("lea %0, %%rax\n\tsub %%rsp, %%rax\n\tmovq %1, (%%rsp,%%rax)"    \
	                 : "+m"(local) : "i"(v) : "rax", "memory")

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		pid_t p = fork();
		if (p > 0) {
			int st = 0;
			return waitpid(p, &st, 0) != p || st != 0;
		}
	}
	long local = 1;
	volatile char pad[16384];
	pad[0] = 0;
	SET(2);
	spin(20000);
	SET(3);
	spin(40000);
	sink = pad[0];
	return (int)local == 0;
}
