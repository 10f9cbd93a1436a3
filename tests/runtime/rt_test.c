/* rt_test.c: the runtime and the trace.rules hooks, checked from inside an
 * instrumented program with no libc (built by build.sh: gcc -S, altr with
 * rules/trace.rules, linked with crt and librdb; ministart.S stands in for
 * musl's _start).  Each CHECK prints "ok NAME" or "FAIL NAME"; the exit
 * status is the number of failures.  No initialized pointers in data:
 * nothing relocates this image. */
#include <stddef.h>
#include <stdint.h>

#include "librdb.h"
#include "layout.h"
#include "sys.h" /* rdb_sysN: altr turns their syscall into the stub's call */

/* asm_test.s (instrumented too) */
long t_flags_live_store(long *p, long a, long b); /* returns a < b, after *p = a */
long t_string_regs(void *dst, const void *src, long n); /* 0: regs and flags kept */
long t_syscall_regs(void);      /* 0: the stub keeps what the kernel keeps */
long t_clone_newstack(void *stack_top); /* child exits 42 on its own stack */
long t_fxsave(void *buf512);
long t_ymm_load(const void *p);
long t_x87(const void *in10, void *out10);
void t_std_movsb(void *dst_last, const void *src_last, long n);
long t_repne_scasb(const char *s);   /* strlen by repne scasb */

