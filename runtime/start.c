/* start.c: __rdb_start, called by crt/start.S before libc's start-up
 * (paper Fig. 19).  It runs before musl's static-pie self-relocation, so
 * everything it reaches uses PC-relative references only, and before the
 * reserved registers are set (crt does that after it returns).  Order:
 * check the address space (re-exec without ASLR if the program lies outside
 * the covered range), map the state region and the two shadow planes,
 * reserve the brk heap, the threads' state (thread.c), take over the signals, find .rdb_iot,
 * run the init callbacks. */
#include "rt.h"

/* The rdb_init section always exists: this entry is the runtime's own. */
void rdb_init_self(void) {}
RDB_INIT(rdb_init_self);
extern const int64_t __start_rdb_init[] __attribute__((visibility("hidden")));
extern const int64_t __stop_rdb_init[] __attribute__((visibility("hidden")));

unsigned long rdb_getauxval(unsigned long type)
{
	for (unsigned long *a = RT->start.auxv; a[0] != RDB_AT_NULL; a += 2)
		if (a[0] == type)
			return a[1];
	return 0;
}

static int in_cover(uintptr_t a) { return a >= RDB_COVER_LO && a < RDB_COVER_HI; }

/* rdb replay wants the image exec'd by a string rdb could not exec it by
 * (RDB_EXEC_AS_ENV): so that the strings at the stack's top, AT_EXECFN
 * first, lie as they did when recorded. */
static void exec_as(char **argv, char **envp)
{
	static const char var[] = RDB_EXEC_AS_ENV;
	const char *e = envp[0];
	if (!e || rdb_sys2(__NR_fcntl, RDB_CHAN_FD, RDB_F_GETFD) < 0)
		return;
	for (size_t i = 0; i < sizeof var - 1; i++)
		if (e[i] != var[i])
			return;
	long r = rdb_sys3(__NR_execve, e + sizeof var - 1, argv, envp + 1);
	rdb_die("cannot execute %s for the replay (error %ld)\n", e + sizeof var - 1, -r);
}

/* With ASLR on, a static-pie image or the stack may land outside the
 * covered range: re-exec ourselves once with ADDR_NO_RANDOMIZE. */
static void check_address_space(long *sp, char **argv, char **envp)
{
	uintptr_t text = (uintptr_t)&__rdb_start;
	if (in_cover(text) && in_cover((uintptr_t)sp))
		return;
	long pers = rdb_sys1(__NR_personality, 0xffffffff);
	if (pers >= 0 && !(pers & RDB_ADDR_NO_RANDOMIZE) &&
	    rdb_sys1(__NR_personality, pers | RDB_ADDR_NO_RANDOMIZE) >= 0) {
		long r = rdb_sys3(__NR_execve, "/proc/self/exe", argv, envp);
		rdb_die("cannot re-execute /proc/self/exe without ASLR (error %ld)\n", -r);
	}
	rdb_die("the program (text %p, stack %p) lies outside the covered range "
	        "[%p, %p) even without ASLR\n",
	        (void *)text, (void *)sp, (void *)RDB_COVER_LO, (void *)RDB_COVER_HI);
}

static void *map_fixed(uintptr_t lo, uintptr_t hi, int prot, const char *what)
{
	lo &= ~0xfffull;
	hi = (hi + 0xfff) & ~0xfffull;
	long r = rdb_sys6(__NR_mmap, (long)lo, (long)(hi - lo), prot,
	                  RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS | RDB_MAP_NORESERVE |
	                      RDB_MAP_FIXED_NOREPLACE,
	                  -1, 0);
	if (r < 0 && r > -4096)
		rdb_die("cannot map the %s at [%p, %p): error %ld\n", what, (void *)lo,
		        (void *)hi, -r);
	if ((uintptr_t)r != lo) /* kernel older than 4.17: the flag was a hint */
		rdb_die("the %s landed at %p, not %p\n", what, (void *)r, (void *)lo);
	return (void *)r;
}

