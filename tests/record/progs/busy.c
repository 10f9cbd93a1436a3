/* rr (checks.sh sigkill-intervals): CPU work for a while, a line of output
 * now and then, so a recording killed mid-run has many complete
 * intervals behind it. */
#include <stdio.h>
int main(void)
{
	unsigned long x = 1;
	for (int round = 0; round < 100000; round++) {
		for (int i = 0; i < 200000; i++)
			x = x * 6364136223846793005ul + 1442695040888963407ul;
		if (round % 10 == 0) {
			printf("round %d %lx\n", round, x);
			fflush(stdout);
		}
	}
	return 0;
}
