/* probe: linked into the rdb-cc builds of the test programs only (run.sh
 * adds it), to show that the hooks really ran.  At start-up it notes the
 * software instruction counter; at exit (a destructor, so after main
 * returns or exit() is called) it writes then reads a variable of its own
 * and checks the shadow planes (docs/hooks.md): R 0x03 after the read, S
 * with W|X after a first-access write; and that the SIC is non-zero and
 * grew (when another thread ends the process, that it is non-zero: each
 * thread counts from its own start, docs/threads.md).  It prints only on failure, to stderr, and then exits with status
 * 99, so the programs' outputs stay comparable with a gcc build. */
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "librdb.h"

/* One slot per attempt, a cache line apart: an interval boundary (under
 * rdb record) between a write and its read resets the planes, and a slot
 * once touched cannot show a first-access write again. */
static volatile long probe_slots[4][8];
static uint64_t probe_sic0;

__attribute__((constructor)) static void probe_start(void)
{
	probe_sic0 = rdb_sic();
}

__attribute__((destructor)) static void probe_end(void)
{
	uint64_t sic1 = rdb_sic();
	unsigned r = 0, s = 0;
	int shadow_ok = 0;
	for (int i = 0; i < 4 && !shadow_ok; i++) {
		volatile long *v = &probe_slots[i][0];
		*v = 42 + i;
		long got = *v;
		r = rdb_shadow_r((const void *)v);
		s = rdb_shadow_s((const void *)v);
		shadow_ok = got == 42 + i && r == 0x03 && (s & 0x03) == 0x03;
	}
	int main_thread = syscall(SYS_gettid) == getpid();
	int sic_ok = probe_sic0 > 0 && (main_thread ? sic1 > probe_sic0 : sic1 > 0);
	if (shadow_ok && sic_ok)
		return;
	fflush(stdout);
	fprintf(stderr, "rdb probe: hooks did not run: shadow R %#x S %#x (want R 0x3, S W|X); "
	                "SIC at start %llu, at exit %llu\n",
	        r, s, (unsigned long long)probe_sic0, (unsigned long long)sic1);
	fflush(stderr);
	_exit(99);
}