static size_t len(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static void puts2(const char *s) { rdb_sys3(1, 1, s, len(s)); }

static void putx(unsigned long v)
{
	char b[19];
	int k = 18;
	b[k] = 0;
	do {
		b[--k] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	b[--k] = 'x';
	b[--k] = '0';
	puts2(b + k);
}

static int failures;

static void check(int ok, const char *name, unsigned long got)
{
	puts2(ok ? "ok " : "FAIL ");
	puts2(name);
	if (!ok) {
		puts2(" (got ");
		putx(got);
		puts2(")");
		failures++;
	}
	puts2("\n");
}

/* Every byte of [p, p+n) has R plane value r and S plane value s. */
static int shadow_is(const volatile void *vp, long n, unsigned r, unsigned s)
{
	const char *p = (const char *)(uintptr_t)vp;
	for (long i = 0; i < n; i++)
		if (rdb_shadow_r(p + i) != r || rdb_shadow_s(p + i) != s)
			return 0;
	return 1;
}

static unsigned long shadow_word(const volatile void *vp) /* R<<8 | S of one byte */
{
	const void *p = (const void *)(uintptr_t)vp;
	return rdb_shadow_r(p) << 8 | rdb_shadow_s(p);
}

/* Volatile globals so the compiler keeps each access. */
static volatile long g_read = 7, g_write, g_rw = 3;
static volatile unsigned char g_bytes[64] __attribute__((aligned(64)));
static volatile unsigned long g_sink;
static volatile long g_zero;
static char g_str[40] = "hello, shadow";
static unsigned char g_fx[512] __attribute__((aligned(64)));
static unsigned char g_ymm[32] __attribute__((aligned(32)));
static unsigned char g_t10[16], g_o10[16];
static unsigned char g_bw[64];

static void test_hooks(void)
{
	g_sink = g_read;
	check(shadow_is((const void *)&g_read, 8, 0x03, 0), "read: R=03 S=0",
	      shadow_word((const void *)&g_read));

	g_write = 5;
	check(shadow_is((const void *)&g_write, 8, 0, 0x03), "write first: S=W|X",
	      shadow_word((const void *)&g_write));

	g_sink = g_rw;
	g_rw = 4;
	check(shadow_is((const void *)&g_rw, 8, 0x03, 0x03), "read then write: R=03 S=W|X",
	      shadow_word((const void *)&g_rw));

	/* an unaligned 8-byte write spanning two words: bytes 5..12 only */
	*(volatile unsigned long *)(g_bytes + 5) = 0x1122334455667788ul;
	check(shadow_is(g_bytes + 5, 8, 0, 0x03) && shadow_is(g_bytes + 4, 1, 0, 0) &&
	          shadow_is(g_bytes + 13, 1, 0, 0),
	      "unaligned 8-byte write spans two words", shadow_word(g_bytes + 13));

	/* an unaligned 8-byte read spanning two words */
	g_sink = *(volatile unsigned long *)(g_bytes + 20);
	check(shadow_is(g_bytes + 20, 8, 0x03, 0) && shadow_is(g_bytes + 19, 1, 0, 0) &&
	          shadow_is(g_bytes + 28, 1, 0, 0),
	      "unaligned 8-byte read spans two words", shadow_word(g_bytes + 28));

	g_bytes[40] = 1;
	check(shadow_is(g_bytes + 40, 1, 0, 0x03) && shadow_is(g_bytes + 39, 1, 0, 0) &&
	          shadow_is(g_bytes + 41, 1, 0, 0),
	      "1-byte write", shadow_word(g_bytes + 41));
	g_sink = g_bytes[44];
	check(shadow_is(g_bytes + 44, 1, 3, 0) && shadow_is(g_bytes + 45, 1, 0, 0),
	      "1-byte read", shadow_word(g_bytes + 45));
	*(volatile unsigned short *)(g_bytes + 49) = 7;
	check(shadow_is(g_bytes + 49, 2, 0, 3) && shadow_is(g_bytes + 51, 1, 0, 0),
	      "2-byte unaligned write", shadow_word(g_bytes + 51));
	*(volatile unsigned *)(g_bytes + 55) = 7;
	check(shadow_is(g_bytes + 55, 4, 0, 3) && shadow_is(g_bytes + 59, 1, 0, 0),
	      "4-byte unaligned write", shadow_word(g_bytes + 59));

	long lt = t_flags_live_store((long *)g_bw, 1, 2);
	check(lt == 1 && shadow_is(g_bw, 8, 0, 3), "write hook with flags live", lt);
	lt = t_flags_live_store((long *)(g_bw + 8), 3, 2);
	check(lt == 0, "write hook with flags live (false)", lt);

	t_fxsave(g_fx);
	check(shadow_is(g_fx, 512, 0, 3), "fxsave: 512-byte write helper",
	      shadow_word(g_fx + 511));
	t_x87(g_t10, g_o10);
	check(shadow_is(g_t10, 10, 3, 0) && shadow_is(g_t10 + 10, 1, 0, 0) &&
	          shadow_is(g_o10, 10, 0, 3) && shadow_is(g_o10 + 10, 1, 0, 0),
	      "x87 tbyte: 10-byte read and write helpers", shadow_word(g_o10 + 9));
	unsigned cx;
	__asm__ volatile("cpuid" : "=c"(cx) : "a"(1), "c"(0) : "rbx", "rdx");
	if (cx & (1u << 28)) {
		t_ymm_load(g_ymm);
		check(shadow_is(g_ymm, 32, 3, 0), "ymm load: 32-byte read helper",
		      shadow_word(g_ymm + 31));
	}
}

static void test_strings(void)
{
	/* rep movsb over a page boundary, in fresh memory */
	char *m = (char *)rdb_sys6(9, 0, 3 * 4096, 3, 0x22, -1, 0);
	check((unsigned long)m >= RDB_COVER_LO, "mmap inside the covered range",
	      (unsigned long)m);
	char *src = m + 4096 - 100, *dst = m + 2 * 4096 - 50;
	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src) : "c"(300l) : "memory");
	src = m + 4096 - 100;
	dst = m + 2 * 4096 - 50;
	check(shadow_is(src, 300, 3, 0) && shadow_is(src - 1, 1, 0, 0) &&
	          shadow_is(src + 300, 1, 0, 0),
	      "rep movsb over a page boundary: source read", shadow_word(src + 299));
	check(shadow_is(dst, 300, 0, 3) && shadow_is(dst - 1, 1, 0, 0) &&
	          shadow_is(dst + 300, 1, 0, 0),
	      "rep movsb over a page boundary: destination written",
	      shadow_word(dst + 299));
	check(t_string_regs(m, m + 1000, 5) == 0,
	      "string helper keeps registers and flags", 0);

	/* backwards (DF=1): std; rep movsb from the last byte down */
	char *b = m + 3000;
	t_std_movsb(b + 199, m + 2000 + 199, 200);
	check(shadow_is(b, 200, 0, 3) && shadow_is(b - 1, 1, 0, 0) &&
	          shadow_is(b + 200, 1, 0, 0) && shadow_is(m + 2000, 200, 3, 0),
	      "std; rep movsb marks the ranges below rsi/rdi", shadow_word(b + 200));

	long n = t_repne_scasb(g_str);
	check(n == 13 && shadow_is(g_str, 14, 3, 0) && shadow_is(g_str + 14, 1, 0, 0),
	      "repne scasb marks up to the NUL only", shadow_word(g_str + 14));

	/* rep stosq */
	unsigned long *q = (unsigned long *)(m + 8192 + 1024);
	long cnt = 16;
	__asm__ volatile("rep stosq" : "+D"(q), "+c"(cnt) : "a"(0l) : "memory");
	q = (unsigned long *)(m + 8192 + 1024);
	check(shadow_is(q, 128, 0, 3) && shadow_is((char *)q + 128, 1, 0, 0),
	      "rep stosq", shadow_word((char *)q + 128));

	rdb_sys2(11, m, 3 * 4096);
	check(shadow_is(src, 300, 0, 0), "munmap clears the shadow", shadow_word(src));
}

