/* sys_getrandom.c: getrandom(2) fills a buffer with bytes that differ
 * from run to run; going back it is zero again.  Printed: comparisons. */
#include <sys/random.h>

unsigned char rnd[16];
int nonzero;

int main(void)
{
	rnd[0] = 0; // @before
	long n = getrandom(rnd, sizeof rnd, 0); // @getrandom
	for (int i = 0; i < 16; i++)
		nonzero += rnd[i] != 0;
	return n != 16 || nonzero == 0; // @end
}