/* The loaded image's bounds from our program headers (AT_PHDR).  The ELF
 * header (__ehdr_start, from the linker) opens the lowest PT_LOAD, which
 * gives the load bias even without a PT_PHDR entry. */
extern const char __ehdr_start[] __attribute__((visibility("hidden")));

const struct rdb_phdr *rdb_phdrs(unsigned long *n)
{
	*n = rdb_getauxval(RDB_AT_PHNUM);
	return (const struct rdb_phdr *)rdb_getauxval(RDB_AT_PHDR);
}

static void find_image(void)
{
	unsigned long n;
	const struct rdb_phdr *ph = rdb_phdrs(&n);
	uintptr_t lo = ~(uintptr_t)0, hi = 0;
	for (unsigned long i = 0; i < n; i++)
		if (ph[i].type == 1 /* PT_LOAD */) {
			if (ph[i].vaddr < lo)
				lo = ph[i].vaddr & ~0xfffull;
			if (ph[i].vaddr + ph[i].memsz > hi)
				hi = ph[i].vaddr + ph[i].memsz;
		}
	uintptr_t bias = (uintptr_t)__ehdr_start - lo;
	RT->start.bias = bias;
	RT->start.image_lo = bias + lo;
	RT->start.image_hi = (bias + hi + 0xfff) & ~0xfffull;
}

/* The N of an environment entry e = "KEY=N" (key given with its '='),
 * when it is all digits and lo <= N < hi; else 0. */
static uint64_t test_knob(const char *e, const char *key, uint64_t lo, uint64_t hi)
{
	for (; *key; key++, e++)
		if (*e != *key)
			return 0;
	uint64_t n = 0;
	for (; *e >= '0' && *e <= '9' && n < hi; e++)
		n = n * 10 + (uint64_t)(*e - '0');
	return !*e && n >= lo && n < hi ? n : 0;
}

/* RDB_TEST_SIC_SPAN=N: intervals overflow after N counts, not 2^40, so
 * that a test reaches an overflow (checks/sic-overflow.sh). */
static void test_sic_span(const char *e)
{
	uint64_t n = test_knob(e, "RDB_TEST_SIC_SPAN=", 1000, RDB_SIC_SPAN);
	if (n)
		RT->sic.sic_span = n;
}

/* RDB_TEST_GROW_MAX=N: no table of grow.c grows past N bytes, so that a
 * test reaches the recording's stop where the kernel refuses memory. */
static void test_grow_max(const char *e)
{
	uint64_t n = test_knob(e, "RDB_TEST_GROW_MAX=", 4096, RDB_GROW_SLOT);
	if (n)
		RT->grow.grow_max = n;
}

/* RDB_TEST_REVIVE_WAIT=N: replay --from an interval that began while
 * threads lived: after each thread it makes again, the first thread
 * waits up to N ms for the program to start a thread of its own, so
 * that a test meets the moment threvive.c's race needed
 * (checks/forkthr.sh). */
static void test_revive_wait(const char *e)
{
	uint64_t n = test_knob(e, "RDB_TEST_REVIVE_WAIT=", 1, 60000);
	if (n)
		RT->sched.revive_wait = n;
}

/* The lowest address the main stack may grow to: its rlimit below the
 * initial %rsp (1 GiB at most; unlimited, the kernel lays mmap out from
 * the bottom, far from it). */
static uintptr_t main_stack_floor(long *sp)
{
	uint64_t lim[2] = {0, 0};
	if (rdb_sys4(__NR_prlimit64, 0, 3 /* RLIMIT_STACK */, 0, lim) < 0 || lim[0] > (1ull << 30))
		lim[0] = 1ull << 30;
	return ((uintptr_t)sp & ~4095ul) - lim[0];
}

