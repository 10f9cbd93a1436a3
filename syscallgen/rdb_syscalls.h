/* rdb_syscalls.h: the syscall table the runtime (librdb) uses to record and
 * replay every Linux x86-64 syscall. syscallgen generates its definitions
 * from syscalls.spec and the kernel's unistd_64.h (docs/syscallgen.md).
 * Freestanding: no libc, only <stddef.h>/<stdint.h>; the generated code
 * reads program memory directly and only where the kernel itself did. */
#ifndef RDB_SYSCALLS_H
#define RDB_SYSCALLS_H

#include <stddef.h>
#include <stdint.h>

#define RDB_SYS_MAXARGS 6
/* Values a syscall must capture before it enters the kernel (e.g. the
 * buffer length behind accept's addrlen, which the kernel overwrites). */
#define RDB_SYS_NPRE 4

/* Argument kinds, for decoding and printing (truss). */
enum rdb_sys_arg_kind {
  RDB_ARG_INT = 1, /* signed, 32 bits (the kernel truncates the register) */
  RDB_ARG_UINT,    /* unsigned, 32 bits */
  RDB_ARG_LONG,    /* signed, 64 bits */
  RDB_ARG_ULONG,   /* unsigned, 64 bits */
  RDB_ARG_PTR,     /* pointer the kernel reads or writes */
  RDB_ARG_STR,     /* const char *: a NUL-terminated string */
};

/* Attribute bits of a row. */
enum rdb_sys_attr {
  RDB_SYS_KNOWN = 1u << 0,     /* the number is in the kernel's table */
  RDB_SYS_MODELLED = 1u << 1,  /* syscalls.spec describes it: record it */
  RDB_SYS_REFUSED = 1u << 2,   /* refuse it: refusal says why */
  RDB_SYS_ADDRSPACE = 1u << 3, /* shapes the address space: re-executed on replay */
  RDB_SYS_SIGNAL = 1u << 4,    /* handled by the signal framework */
  RDB_SYS_PROCESS = 1u << 5,   /* process life cycle: fork, exec, exit, wait */
  RDB_SYS_REEXEC = 1u << 6,    /* re-executed on replay (kernel state, not memory) */
  RDB_SYS_REQUESTS = 1u << 7,  /* writes depend on a request argument (ioctl) */
  RDB_SYS_ACQUIRES = 1u << 8,  /* may be where the process sees others' stores (maybe
                                  only for some arguments: rdb_sys_acquires) */
  RDB_SYS_NOCUT = 1u << 9,     /* never blocks: a signal never cuts it short */
  RDB_SYS_SIGMASK = 1u << 10,  /* waits with a signal mask of its own (rdb_sys_sigmask) */
};

/* Called once per memory region [addr, addr+len) the kernel wrote; len > 0. */
typedef void (*rdb_region_fn)(void *ctx, uintptr_t addr, size_t len);
/* Reads len bytes of program memory at addr into out before the call;
 * returns 0, or -1 if addr is not readable (the call will then fail). Must
 * not fault (e.g. process_vm_readv on itself); never called below 4096. */
typedef int (*rdb_peek_fn)(void *ctx, uintptr_t addr, void *out, size_t len);

typedef void rdb_sys_pre_fn(const long args[RDB_SYS_MAXARGS],
                            long pre[RDB_SYS_NPRE], rdb_peek_fn peek, void *ctx);
typedef void rdb_sys_writes_fn(const long args[RDB_SYS_MAXARGS],
                               const long pre[RDB_SYS_NPRE], long retval,
                               rdb_region_fn emit, void *ctx);
/* ACQUIRES(cond): whether the call with these arguments (result retval)
 * acquires. */
typedef int rdb_sys_cond_fn(const long args[RDB_SYS_MAXARGS], long retval);
/* SIGMASK(ptr, size), before the call: out[0] = ptr, out[1] = size. */
typedef void rdb_sys_sigmask_fn(const long args[RDB_SYS_MAXARGS], long out[2],
                                rdb_peek_fn peek, void *ctx);
