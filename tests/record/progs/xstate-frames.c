/* xstate-frames: signal frames whose xsave image differs with the state
 * the vector and x87 registers were in.  Each round puts the AVX upper
 * halves in their initial state (vzeroupper), in use with values, in use
 * with zeros (vxorps), or runs x87 code, then works long enough for
 * boundaries to fall between that and a kill to itself; the handler
 * (SIGUSR1) changes the state again and sends SIGUSR2, whose handler runs
 * nested.  Each handler prints its frame's XSTATE_BV and a hash of the
 * whole image, so a replay from any interval must rebuild, from the
 * boundary's saved image, the frames the recording's program saw
 * (checks.sh xstate-from-k; issue 16's lead for sig_storm's rare
 * divergence: the "in use" bits after a start from K). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

static volatile int round_no;
static volatile uint64_t sink;

static void dump(int sig, void *ucv)
{
	const unsigned char *fp = (const unsigned char *)((ucontext_t *)ucv)->uc_mcontext.fpregs;
	uint32_t size = 512, magic;
	uint64_t bv = 0, h = 1469598103934665603ull;
	memcpy(&magic, fp + 464, 4);
	if (magic == 0x46505853u) /* FP_XSTATE_MAGIC1: an xsave image */
		memcpy(&size, fp + 468, 4);
	if (size > 576)
		memcpy(&bv, fp + 512, 8);
	for (uint32_t i = 0; i < size; i++)
		h = (h ^ fp[i]) * 1099511628211ull;
	printf("round %d signal %d: size %u bv %lx image %016lx\n", round_no, sig, size,
	       (unsigned long)bv, (unsigned long)h);
}

static void dirty_ymm(void)
{
	static const uint64_t v[4] = {1, 2, 3, 4};
	__asm__ volatile("vmovdqu %0, %%ymm3" : : "m"(v) : "xmm3");
}

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	dump(sig, uc);
}

static void on_usr1(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	dump(sig, uc);
	if (round_no % 3 == 0)
		dirty_ymm();
	else if (round_no % 3 == 1)
		__asm__ volatile("vzeroupper");
	kill(getpid(), SIGUSR2);
}

int main(void)
{
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx")) {
		printf("no AVX\n");
		return 77;
	}
	struct sigaction a;
	memset(&a, 0, sizeof a);
	a.sa_flags = SA_SIGINFO;
	a.sa_sigaction = on_usr1;
	sigaction(SIGUSR1, &a, 0);
	a.sa_sigaction = on_usr2;
	sigaction(SIGUSR2, &a, 0);
	static double d = 1.5;
	for (int i = 0; i < 30; i++) {
		round_no = i;
		switch (i % 5) {
		case 0: __asm__ volatile("vzeroupper"); break;
		case 1: dirty_ymm(); break;
		case 2: __asm__ volatile("vxorps %%ymm4, %%ymm4, %%ymm4" : : : "xmm4"); break;
		case 3: __asm__ volatile("fldl %0\n\tfstpl %0" : "+m"(d)); break;
		default: dirty_ymm(); __asm__ volatile("vzeroupper"); break;
		}
		for (volatile int j = 0; j < 3000; j++)
			sink += (uint64_t)j;
		kill(getpid(), SIGUSR1);
	}
	printf("sum %lu\n", (unsigned long)sink);
	return 0;
}
