/* nondet_insn: instructions whose results come from outside the program:
 * rdtsc and rdtscp (time stamps: increasing), cpuid (vendor string and
 * feature bits: stable within a run), rdrand and rdseed where the CPU has
 * them (values differ run to run).  Only properties are printed; with
 * PROGTEST_SHOW_RANDOM set, the values' hash too (a recording must replay
 * them exactly). */
#include "prog.h"
#include <cpuid.h>

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static int rdrand(uint64_t *v)
{
	unsigned char ok;
	__asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok) : : "cc");
	return ok;
}

static int rdseed(uint64_t *v)
{
	unsigned char ok;
	__asm__ volatile("rdseed %0; setc %1" : "=r"(*v), "=qm"(ok) : : "cc");
	return ok;
}

int main(void)
{
	int show = getenv("PROGTEST_SHOW_RANDOM") != NULL;
	uint64_t h = 0;
	uint64_t t0 = rdtsc(), prev = t0;
	int mono = 1;
	for (int i = 0; i < 1000; i++) {
		uint64_t t = rdtsc();
		mono &= t >= prev;
		prev = t;
	}
	unsigned aux;
	uint64_t t1 = __builtin_ia32_rdtscp(&aux);
	printf("rdtsc non-decreasing: %d, rdtscp after: %d\n", mono, t1 >= prev);
	h = fnv(&t0, sizeof t0, h);

	unsigned a = 0, b = 0, c = 0, d = 0;
	CHECK(__get_cpuid(0, &a, &b, &c, &d));
	char vendor[13];
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	printf("cpuid: max leaf positive %d, vendor known %d\n", a > 0,
	       !strcmp(vendor, "GenuineIntel") || !strcmp(vendor, "AuthenticAMD"));
	unsigned a2 = 0, b2 = 0, c2 = 0, d2 = 0;
	__get_cpuid(0, &a2, &b2, &c2, &d2);
	printf("cpuid stable: %d\n", a == a2 && b == b2 && c == c2 && d == d2);
	__get_cpuid(1, &a, &b, &c, &d);
	printf("sse2 %d\n", !!(d & bit_SSE2));
	h = fnv(vendor, 12, h);

	int has_rdrand = !!(c & bit_RDRND), got = 0, distinct = 0;
	if (has_rdrand) {
		uint64_t first = 0, v;
		for (int i = 0; i < 16; i++)
			if (rdrand(&v)) {
				if (got++ == 0)
					first = v;
				else if (v != first)
					distinct = 1;
				h = fnv(&v, sizeof v, h);
			}
	}
	printf("rdrand absent or working: %d\n", !has_rdrand || (got > 0 && distinct));
	unsigned a7 = 0, b7 = 0, c7 = 0, d7 = 0;
	if (__get_cpuid_max(0, NULL) >= 7)
		__cpuid_count(7, 0, a7, b7, c7, d7);
	int has_rdseed = !!(b7 & bit_RDSEED), seeds = 0;
	if (has_rdseed) {
		uint64_t v;
		for (int i = 0; i < 100 && seeds < 4; i++)
			if (rdseed(&v)) {
				seeds++;
				h = fnv(&v, sizeof v, h);
			}
	}
	printf("rdseed absent or working: %d\n", !has_rdseed || seeds > 0);
	if (show)
		printf("nondeterministic hash %016llx\n", (unsigned long long)h);
	return prog_done("nondet_insn");
}
