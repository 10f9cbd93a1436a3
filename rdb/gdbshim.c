/* gdbshim.c: librdb-gdb.so, preloaded into gdb by `rdb gdb` and
 * `rdb record|replay --gdb`, so that gdb can debug a program built with
 * rdb-cc.  What stands in gdb's way there, and what is done about it:
 *
 * - The hooks address the S plane through %gs, whose base is a kernel-half
 *   address (docs/hooks.md).  The kernel refuses such a gs_base in
 *   PTRACE_SETREGS even when it is the value PTRACE_GETREGS returned, and
 *   gdb writes every general register back that way whenever it changes
 *   one (the pc after a breakpoint): "Couldn't write registers".  Here a
 *   write of the whole set becomes PTRACE_POKEUSER of each register that
 *   changed; gs_base is left alone when gdb did not change it.
 *
 * - The software instruction counter's check faults every 4 MiB of counts
 *   and wherever the runtime wants control (its window moved on):
 *   SIGSEGV at an address in the window's guard.  gdb would stop at each.
 *   Such a stop is hidden here: the tracee is resumed with the signal, as
 *   gdb last resumed it, and gdb never sees it.  Every other SIGSEGV (the
 *   program's own faults) reaches gdb as without rdb.  A single step of
 *   the faulting check, whose handler (a boundary, a recorded signal,
 *   even a handler of the program's) returns past the check, runs to
 *   there under a hardware breakpoint (debug register 3) and ends as a
 *   step: gdb does not step into the runtime.
 *
 * - A read hook's check jumps out of line when the bytes were not marked
 *   yet (rules/trace.rules read-hook-check): a store, `cmp %r13, %r13` and
 *   a jmp back, in .text.unlikely, with neither a symbol nor line
 *   information.  gdb, stepping a line, would stop there ("?? ()") and
 *   could not unwind.  A single step that takes such a jne is carried on
 *   here, step by step, to the instruction after the jne, and gdb sees one
 *   step that did not leave the line.
 *
 * - pushf under a single step saves the trap flag gdb set, and after a
 *   step of popf the kernel takes the trap flag for the program's own (it
 *   stops marking it as the debugger's, for good): once gdb let it run,
 *   the program would trap after every instruction.  The runtime and the
 *   flag-saving hooks use pushf/popf (glibc's code hardly does).  Here the
 *   saved image loses the trap flag (after a step of pushf, before one of
 *   popf), and a trap flag the kernel shows (it hides its own) is cleared
 *   before the tracee is let run (PTRACE_CONT, PTRACE_SYSCALL).
 *
 * Only libc's ptrace, waitpid and wait4 are wrapped; gdb's other calls go
 * straight through. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>

#include "layout.h"

typedef long ptrace_fn(enum __ptrace_request, pid_t, void *, void *);
typedef pid_t wait4_fn(pid_t, int *, int, struct rusage *);

static ptrace_fn *real_ptrace_fn(void)
{
	static ptrace_fn *f;
	if (!f)
		f = (ptrace_fn *)dlsym(RTLD_NEXT, "ptrace");
	return f;
}

static long real_ptrace(enum __ptrace_request req, pid_t pid, void *addr, void *data)
{
	return real_ptrace_fn()(req, pid, addr, data);
}

/* How gdb last resumed each tracee (a few at a time: gdb debugs one
 * program here, maybe its fork children). */
enum { NTRACEES = 64 };
static struct resume {
	pid_t pid;
	int req;
	int pushf;           /* a step of pushf: clean the image it saves */
	uint64_t stub, back; /* a step into a check's out-of-line part: where
	                        it starts and where it jumps back to, else 0 */
} resumed[NTRACEES];

static struct resume *resume_of(pid_t pid, int make)
{
	struct resume *free_slot = 0;
	for (int i = 0; i < NTRACEES; i++) {
		if (resumed[i].pid == pid)
			return &resumed[i];
		if (!free_slot && resumed[i].pid == 0)
			free_slot = &resumed[i];
	}
	if (!make)
		return 0;
	if (!free_slot)
		free_slot = &resumed[(unsigned)pid % NTRACEES];
	free_slot->pid = pid;
	return free_slot;
}

static int last_resume(pid_t pid)
{
	struct resume *r = resume_of(pid, 0);
	return r ? r->req : PTRACE_CONT;
}

