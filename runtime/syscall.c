/* syscall.c: what the runtime does around each syscall of the program
 * (reached from __rdb_syscall in syscall.S).  Most calls run as they are
 * and the regions the kernel wrote get the SYSWRITE transition; a few are
 * the runtime's: brk is emulated inside the covered range, address-space
 * calls may not reach outside it, the signal calls keep the program's
 * view (signal.c), exit runs the termination callbacks.  In record and
 * replay mode (rr.c) the dispatch goes through rdb_rr_syscall, which
 * runs calls here with rdb_run_syscall. */
#include "rt.h"

static void emit_syswrite(void *ctx, uintptr_t a, size_t n)
{
	rdb_shadow_syswrite(a, n);
	if (ctx)
		((rdb_wrote_fn *)ctx)(a, n);
}

void rdb_run_term(int status, int signo)
{
	if (RT->api.terminated)
		return;
	RT->api.terminated = 1;
	if (RT->mode)
		rdb_rr_term(status, signo);
	for (int i = 0; i < RT->api.n_cb; i++)
		if (RT->api.cb[i].term)
			RT->api.cb[i].term(status, signo);
}

/* brk: the kernel's heap lies outside the covered range, so the runtime
 * keeps its own at RDB_BRK_BASE (deterministic: replay needs no trace). */
static long sys_brk(uintptr_t want)
{
	if (want < RDB_BRK_BASE || want > RDB_BRK_BASE + RDB_BRK_SIZE)
		return (long)RT->syscall.brk_cur;
	uintptr_t need = (want + 0xfff) & ~0xfffull;
	if (need > RT->syscall.brk_mapped) {
		long r = rdb_sys3(__NR_mprotect, RT->syscall.brk_mapped, need - RT->syscall.brk_mapped,
		                  RDB_PROT_RW);
		if (r < 0)
			return (long)RT->syscall.brk_cur;
	} else if (need < RT->syscall.brk_mapped) {
		/* Shrinking drops the pages, as the kernel does: regrown memory
		 * reads as zero. */
		long r = rdb_sys6(__NR_mmap, (long)need, (long)(RT->syscall.brk_mapped - need),
		                  RDB_PROT_NONE,
		                  RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS | RDB_MAP_NORESERVE |
		                      RDB_MAP_FIXED,
		                  -1, 0);
		if (r < 0 && r > -4096)
			return (long)RT->syscall.brk_cur;
		rdb_shadow_clear(need, RT->syscall.brk_mapped - need);
	}
	RT->syscall.brk_mapped = need;
	RT->syscall.brk_cur = want;
	return (long)want;
}

/* Memory the program may map, unmap or protect: in the covered range
 * (the runtime's own mappings lie outside it, layout.h). */
static int program_range(uintptr_t a, size_t n) { return rdb_covered(a, n); }

static long refuse_range(const char *call, uintptr_t a, size_t n)
{
	rdb_printf("rdb: refused %s at [%p, %p): outside the covered range "
	           "[%p, %p) that rdb's shadow memory monitors\n",
	           call, (void *)a, (void *)(a + n), (void *)RDB_COVER_LO,
	           (void *)RDB_COVER_HI);
	return -RDB_ENOMEM;
}

static long sys_mmap(const long *a)
{
	uintptr_t addr = (uintptr_t)a[0];
	size_t len = (size_t)a[1];
	long flags = a[3];
	if (flags & (RDB_MAP_FIXED | RDB_MAP_FIXED_NOREPLACE)) {
		if (!program_range(addr, len))
			return refuse_range("mmap(MAP_FIXED)", addr, len);
	} else if (addr && !program_range(addr, len)) {
		addr = 0; /* a hint outside: let the kernel choose */
	}
	long r = rdb_sys6(__NR_mmap, (long)addr, (long)len, a[2], flags, a[4], a[5]);
	if (r < 0 && r > -4096)
		return r;
	if (!rdb_covered((uintptr_t)r, len)) {
		rdb_sys2(__NR_munmap, r, len);
		return refuse_range("mmap result", (uintptr_t)r, len);
	}
	/* Fresh memory: forget what the shadow said about the old bytes. */
	rdb_shadow_clear((uintptr_t)r, len);
	return r;
}

/* mremap(MREMAP_DONTUNMAP) of MAP_SHARED memory: the old range would stay
 * memory others write, with nothing of it tracked (shared.c follows the
 * move).  Refused, as a kernel without the flag would, saying so: by the
 * recording, and by the replay of its failed call (the same stderr). */
int rdb_mremap_refused(const long *a)
{
	if (!(a[3] & RDB_MREMAP_DONTUNMAP) ||
	    !rdb_shared_overlaps((uint64_t)a[0], ((uint64_t)a[1] + 0xfff) & ~0xfffull))
		return 0;
	rdb_printf("rdb: mremap(MREMAP_DONTUNMAP) of MAP_SHARED memory is not recorded: "
	           "the call fails with EINVAL\n");
	return 1;
}

