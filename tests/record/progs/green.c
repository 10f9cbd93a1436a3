/* green: preemptive green threads.  A SIGUSR1 handler saves the running
 * thread (sigsetjmp inside the handler) and siglongjmps into another one,
 * which resumes inside *its* earlier handler call and returns from it, so
 * handlers return in another order than they began, each on its own
 * thread's stack (the runtime once kept a frame of its own under each
 * handler call and hung here).  The threads' stacks stay suspended across
 * interval boundaries: a replay from each interval needs their frames. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void costack_run(void *top, void (*fn)(void));
__asm__(".text\n.globl costack_run\ncostack_run:\n\tpushq %rbx\n\tmovq %rsp, %rbx\n"
        "\tmovq %rdi, %rsp\n\tcall *%rsi\n\tmovq %rbx, %rsp\n\tpopq %rbx\n\tret\n");

#define N 3
static sigjmp_buf ctx[N];
static volatile int cur, started[N], done[N];
static char *stk[N];
static unsigned long sum[N];
static volatile long nsw;
static void entry(void);

static void switch_thread(int sig)
{
	(void)sig;
	int me = cur, next = me;
	for (int i = 1; i <= N; i++)
		if (!done[(me + i) % N]) {
			next = (me + i) % N;
			break;
		}
	if (next == me)
		return;
	nsw++;
	if (!sigsetjmp(ctx[me], 1)) {
		cur = next;
		if (!started[next]) {
			started[next] = 1;
			costack_run(stk[next], entry);
		}
		siglongjmp(ctx[next], 1);
	}
}

static void work(int me)
{
	unsigned long s = me + 1;
	for (int it = 0; it < 3000; it++) {
		for (int j = 0; j < 50; j++)
			s = s * 6364136223846793005ul + j + me;
		if (it % 7 == 3 + me)
			raise(SIGUSR1);
	}
	sum[me] = s;
	done[me] = 1;
	for (int i = 0; i < N; i++)
		if (!done[i])
			for (;;)
				raise(SIGUSR1);
	for (int i = 0; i < N; i++)
		printf("thread %d sum %lu\n", i, sum[i]);
	printf("more than 1000 switches: %s\n", nsw > 1000 ? "yes" : "no");
	exit(0);
}

static void entry(void)
{
	sigset_t m;
	sigemptyset(&m);
	sigaddset(&m, SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &m, 0);
	work(cur);
}

int main(void)
{
	for (int i = 1; i < N; i++) {
		char *p = mmap(0, 256 << 10, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 2;
		stk[i] = p + (256 << 10);
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = switch_thread;
	sigaction(SIGUSR1, &sa, 0);
	started[0] = 1;
	work(0);
}
