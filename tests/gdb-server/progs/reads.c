/* reads.c: reads for read and access watchpoints (tests/gdb-server run.sh
 * rwatch-many): five globals read by plain loads (more watchpoints than
 * the four debug registers), one read by a string instruction (rep
 * movsb), one by a 16-byte load (movdqu: a wide read's hooks), one by
 * libc's memcpy and one by a read-modify-write (addq to memory: one stop
 * for awatch), each apart from the next by a loop that spans intervals
 * when recorded with --every-sic.  The loop's counter has a page of its own:
 * the watched globals' shadow pages stay quiet meanwhile. */
#include <string.h>

volatile long spinpage[512] __attribute__((aligned(4096)));
long a = 1, b = 2, c = 3, d = 4, e = 5, sink;
char src[32] = "abcdefghijklmnopqrstuvwxyz", dst[32];
struct pair {
	long x, y;
} p = {6, 7}, q;
char msg[40] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", msg2[40];

static void spin(int n)
{
	for (int i = 0; i < n; i++)
		spinpage[0] += i;
}

int main(void)
{
	spin(5000);
	sink = a;
	spin(5000);
	sink = b;
	spin(5000);
	sink = c;
	spin(5000);
	/* a string read of src[0..15]: rep movsb */
	char *s = src, *t = dst;
	unsigned long n = 16;
	__asm__ volatile("rep movsb" : "+S"(s), "+D"(t), "+c"(n) : : "memory");
	spin(5000);
	/* p, 16 bytes by one load */
	__asm__ volatile("movdqu %1, %%xmm0\n\tmovdqu %%xmm0, %0" : "=m"(q) : "m"(p) : "xmm0");
	spin(5000);
	memcpy(msg2, msg, 30);
	spin(5000);
	/* d += 1 by one instruction: a read and a write of d */
	__asm__ volatile("addq $1, %0" : "+m"(d));
	spin(5000);
	sink = e;
	spin(5000);
	return dst[8] != 'i' || q.y != 7 || msg2[20] != 'K' || d != 5;
}
