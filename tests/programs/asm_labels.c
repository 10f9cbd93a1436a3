/* asm_labels: a SIGSEGV handler that knows hand-written loads by their
 * labels, as fault-tolerant code does (the kernel's exception tables, in
 * user space): a fault at probe_at (its pc compared with the label) is
 * emulated and resumed at probe_end; a fault at pick_first resumes at
 * pick_second, the label of another load, which reads a table written
 * only at the start (so later intervals' reads of it must be traced).
 * With rdb the labels must be the instructions' addresses, not their
 * hooks', and a handler resuming at a hooked load must run its hook. */
#include "prog.h"
#include <signal.h>
#include <ucontext.h>

extern char probe_at[], probe_end[], pick_first[], pick_second[];

static volatile int probes, picks, wrong_pc;
static long table[256];

static void handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	greg_t *g = uc->uc_mcontext.gregs;
	(void)sig, (void)si;
	if (g[REG_RIP] == (greg_t)probe_at) {
		g[REG_RAX] = g[REG_RDX] >> 4;
		g[REG_RIP] = (greg_t)probe_end;
		probes++;
	} else if (g[REG_RIP] == (greg_t)pick_first) {
		g[REG_RIP] = (greg_t)pick_second;
		picks++;
	} else {
		wrong_pc++;
		_exit(3);
	}
}

__attribute__((noinline)) static long probe(const long *p)
{
	long v;
	__asm__ volatile(".globl probe_at, probe_end\n"
	                 "probe_at: movq (%1), %0\n"
	                 "probe_end:"
	                 : "=a"(v) : "d"(p) : "memory");
	return v;
}

/* *bad, or where it faults *good */
__attribute__((noinline)) static long pick(const long *bad, const long *good)
{
	long v;
	__asm__ volatile(".globl pick_first, pick_second\n"
	                 "pick_first: movq (%1), %0\n"
	                 "jmp 1f\n"
	                 "pick_second: movq (%2), %0\n"
	                 "1:"
	                 : "=&a"(v) : "d"(bad), "c"(good) : "memory");
	return v;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO;
	CHECK(sigaction(SIGSEGV, &sa, NULL) == 0);
	for (int i = 0; i < 256; i++)
		table[i] = (long)i * i + 7;
	unsigned long sum = 0;
	for (int i = 0; i < 4000; i++) {
		sum += (unsigned long)probe((const long *)(uintptr_t)(16 * (i % 64 + 1)));
		sum += (unsigned long)pick((const long *)(uintptr_t)(8 * (i % 32 + 1)),
		                           &table[(i * 37) % 256]);
		sum += (unsigned long)pick(&table[i % 256], NULL);
		for (int j = 0; j < 50; j++)
			sum = sum * 31 + (unsigned long)j;
	}
	printf("probes %d picks %d sum %lu\n", probes, picks, sum);
	CHECK(probes == 4000 && picks == 4000 && wrong_pc == 0);
	return prog_done("asm_labels");
}
