/* flowback3: a write to main's local in interval 1, below the %rsp that
 * interval started with (_start's): the interval's written ranges must
 * hold it, though no value is traced there (dead stack).  checks.sh case
 * flowback asks for it before interval 3 (the answer was "not written
 * since the program started"). */
#include <stdio.h>

__attribute__((noinline)) static void burn(long n)
{
	volatile long x = 0;
	for (long i = 0; i < n; i++)
		x += i;
}

int main(void)
{
	volatile int local = 5; /* FLOWBACK local */
	burn(20000);
	local = 6;
	printf("local at %p: %d\n", (void *)&local, local);
	return 0;
}