static int peek(pid_t pid, uint64_t addr, unsigned char *buf, size_t n)
{
	for (size_t i = 0; i < n; i += sizeof(long)) {
		errno = 0;
		long w = real_ptrace(PTRACE_PEEKTEXT, pid, (void *)(addr + i), 0);
		if (errno)
			return -1;
		for (size_t k = 0; k < sizeof w && i + k < n; k++)
			buf[i + k] = (unsigned char)((unsigned long)w >> (8 * k));
	}
	return 0;
}

/* Whether the instruction at pc is a check's `jne` out of line: jne rel32
 * to code that, after one store, is `cmp %r13, %r13; jmp` back to the
 * instruction after the jne.  Sets *stub to the jne's target. */
static int check_jne(pid_t pid, uint64_t pc, uint64_t *stub)
{
	unsigned char j[6], c[24];
	if (peek(pid, pc, j, sizeof j) || j[0] != 0x0f || j[1] != 0x85)
		return 0;
	int32_t rel = (int32_t)((uint32_t)j[2] | (uint32_t)j[3] << 8 | (uint32_t)j[4] << 16 |
	                        (uint32_t)j[5] << 24);
	uint64_t t = pc + 6 + (uint64_t)(int64_t)rel;
	if (peek(pid, t, c, sizeof c))
		return 0;
	for (size_t k = 4; k + 5 <= sizeof c; k++) { /* the store: 4 to 14 bytes */
		if (c[k] != 0x4d || c[k + 1] != 0x39 || c[k + 2] != 0xed)
			continue;
		uint64_t after = t + k + 3, back;
		if (c[k + 3] == 0xeb) {
			back = after + 2 + (uint64_t)(int64_t)(int8_t)c[k + 4];
		} else if (c[k + 3] == 0xe9 && k + 8 <= sizeof c) {
			int32_t r = (int32_t)((uint32_t)c[k + 4] | (uint32_t)c[k + 5] << 8 |
			                      (uint32_t)c[k + 6] << 16 | (uint32_t)c[k + 7] << 24);
			back = after + 5 + (uint64_t)(int64_t)r;
		} else {
			continue;
		}
		if (back != pc + 6)
			return 0;
		*stub = t;
		return 1;
	}
	return 0;
}

/* The opcode at pc past operand-size and REX prefixes, or -1. */
static int opcode_at(pid_t pid, uint64_t pc)
{
	unsigned char b[4];
	if (peek(pid, pc, b, sizeof b))
		return -1;
	size_t i = 0;
	while (i < sizeof b - 1 && (b[i] == 0x66 || (b[i] & 0xf0) == 0x40))
		i++;
	return b[i];
}

/* Clears the trap flag in the flags image at the tracee's %rsp. */
static void clean_flags_image(pid_t pid)
{
	struct user_regs_struct r;
	if (real_ptrace(PTRACE_GETREGS, pid, 0, &r) < 0)
		return;
	errno = 0;
	long w = real_ptrace(PTRACE_PEEKDATA, pid, (void *)r.rsp, 0);
	if (!errno && (w & 0x100))
		real_ptrace(PTRACE_POKEDATA, pid, (void *)r.rsp, (void *)(w & ~0x100L));
}

static void note_resume(pid_t pid, int req)
{
	struct resume *r = resume_of(pid, 1);
	r->req = req;
	r->stub = r->back = 0;
	r->pushf = 0;
	struct user_regs_struct regs;
	if (req != PTRACE_SINGLESTEP || real_ptrace(PTRACE_GETREGS, pid, 0, &regs) < 0)
		return;
	if (regs.gs_base == (unsigned long)-RDB_S_OFFSET && check_jne(pid, regs.rip, &r->stub))
		r->back = regs.rip + 6;
	int op = opcode_at(pid, regs.rip);
	if (op == 0x9d) /* popf */
		clean_flags_image(pid);
	r->pushf = op == 0x9c;
}

/* Before the tracee runs freely: a trap flag left by a step of popf. */
static void clear_trap_flag(pid_t pid)
{
	struct user_regs_struct r;
	if (real_ptrace(PTRACE_GETREGS, pid, 0, &r) == 0 && (r.eflags & 0x100))
		real_ptrace(PTRACE_POKEUSER, pid, (void *)offsetof(struct user_regs_struct, eflags),
		            (void *)(r.eflags & ~0x100ull));
}

