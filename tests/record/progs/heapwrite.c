/* heapwrite [PASSES [SPIN]]: writes all over 32 MiB of heap in each pass,
 * little work per page, so that a boundary's copy-on-write faults cost
 * more than the program's own time where faults are slow; then SPIN
 * million rounds of arithmetic that write no memory, where they cost
 * nothing (record-check-stretch). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	size_t n = 32u << 20, passes = argc > 1 ? strtoul(argv[1], 0, 10) : 60;
	size_t spin = argc > 2 ? strtoul(argv[2], 0, 10) : 0;
	unsigned char *a = malloc(n);
	if (!a)
		return 1;
	for (size_t i = 0; i < n; i++)
		a[i] = (unsigned char)i;
	unsigned long sum = 0;
	for (size_t p = 0; p < passes; p++)
		for (size_t i = (p * 4093) % 4096; i < n; i += 4096) {
			a[i] = (unsigned char)(a[i] * 7 + p);
			sum += a[i];
		}
	unsigned long x = sum;
	for (size_t r = 0; r < spin * 1000000; r++)
		x = x * 6364136223846793005ul + r;
	printf("sum %lu, spun %lu\n", sum, x);
	return 0;
}
