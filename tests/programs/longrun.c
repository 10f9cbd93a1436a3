/* longrun: a CPU-bound run of about a second natively (many intervals
 * when recorded): Conway's life on a 256x256 torus for 300 generations,
 * an FNV hash of the board every 50, then a sieve and a matrix power;
 * memory is read and written all the time, and the results are exact. */
#include "prog.h"

enum { W = 256, H = 256 };
static unsigned char board[2][H][W];

static int step(int cur)
{
	int nxt = !cur, alive = 0;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int n = 0;
			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++)
					if (dx || dy)
						n += board[cur][(y + dy + H) % H][(x + dx + W) % W];
			unsigned char v = n == 3 || (n == 2 && board[cur][y][x]);
			board[nxt][y][x] = v;
			alive += v;
		}
	return alive;
}

int main(void)
{
	uint64_t g = 2024;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			board[0][y][x] = rng(&g) % 3 == 0;
	int cur = 0, alive = 0;
	for (int gen = 1; gen <= 300; gen++) {
		alive = step(cur);
		cur = !cur;
		if (gen % 50 == 0)
			printf("generation %d: %d alive, hash %016llx\n", gen, alive,
			       (unsigned long long)fnv(board[cur], sizeof board[cur], 0));
	}

	static unsigned char composite[2000001];
	long primes = 0, last = 0;
	for (long i = 2; i <= 2000000; i++) {
		if (composite[i])
			continue;
		primes++;
		last = i;
		for (long j = i * i; j <= 2000000; j += i)
			composite[j] = 1;
	}
	printf("primes up to 2e6: %ld, largest %ld\n", primes, last);

	uint64_t m[4][4], r[4][4] = { { 1, 0, 0, 0 }, { 0, 1, 0, 0 }, { 0, 0, 1, 0 }, { 0, 0, 0, 1 } };
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			m[i][j] = (uint64_t)(i * 4 + j + 1);
	for (int k = 0; k < 100000; k++) {
		uint64_t t[4][4];
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 4; j++) {
				uint64_t s = 0;
				for (int l = 0; l < 4; l++)
					s += r[i][l] * m[l][j];
				t[i][j] = s % 1000000007ull;
			}
		memcpy(r, t, sizeof r);
	}
	printf("matrix power mod p: %llu %llu\n", (unsigned long long)r[0][0], (unsigned long long)r[3][3]);
	return prog_done("longrun");
}
