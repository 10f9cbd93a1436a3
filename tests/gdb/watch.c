/* watch.c: write watchpoints on a global, an array element and a local
 * (stack) variable, forward and back. */
int counter;
int grid[16];

static void bump(int by)
{
	counter += by; // @bump
}

int main(void)
{
	int local = 0;
	for (int i = 0; i < 10; i++) {
		bump(i);
		grid[i] = counter; // @grid
		local += i & 1; // @local
	}
	counter = -1; // @reset
	local = 42;
	return local + counter == 0; // @end
}