uint64_t __rdb_start(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	check_address_space(sp, argv, envp);
	exec_as(argv, envp);

	map_fixed(RDB_STATE_ADDR, RDB_STATE_ADDR + RDB_STATE_SIZE, RDB_PROT_RW,
	          "runtime state");
	RT->magic = RDB_MAGIC;
	rdb_thread_init();
	rdb_grow_init();
	RT->start.sp = sp;
	rdb_th_at(0)->stack_lo = main_stack_floor(sp);
	rdb_th_at(0)->stack_hi = ~(uintptr_t)0; /* (the highest mapping) */
	rdb_th_at(0)->stack_top = (uintptr_t)sp;
	RT->start.argc = argc;
	RT->start.argv = argv;
	RT->start.envp = envp;
	RT->sic.sic_span = RDB_SIC_SPAN;
	char **e = envp;
	while (*e)
		e++;
	RT->start.auxv = (unsigned long *)(e + 1);
	/* Boundaries while threads live, the default (docs/threads.md);
	 * RDB_THREAD_BOUNDARIES=0 makes them wait until the main thread is
	 * alone, as they did before replay --from could start there. */
	RT->sched.thbound = 1;
	for (e = envp; *e; e++)
		if (rdb_strcmp(*e, "RDB_DEBUG=1") == 0)
			RT->start.debug = 1;
		else if (rdb_strcmp(*e, "RDB_DEBUG=2") == 0)
			RT->start.debug = 2;
		else if (rdb_strcmp(*e, "RDB_THREAD_BOUNDARIES=0") == 0)
			RT->sched.thbound = 0; /* (sched.c rdb_sched_boundary_ok) */
		else
			test_sic_span(*e), test_grow_max(*e), test_revive_wait(*e);

	/* The planes stay in fork children: the program's own children run
	 * hooks too.  MADV_DONTFORK belongs around the runtime's own forks
	 * (interval children, next issue). */
	map_fixed(RDB_COVER_LO - RDB_R_OFFSET, RDB_COVER_HI - RDB_R_OFFSET,
	          RDB_PROT_RW, "R shadow plane");
	map_fixed(RDB_COVER_LO - RDB_S_OFFSET, RDB_COVER_HI - RDB_S_OFFSET,
	          RDB_PROT_RW, "S shadow plane");
	RT->start.fsgsbase = !!(rdb_getauxval(RDB_AT_HWCAP2) & RDB_HWCAP2_FSGSBASE);

	map_fixed(RDB_BRK_BASE, RDB_BRK_BASE + RDB_BRK_SIZE, RDB_PROT_NONE,
	          "brk heap reservation");
	map_fixed(RDB_SIGSTACK_ADDR, RDB_SIGSTACK_ADDR + RDB_SIGSTACK_SIZE, RDB_PROT_RW,
	          "signal stack");
	uintptr_t here = (uintptr_t)&argc; /* _start mapped it and put us there */
	if (here - RDB_SCSTACK_ADDR >= RDB_SCSTACK_SIZE)
		map_fixed(RDB_SCSTACK_ADDR, RDB_SCSTACK_ADDR + RDB_SCSTACK_SIZE, RDB_PROT_RW,
		          "syscall stack");
	RT->syscall.brk_cur = RT->syscall.brk_mapped = RDB_BRK_BASE;

	find_image();
	rdb_sic_init();
	rdb_signal_init();
	rdb_iot_init();
	rdb_chan_init(); /* replay: restores AT_RANDOM before libc reads it */

	for (const int64_t *p = __start_rdb_init; p < __stop_rdb_init; p++)
		((rdb_init_fn *)((uintptr_t)p + (uintptr_t)*p))();
	if (RT->mode == RDB_TF_MODE_RECORD)
		rdb_interval_init();
	if (RT->mode == RDB_TF_MODE_REPLAY) {
		if (RT->chan.from >= 2)
			rdb_replay_enter();
		rdb_replay_first_target();
		rdb_replay_timing();
	}
	return RT->sic_origin;
}
