/* librdb.h: the public interface of librdb, the runtime of instrumented
 * programs (paper 3.2).  Two users: instrumentation libraries, which run in
 * the runtime's world (not instrumented, no libc, raw syscalls) and plug in
 * with callbacks; and programs or tests, which may query the shadow state.
 * Freestanding: only <stddef.h> and <stdint.h>. */
#ifndef RDB_LIBRDB_H
#define RDB_LIBRDB_H

#include <stddef.h>
#include <stdint.h>

/* ---- registration (api.c) ------------------------------------------- */

typedef void rdb_init_fn(void);
typedef void rdb_term_fn(int status, int signo);
/* Returns 1 if the signal was the library's own (the program never sees
 * it), 0 to deliver it to the program as usual. */
typedef int rdb_signal_fn(int signo, void *siginfo, void *ucontext);

/* A process-init callback, named at link time: it runs in __rdb_start,
 * before libc's start-up and before the image is self-relocated, so it
 * must not use initialized pointers in data.  Stored PC-relative in the
 * section rdb_init (no dynamic relocation).  Use at file scope, with a
 * function that is not static (the reference is in assembly). */
#define RDB_INIT(fn)                                                        \
	__asm__(".pushsection rdb_init,\"aR\",@progbits\n\t.balign 8\n\t"     \
	        ".quad " #fn " - .\n\t.popsection")

/* Called from an init callback (or later).  Termination callbacks run
 * once, just before exit/exit_group enters the kernel (status >= 0,
 * signo 0) or before a signal's default action kills the process
 * (status -1, signo the signal).  Signal callbacks see every signal
 * before the program does.  Return 0, or -1 when the kernel refuses the
 * memory for one more (the table has no fixed size). */
int rdb_on_term(rdb_term_fn *fn);
int rdb_on_signal(rdb_signal_fn *fn);

/* ---- queries (shadow.c) ---------------------------------------------- */

/* The R and S shadow bytes of a covered address (0 outside the range). */
unsigned rdb_shadow_r(const void *addr);
unsigned rdb_shadow_s(const void *addr);
/* The software instruction counter (%r15) at the call. */
uint64_t rdb_sic(void);

/* ---- services for instrumentation libraries (util.c) ----------------- */

long rdb_syscall6(long nr, long a, long b, long c, long d, long e, long f);
/* Writes a message to fd 2: %s %d %u %x %lx %ld %lu %p only. */
void rdb_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
