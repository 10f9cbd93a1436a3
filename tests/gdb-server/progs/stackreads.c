/* stackreads.c: reads of the stack that no hook sees, built at -O1
 * (tests/gdb-server run.sh rwatch-stack): a local of main read through
 * %rsp (`mov d(%rsp), %reg`) twice and written once with the value it
 * already has; a callee-saved register's slot read back by `pop`, and a
 * return address read by `ret`.  Each is apart from the next by a loop
 * that spans intervals when recorded with --every-sic.  The loops keep
 * their counters in registers: the watched stack page stays quiet
 * meanwhile. */
volatile long sink;

__attribute__((noipa)) static void spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += i;
}

/* x lives in a callee-saved register across the call: pushed at entry,
 * popped before the return */
__attribute__((noipa)) static long twice(long x)
{
	spin(4000);
	return 2 * x;
} /* twice's ret */

__attribute__((noipa)) static long work(long x)
{ /* work's entry */
	long r = twice(x);
	return r + x; /* after twice's ret */
} /* work's pop */

int main(void)
{
	volatile long local = 1;
	spin(4000); /* the start */
	sink = local; /* read 1 */
	spin(4000);
	local = 1; /* written, the same value */
	spin(4000); /* after the write */
	sink = local; /* read 2 */
	spin(4000);
	long w = work(1); /* the calls */
	return w != 3; /* the end */
}
