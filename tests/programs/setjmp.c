/* setjmp: setjmp/longjmp across frames (from deep recursion back to the
 * top), nested jump buffers used as an exception stack, volatile locals
 * kept across the jump, longjmp's value 0 turned into 1, sigsetjmp with
 * and without saving the mask, and a longjmp out of a signal handler. */
#include "prog.h"
#include <setjmp.h>
#include <signal.h>

static jmp_buf *handlers[16];
static int nhandlers;

#define TRY(jb) (handlers[nhandlers++] = &(jb), setjmp(jb) == 0)
#define END_TRY() (nhandlers--)
static __attribute__((noreturn)) void throw(int code)
{
	longjmp(*handlers[--nhandlers], code);
}

static long depth_reached;
static long dive(long n, long limit)
{
	volatile long here = n * 3;
	if (n > limit)
		return 0;
	if (n == limit) {
		depth_reached = n;
		throw((int)(n % 1000) + 1);
	}
	return dive(n + 1, limit) + here;
}

static int inner(int x)
{
	jmp_buf jb;
	int r;
	if (TRY(jb)) {
		if (x > 2)
			throw(x * 10); /* caught right here */
		END_TRY();
		return x;
	} else {
		r = x * 10;
		if (x > 4)
			throw(r + 1); /* rethrown to the outer handler */
		return r;
	}
}

static jmp_buf zero_jb;
static void jump_zero(void) { longjmp(zero_jb, 0); }

static sigjmp_buf sjb;
static void on_usr1(int sig) { siglongjmp(sjb, sig); }

int main(void)
{
	jmp_buf outer;
	volatile int counter = 0;
	int code;
	if ((code = setjmp(outer)) == 0) {
		handlers[nhandlers++] = &outer;
		counter = 5;
		dive(0, 5000);
		printf("not reached\n");
	} else {
		printf("thrown from depth %ld: code %d, volatile kept %d\n", depth_reached, code, counter);
	}

	for (volatile int x = 1; x <= 6; x++) {
		jmp_buf top;
		if (TRY(top)) {
			int r = inner(x);
			END_TRY();
			printf("inner(%d) = %d\n", x, r);
		} else {
			printf("inner(%d) threw to the top\n", x);
		}
	}
	printf("handler stack empty: %d\n", nhandlers == 0);

	volatile int hits = 0;
	code = setjmp(zero_jb);
	hits++;
	if (hits == 1)
		jump_zero();
	printf("longjmp(.., 0) returns %d after %d passes\n", code, hits);

	/* sigsetjmp(.., 1) restores the mask the handler ran with blocked */
	signal(SIGUSR1, on_usr1);
	sigset_t m;
	if ((code = sigsetjmp(sjb, 1)) == 0)
		raise(SIGUSR1);
	sigprocmask(SIG_BLOCK, NULL, &m);
	printf("siglongjmp with saved mask: %d, USR1 blocked %d\n", code, sigismember(&m, SIGUSR1));
	if ((code = sigsetjmp(sjb, 0)) == 0)
		raise(SIGUSR1);
	sigprocmask(SIG_BLOCK, NULL, &m);
	printf("siglongjmp without saved mask: %d, USR1 blocked %d\n", code, sigismember(&m, SIGUSR1));
	sigprocmask(SIG_UNBLOCK, &m, NULL);

	/* many round trips */
	volatile long total = 0;
	for (volatile long i = 0; i < 100000; i++) {
		jmp_buf jb;
		int v = setjmp(jb);
		if (v == 0) {
			handlers[nhandlers++] = &jb;
			throw((int)(i & 7) + 1);
		}
		total += v;
	}
	printf("100000 jumps, total %ld\n", total);
	return prog_done("setjmp");
}
