/* breaks.c: breakpoints, conditions, ignore counts and temporary
 * breakpoints, reached going forward and going back. */
int seen[8];
int calls;

void visit(int k)
{
	calls++; // @visit
	seen[k % 8] += k;
}

int main(void)
{
	for (int i = 0; i < 20; i++) {
		visit(i);
		if (i % 5 == 4)
			calls += 100; // @bonus
	}
	return calls == 0; // @end
}
