/* ranbreak.c: a function (early) that runs only at the start of a long
 * run of other calls, one (phase) whose line after a call that lasts
 * several intervals runs once, in the interval where the call returns,
 * and one (spin) entered once whose loop calls out (chunk) and lasts
 * many intervals: the line after the call runs in each of them, where spin is never
 * entered and the intervals begin in chunk, spin only on the stack
 * (tests/gdb-server run.sh break-ran: the RAN records and the saved
 * stacks let reverse-continue to a breakpoint in any of them leave out
 * the intervals of the loop after them, where their code cannot have
 * run, and nothing else). */
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

__attribute__((noinline)) static long chunk(long k)
{
	long s = 0;
	for (long j = 0; j < 4000; j++)
		s += step(j + k);
	return s;
}

__attribute__((noinline)) static long spin(void)
{
	long s = 0;
	for (long k = 0; k < 40; k++) {
		s += chunk(k);
		sink = k; /* spin's line, after each chunk */
	}
	return s;
}

int main(void)
{
	long s = 0;
	for (long k = 0; k < 3; k++)
		s += early(k);
	s += phase();
	s += spin();
	for (long i = 0; i < 200000; i++)
		s += step(i);
	printf("ranbreak %ld\n", s); /* the end */
	return 0;
}
