/* rr: nondeterministic instructions: rdtsc, rdtscp, rdrand, cpuid (their
 * results are recorded and replayed, rdrand's CF included).
 * rr-native: differs: the counters and random numbers
 * rr-expect-out: ^rdtsc [0-9a-f]\{16\}$
 * rr-expect-out: ^rdtscp [0-9a-f]\{16\} aux 
 * rr-expect-out: ^cpuid(1) [0-9a-f]\{8\}  */
#include <stdint.h>
#include <stdio.h>
int main(void)
{
	uint32_t lo, hi, aux, a, b, c, d;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	printf("rdtsc %08x%08x\n", hi, lo);
	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	printf("rdtscp %08x%08x aux %x\n", hi, lo, aux);
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	printf("cpuid(1) %08x %08x %08x %08x\n", a, b, c, d);
	if (c & (1u << 30)) { /* rdrand available */
		uint64_t v;
		uint32_t w;
		unsigned char ok;
		__asm__ volatile("rdrand %0; setc %1" : "=r"(v), "=qm"(ok) : : "cc");
		printf("rdrand64 %016llx ok %d\n", (unsigned long long)v, ok);
		__asm__ volatile("rdrand %0; setc %1" : "=r"(w), "=qm"(ok) : : "cc");
		printf("rdrand32 %08x ok %d\n", w, ok);
	}
	return 0;
}
