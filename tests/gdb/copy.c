/* copy.c: memory written by memcpy (libc: musl's rep movsq natively,
 * rdb-cc's C loop) and by an explicit rep movsq: watchpoints stop at the
 * copy both ways, the rep one between two iterations (dst2[7] not yet
 * written), and going back undoes it. */
#include <string.h>

long src[8] = {11, 22, 33, 44, 55, 66, 77, 88};
long dst[8];
long dst2[8];
volatile unsigned long words = 8; /* not a constant: gcc would inline memcpy */

static void movsq(long *to, const long *from, unsigned long n)
{
	__asm__ volatile("rep movsq" : "+D"(to), "+S"(from), "+c"(n) : : "memory"); // @movsq
}

int main(void)
{
	dst[0] = 1; // @before
	memcpy(dst, src, words * sizeof *src); // @memcpy
	movsq(dst2, dst, 8); // @call_movsq
	dst[5] = dst2[6] + 1; // @after
	return dst[5] != 78; // @end
}
