/* a small altstack in .bss with the program's globals just below it: a
 * boundary inside an SA_ONSTACK handler; the globals are read after */
#include <signal.h>
#include <stdio.h>
#include <string.h>
struct g { unsigned long table[512]; char alt[8192]; } __attribute__((aligned(4096)));
static struct g G;
static volatile unsigned long acc;
static void h(int s) { for (int i = 0; i < 3000; i++) acc = acc * 3 + G.table[i % 512]; }
int main(void)
{
	for (int i = 0; i < 512; i++) G.table[i] = i * 2654435761u;
	stack_t ss = {.ss_sp = G.alt, .ss_size = sizeof G.alt};
	sigaltstack(&ss, 0);
	struct sigaction sa; memset(&sa, 0, sizeof sa);
	sa.sa_handler = h; sa.sa_flags = SA_ONSTACK; sigaction(SIGUSR1, &sa, 0);
	for (int i = 0; i < 30; i++) raise(SIGUSR1);
	printf("acc %lu\n", acc);
	return 0;
}
