/* mesh: the paper's second benchmark (section 6): iterations over a square
 * grid solving a simple differential equation, Laplace's equation for the
 * steady-state temperature of a plate, by relaxation: in each iteration
 * every interior element is set, in place, to the average of its four
 * neighbours.  The edges are held fixed (the top edge hot, a hot spot on
 * the left edge, the rest cold).  Its locality is the paper's worst case
 * for tracing: every element is read before it is written in every pass.
 * Prints the largest change and a checksum every ITERS/10 iterations, and
 * a few sample temperatures at the end, so its output is deterministic.
 * Usage: mesh [N [ITERS]]   (default 1000 1000, as in the paper)
 * The record-examples test runs a small grid (tests/record/rr.sh):
 * rr-args: 100 100 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double *grid;
static int n;

#define AT(y, x) grid[(size_t)(y) * (size_t)n + (size_t)(x)]

static void init(void)
{
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++)
			AT(y, x) = 0.0;
	for (int x = 0; x < n; x++)
		AT(0, x) = 100.0;
	for (int y = n / 3; y < 2 * n / 3; y++)
		AT(y, 0) = 50.0;
}

/* One pass in place (Gauss-Seidel order); returns the largest change. */
static double relax(void)
{
	double most = 0.0;
	for (int y = 1; y < n - 1; y++)
		for (int x = 1; x < n - 1; x++) {
			double v = 0.25 * (AT(y - 1, x) + AT(y + 1, x) +
			                   AT(y, x - 1) + AT(y, x + 1));
			double d = fabs(v - AT(y, x));
			if (d > most)
				most = d;
			AT(y, x) = v;
		}
	return most;
}

static double checksum(void)
{
	double s = 0.0;
	for (int y = 0; y < n; y++)
		for (int x = 0; x < n; x++)
			s += AT(y, x);
	return s;
}

int main(int argc, char **argv)
{
	n = argc > 1 ? atoi(argv[1]) : 1000;
	int iters = argc > 2 ? atoi(argv[2]) : 1000;
	if (n < 3 || iters < 1) {
		fprintf(stderr, "usage: mesh [N >= 3 [ITERS >= 1]]\n");
		return 2;
	}
	grid = malloc((size_t)n * (size_t)n * sizeof *grid);
	if (!grid) {
		fprintf(stderr, "mesh: out of memory for a %dx%d grid\n", n, n);
		return 1;
	}
	init();
	int every = iters >= 10 ? iters / 10 : 1;
	for (int i = 1; i <= iters; i++) {
		double most = relax();
		if (i % every == 0)
			printf("iteration %d: largest change %.9f, sum %.6f\n", i,
			       most, checksum());
	}
	for (int k = 1; k <= 4; k++)
		printf("t(%d,%d) = %.9g\n", k * n / 5, n / 2, AT(k * n / 5, n / 2));
	free(grid);
	return 0;
}
