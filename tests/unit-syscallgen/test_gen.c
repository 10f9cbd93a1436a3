/* test_gen.c: the generated table (built from the shipped syscalls.spec):
 * call the writes-functions with fake arguments and return values, as the
 * runtime will after each syscall, and check the regions they report. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rdb_syscalls.h"
#include "rdb_sysnr.h"
#include "suites.h"

typedef struct region { uintptr_t addr; size_t len; } region;
static region got[64];
static int ngot;

static void emit(void *ctx, uintptr_t addr, size_t len)
{
  ck_assert_ptr_eq(ctx, &ngot);
  ck_assert_int_lt(ngot, 64);
  got[ngot].addr = addr;
  got[ngot].len = len;
  ngot++;
}

static int peek(void *ctx, uintptr_t addr, void *out, size_t len)
{
  ck_assert_ptr_eq(ctx, &ngot);
  if (addr < 4096)
    return -1;
  memcpy(out, (const void *)addr, len);
  return 0;
}

/* One syscall as the runtime sees it: pre, (the kernel), writes. */
static long pre[RDB_SYS_NPRE];
static void before(long nr, const long args[6]) { rdb_sys_pre(nr, args, pre, peek, &ngot); }
static void after(long nr, const long args[6], long ret)
{
  ngot = 0;
  rdb_sys_writes(nr, args, pre, ret, emit, &ngot);
}
static void call(long nr, const long args[6], long ret)
{
  before(nr, args);
  after(nr, args, ret);
}

static void expect(int i, const void *addr, size_t len)
{
  ck_assert_int_lt(i, ngot);
  ck_assert_ptr_eq((void *)got[i].addr, addr);
  ck_assert_uint_eq(got[i].len, len);
}

#define A(x) ((long)(uintptr_t)(x))

START_TEST(read_writes_retval_bytes)
{
  char buf[100];
  long args[6] = { 3, A(buf), sizeof buf };
  call(RDB_NR_read, args, 42);
  ck_assert_int_eq(ngot, 1);
  expect(0, buf, 42);
  call(RDB_NR_read, args, 0); /* EOF: nothing */
  ck_assert_int_eq(ngot, 0);
  call(RDB_NR_read, args, -EBADF);
  ck_assert_int_eq(ngot, 0);
  call(RDB_NR_write, args, 42); /* write writes no program memory */
  ck_assert_int_eq(ngot, 0);
}
END_TEST

START_TEST(fstat_and_pipe_fixed_sizes)
{
  char st[144], fds[8];
  long a1[6] = { 1, A(st) };
  call(RDB_NR_fstat, a1, 0);
  ck_assert_int_eq(ngot, 1);
  expect(0, st, 144);
  long a2[6] = { A(fds), 0 };
  call(RDB_NR_pipe2, a2, 0);
  expect(0, fds, 8);
  long a3[6] = { 0, A(st) }; /* NULL pointer: nothing */
  a3[1] = 0;
  call(RDB_NR_fstat, a3, 0);
  ck_assert_int_eq(ngot, 0);
}
END_TEST

START_TEST(readv_partial)
{
  char b0[10], b1[20], b2[30];
  long iov[6] = { A(b0), 10, A(b1), 20, A(b2), 30 };
  long args[6] = { 0, A(iov), 3 };
  call(RDB_NR_readv, args, 25);
  ck_assert_int_eq(ngot, 2);
  expect(0, b0, 10);
  expect(1, b1, 15);
  call(RDB_NR_readv, args, 60);
  ck_assert_int_eq(ngot, 3);
  expect(2, b2, 30);
  call(RDB_NR_readv, args, -EINTR);
  ck_assert_int_eq(ngot, 0);
}
END_TEST

START_TEST(recvmsg_name_iov_control)
{
  char name[128], d0[8], d1[64], control[64];
  long iov[4] = { A(d0), 8, A(d1), 64 };
  struct {
    void *name; unsigned namelen, pad; void *iov; size_t iovlen;
    void *control; size_t controllen; unsigned flags, pad2;
  } msg = { name, sizeof name, 0, iov, 2, control, sizeof control, 0, 0 };
  _Static_assert(sizeof msg == 56, "x86-64 msghdr");
  long args[6] = { 5, A(&msg), 0 };
  before(RDB_NR_recvmsg, args);
  msg.namelen = 16;     /* the kernel's updates */
  msg.controllen = 24;
  msg.flags = 0;
  after(RDB_NR_recvmsg, args, 20);
  ck_assert_int_eq(ngot, 7);
  expect(0, name, 16);
  expect(1, &msg.namelen, 4);
  expect(2, d0, 8);
  expect(3, d1, 12);
  expect(4, control, 24);
  expect(5, &msg.controllen, 8);
  expect(6, &msg.flags, 4);
  /* A name longer than the buffer: only the buffer is written. */
  msg.namelen = 8;
  before(RDB_NR_recvmsg, args);
  msg.namelen = 110;
  after(RDB_NR_recvmsg, args, 0);
  expect(0, name, 8);
  /* No name: neither name nor namelen. */
  msg.name = NULL;
  call(RDB_NR_recvmsg, args, 1);
  expect(0, &d0, 1);
}
END_TEST

