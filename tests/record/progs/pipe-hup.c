/* checks.sh pipe-hup: a pipe's write end closed, its read end polled at
 * once, round after round, with an interval boundary between the pipe's
 * creation and the close (--every-sic 20: in the loop there) and none
 * between the close and the poll: the reader sees a hang-up every time, so no
 * snapshot child of the runtime's (a fork of the program) still holds
 * the write end.  A seccomp filter, installed with a raw syscall the
 * runtime does not see, makes close_range fail with ENOSYS (a kernel
 * before 5.9) in every process forked after it: the snapshot children
 * then closed nothing, and never raced the program deterministically
 * otherwise (they close their copies as they start, maybe after the
 * program's poll: poll_select's intermittent "hup 0"). */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

struct filter { unsigned short code; unsigned char jt, jf; unsigned int k; };
struct fprog { unsigned short len; struct filter *f; };

int main(void)
{
	static struct filter f[] = {
		{0x20, 0, 0, 4},                   /* ld [arch] */
		{0x15, 0, 3, 0xc000003e},          /* x86-64, else allow */
		{0x20, 0, 0, 0},                   /* ld [nr] */
		{0x15, 0, 1, 436},                 /* close_range, else allow */
		{0x06, 0, 0, 0x00050000 | ENOSYS}, /* SECCOMP_RET_ERRNO | ENOSYS */
		{0x06, 0, 0, 0x7fff0000},          /* SECCOMP_RET_ALLOW */
	};
	static struct fprog p = {sizeof f / sizeof f[0], f};
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	long r;
	/* seccomp(SECCOMP_SET_MODE_FILTER, 0, &p), not through the runtime:
	 * the instruction's bytes, which altr does not rewrite */
	__asm__ volatile(".byte 0x0f, 0x05"
	                 : "=a"(r)
	                 : "a"(317L), "D"(1L), "S"(0L), "d"(&p)
	                 : "rcx", "r11", "memory");
	(void)r;
	int hup = 0, rounds = 40;
	for (int i = 0; i < rounds; i++) {
		int fd[2];
		if (pipe(fd))
			return 1;
		for (volatile int k = 0; k < 50; k++) /* a boundary falls here */
			;
		close(fd[1]);
		struct pollfd pf = {.fd = fd[0], .events = POLLIN};
		int n = poll(&pf, 1, 0);
		hup += n == 1 && (pf.revents & POLLHUP);
		close(fd[0]);
	}
	printf("hangups %d of %d\n", hup, rounds);
	return 0;
}
