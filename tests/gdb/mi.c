/* mi.c: the session goes through gdb/MI (interpreter-exec mi), as an
 * IDE drives gdb: -exec-next/-exec-step/-exec-finish/-exec-continue with
 * and without --reverse, -break-insert, -data-evaluate-expression. */
int level;

int inner(int v)
{
	level = v * 2; // @inner
	return level + 1;
}

int outer(int v)
{
	int r = inner(v + 1); // @outer
	return r * 3;
}

int main(void)
{
	int a = outer(1); // @first
	int b = outer(a); // @second
	level = a + b; // @sum
	return level == 0; // @end
}