START_TEST(accept4_addrlen)
{
  char addr[128];
  unsigned addrlen = sizeof addr;
  long args[6] = { 3, A(addr), A(&addrlen), 0 };
  before(RDB_NR_accept4, args);
  addrlen = 16;
  after(RDB_NR_accept4, args, 7);
  ck_assert_int_eq(ngot, 2);
  expect(0, addr, 16);
  expect(1, &addrlen, 4);
  addrlen = 4; /* buffer shorter than the address: truncated */
  before(RDB_NR_accept4, args);
  addrlen = 16;
  after(RDB_NR_accept4, args, 7);
  expect(0, addr, 4);
  long noaddr[6] = { 3, 0, 0, 0 };
  call(RDB_NR_accept4, noaddr, 7);
  ck_assert_int_eq(ngot, 0);
  call(RDB_NR_accept4, args, -EAGAIN);
  ck_assert_int_eq(ngot, 0);
}
END_TEST

START_TEST(ioctl_requests)
{
  char ws[8], tio[60];
  long args[6] = { 1, 0x5413 /* TIOCGWINSZ */, A(ws) };
  ck_assert_ptr_null(rdb_sys_refusal(RDB_NR_ioctl, args));
  call(RDB_NR_ioctl, args, 0);
  ck_assert_int_eq(ngot, 1);
  expect(0, ws, 8);
  long tcgets[6] = { 0, 0x5401, A(tio) };
  call(RDB_NR_ioctl, tcgets, 0);
  expect(0, tio, 36); /* the kernel's struct termios, not libc's 60 bytes */
  long fionbio[6] = { 0, 0x5421, A(ws) };
  ck_assert_ptr_null(rdb_sys_refusal(RDB_NR_ioctl, fionbio));
  call(RDB_NR_ioctl, fionbio, 0);
  ck_assert_int_eq(ngot, 0);
  /* The request is a 32-bit value: high bits of the register are ignored. */
  long high[6] = { 1, (long)0xffffffff00005413UL, A(ws) };
  call(RDB_NR_ioctl, high, 0);
  expect(0, ws, 8);
}
END_TEST

START_TEST(unmodelled_ioctl_refused)
{
  long sti[6] = { 0, 0x5412 /* TIOCSTI */, 0 };
  ck_assert_str_eq(rdb_sys_refusal(RDB_NR_ioctl, sti), "request not modelled in syscalls.spec");
  char msg[200];
  size_t n = rdb_sys_refusal_message(RDB_NR_ioctl, sti, msg, sizeof msg);
  ck_assert_str_eq(msg, "syscall ioctl (16) request 0x5412 (argument req) refused: "
                        "request not modelled in syscalls.spec");
  ck_assert_uint_eq(n, strlen(msg));
  call(RDB_NR_ioctl, sti, 0);
  ck_assert_int_eq(ngot, 0);
  /* Truncation keeps the NUL. */
  char small[10];
  rdb_sys_refusal_message(RDB_NR_ioctl, sti, small, sizeof small);
  ck_assert_str_eq(small, "syscall i");
}
END_TEST

START_TEST(unknown_and_refused_syscalls)
{
  long args[6] = { 0 };
  char msg[200];
  ck_assert_ptr_null(rdb_sys_refusal(RDB_NR_read, args));
  ck_assert_uint_eq(rdb_sys_refusal_message(RDB_NR_read, args, msg, sizeof msg), 0);
  rdb_sys_refusal_message(100000, args, msg, sizeof msg);
  ck_assert_str_eq(msg, "syscall 100000 refused: unknown syscall number");
  rdb_sys_refusal_message(-1, args, msg, sizeof msg);
  ck_assert_str_eq(msg, "syscall -1 refused: unknown syscall number");
  rdb_sys_refusal_message(RDB_NR_ptrace, args, msg, sizeof msg);
  ck_assert_str_eq(msg, "syscall ptrace (101) refused: ptrace is not supported under rdb");
  /* A kernel syscall the spec does not mention. */
  rdb_sys_refusal_message(RDB_NR_kexec_load, args, msg, sizeof msg);
  ck_assert_str_eq(msg, "syscall kexec_load (246) refused: not modelled in syscalls.spec");
  /* A gap in the kernel's numbering (335..423 on x86-64). */
  ck_assert_ptr_null(rdb_sys_name(400));
  ck_assert_str_eq(rdb_sys_refusal(400, args), "unknown syscall number");
}
END_TEST

