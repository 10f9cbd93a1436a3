/* overflow: a long computation that prints as it goes; checks.sh
 * sic-overflow records it with RDB_TEST_SIC_SPAN (intervals end after
 * that many counts instead of 2^40). */
#include <stdio.h>

int main(void)
{
	volatile unsigned long s = 0;
	for (int r = 0; r < 10; r++) {
		for (unsigned long i = 0; i < 30000; i++)
			s += i ^ (unsigned long)r;
		printf("round %d %lu\n", r, s);
		fflush(stdout);
	}
	return 3;
}
