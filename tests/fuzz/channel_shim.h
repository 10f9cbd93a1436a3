/* channel_shim.h: force-included (-include) into the runtime files that
 * fuzz_channel.c builds as host code.  Every raw syscall of the runtime
 * (sys.h's rdb_sys6, which rdb_sys0..5 expand to) goes to the harness's
 * fuzz_sys6, and the covered program memory is the harness's arena
 * (fuzz_covered) instead of the program's half of the address space,
 * which in a host process holds the harness's own stack and libraries. */
#include "rt.h"
long fuzz_sys6(long n, long a, long b, long c, long d, long e, long f);
int fuzz_covered(uintptr_t a, size_t n);
#define rdb_sys6 fuzz_sys6
#define rdb_covered fuzz_covered
