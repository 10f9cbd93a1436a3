/* checks.sh snapfail: the runtime's fork of an interval snapshot fails
 * (a seccomp filter, installed with a raw syscall the runtime does not
 * see, makes clone with flags CLONE_UNTRACED only, the snapshot's, fail
 * with EAGAIN).  The
 * interval that just ended keeps its values, the rest of the run is one
 * interval, and the signals after it (SIGPROF, at SIC checks) carry the
 * counts replay reaches them at. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>

struct filter { unsigned short code; unsigned char jt, jf; unsigned int k; };
struct fprog { unsigned short len; struct filter *f; };
#define LD_ABS 0x20 /* BPF_LD | BPF_W | BPF_ABS */
#define JEQ 0x15    /* BPF_JMP | BPF_JEQ | BPF_K */
#define RET 0x06    /* BPF_RET | BPF_K */

static unsigned long work(unsigned long x, int n)
{
	static unsigned long table[1024];
	for (int i = 0; i < n; i++) {
		table[i % 1024] += x;
		x = x * 6364136223846793005ul + table[(i * 7) % 1024];
	}
	return x;
}

static volatile sig_atomic_t ticks;
static void on_prof(int sig) { (void)sig; ticks++; }

int main(void)
{
	unsigned long x = 1;
	for (int round = 0; round < 5; round++) {
		x = work(x, 100000);
		printf("before %d %lx\n", round, x);
	}
	static struct filter f[] = {
		{LD_ABS, 0, 0, 4},                  /* arch */
		{JEQ, 0, 7, 0xc000003e},            /* x86-64, else allow */
		{LD_ABS, 0, 0, 0},                  /* nr */
		{JEQ, 0, 5, 56},                    /* clone, else allow */
		{LD_ABS, 0, 0, 16},                 /* flags, low half */
		{JEQ, 0, 3, 0x00800000},            /* CLONE_UNTRACED */
		{LD_ABS, 0, 0, 20},                 /* high half */
		{JEQ, 0, 1, 0},
		{RET, 0, 0, 0x00050000u | 11},      /* SECCOMP_RET_ERRNO | EAGAIN */
		{RET, 0, 0, 0x7fff0000u},           /* SECCOMP_RET_ALLOW */
	};
	static struct fprog prog = {sizeof f / sizeof f[0], f};
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	long r;
	/* seccomp(SECCOMP_SET_MODE_FILTER, 0, &prog), not through the runtime:
	 * the instruction's bytes, which altr does not rewrite */
	__asm__ volatile(".byte 0x0f, 0x05"
	                 : "=a"(r)
	                 : "a"(317L), "D"(1L), "S"(0L), "d"(&prog)
	                 : "rcx", "r11", "memory");
	(void)r; /* replay runs it again: its result may differ there */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_prof;
	sigaction(SIGPROF, &sa, 0);
	struct itimerval it = {{0, 2000}, {0, 2000}};
	setitimer(ITIMER_PROF, &it, 0);
	while (ticks < 20)
		x = work(x, 1000);
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_PROF, &off, 0);
	printf("after %d ticks %lx\n", (int)ticks, x);
	return 0;
}