START_TEST(names_numbers_attributes)
{
  ck_assert_str_eq(rdb_sys_name(0), "read");
  ck_assert_str_eq(rdb_sys_name(RDB_NR_exit_group), "exit_group");
  ck_assert_ptr_null(rdb_sys_name(-5));
  ck_assert_int_eq(rdb_sys_number("mmap"), 9);
  ck_assert_int_eq(rdb_sys_number("nope"), -1);
  const struct rdb_sys_info *i = rdb_sys_info(RDB_NR_read);
  ck_assert_int_eq(i->nargs, 3);
  ck_assert_int_eq(i->arg_kind[0], RDB_ARG_INT);
  ck_assert_int_eq(i->arg_kind[1], RDB_ARG_PTR);
  ck_assert_int_eq(i->arg_kind[2], RDB_ARG_ULONG);
  ck_assert_str_eq(i->arg_name[1], "buf");
  ck_assert_int_eq(rdb_sys_info(RDB_NR_openat)->arg_kind[1], RDB_ARG_STR);
  static const char *const addrspace[] = { "mmap", "munmap", "mprotect", "mremap", "brk", "madvise" };
  for (size_t k = 0; k < 6; k++)
    ck_assert_msg(rdb_sys_info(rdb_sys_number(addrspace[k]))->attrs & RDB_SYS_ADDRSPACE,
                  "%s", addrspace[k]);
  static const char *const process[] = { "fork", "vfork", "clone", "execve", "exit",
                                         "exit_group", "wait4", "waitid" };
  for (size_t k = 0; k < 8; k++)
    ck_assert_msg(rdb_sys_info(rdb_sys_number(process[k]))->attrs & RDB_SYS_PROCESS,
                  "%s", process[k]);
  static const char *const signal[] = { "rt_sigaction", "rt_sigprocmask", "rt_sigreturn",
                                        "sigaltstack", "kill" };
  for (size_t k = 0; k < 5; k++)
    ck_assert_msg(rdb_sys_info(rdb_sys_number(signal[k]))->attrs & RDB_SYS_SIGNAL,
                  "%s", signal[k]);
  ck_assert(rdb_sys_info(RDB_NR_ioctl)->attrs & RDB_SYS_REQUESTS);
  ck_assert(!(rdb_sys_info(RDB_NR_read)->attrs & RDB_SYS_ADDRSPACE));
}
END_TEST

/* The runtime's attributes (syscalls.spec ACQUIRES, NOCUT, SIGMASK). */
static int regular_fd; /* the fd the fake fstat calls a regular file */
static int is_regular(void *ctx, long fd)
{
  ck_assert_ptr_eq(ctx, &ngot);
  return fd == regular_fd;
}

static int acq(long nr, long a0, long a1, long a2)
{
  long a[6] = { a0, a1, a2 };
  return rdb_sys_acquires(nr, a, 0, is_regular, &ngot);
}

