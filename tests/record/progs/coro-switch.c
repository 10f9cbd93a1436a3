/* coro-switch: cooperative threads on heap stacks, switched with
 * setjmp/longjmp, each suspended (a few frames deep) across interval
 * boundaries.  A boundary saves the main stack and the one %rsp is on;
 * the others' frames are read again, unhooked (pops, returns), when their
 * thread resumes: the runtime marks them read at the switch
 * (runtime/hooks.S __rdb_stack_switch), so that a replay from any
 * interval has them.  Without it, 214 of 262 replays from an interval
 * crashed (256 KiB stacks apart).  The stacks lie 20 KiB apart in one
 * block, so another thread's frames lie in the dead window below the
 * %rsp an interval begins with (interval.c dead_stack): without the cut a
 * switch there makes, 102 of 263 replays from an interval diverged. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

void costack_run(void *top, void (*fn)(void));
__asm__(".text\n.globl costack_run\ncostack_run:\n\tpushq %rbx\n\tmovq %rsp, %rbx\n"
        "\tmovq %rdi, %rsp\n\tcall *%rsi\n\tmovq %rbx, %rsp\n\tpopq %rbx\n\tret\n");

#define N 3
#define STACK (20 << 10)
static jmp_buf ctx[N];
static volatile int cur, started[N];
static char *stk[N];
static void entry(void);

static void yield(void)
{
	int me = cur, next = (me + 1) % N;
	if (!setjmp(ctx[me])) {
		cur = next;
		if (!started[next]) {
			started[next] = 1;
			costack_run(stk[next], entry);
		}
		longjmp(ctx[next], 1);
	}
}

static int deep(int me, int d, unsigned long *s)
{
	volatile char pad[512];
	pad[0] = (char)d;
	if (d)
		return deep(me, d - 1, s) + pad[0];
	for (int j = 0; j < 50; j++)
		*s = *s * 6364136223846793005ul + j + me;
	yield();
	return pad[0];
}

static void work(int me)
{
	unsigned long s = me + 1;
	for (int it = 0; it < 3000; it++)
		deep(me, it % 5, &s);
	printf("thread %d sum %lu\n", me, s);
	if (me == 0)
		exit(0);
	for (;;)
		yield();
}

static void entry(void) { work(cur); }

int main(void)
{
	/* next to each other in one block: a boundary on one thread's stack
	 * has the others' frames in its dead window below %rsp */
	char *block = malloc((N - 1) * STACK);
	if (!block)
		return 2;
	for (int i = 1; i < N; i++)
		stk[i] = block + i * STACK;
	started[0] = 1;
	work(0);
}
