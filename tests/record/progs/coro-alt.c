/* code on a coroutine stack (mmap) raises signals whose SA_ONSTACK
 * handler (on the program's altstack) runs long enough for boundaries;
 * a heap-stack frame (raise's) must survive a replay from a boundary
 * inside the handler */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
void costack_run(void *top, void (*fn)(void));
__asm__(".text\n.globl costack_run\ncostack_run:\n\tpushq %rbx\n\tmovq %rsp, %rbx\n"
        "\tmovq %rdi, %rsp\n\tcall *%rsi\n\tmovq %rbx, %rsp\n\tpopq %rbx\n\tret\n");
static char alt[1 << 16] __attribute__((aligned(16)));
static volatile unsigned long acc;
static volatile int n;
static void h(int s) { n++; for (int i = 0; i < 3000; i++) acc = acc * 3 + i; }
static void body(void)
{
	for (int i = 0; i < 40; i++) { raise(SIGUSR1); for (int j = 0; j < 300; j++) acc = acc * 5 + j; }
}
int main(void)
{
	stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt};
	sigaltstack(&ss, 0);
	struct sigaction sa; memset(&sa, 0, sizeof sa);
	sa.sa_handler = h; sa.sa_flags = SA_ONSTACK; sigaction(SIGUSR1, &sa, 0);
	char *st = mmap(0, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	costack_run(st + (1 << 20), body);
	printf("n %d acc %lu\n", n, acc);
	return 0;
}