START_TEST(acquires_nocut_sigmask)
{
  regular_fd = 3;
  /* reads: an acquire unless the fd is a regular file's */
  ck_assert(acq(RDB_NR_read, 4, 0, 0));
  ck_assert(!acq(RDB_NR_read, 3, 0, 0));
  ck_assert(acq(RDB_NR_recvmsg, 5, 0, 0));
  ck_assert(!acq(RDB_NR_preadv2, 3, 0, 0));
  /* conditions over the arguments */
  ck_assert(acq(RDB_NR_futex, 0, 0 /* FUTEX_WAIT */, 0));
  ck_assert(!acq(RDB_NR_futex, 0, 1 | 128 /* FUTEX_WAKE | FUTEX_PRIVATE_FLAG */, 0));
  ck_assert(acq(RDB_NR_fcntl, 3, 7 /* F_SETLKW */, 0));
  ck_assert(acq(RDB_NR_fcntl, 3, 37 /* F_OFD_SETLK */, 0));
  ck_assert(!acq(RDB_NR_fcntl, 3, 4 /* F_SETFL */, 0));
  ck_assert(!acq(RDB_NR_fcntl, 3, 8, 0));
  ck_assert(acq(RDB_NR_flock, 3, 2 /* LOCK_EX */, 0));
  ck_assert(!acq(RDB_NR_flock, 3, 8 /* LOCK_UN */, 0));
  ck_assert(acq(RDB_NR_open, 0, 0xc1 /* O_WRONLY|O_CREAT|O_EXCL */, 0));
  ck_assert(!acq(RDB_NR_open, 0, 0x41, 0));
  ck_assert(acq(RDB_NR_openat, -100, 0, 0xc0));
  ck_assert(!acq(RDB_NR_openat, -100, 0xc0, 0));
  ck_assert(acq(RDB_NR_madvise, 0, 4096, 9 /* MADV_REMOVE */));
  ck_assert(!acq(RDB_NR_madvise, 0, 4096, 4 /* MADV_DONTNEED */));
  /* always; never */
  ck_assert(acq(RDB_NR_wait4, 0, 0, 0) && acq(RDB_NR_mremap, 0, 0, 0) &&
            acq(RDB_NR_sched_yield, 0, 0, 0) && acq(RDB_NR_ioctl, 3, 0x5401, 0));
  ck_assert(!acq(RDB_NR_write, 4, 0, 0) && !acq(RDB_NR_lseek, 4, 0, 0) &&
            !acq(RDB_NR_mmap, 0, 0, 0) && !acq(-1, 0, 0, 0) && !acq(100000, 0, 0, 0));
  /* NOCUT */
  static const char *const nocut[] = { "kill", "tkill", "tgkill", "sigaltstack", "fork",
                                       "vfork", "clone", "execve", "execveat", "exit",
                                       "exit_group" };
  for (size_t k = 0; k < sizeof nocut / sizeof *nocut; k++)
    ck_assert_msg(rdb_sys_info(rdb_sys_number(nocut[k]))->attrs & RDB_SYS_NOCUT, "%s", nocut[k]);
  ck_assert(!(rdb_sys_info(RDB_NR_read)->attrs & RDB_SYS_NOCUT));
  ck_assert(!(rdb_sys_info(RDB_NR_wait4)->attrs & RDB_SYS_NOCUT));
  /* SIGMASK: where the call's mask lies, read before the call */
  unsigned long set = 5;
  long st[2] = { A(&set), 8 }, out[2];
  long ss[6] = { A(&set), 8 };
  ck_assert(rdb_sys_sigmask(RDB_NR_rt_sigsuspend, ss, out, peek, &ngot));
  ck_assert(out[0] == A(&set) && out[1] == 8);
  long pp[6] = { 0, 0, 0, A(&set), 8 };
  ck_assert(rdb_sys_sigmask(RDB_NR_ppoll, pp, out, peek, &ngot));
  ck_assert(out[0] == A(&set) && out[1] == 8);
  long ep[6] = { 3, 0, 1, 0, A(&set), 8 };
  ck_assert(rdb_sys_sigmask(RDB_NR_epoll_pwait, ep, out, peek, &ngot));
  ck_assert(out[0] == A(&set) && out[1] == 8);
  ck_assert(rdb_sys_sigmask(RDB_NR_epoll_pwait2, ep, out, peek, &ngot));
  ck_assert(out[0] == A(&set) && out[1] == 8);
  long ps[6] = { 0, 0, 0, 0, 0, A(st) };
  ck_assert(rdb_sys_sigmask(RDB_NR_pselect6, ps, out, peek, &ngot));
  ck_assert(out[0] == A(&set) && out[1] == 8);
  ps[5] = 0; /* no struct: no mask (peek is not asked below 4096) */
  ck_assert(rdb_sys_sigmask(RDB_NR_pselect6, ps, out, peek, &ngot));
  ck_assert(out[0] == 0 && out[1] == 0);
  ck_assert(!rdb_sys_sigmask(RDB_NR_read, ss, out, peek, &ngot));
  ck_assert(!rdb_sys_sigmask(RDB_NR_epoll_wait, ep, out, peek, &ngot));
  ck_assert(rdb_sys_info(RDB_NR_ppoll)->attrs & RDB_SYS_SIGMASK);
}
END_TEST

/* The fact attributes (SENDS, FILEWRITE, FILECHANGE, NEWFD, SIGSTATE) and
 * FORKS, EXECS, CLOSES, EXITS, against the values the runtime's case lists
 * had before the spec held them (whash.c, shared.c rdb_shared_sync, rr.c,
 * record.c, children.c rdb_kids_wanted, sysreplay.c runs_first). */
static long fv[4];
static int fact(long nr, int kind, long a0, long a1, long a2, long a3, long a5, long ret)
{
  long a[6] = { a0, a1, a2, a3, 0, a5 };
  memset(fv, 0x55, sizeof fv);
  return rdb_sys_fact(nr, kind, a, ret, fv);
}
static void fv_is(long v0, long v1, long v2, long v3)
{
  ck_assert_msg(fv[0] == v0 && fv[1] == v1 && fv[2] == v2 && fv[3] == v3,
                "fact values %ld %ld %ld %ld, wanted %ld %ld %ld %ld", fv[0], fv[1], fv[2], fv[3],
                v0, v1, v2, v3);
}
static unsigned attrs_of(const char *name) { return rdb_sys_info(rdb_sys_number(name))->attrs; }