static void test_syscalls(void)
{
	check(t_syscall_regs() == 0, "syscall stub keeps registers, r11=flags", 0);

	long b0 = rdb_sys2(12, 0, 0);
	check(b0 == RDB_BRK_BASE, "brk is emulated in the covered range", b0);
	long b1 = rdb_sys2(12, b0 + 10000, 0);
	volatile char *hp = (volatile char *)b0;
	hp[9999] = 1;
	check(b1 == b0 + 10000 && shadow_is((const void *)(hp + 9999), 1, 0, 3),
	      "brk grows, heap writable and hooked", b1);
	check(rdb_sys2(12, 0, 0) == b1, "brk(0) reports the break", 0);

	long r = rdb_sys6(9, 0x100000000l, 4096, 3, 0x32 /* PRIVATE|ANON|FIXED */, -1, 0);
	check(r == -12, "mmap(MAP_FIXED) outside the covered range is refused", r);

	/* read(2) into a buffer: SYSWRITE when syscallgen's table is built in */
	int pfd[2];
	rdb_sys2(22, pfd, 0); /* pipe */
	rdb_sys3(1, pfd[1], "abcdef", 6);
	static char rbuf[16];
	r = rdb_sys3(0, pfd[0], rbuf, 6);
	/* look at the shadow before the checks below read rbuf */
	unsigned long sw = shadow_word(rbuf);
	int sw_ok = shadow_is(rbuf, 6, 0, 0x0b) && shadow_is(rbuf + 6, 1, 0, 0);
	check(r == 6 && rbuf[5] == 'f', "read(2) through the stub", r);
	if (sw)
		check(sw_ok, "read(2): SYSWRITE S=W|X|K", sw);
	else
		puts2("skip read(2) SYSWRITE: no syscall table in this build\n");

	/* fork: the child returns through the stub's frame on its copy */
	long pid = rdb_sys0(57);
	if (pid == 0)
		rdb_sys2(231, 7, 0);
	int st = 0;
	rdb_sys4(61, pid, &st, 0, 0);
	check(pid > 0 && st == (7 << 8), "fork, child exit status 7", st);

	/* vfork: the child runs on our stack, then exits */
	pid = rdb_sys0(58);
	if (pid == 0)
		rdb_sys2(60, 9, 0);
	st = 0;
	rdb_sys4(61, pid, &st, 0, 0);
	check(pid > 0 && st == (9 << 8), "vfork, child exit status 9", st);

	/* clone with a new stack (CLONE_VM|CLONE_VFORK, like posix_spawn) */
	char *stk = (char *)rdb_sys6(9, 0, 65536, 3, 0x22, -1, 0);
	st = 0;
	pid = t_clone_newstack(stk + 65536);
	rdb_sys4(61, pid, &st, 0, 0);
	check(pid > 0 && st == (42 << 8), "clone on a new stack, child exit 42", st);
}

static volatile unsigned long h_sic, h_count;

static void fib_handler(int sig)
{
	(void)sig;
	/* calls (SIC increments) inside the handler */
	for (int i = 0; i < 10; i++)
		h_count += rdb_sic() & 1;
	h_sic = rdb_sic();
}

struct ksa {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask;
};

static void test_signals(void)
{
	unsigned long s0 = rdb_sic();
	unsigned long s1 = rdb_sic();
	check(s0 > 0 && s1 > s0, "SIC non-zero and monotonic", s1 - s0);

	struct ksa sa = {fib_handler, 0x04000000, 0, 0}, old = {0, 0, 0, 0};
	long r = rdb_sys4(13, 10 /* SIGUSR1 */, &sa, 0, 8);
	check(r == 0, "rt_sigaction(SIGUSR1)", r);
	r = rdb_sys4(13, 10, 0, &old, 8);
	check(r == 0 && old.handler == fib_handler,
	      "rt_sigaction returns the program's view", (unsigned long)old.handler);
	unsigned long before = rdb_sic();
	rdb_sys2(62, rdb_sys0(39), 10); /* kill(getpid(), SIGUSR1) */
	unsigned long after = rdb_sic();
	check(h_sic > before, "handler ran, with the SIC counting", h_sic);
	check(after > h_sic, "SIC survives signal return (monotonic)", after);

	unsigned long set = 1ul << 9, oset = 0;
	rdb_sys4(14, 0 /* BLOCK */, &set, 0, 8);
	rdb_sys4(14, 0, 0, &oset, 8);
	check(oset & (1ul << 9), "rt_sigprocmask passes through", oset);
	rdb_sys4(14, 1 /* UNBLOCK */, &set, 0, 8);
}

/* Unrecorded, a check faults every RDB_SIC_W counts and the runtime
 * moves the counter's window on (sic.c): the count goes on. */
static void test_sic_window(void)
{
	unsigned long before = rdb_sic(), n = 0;
	for (int i = 0; i < 10000000; i++)
		n += rdb_sic() & 1;
	unsigned long after = rdb_sic();
	check(after - before >= 10000000 && n <= 10000000, "SIC through its window, twice",
	      after - before);
}

long tmain(long argc, char **argv)
{
	if (argc > 1 && argv[1][0] == 't') { /* default action of SIGTERM */
		rdb_sys2(62, rdb_sys0(39), 15);
		return 0;
	}
	if (argc > 1 && argv[1][0] == 's') /* SIGSEGV: a NULL write, in a hook */
		*(volatile long *)g_zero = 1;
	if (argc > 1 && argv[1][0] == 'h') { /* SIGTERM ignored: inherited too */
		struct ksa sa = {(void (*)(int))1, 0, 0, 0};
		rdb_sys4(13, 15, &sa, 0, 8);
		rdb_sys2(62, rdb_sys0(39), 15);
		return 5;
	}
	test_hooks();
	test_strings();
	test_syscalls();
	test_signals();
	test_sic_window();
	puts2(failures ? "FAILED\n" : "PASSED\n");
	return failures;
}