/* Whether fd is a regular file (the runtime asks fstat). */
typedef int (*rdb_fd_regular_fn)(void *ctx, long fd);

/* One modelled request value of a REQUESTS syscall (ioctl, fcntl, ...). */
struct rdb_sys_request {
  unsigned long value;
  const char *name;
  rdb_sys_writes_fn *writes; /* NULL: writes nothing */
};

struct rdb_sys_info {
  const char *name;  /* NULL for a number the kernel does not define */
  int nr;
  unsigned attrs;    /* enum rdb_sys_attr */
  unsigned char nargs;
  unsigned char arg_kind[RDB_SYS_MAXARGS];
  const char *arg_type[RDB_SYS_MAXARGS]; /* C type as written in the spec */
  const char *arg_name[RDB_SYS_MAXARGS];
  const char *refusal;        /* why, when RDB_SYS_REFUSED */
  rdb_sys_pre_fn *pre;        /* NULL: nothing to capture before the call */
  rdb_sys_writes_fn *writes;  /* NULL: the kernel writes no program memory */
  /* REQUESTS syscalls: which argument selects, and the modelled values. */
  unsigned char req_arg;
  unsigned char req_bits;    /* the selector's width: 32 or 64 */
  unsigned char req_default; /* 1: other values are modelled as writing nothing */
  unsigned short nrequests;
  const struct rdb_sys_request *requests;
  /* RDB_SYS_ACQUIRES: always, unless acq_cond says no or argument
   * acq_fd - 1 (when not 0) is a regular file's fd. */
  rdb_sys_cond_fn *acq_cond;
  unsigned char acq_fd;
  rdb_sys_sigmask_fn *sigmask; /* RDB_SYS_SIGMASK */
};

extern const struct rdb_sys_info rdb_sys_table[];
extern const int rdb_sys_table_len; /* highest kernel number + 1 */

/* The row for nr, or NULL when nr is outside the kernel's table. */
const struct rdb_sys_info *rdb_sys_info(long nr);
/* "read" for 0; NULL when the kernel defines no such number. */
const char *rdb_sys_name(long nr);
/* The number of a syscall name, or -1. */
long rdb_sys_number(const char *name);
/* NULL when the call with these arguments is modelled; otherwise why not
 * (unknown number, refused syscall, unmodelled request). */
const char *rdb_sys_refusal(long nr, const long args[RDB_SYS_MAXARGS]);
/* Writes "syscall NAME (NR): reason" (with the request value when that is
 * what is unmodelled) into buf, NUL-terminated, and returns its length;
 * returns 0 and writes nothing when the call is modelled. */
size_t rdb_sys_refusal_message(long nr, const long args[RDB_SYS_MAXARGS],
                               char *buf, size_t cap);
/* Before the call: captures what the writes need (no-op for most). */
void rdb_sys_pre(long nr, const long args[RDB_SYS_MAXARGS],
                 long pre[RDB_SYS_NPRE], rdb_peek_fn peek, void *ctx);
/* After the call, with the raw kernel return (-errno on failure): calls
 * emit for each region the kernel wrote into the program's memory. */
void rdb_sys_writes(long nr, const long args[RDB_SYS_MAXARGS],
                    const long pre[RDB_SYS_NPRE], long retval,
                    rdb_region_fn emit, void *ctx);
/* Whether the call (result retval) may be where the process learns of
 * another process's stores to shared memory (syscalls.spec ACQUIRES):
 * it waits for, or looks at, something another process did. */
int rdb_sys_acquires(long nr, const long args[RDB_SYS_MAXARGS], long retval,
                     rdb_fd_regular_fn regular, void *ctx);
/* SIGMASK calls (sigsuspend, ppoll, ...): 1 with the mask's address and
 * size in out (read before the call, through peek); 0 for other calls. */
int rdb_sys_sigmask(long nr, const long args[RDB_SYS_MAXARGS], long out[2],
                    rdb_peek_fn peek, void *ctx);

#endif