START_TEST(facts_agree_with_the_old_lists)
{
  enum { S = RDB_SYS_FACT_SENDS, W = RDB_SYS_FACT_FILEWRITE, C = RDB_SYS_FACT_FILECHANGE,
         N = RDB_SYS_FACT_NEWFD, G = RDB_SYS_FACT_SIGSTATE };
  /* SENDS: whash.c's switch (the bytes the call handed the kernel) */
  static const char *const plain[] = { "write", "pwrite64", "sendto" };
  for (size_t k = 0; k < 3; k++) {
    ck_assert_msg(fact(rdb_sys_number(plain[k]), S, 1, 0x5000, 99, 0, 0, 7), "%s", plain[k]);
    fv_is(RDB_SYS_SHAPE_PLAIN, 0x5000, 0, 7);
    ck_assert(!fact(rdb_sys_number(plain[k]), S, 1, 0x5000, 99, 0, 0, 0)); /* nothing sent */
    ck_assert(!fact(rdb_sys_number(plain[k]), S, 1, 0x5000, 99, 0, 0, -EBADF));
  }
  static const char *const vec[] = { "writev", "pwritev", "pwritev2" };
  for (size_t k = 0; k < 3; k++) {
    ck_assert_msg(fact(rdb_sys_number(vec[k]), S, 1, 0x6000, 3, 0, 0, 40), "%s", vec[k]);
    fv_is(RDB_SYS_SHAPE_IOVEC, 0x6000, 3, 40);
  }
  ck_assert(fact(RDB_NR_sendmsg, S, 3, 0x7000, 0, 0, 0, 12));
  fv_is(RDB_SYS_SHAPE_MSGHDR, 0x7000, 0, 12);
  ck_assert(fact(RDB_NR_sendmmsg, S, 3, 0x8000, 5, 0, 0, 2));
  ck_assert(fv[0] == RDB_SYS_SHAPE_MMSG && fv[1] == 0x8000 && fv[2] == 2);
  ck_assert(fact(RDB_NR_msgsnd, S, 3, 0x9000, 100, 0, 0, 0)); /* 0 when sent */
  fv_is(RDB_SYS_SHAPE_PLAIN, 0x9000, 0, 108);
  ck_assert(!fact(RDB_NR_msgsnd, S, 3, 0x9000, 100, 0, 0, 100));
  ck_assert(!fact(RDB_NR_msgsnd, S, 3, 0x9000, 1L << 32, 0, 0, 0));
  ck_assert(fact(RDB_NR_mq_timedsend, S, 3, 0x9000, 100, 0, 0, 0));
  fv_is(RDB_SYS_SHAPE_PLAIN, 0x9000, 0, 100);
  ck_assert(!fact(RDB_NR_write, S, 1, 0, 9, 0, 0, 9)); /* NULL: nothing */
  ck_assert(!fact(RDB_NR_read, S, 0, 0x5000, 9, 0, 0, 9) && !fact(RDB_NR_sendfile, S, 1, 3, 0, 9, 0, 9));
  /* FILEWRITE: shared.c's sync (fd, offset or -1, pwritev2's flags, positional) */
  ck_assert(fact(RDB_NR_write, W, 4, 0x5000, 9, 0, 0, 9));
  fv_is(4, -1, 0, 0);
  ck_assert(fact(RDB_NR_writev, W, 4, 0x5000, 9, 0, 0, 9) && fv[0] == 4 && fv[3] == 0);
  ck_assert(fact(RDB_NR_sendfile, W, 5, 3, 0, 9, 0, 9));
  fv_is(5, -1, 0, 0);
  ck_assert(fact(RDB_NR_pwrite64, W, 4, 0x5000, 9, 4096, 0, 9));
  fv_is(4, 4096, 0, 1);
  ck_assert(fact(RDB_NR_pwritev, W, 4, 0x5000, 2, 8192, 0, 9));
  fv_is(4, 8192, 0, 1);
  ck_assert(fact(RDB_NR_pwritev2, W, 4, 0x5000, 2, -1, 0x10 /* RWF_APPEND */, 9));
  fv_is(4, -1, 0x10, 1);
  long off = 1000;
  ck_assert(fact(RDB_NR_copy_file_range, W, 3, 0, 6, A(&off), 0, 600)); /* *off_out - retval */
  fv_is(6, 400, 0, 1);
  ck_assert(fact(RDB_NR_splice, W, 3, 0, 6, 0, 0, 600)); /* no off_out: the position */
  fv_is(6, -1, 0, 1);
  ck_assert(!fact(RDB_NR_sendto, W, 1, 0x5000, 9, 0, 0, 9) && !fact(RDB_NR_read, W, 1, 0, 0, 0, 0, 9));
  ck_assert_int_eq(rdb_sys_info(RDB_NR_copy_file_range)->wfd, 3);
  ck_assert_int_eq(rdb_sys_info(RDB_NR_write)->wfd, 1);
  ck_assert_int_eq(rdb_sys_info(RDB_NR_sendto)->wfd, 0);
  /* FILECHANGE: the file of an fd changed anywhere */
  ck_assert(fact(RDB_NR_ftruncate, C, 7, 0, 0, 0, 0, 0) && fv[0] == 7);
  ck_assert(fact(RDB_NR_fallocate, C, 7, 0, 0, 0, 0, 0) && fv[0] == 7);
  ck_assert(fact(RDB_NR_creat, C, 0x5000, 0644, 0, 0, 0, 8) && fv[0] == 8);
  ck_assert(fact(RDB_NR_open, C, 0x5000, 01101 /* O_WRONLY|O_CREAT|O_TRUNC */, 0, 0, 0, 8) &&
            fv[0] == 8);
  ck_assert(!fact(RDB_NR_open, C, 0x5000, 0101, 0, 0, 0, 8));
  ck_assert(fact(RDB_NR_openat, C, -100, 0x5000, 01001, 0, 0, 9) && fv[0] == 9);
  ck_assert(!fact(RDB_NR_openat, C, -100, 01000, 1, 0, 0, 9)); /* the flags are a[2] */
  unsigned long how[3] = { 01000, 0, 0 };
  ck_assert(fact(RDB_NR_openat2, C, -100, 0x5000, A(how), 24, 0, 9) && fv[0] == 9);
  how[0] = 0;
  ck_assert(!fact(RDB_NR_openat2, C, -100, 0x5000, A(how), 24, 0, 9));
  ck_assert(!fact(RDB_NR_write, C, 7, 0, 0, 0, 0, 0) && !fact(RDB_NR_truncate, C, 0x5000, 0, 0, 0, 0, 0));
  /* NEWFD: children.c rdb_kids_wanted */
  ck_assert(fact(RDB_NR_dup2, N, 3, 1001, 0, 0, 0, 0) && fv[0] == 1001);
  ck_assert(fact(RDB_NR_dup3, N, 3, 1002, 0, 0, 0, 0) && fv[0] == 1002);
  ck_assert(fact(RDB_NR_fcntl, N, 3, 0 /* F_DUPFD */, 1000, 0, 0, 0) && fv[0] == 1000);
  ck_assert(fact(RDB_NR_fcntl, N, 3, 1030 /* F_DUPFD_CLOEXEC */, 1003, 0, 0, 0) && fv[0] == 1003);
  ck_assert(!fact(RDB_NR_fcntl, N, 3, 4 /* F_SETFL */, 1000, 0, 0, 0));
  ck_assert(!fact(RDB_NR_dup, N, 3, 1001, 0, 0, 0, 0));
  /* SIGSTATE: rr.c's kernel reads and sysreplay.c's calls run again */
  ck_assert(fact(RDB_NR_rt_sigaction, G, 10, 0x5000, 0, 8, 0, 0));
  ck_assert(fv[0] == 0x5000 && fv[1] == 32);
  ck_assert(fact(RDB_NR_rt_sigprocmask, G, 0, 0x5000, 0, 8, 0, 0));
  ck_assert(fv[0] == 0x5000 && fv[1] == 8);
  ck_assert(fact(RDB_NR_sigaltstack, G, 0x5000, 0, 0, 0, 0, 0));
  ck_assert(fv[0] == 0x5000 && fv[1] == 24);
  ck_assert(!fact(RDB_NR_rt_sigaction, G, 10, 0, 0x6000, 8, 0, 0)); /* no new action */
  ck_assert(!fact(RDB_NR_kill, G, 1, 9, 0, 0, 0, 0));
  ck_assert(!fact(RDB_NR_write, 99, 1, 0x5000, 1, 0, 0, 1) && !fact(-1, S, 1, 0x5000, 1, 0, 0, 1));
  /* the flags */
  static const struct { const char *name; unsigned bit; } has[] = {
    { "fork", RDB_SYS_FORKS }, { "vfork", RDB_SYS_FORKS }, { "clone", RDB_SYS_FORKS },
    { "execve", RDB_SYS_EXECS }, { "execveat", RDB_SYS_EXECS },
    { "close", RDB_SYS_CLOSES }, { "close_range", RDB_SYS_CLOSES },
    { "dup2", RDB_SYS_CLOSES }, { "dup3", RDB_SYS_CLOSES },
    { "exit", RDB_SYS_EXITS }, { "exit_group", RDB_SYS_EXITS },
  };
  for (size_t k = 0; k < sizeof has / sizeof *has; k++)
    ck_assert_msg(attrs_of(has[k].name) & has[k].bit, "%s", has[k].name);
  ck_assert(!(attrs_of("clone3") & RDB_SYS_FORKS) && !(attrs_of("wait4") & RDB_SYS_FORKS));
  ck_assert(!(attrs_of("dup") & RDB_SYS_CLOSES) && !(attrs_of("kill") & RDB_SYS_EXITS));
  ck_assert(!(attrs_of("execve") & RDB_SYS_FORKS) && !(attrs_of("open") & RDB_SYS_EXECS));
}
END_TEST

