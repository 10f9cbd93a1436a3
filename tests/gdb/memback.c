/* memback.c: memory gdb reads after going back to a later interval of
 * a run (rdb/gdbmem.c): a global written once at the start and never
 * again (sink), a heap object written at the start only (box), and a
 * global written in every round (round_no).  memback.gdb records with
 * short intervals (# rdb record:), so that reverse-continue from the
 * end replays from an interval that neither reads nor writes sink or
 * box: their values must still be the run's, not the executable's (0). */
#include <stdlib.h>
#include <string.h>

struct box {
	long a, b;
	char name[16];
};

volatile long sink;
struct box *box;
long round_no;

__attribute__((noinline)) static long step(long i)
{
	return i ^ (i >> 3);
}

__attribute__((noinline)) static long work(long k)
{
	long s = 0;
	for (long j = 0; j < 200; j++)
		s += step(j + k);
	return s;
}

int main(void)
{
	box = malloc(sizeof *box);
	box->a = 38;
	box->b = -4;
	strcpy(box->name, "on the heap");
	sink = 38;
	long s = 0;
	for (long k = 0; k < 20; k++) {
		s += work(k);
		round_no = k; // @round
	}
	return s == 0; // @end
}
