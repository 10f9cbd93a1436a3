/* longjmp.c: setjmp/longjmp out of a nested call; reverse steps and
 * reverse-continue go back across the jump into the frame that made it. */
#include <setjmp.h>

jmp_buf env;
int trail;

static void deep(int n)
{
	trail = trail * 10 + n; // @deep
	if (n == 3)
		longjmp(env, n); // @jump
	deep(n + 1);
}

int main(void)
{
	int r = setjmp(env); // @setjmp
	if (r == 0) {
		deep(1); // @call
		trail = -1;
	}
	trail += 1000; // @landed
	return trail != 1123; // @end
}
