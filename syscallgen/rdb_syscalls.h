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
  RDB_SYS_FORKS = 1u << 11,    /* makes a process that shares the mappings (fork, clone) */
  RDB_SYS_EXECS = 1u << 12,    /* replaces the program (execve) */
  RDB_SYS_CLOSES = 1u << 13,   /* may drop a file's last reference (close, dup2) */
  RDB_SYS_EXITS = 1u << 14,    /* ends the process or thread (exit, exit_group) */
  /* The fact attributes: the row has a function for each (rdb_sys_fact). */
  RDB_SYS_SENDS = 1u << 15,      /* hands the kernel bytes of memory to put elsewhere */
  RDB_SYS_FILEWRITE = 1u << 16,  /* writes retval bytes into a file (an fd) */
  RDB_SYS_FILECHANGE = 1u << 17, /* changes an fd's file anywhere (truncates) */
  RDB_SYS_NEWFD = 1u << 18,      /* asks for an fd number of its own (dup2) */
  RDB_SYS_SIGSTATE = 1u << 19,   /* sets the signal state the runtime keeps */
  RDB_SYS_MAYBLOCK = 1u << 20,   /* may wait for another thread or process: a recording
                                    hands the token on around it (runtime/sched.c) */
};

/* The fact attributes of syscalls.spec: what rdb_sys_fact puts in out[4].
 *   SENDS: out[0] the shape (below), out[1] the address, out[2] the count
 *     (iovecs, messages), out[3] the bytes; only when the call sent some.
 *   FILEWRITE: out[0] the fd, out[1] the file offset (-1: the fd's position
 *     before the call), out[2] pwritev2's RWF_* flags, out[3] 1 when the
 *     offset is given (a positional write: an O_APPEND fd appends anyway).
 *     The offset may read memory after the call: ask only when retval > 0.
 *   FILECHANGE: out[0] the fd whose file changed; 0 when none.  After a
 *     call that succeeded only.
 *   NEWFD: out[0] the fd number asked for, -1 for none (before the call).
 *   SIGSTATE: out[0], out[1] the address and size of the struct the call
 *     sets the state from; 0 when it is NULL (arguments only). */
enum rdb_sys_fact_kind {
  RDB_SYS_FACT_SENDS, RDB_SYS_FACT_FILEWRITE, RDB_SYS_FACT_FILECHANGE, RDB_SYS_FACT_NEWFD, RDB_SYS_FACT_SIGSTATE,
  RDB_SYS_NFACTS
};
/* SENDS shapes: bytes at the address; bytes over count iovecs (16 bytes
 * each); a struct msghdr's iovecs (56 bytes); count struct mmsghdr (64
 * bytes), each its msghdr's iovecs over its msg_len (at 56). */
enum rdb_sys_shape { RDB_SYS_SHAPE_PLAIN, RDB_SYS_SHAPE_IOVEC, RDB_SYS_SHAPE_MSGHDR, RDB_SYS_SHAPE_MMSG };

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
/* A fact attribute's values (enum rdb_sys_fact_kind); 0 when it does not
 * hold for these arguments. */
typedef int rdb_sys_fact_fn(const long args[RDB_SYS_MAXARGS], long retval, long out[4]);
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
  rdb_sys_fact_fn *fact[RDB_SYS_NFACTS]; /* the fact attributes it has */
  unsigned char wfd;  /* RDB_SYS_FILEWRITE: argument wfd - 1 is the fd */
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
/* The fact attribute kind of the call (enum rdb_sys_fact_kind): 1 with its
 * values in out, 0 when the call has none or it does not hold. */
int rdb_sys_fact(long nr, int kind, const long args[RDB_SYS_MAXARGS], long retval, long out[4]);

#endif
