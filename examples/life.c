/* life: Conway's Game of Life on a small torus, the paper's first benchmark.
 * Starts from a fixed pattern (a glider and an R-pentomino), runs a fixed
 * number of generations and prints the population every 50 generations and
 * the final board, so its output is fully deterministic.
 * Usage: life [GENERATIONS]   (default 200) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W = 48, H = 24 };

static unsigned char board[H][W], next[H][W];

static void put(int y, int x, const char *rows[], int n)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; rows[i][j]; j++)
			if (rows[i][j] == '#')
				board[(y + i) % H][(x + j) % W] = 1;
}

static int neighbours(int y, int x)
{
	int n = 0;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++)
			if (dy || dx)
				n += board[(y + dy + H) % H][(x + dx + W) % W];
	return n;
}

static int step(void)
{
	int pop = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int n = neighbours(y, x);
			next[y][x] = n == 3 || (n == 2 && board[y][x]);
			pop += next[y][x];
		}
	memcpy(board, next, sizeof board);
	return pop;
}

static void show(void)
{
	for (int y = 0; y < H; y++) {
		char line[W + 1];
		for (int x = 0; x < W; x++)
			line[x] = board[y][x] ? '#' : '.';
		line[W] = 0;
		puts(line);
	}
}

int main(int argc, char **argv)
{
	static const char *glider[] = { ".#.", "..#", "###" };
	static const char *rpent[] = { ".##", "##.", ".#." };
	int gens = argc > 1 ? atoi(argv[1]) : 200;

	put(1, 1, glider, 3);
	put(10, 22, rpent, 3);
	for (int g = 1; g <= gens; g++) {
		int pop = step();
		if (g % 50 == 0)
			printf("generation %d: population %d\n", g, pop);
	}
	show();
	return 0;
}