/* Every attribute the table can carry is in the spec (none is dead), and a
 * row's fact bit and its fact function go together. */
START_TEST(every_attribute_used)
{
  static const unsigned fact_bit[RDB_SYS_NFACTS] = {
    [RDB_SYS_FACT_SENDS] = RDB_SYS_SENDS, [RDB_SYS_FACT_FILEWRITE] = RDB_SYS_FILEWRITE,
    [RDB_SYS_FACT_FILECHANGE] = RDB_SYS_FILECHANGE, [RDB_SYS_FACT_NEWFD] = RDB_SYS_NEWFD,
    [RDB_SYS_FACT_SIGSTATE] = RDB_SYS_SIGSTATE,
  };
  unsigned seen = 0;
  for (int nr = 0; nr < rdb_sys_table_len; nr++) {
    const struct rdb_sys_info *i = &rdb_sys_table[nr];
    seen |= i->attrs;
    for (int k = 0; k < RDB_SYS_NFACTS; k++)
      ck_assert_msg(!(i->attrs & fact_bit[k]) == !i->fact[k], "%d: fact %d", nr, k);
    ck_assert_msg(!(i->attrs & RDB_SYS_FILEWRITE) == !i->wfd, "%d: wfd", nr);
  }
  for (unsigned b = 1; b <= RDB_SYS_SIGSTATE; b <<= 1)
    ck_assert_msg(seen & b, "no syscall has attribute bit %#x", b);
}
END_TEST