static long sys_mremap(const long *a)
{
	uintptr_t old = (uintptr_t)a[0];
	size_t olen = (size_t)a[1], nlen = (size_t)a[2];
	if (!program_range(old, olen))
		return refuse_range("mremap", old, olen);
	if ((a[3] & RDB_MREMAP_FIXED) && !program_range((uintptr_t)a[4], nlen))
		return refuse_range("mremap(MREMAP_FIXED)", (uintptr_t)a[4], nlen);
	if (rdb_mremap_refused(a))
		return -RDB_EINVAL;
	long r = rdb_sys6(__NR_mremap, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (r < 0 && r > -4096)
		return r;
	if (!rdb_covered((uintptr_t)r, nlen))
		rdb_die("mremap moved [%p, +%lu) outside the covered range, to %p\n",
		        (void *)old, (unsigned long)olen, (void *)r);
	/* The contents moved: the new range counts as written (the old bytes'
	 * states do not follow them yet), the old range is forgotten.  What
	 * moved counts as read at its old address first: the interval's
	 * snapshot has its start values there (not at the new address,
	 * unmapped then), and replay's mremap moves them like this one. */
	if ((uintptr_t)r != old) {
		size_t keep = olen < nlen ? olen : nlen;
		rdb_shadow_read(old, keep);
		rdb_shadow_clear(old, olen);
		rdb_shadow_clear((uintptr_t)r, nlen);
		rdb_shadow_syswrite((uintptr_t)r, keep);
	} else if (nlen > olen) {
		rdb_shadow_clear(old + olen, nlen - olen);
	} else if (nlen < olen) {
		rdb_shadow_clear(old + nlen, olen - nlen); /* the tail is gone */
	}
	return r;
}

/* Whether path opened with flags is this process's memory file, for
 * writing: its writes would change memory with no hook and no record
 * (replay would not see them); refused while recording, like
 * process_vm_writev to this process.  The usual names only: /proc/self/mem,
 * /proc/thread-self/mem, /proc/PID/mem. */
static int self_mem_for_writing(const char *path, long flags)
{
	if ((flags & 3) == 0) /* O_RDONLY */
		return 0;
	/* a copy the kernel makes: a bad pointer gets the call's EFAULT */
	char p[32] = {0}, own[32];
	if (rdb_peek(p, (uintptr_t)path, sizeof p - 1) <= 0)
		return 0;
	rdb_snprintf(own, sizeof own, "/proc/%ld/mem", rdb_sys0(__NR_getpid));
	return !rdb_strcmp(p, "/proc/self/mem") || !rdb_strcmp(p, "/proc/thread-self/mem") ||
	       !rdb_strcmp(p, own);
}

static int self_mem_refused(const char *path, long flags)
{
	if (RT->mode != RDB_TF_MODE_RECORD || !self_mem_for_writing(path, flags))
		return 0;
	rdb_printf("rdb: refused opening this process's /proc mem file for writing: "
	           "writes through it bypass the hooks and the trace\n");
	return 1;
}

static long dispatch(long nr, const long a[6])
{
	if (nr == __NR_set_robust_list) { /* (a boundary's THSTATE: sched.c) */
		TH->sched.robust[0] = (uint64_t)a[0];
		TH->sched.robust[1] = (uint64_t)a[1];
	}
	long want = RT->mode == RDB_TF_MODE_RECORD ? rdb_kids_wanted(nr, a) : -1;
	if (want >= 0) {
		/* The program would get that fd natively, and does: the
		 * recording gives its fds up (the lock's too, once it forked). */
		char what[80];
		rdb_snprintf(what, sizeof what, "the program asks for fd %ld, which the recording holds",
		             want);
		rdb_record_limit(what);
		rdb_sys1(__NR_close, RDB_KID_LOCK_FD);
	}
	if (RT->mode) {
		if (rdb_rr_hidden(nr, a))
			return -RDB_EBADF;
		return rdb_rr_syscall(nr, a);
	}
	if (RT->children.kid) /* a recorded process's fork child (children.c) */
		return rdb_kids_syscall(nr, a);
	return rdb_run_syscall(nr, a, 0);
}

/* Signals that arrive from here until the stub's check wait for it. */
long rdb_syscall_dispatch(long nr, const long a[6])
{
	rdb_signal_stub_enter(nr, a);
	long r = dispatch(nr, a);
	rdb_signal_stub_leave();
	return r;
}

/* The runtime's own handling of a call: the cases are logic only that call
 * needs (its own memory calls, the signal framework's view, refusals of
 * ways around the hooks); what calls have in common is in syscalls.spec. */
long rdb_run_syscall(long nr, const long a[6], rdb_wrote_fn *emit)
{
	if (rdb_thread_syscall(nr, a)) /* a thread's end (thread.c) */
		return 0;
	if ((rdb_systab_attrs(nr) & RDB_ATTR_EXITS) && !rdb_thread_borrowed())
		rdb_run_term((int)a[0] & 0xff, 0);
	switch (nr) {
	case __NR_brk:
		return sys_brk((uintptr_t)a[0]);
	case __NR_mmap:
		return sys_mmap(a);
	case __NR_mremap:
		return sys_mremap(a);
	case __NR_munmap: {
		if (!program_range((uintptr_t)a[0], (size_t)a[1]))
			return refuse_range("munmap", (uintptr_t)a[0], (size_t)a[1]);
		long r = rdb_sys2(__NR_munmap, a[0], a[1]);
		if (r == 0)
			rdb_shadow_clear((uintptr_t)a[0], (size_t)a[1]);
		return r;
	}
	case __NR_mprotect:
		if (!program_range((uintptr_t)a[0], (size_t)a[1]))
			return refuse_range("mprotect", (uintptr_t)a[0], (size_t)a[1]);
		/* Unreadable from here on: the boundary will not scan it, so
		 * what the interval read of it is saved now (and forgotten). */
		if (!(a[2] & RDB_PROT_READ))
			rdb_shadow_clear((uintptr_t)a[0], (size_t)a[1]);
		break;
	case __NR_rt_sigaction:
		return rdb_sig_action(a[0], (const struct rdb_ksigaction *)a[1],
		                      (struct rdb_ksigaction *)a[2], a[3]);
	case __NR_sigaltstack:
		return rdb_sig_altstack((const uint64_t *)a[0], (uint64_t *)a[1], (uintptr_t)a);
	case __NR_rt_sigprocmask:
		return rdb_sig_procmask(a[0], (const uint64_t *)a[1], (uint64_t *)a[2],
		                        a[3]);
	case __NR_open:
		if (self_mem_refused((const char *)a[0], a[1]))
			return -RDB_EACCES;
		break;
	case __NR_openat:
		if (self_mem_refused((const char *)a[1], a[2]))
			return -RDB_EACCES;
		break;
	case __NR_process_vm_writev:
		if (RT->mode == RDB_TF_MODE_RECORD && a[0] == rdb_sys0(__NR_getpid)) {
			rdb_printf("rdb: refused process_vm_writev to this process: its writes "
			           "bypass the hooks and the trace\n");
			return -RDB_EPERM;
		}
		break;
	case __NR_arch_prctl:
		/* The hooks do not see accesses through %gs (trace.rules), so a
		 * program may not give it a base: its reads would go untraced. */
		if (a[0] == RDB_ARCH_SET_GS) {
			rdb_printf("rdb: refused arch_prctl(ARCH_SET_GS): rdb does not trace "
			           "accesses through %%gs\n");
			return -RDB_EPERM;
		}
		if (a[0] == RDB_ARCH_GET_GS) {
			*(unsigned long *)a[1] = 0;
			rdb_shadow_syswrite((uintptr_t)a[1], 8);
			return 0;
		}
		break;
	case __NR_clone3:
		/* Its stack comes in a struct the entry stub does not read, so
		 * a thread it made would run without its own runtime state: it
		 * fails as on a kernel without it, and callers (glibc, Go, ...)
		 * fall back to clone; musl never calls it. */
		if (!__atomic_exchange_n(&RT->syscall.clone3_said, 1, __ATOMIC_RELAXED))
			rdb_printf("rdb: clone3 is not supported: it fails with ENOSYS "
			           "(callers fall back to clone)\n");
		return -RDB_ENOSYS;
	default: {
		char why[200];
		/* A call rdb cannot record fails as one the kernel lacks: a
		 * program with a fallback (rseq, io_uring, a newer ioctl)
		 * goes on, recorded; stopping would make it unrecordable.
		 * The message says which call, each time (docs/syscallgen.md). */
		if (rdb_systab_refusal(nr, a, why, sizeof why)) {
			rdb_printf("rdb: refused %s: it fails with ENOSYS\n", why);
			return -RDB_ENOSYS;
		}
	}
	}
	long pre[RDB_NPRE];
	rdb_systab_pre(nr, a, pre);
	/* Recording threads: a call that may wait runs without the token,
	 * so the others run (sched.c); what it wrote is seen with it. */
	int blocked = rdb_sched_block(nr, a);
	long r = rdb_signal_syscall(nr, a);
	if (r == 0 && (rdb_systab_attrs(nr) & RDB_ATTR_FORKS) &&
	    !(nr == __NR_clone && (a[0] & RDB_CLONE_VM)))
		rdb_thread_forked(); /* the child, in a copy of our memory */
	if (blocked)
		rdb_sched_unblock();
	rdb_systab_writes(nr, a, pre, r, emit_syswrite, (void *)emit);
	return r;
}
