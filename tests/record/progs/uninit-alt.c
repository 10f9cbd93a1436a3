/* reads never-written stack (big uninitialised locals) after signals,
 * in main and in handlers on the altstack and the main stack: the values
 * must be the same in record and replay (output differs from glibc) */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static char alt[1 << 16] __attribute__((aligned(16)));
static volatile unsigned long acc;
__attribute__((noinline)) static unsigned long peek(void)
{
	unsigned long buf[1024];
	__asm__ volatile("" : "=m"(buf));
	unsigned long h = 0;
	for (int i = 0; i < 1024; i++) h = h * 1000003 ^ buf[i];
	return h;
}
__attribute__((noinline)) static void scribble(int k)
{
	volatile unsigned long b[700];
	for (int i = 0; i < 700; i++) b[i] = (unsigned long)i * k;
}
static void h(int s) { acc ^= peek(); for (int i = 0; i < 3000; i++) acc = acc * 3 + i; scribble(s); acc ^= peek(); }
int main(void)
{
	stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt};
	sigaltstack(&ss, 0);
	struct sigaction sa; memset(&sa, 0, sizeof sa);
	sa.sa_handler = h; sa.sa_flags = SA_ONSTACK; sigaction(SIGUSR1, &sa, 0);
	sa.sa_flags = 0; sigaction(SIGUSR2, &sa, 0);
	for (int i = 0; i < 20; i++) {
		raise(SIGUSR1);
		unsigned long p = peek();
		printf("%d %lx\n", i, p ^ acc);
		write(-1, "", 0);
		for (int j = 0; j < 2000; j++) acc = acc * 5 + j;
	}
	return 0;
}