START_TEST(conditional_writes)
{
  char ts[16];
  long ns[6] = { 0, A(ts) };
  call(RDB_NR_nanosleep, ns, 0); /* rem only when interrupted */
  ck_assert_int_eq(ngot, 0);
  call(RDB_NR_nanosleep, ns, -EINTR);
  expect(0, ts, 16);
  long cns[6] = { 1, 1 /* TIMER_ABSTIME */, 0, A(ts) };
  call(RDB_NR_clock_nanosleep, cns, -EINTR);
  ck_assert_int_eq(ngot, 0);
  cns[1] = 0;
  call(RDB_NR_clock_nanosleep, cns, -EINTR);
  expect(0, ts, 16);
  /* wait4: status and rusage only when a child was reaped. */
  int status;
  char ru[144];
  long w[6] = { -1, A(&status), 1, A(ru) };
  call(RDB_NR_wait4, w, 0);
  ck_assert_int_eq(ngot, 0);
  call(RDB_NR_wait4, w, 1234);
  ck_assert_int_eq(ngot, 2);
  expect(0, &status, 4);
  expect(1, ru, 144);
  /* clone with CLONE_PARENT_SETTID in the parent. */
  int ptid, ctid;
  long cl[6] = { 0x100000 | 0x1000000, 0, A(&ptid), A(&ctid), 0 };
  call(RDB_NR_clone, cl, 99);
  ck_assert_int_eq(ngot, 1);
  expect(0, &ptid, 4);
  call(RDB_NR_clone, cl, 0);
  ck_assert_int_eq(ngot, 1);
  expect(0, &ctid, 4);
}
END_TEST

START_TEST(select_and_poll)
{
  unsigned long r[2], w[2];
  struct { long s, us; } tv = { 1, 0 };
  long args[6] = { 70, A(r), A(w), 0, A(&tv) };
  call(RDB_NR_select, args, 1);
  ck_assert_int_eq(ngot, 3);
  expect(0, r, 16);
  expect(1, w, 16);
  expect(2, &tv, 16);
  call(RDB_NR_select, args, -EINTR); /* only the timeout */
  ck_assert_int_eq(ngot, 1);
  expect(0, &tv, 16);
  tv.s = 0; /* a zero timeout is not written back */
  call(RDB_NR_select, args, 0);
  ck_assert_int_eq(ngot, 2);
  char pfd[24];
  long p[6] = { A(pfd), 3, 100 };
  call(RDB_NR_poll, p, -EINTR);
  expect(0, pfd, 24);
  long ep[6] = { 3, A(pfd), 2, 0 };
  call(RDB_NR_epoll_wait, ep, 2);
  expect(0, pfd, 24);
}
END_TEST

START_TEST(sockets_and_misc)
{
  char buf[64], addr[128];
  unsigned len = 128;
  long rf[6] = { 3, A(buf), 64, 0, A(addr), A(&len) };
  before(RDB_NR_recvfrom, rf);
  len = 16;
  after(RDB_NR_recvfrom, rf, 100); /* MSG_TRUNC: more than the buffer */
  ck_assert_int_eq(ngot, 3);
  expect(0, buf, 64);
  expect(1, addr, 16);
  expect(2, &len, 4);
  long gs[6] = { 3, 1, 2, A(buf), A(&len) };
  len = 64;
  before(RDB_NR_getsockopt, gs);
  len = 4;
  after(RDB_NR_getsockopt, gs, 0);
  expect(0, buf, 4);
  expect(1, &len, 4);
  char mm[3 * 64];
  long sm[6] = { 3, A(mm), 3, 0 };
  call(RDB_NR_sendmmsg, sm, 2);
  ck_assert_int_eq(ngot, 2);
  expect(0, mm + 56, 4);
  expect(1, mm + 64 + 56, 4);
  long fs[6] = { 0, A(buf) };
  call(RDB_NR_arch_prctl, (long[6]){ 0x1003, A(buf) }, 0);
  expect(0, buf, 8);
  call(RDB_NR_arch_prctl, (long[6]){ 0x1002, A(buf) }, 0);
  ck_assert_int_eq(ngot, 0);
  (void)fs;
  long gg[6] = { 4, A(buf) };
  call(RDB_NR_getgroups, gg, 3);
  expect(0, buf, 12);
  long rs[6] = { 2, 0, A(buf), 8 };
  call(RDB_NR_rt_sigaction, rs, 0);
  expect(0, buf, 32);
  long fc[6] = { 3, 5 /* F_GETLK */, A(buf) };
  call(RDB_NR_fcntl, fc, 0);
  expect(0, buf, 32);
  long fc2[6] = { 3, 9999, 0 };
  ck_assert_ptr_nonnull(rdb_sys_refusal(RDB_NR_fcntl, fc2));
}
END_TEST

