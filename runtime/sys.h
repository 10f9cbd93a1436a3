/* sys.h: raw Linux x86-64 syscalls (return -errno, like musl's
 * __syscallN) and the kernel constants the runtime needs.  Syscall numbers
 * come from the kernel's uapi header; no libc header is included. */
#ifndef RDB_SYS_H
#define RDB_SYS_H

#include <asm/unistd.h>

static inline long rdb_sys6(long n, long a, long b, long c, long d, long e,
                            long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;
	__asm__ volatile("syscall"
	                 : "=a"(ret)
	                 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
	                 : "rcx", "r11", "memory");
	return ret;
}
#define rdb_sys0(n) rdb_sys6(n, 0, 0, 0, 0, 0, 0)
#define rdb_sys1(n, a) rdb_sys6(n, (long)(a), 0, 0, 0, 0, 0)
#define rdb_sys2(n, a, b) rdb_sys6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define rdb_sys3(n, a, b, c) rdb_sys6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define rdb_sys4(n, a, b, c, d)                                             \
	rdb_sys6(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

#define RDB_EPERM 1
#define RDB_EACCES 13
#define RDB_ENOENT 2
#define RDB_EINTR 4
#define RDB_EBADF 9
#define RDB_EAGAIN 11
#define RDB_EPIPE 32
#define RDB_ENOMEM 12
#define RDB_EFAULT 14
#define RDB_EEXIST 17
#define RDB_EINVAL 22
#define RDB_ENOSYS 38

#define RDB_PROT_NONE 0
#define RDB_PROT_RW 3
#define RDB_MAP_PRIVATE 0x02
#define RDB_MAP_FIXED 0x10
#define RDB_MAP_ANONYMOUS 0x20
#define RDB_MAP_NORESERVE 0x4000
#define RDB_MAP_FIXED_NOREPLACE 0x100000
#define RDB_MREMAP_MAYMOVE 1
#define RDB_MREMAP_FIXED 2
#define RDB_MREMAP_DONTUNMAP 4
#define RDB_MADV_DONTNEED 4
#define RDB_MADV_HUGEPAGE 14

#define RDB_ADDR_NO_RANDOMIZE 0x0040000
#define RDB_ARCH_SET_GS 0x1001
#define RDB_ARCH_SET_FS 0x1002
#define RDB_ARCH_GET_FS 0x1003
#define RDB_ARCH_GET_GS 0x1004
#define RDB_AT_NULL 0
#define RDB_AT_PHDR 3
#define RDB_AT_PHNUM 5
#define RDB_AT_HWCAP2 26
#define RDB_HWCAP2_FSGSBASE (1u << 1)

#define RDB_SA_SIGINFO 0x4
#define RDB_SA_ONSTACK 0x08000000
#define RDB_SA_RESTART 0x10000000
#define RDB_SA_NODEFER 0x40000000
#define RDB_SA_RESETHAND 0x80000000u
#define RDB_SA_RESTORER 0x04000000
#define RDB_SIG_DFL 0
#define RDB_SIG_IGN 1
#define RDB_SIG_BLOCK 0
#define RDB_SIG_UNBLOCK 1
#define RDB_SIG_SETMASK 2

#define RDB_SIGHUP 1
#define RDB_SIGILL 4
#define RDB_SIGTRAP 5
#define RDB_SIGABRT 6
#define RDB_SIGBUS 7
#define RDB_SIGFPE 8
#define RDB_SIGKILL 9
#define RDB_SIGSEGV 11
#define RDB_SIGCHLD 17
#define RDB_SIGCONT 18
#define RDB_SIGSTOP 19
#define RDB_SIGTSTP 20
#define RDB_SIGTTIN 21
#define RDB_SIGTTOU 22
#define RDB_SIGURG 23
#define RDB_SIGWINCH 28

#define RDB_O_RDONLY 0
#define RDB_F_GETFD 1
#define RDB_F_SETFD 2
#define RDB_FD_CLOEXEC 1
#define RDB_MSG_NOSIGNAL 0x4000
#define RDB_CLONE_VM 0x100
#define RDB_CLONE_VFORK 0x4000
#define RDB_CLONE_THREAD 0x10000
#define RDB_CLONE_FS 0x200
#define RDB_CLONE_FILES 0x400
#define RDB_CLONE_SIGHAND 0x800
#define RDB_SIGCHLD 17
#define RDB_MAP_SHARED 0x01
#define RDB_MAP_TYPE 0x0f
#define RDB_PROT_READ 1
#define RDB_PROT_WRITE 2
#define RDB_PROT_EXEC 4
#define RDB_AT_RANDOM 25
#define RDB_O_CLOEXEC 02000000

#endif
