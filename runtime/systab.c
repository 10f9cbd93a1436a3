/* systab.c: the one door between the syscall dispatch and syscallgen's
 * generated table (syscallgen/rdb_syscalls.h).  The runtime cannot be built
 * without the table (RDB_HAVE_SYSCALLGEN): a runtime that let every call
 * through unmodelled would record traces that replay wrong, silently.  The
 * table holds pointers, so it may only be used after musl's
 * self-relocation: the dispatch is, __rdb_start is not. */
#include "rt.h"

#ifndef RDB_HAVE_SYSCALLGEN
#error "runtime/systab.c needs syscallgen's generated table (syscallgen/CMakeLists.txt)"
#endif
#include "rdb_syscalls.h"

_Static_assert(RDB_NPRE == RDB_SYS_NPRE, "rt.h RDB_NPRE");
_Static_assert(RDB_ATTR_ADDRSPACE == RDB_SYS_ADDRSPACE && RDB_ATTR_REEXEC == RDB_SYS_REEXEC &&
                   RDB_ATTR_NOCUT == RDB_SYS_NOCUT && RDB_ATTR_FORKS == RDB_SYS_FORKS &&
                   RDB_ATTR_EXECS == RDB_SYS_EXECS && RDB_ATTR_CLOSES == RDB_SYS_CLOSES &&
                   RDB_ATTR_EXITS == RDB_SYS_EXITS && RDB_ATTR_SENDS == RDB_SYS_SENDS &&
                   RDB_ATTR_SIGSTATE == RDB_SYS_SIGSTATE && RDB_ATTR_MAYBLOCK == RDB_SYS_MAYBLOCK,
               "rt.h RDB_ATTR_*");
_Static_assert(RDB_FACT_SENDS == RDB_SYS_FACT_SENDS && RDB_FACT_FILEWRITE == RDB_SYS_FACT_FILEWRITE &&
                   RDB_FACT_FILECHANGE == RDB_SYS_FACT_FILECHANGE && RDB_FACT_NEWFD == RDB_SYS_FACT_NEWFD &&
                   RDB_FACT_SIGSTATE == RDB_SYS_FACT_SIGSTATE && RDB_SYS_NFACTS == 5,
               "rt.h RDB_FACT_*");
_Static_assert(RDB_SHAPE_PLAIN == RDB_SYS_SHAPE_PLAIN && RDB_SHAPE_IOVEC == RDB_SYS_SHAPE_IOVEC &&
                   RDB_SHAPE_MSGHDR == RDB_SYS_SHAPE_MSGHDR && RDB_SHAPE_MMSG == RDB_SYS_SHAPE_MMSG,
               "rt.h RDB_SHAPE_*");
/* SIGSTATE's sizes are the runtime's structs (syscalls.spec struct sigaction). */
_Static_assert(sizeof(struct rdb_ksigaction) == 32, "the kernel's struct sigaction");

const char *rdb_systab_name(long nr) { return rdb_sys_name(nr); }

unsigned rdb_systab_attrs(long nr)
{
	const struct rdb_sys_info *i = rdb_sys_info(nr);
	return i ? i->attrs : 0;
}

int rdb_systab_fact(int kind, long nr, const long args[6], long r, long out[4])
{
	return rdb_sys_fact(nr, kind, args, r, out);
}

int rdb_systab_wfd(long nr)
{
	const struct rdb_sys_info *i = rdb_sys_info(nr);
	return i && i->wfd ? i->wfd - 1 : -1;
}

int rdb_systab_nargs(long nr)
{
	const struct rdb_sys_info *i = rdb_sys_info(nr);
	return i && i->name ? i->nargs : 6;
}

/* An argument is an fd when it is an int whose name ends in "fd" (fd,
 * dirfd, oldfd, newfd, epfd, in_fd, ...). */
int rdb_systab_uses_fd(long nr, const long args[6], long fd)
{
	const struct rdb_sys_info *i = rdb_sys_info(nr);
	if (!i || !i->name)
		return 0;
	for (int k = 0; k < i->nargs; k++) {
		const char *n = i->arg_name[k];
		if (i->arg_kind[k] != RDB_ARG_INT || !n || (int)args[k] != (int)fd)
			continue;
		size_t l = rdb_strlen(n);
		if (l >= 2 && n[l - 2] == 'f' && n[l - 1] == 'd')
			return 1;
	}
	return 0;
}
_Static_assert(RDB_SYS_MAXARGS == 6, "six syscall arguments");

/* Reads program memory without faulting: an unreadable address makes the
 * kernel fail the call itself, it must not kill us first. */
static int peek(void *ctx, uintptr_t addr, void *out, size_t len)
{
	(void)ctx;
	return rdb_peek(out, addr, len) == (long)len ? 0 : -1;
}

size_t rdb_systab_refusal(long nr, const long args[6], char *buf, size_t cap)
{
	return rdb_sys_refusal_message(nr, args, buf, cap);
}

void rdb_systab_pre(long nr, const long args[6], long pre[RDB_NPRE])
{
	rdb_sys_pre(nr, args, pre, peek, 0);
}

void rdb_systab_writes(long nr, const long args[6], const long pre[RDB_NPRE],
                       long ret, rdb_systab_emit_fn *emit, void *ctx)
{
	rdb_sys_writes(nr, args, pre, ret, emit, ctx);
}

int rdb_systab_acquires(long nr, const long args[6], long r, int (*regular)(void *, long))
{
	return rdb_sys_acquires(nr, args, r, regular, 0);
}

/* The mask's struct (pselect6's) is read as the program's own memory,
 * where the program could have put it; elsewhere there is none. */
static int program_peek(void *ctx, uintptr_t addr, void *out, size_t len)
{
	(void)ctx;
	if (!rdb_covered(addr, len))
		return -1;
	rdb_memcpy(out, (const void *)addr, len);
	return 0;
}

int rdb_systab_sigmask(long nr, const long args[6], long mask[2])
{
	return rdb_sys_sigmask(nr, args, mask, program_peek, 0);
}
