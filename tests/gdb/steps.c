/* steps.c: forward and reverse step, next, finish, reverse-finish over
 * nested calls and a recursion. */
int depth_seen;

int square(int x)
{
	int y = x * x; // @square_body
	return y;
}

int sum_squares(int n)
{
	int s = 0;
	for (int i = 1; i <= n; i++)
		s += square(i); // @sum_loop
	return s;
}

int fact(int n)
{
	if (n > depth_seen)
		depth_seen = n;
	if (n <= 1)
		return 1; // @fact_base
	return n * fact(n - 1);
}

int main(void)
{
	int a = sum_squares(3);
	int b = fact(5);
	int c = a + b; // @main_sum
	return c == 134 ? 0 : 1;
}