/* Every syscall musl 1.2.3 can issue is modelled or refused with a reason
 * given in syscalls.spec (never just "not modelled"). */
START_TEST(musl_coverage)
{
  FILE *f = fopen(SG_MUSL_LIST, "r");
  ck_assert_ptr_nonnull(f);
  char line[128];
  int n = 0, missing = 0;
  long args[6] = { 0 };
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (line[0] == '#' || line[0] == 0)
      continue;
    n++;
    long nr = rdb_sys_number(line);
    const struct rdb_sys_info *i = rdb_sys_info(nr);
    if (!i || !i->name) {
      fprintf(stderr, "musl syscall %s is not in the kernel table\n", line);
      missing++;
      continue;
    }
    if (!(i->attrs & RDB_SYS_MODELLED) && (!(i->attrs & RDB_SYS_REFUSED) ||
        strcmp(rdb_sys_refusal(nr, args), "not modelled in syscalls.spec") == 0)) {
      fprintf(stderr, "musl syscall %s is neither modelled nor explicitly refused\n", line);
      missing++;
    }
  }
  fclose(f);
  ck_assert_int_ge(n, 270);
  ck_assert_int_eq(missing, 0);
}
END_TEST

/* The tool itself: --help, and an error leaves no output file behind. */
START_TEST(tool_help_and_errors)
{
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s --help | grep -q 'usage: syscallgen'", SG_SYSCALLGEN);
  ck_assert_int_eq(system(cmd), 0);
  char dir[] = "/tmp/sgtestXXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char spec[256], out[256], err[256];
  snprintf(spec, sizeof spec, "%s/bad.spec", dir);
  snprintf(out, sizeof out, "%s/out.c", dir);
  snprintf(err, sizeof err, "%s/err", dir);
  FILE *f = fopen(spec, "w");
  fputs("int read(int fd,\n  WRITES{ void *buf = nope });\n", f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "%s -o %s %s 2>%s", SG_SYSCALLGEN, out, spec, err);
  int rc = system(cmd);
  ck_assert(WIFEXITED(rc) && WEXITSTATUS(rc) == 1);
  ck_assert_int_ne(access(out, F_OK), 0);
  f = fopen(err, "r");
  char line[512] = "";
  ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
  fclose(f);
  char want[512];
  snprintf(want, sizeof want,
           "syscallgen:%s:2:23: unknown name 'nope' (not a parameter of 'read' nor a constant)\n",
           spec);
  ck_assert_str_eq(line, want);
  snprintf(cmd, sizeof cmd, "%s --bogus 2>/dev/null", SG_SYSCALLGEN);
  rc = system(cmd);
  ck_assert(WIFEXITED(rc) && WEXITSTATUS(rc) == 2);
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  ck_assert_int_eq(system(cmd), 0);
}
END_TEST

Suite *gen_suite(void)
{
  Suite *s = suite_create("generated");
  TCase *tc = tcase_create("writes");
  tcase_add_test(tc, read_writes_retval_bytes);
  tcase_add_test(tc, fstat_and_pipe_fixed_sizes);
  tcase_add_test(tc, readv_partial);
  tcase_add_test(tc, recvmsg_name_iov_control);
  tcase_add_test(tc, accept4_addrlen);
  tcase_add_test(tc, ioctl_requests);
  tcase_add_test(tc, unmodelled_ioctl_refused);
  tcase_add_test(tc, unknown_and_refused_syscalls);
  tcase_add_test(tc, names_numbers_attributes);
  tcase_add_test(tc, conditional_writes);
  tcase_add_test(tc, acquires_nocut_sigmask);
  tcase_add_test(tc, facts_agree_with_the_old_lists);
  tcase_add_test(tc, every_attribute_used);
  tcase_add_test(tc, select_and_poll);
  tcase_add_test(tc, sockets_and_misc);
  tcase_add_test(tc, musl_coverage);
  tcase_add_test(tc, tool_help_and_errors);
  suite_add_tcase(s, tc);
  return s;
}
