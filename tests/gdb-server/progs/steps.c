/* steps.c: for tests/gdb-server.  A little of what a step meets: calls
 * and loops, syscalls (write, getpid), a signal handler (raise), a rep
 * movsb, a longjmp.  Prints one line. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile int got;
static jmp_buf jb;
static char src[64] = "the quick brown fox", dst[64];

void on_usr1(int sig)
{
	got += sig;
}

int work(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i * n;
	return s;
}

void copy(void)
{
	unsigned long n = 20;
	char *d = dst;
	const char *s = src;
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
}

void jump(void)
{
	longjmp(jb, 7);
}

int main(void)
{
	signal(SIGUSR1, on_usr1);
	int total = work(5);
	raise(SIGUSR1);
	total += got;
	copy();
	if (setjmp(jb) == 0)
		jump();
	total += (int)getpid() * 0;
	printf("total %d %s\n", total, dst);
	return 0;
}