/* After a stop: a step of pushf saved the trap flag. */
static void after_step(pid_t pid, int st)
{
	struct resume *r = resume_of(pid, 0);
	if (r && r->pushf && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP)
		clean_flags_image(pid);
	if (r)
		r->pushf = 0;
}

/* Write the registers in *want that differ from the tracee's, one by
 * one.  0, or -1 with errno set as PTRACE_SETREGS would. */
static long set_regs(pid_t pid, const struct user_regs_struct *want)
{
	struct user_regs_struct now;
	if (real_ptrace(PTRACE_GETREGS, pid, 0, &now) < 0)
		return -1;
	const unsigned long *w = (const unsigned long *)want;
	const unsigned long *n = (const unsigned long *)&now;
	size_t gs = offsetof(struct user_regs_struct, gs_base) / sizeof *w;
	for (size_t i = 0; i < sizeof now / sizeof *w; i++) {
		if (w[i] == n[i])
			continue;
		if (i == gs && w[i] >= RDB_COVER_HI) {
			errno = EIO; /* as the kernel says for any kernel-half base */
			return -1;
		}
		if (real_ptrace(PTRACE_POKEUSER, pid, (void *)(i * sizeof *w), (void *)w[i]) < 0)
			return -1;
	}
	return 0;
}

long ptrace(enum __ptrace_request req, ...)
{
	va_list ap;
	va_start(ap, req);
	pid_t pid = va_arg(ap, pid_t);
	void *addr = va_arg(ap, void *);
	void *data = va_arg(ap, void *);
	va_end(ap);
	long r;
	switch ((int)req) {
	case PTRACE_GETREGS:
		/* the trap flag a step of popf left is gdb's, not the
		 * program's: shown as the kernel shows its own, not at all */
		r = real_ptrace(req, pid, addr, data);
		if (r == 0 && data)
			((struct user_regs_struct *)data)->eflags &= ~0x100ull;
		return r;
	case PTRACE_SETREGS:
		return set_regs(pid, data);
	case PTRACE_SETREGSET:
		if ((uintptr_t)addr == NT_PRSTATUS && data &&
		    ((struct iovec *)data)->iov_len == sizeof(struct user_regs_struct))
			return set_regs(pid, ((struct iovec *)data)->iov_base);
		break;
	case PTRACE_CONT:
	case PTRACE_SYSCALL:
		clear_trap_flag(pid);
		note_resume(pid, (int)req);
		break;
	case PTRACE_SINGLESTEP:
		note_resume(pid, (int)req);
		break;
	}
	return real_ptrace(req, pid, addr, data);
}

/* A stop of the SIC's check: SIGSEGV at an address in its window's guard
 * (docs/hooks.md "Software instruction counter"), in a tracee rdb-cc
 * built (the %gs base says so). */
static int sic_stop(pid_t pid, int status)
{
	if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGSEGV || (status >> 16) != 0)
		return 0;
	siginfo_t si;
	if (real_ptrace(PTRACE_GETSIGINFO, pid, 0, &si) < 0 || si.si_signo != SIGSEGV)
		return 0;
	uintptr_t a = (uintptr_t)si.si_addr;
	if (a < RDB_SIC_END || a >= RDB_SIC_END + RDB_SIC_GUARD)
		return 0;
	struct user_regs_struct r;
	return real_ptrace(PTRACE_GETREGS, pid, 0, &r) == 0 &&
	       r.gs_base == (unsigned long)-RDB_S_OFFSET;
}

static wait4_fn *real_wait4(void)
{
	static wait4_fn *f;
	if (!f)
		f = (wait4_fn *)dlsym(RTLD_NEXT, "wait4");
	return f;
}

/* A single step that took a check's jne: step on through its out-of-line
 * part, back to the instruction after the jne (a few steps).  Returns the
 * status of the last stop, which is gdb's to see. */
