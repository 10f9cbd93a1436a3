/* lanes.c KIND: arrays whose VALUES frames rdb record stores as lanes
 * (rdb/trace.c, docs/trace-format.md): KIND 4, 2 MiB of 32-bit indexes
 * below 2^19 (the high bytes zero); KIND 8, 2 MiB of doubles near each
 * other (the sign, exponent and high mantissa bytes alike).  Each round
 * reads the whole array before writing it, so every interval traces it
 * again; prints a hash of what it read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 19)
static uint32_t idx[N];
static double dv[N / 2];

int main(int argc, char **argv)
{
	int kind = argc > 1 ? atoi(argv[1]) : 0;
	int rounds = argc > 2 ? atoi(argv[2]) : 60;
	uint64_t h = 1469598103934665603u, x = 88172645463325252u;
	if (kind != 4 && kind != 8) {
		fprintf(stderr, "usage: lanes 4|8 [ROUNDS]\n");
		return 2;
	}
	for (int r = 0; r < rounds; r++) {
		for (uint32_t i = 0; i < (kind == 4 ? N : N / 2); i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if (kind == 4) {
				h = (h ^ idx[i]) * 1099511628211u;
				idx[i] = (uint32_t)(x % N);
			} else {
				uint64_t b;
				double d = dv[i];
				__builtin_memcpy(&b, &d, 8);
				h = (h ^ b) * 1099511628211u;
				dv[i] = 1000.0 + (double)i / N + (double)(x % 1024) / 65536.0;
			}
		}
	}
	printf("lanes %d: %d rounds, hash %016llx\n", kind, rounds, (unsigned long long)h);
	return 0;
}
