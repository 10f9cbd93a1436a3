/* gdbwalk.c: for checks.sh gdb.  Rounds of table updates (loops long
 * enough to cross the instruction counter's window and, recorded with
 * --every-sic, many intervals); checkpoint() prints each round's hash,
 * which gdb, stopped there, prints too.  poke() raises SIGUSR1 in round
 * 3: a backtrace in its handler goes through the signal frame. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long table[4096];
static unsigned long last[8];

static unsigned long mix(unsigned long h, unsigned long v)
{
	return (h ^ v) * 0x100000001b3ul;
}

static volatile int pokes;

void on_usr1(int sig)
{
	pokes += sig;
}

void poke(void)
{
	raise(SIGUSR1);
}

void checkpoint(int round, unsigned long h)
{
	unsigned long folded = h ^ (h >> 32);
	last[round % 8] = folded;
	printf("round %d h %lx\n", round, h);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 12;
	int steps = argc > 2 ? atoi(argv[2]) : 200000;
	unsigned long h = 1469598103934665603ul;
	signal(SIGUSR1, on_usr1);
	for (int r = 0; r < rounds; r++) {
		if (r == 3)
			poke();
		for (int i = 0; i < steps; i++) {
			table[i & 4095] += h + (unsigned long)i;
			h = mix(h, table[(i * 7) & 4095]);
		}
		checkpoint(r, h);
	}
	printf("last %lx pokes %d\n", last[(rounds - 1) % 8], pokes);
	return 0;
}
