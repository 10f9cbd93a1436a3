/* ranbreak.c: a function (early) that runs only at the start of a long
 * run of other calls, and one (phase) whose line after a call that lasts
 * several intervals runs once, in the interval where the call returns
 * (tests/gdb-server run.sh break-ran: the RAN records let
 * reverse-continue to a breakpoint in either leave out the intervals of
 * the loops after them, where their code cannot have run). */
#include <stdio.h>

volatile long sink;

__attribute__((noinline)) static long early(long x)
{
	sink = x; /* early's line */
	return x * 3;
}

__attribute__((noinline)) static long step(long i)
{
	return i ^ (i >> 3);
}

__attribute__((noinline)) static long mid(void)
{
	long s = 0;
	for (long i = 0; i < 60000; i++)
		s += step(i);
	return s;
}

__attribute__((noinline)) static long phase(void)
{
	long s = mid();
	sink = s; /* phase's line, after mid returned */
	return s;
}

int main(void)
{
	long s = 0;
	for (long k = 0; k < 3; k++)
		s += early(k);
	s += phase();
	for (long i = 0; i < 200000; i++)
		s += step(i);
	printf("ranbreak %ld\n", s); /* the end */
	return 0;
}