static int step_through_stub(pid_t pid, int st)
{
	struct resume *r = resume_of(pid, 0);
	if (!r || !r->stub || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP)
		return st;
	uint64_t back = r->back;
	struct user_regs_struct regs;
	for (int n = 0; n < 8; n++) {
		if (real_ptrace(PTRACE_GETREGS, pid, 0, &regs) < 0 || regs.rip == back ||
		    (n == 0 && regs.rip != r->stub))
			break;
		if (real_ptrace(PTRACE_SINGLESTEP, pid, 0, 0) < 0 ||
		    real_wait4()(pid, &st, __WALL, 0) != pid || !WIFSTOPPED(st) ||
		    WSTOPSIG(st) != SIGTRAP)
			break;
	}
	r->stub = r->back = 0;
	return st;
}

static const unsigned char check_insn[4] = {RDB_SIC_CHECK_BYTES};

#define DR_OFF(n) (offsetof(struct user, u_debugreg) + (n) * sizeof(long))

/* gdb single-stepped a SIC check that faulted: run the runtime's handler
 * to the instruction after the check, where it returns, under a hardware
 * execute breakpoint in DR3, and make that stop look like the end of the
 * step.  Returns the status gdb is to see, or -1 when this cannot be done
 * (DR3 is gdb's; not at a check): then the step goes into the handler. */
static int step_over_check(pid_t pid)
{
	struct user_regs_struct r;
	unsigned char code[sizeof check_insn];
	if (real_ptrace(PTRACE_GETREGS, pid, 0, &r) < 0 || peek(pid, r.rip, code, sizeof code) ||
	    memcmp(code, check_insn, sizeof code))
		return -1;
	uint64_t after = r.rip + sizeof check_insn;
	errno = 0;
	long dr7 = real_ptrace(PTRACE_PEEKUSER, pid, (void *)DR_OFF(7), 0);
	if (errno || (dr7 & 0xc0)) /* L3 or G3: gdb's */
		return -1;
	long mine = (dr7 & ~(0xfL << 28)) | 0x40; /* L3, execute, 1 byte */
	if (real_ptrace(PTRACE_POKEUSER, pid, (void *)DR_OFF(3), (void *)after) < 0 ||
	    real_ptrace(PTRACE_POKEUSER, pid, (void *)DR_OFF(7), (void *)mine) < 0)
		return -1;
	int st = -1;
	long sig = SIGSEGV;
	clear_trap_flag(pid);
	while (real_ptrace(PTRACE_CONT, pid, 0, (void *)sig) == 0 &&
	       real_wait4()(pid, &st, __WALL, 0) == pid && sic_stop(pid, st))
		sig = SIGSEGV; /* the handler's own checks (a program handler's) */
	if (st != -1 && WIFSTOPPED(st)) {
		real_ptrace(PTRACE_POKEUSER, pid, (void *)DR_OFF(7), (void *)dr7);
		real_ptrace(PTRACE_POKEUSER, pid, (void *)DR_OFF(3), 0);
		siginfo_t si;
		if (WSTOPSIG(st) == SIGTRAP && real_ptrace(PTRACE_GETREGS, pid, 0, &r) == 0 &&
		    r.rip == after && real_ptrace(PTRACE_GETSIGINFO, pid, 0, &si) == 0) {
			real_ptrace(PTRACE_POKEUSER, pid, (void *)DR_OFF(6), 0);
			si.si_code = TRAP_TRACE; /* what gdb's step waits for */
			real_ptrace(PTRACE_SETSIGINFO, pid, 0, &si);
		}
	}
	return st;
}

static pid_t report(int *status, int st, pid_t p)
{
	if (status)
		*status = st;
	return p;
}

pid_t wait4(pid_t want, int *status, int options, struct rusage *ru)
{
	for (;;) {
		int st = 0;
		pid_t p = real_wait4()(want, &st, options, ru);
		if (p <= 0)
			return report(status, st, p);
		after_step(p, st);
		int sic = sic_stop(p, st);
		if (!sic) {
			int st2 = step_through_stub(p, st);
			if (st2 == st || !sic_stop(p, st2))
				return report(status, st2, p);
			st = st2;
		}
		/* the SIC's stop: not gdb's to see */
		int req = last_resume(p);
		if (req == PTRACE_SINGLESTEP) {
			int s2 = step_over_check(p);
			if (s2 != -1)
				return report(status, s2, p);
		} else {
			clear_trap_flag(p);
		}
		if (real_ptrace(req, p, 0, (void *)(uintptr_t)SIGSEGV) < 0)
			return report(status, st, p);
	}
}

pid_t waitpid(pid_t want, int *status, int options)
{
	return wait4(want, status, options, 0);
}
