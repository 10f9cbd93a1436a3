/* until.c: until and advance forward, then the same lines backward with
 * set exec-direction reverse (step, next, finish there are the reverse
 * commands). */
int total;

int weight(int k)
{
	return k % 3 + 1; // @weight
}

int main(void)
{
	int v[6];
	for (int i = 0; i < 6; i++) // @fill_loop
		v[i] = i * i;
	for (int i = 0; i < 6; i++) // @sum_loop
		total += v[i] * weight(i);
	total += 1; // @after
	total *= 2; // @twice
	return total == 0;
}
