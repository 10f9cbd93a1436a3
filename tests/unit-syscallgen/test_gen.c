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
  tcase_add_test(tc, select_and_poll);
  tcase_add_test(tc, sockets_and_misc);
  tcase_add_test(tc, musl_coverage);
  tcase_add_test(tc, tool_help_and_errors);
  suite_add_tcase(s, tc);
  return s;
}
