/* watches.c: writes for watchpoints (tests/gdb-server run.sh watch-*):
 * six globals (more watchpoints than the four debug registers), a
 * 64-byte struct, and a local written through %rsp (which the trace's
 * WRITTEN records miss), each apart from the next by a loop that spans
 * intervals when recorded with --every-sic. */
volatile long sink;
long a, b, c, d, e, f;
struct big {
	long x[8];
} big;

static void spin(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

int main(void)
{
	long local = 1;
	a = 1;
	spin(2000);
	b = 2;
	spin(2000);
	c = 3;
	spin(2000);
	d = 4;
	spin(2000);
	e = 5;
	spin(2000);
	f = 6;
	spin(2000);
	big.x[6] = 7;
	spin(2000);
	/* local = 8, through %rsp: no write hook */
	__asm__ volatile("lea %0, %%rax\n\tsub %%rsp, %%rax\n\tmovq $8, (%%rsp,%%rax)"
	                 : "+m"(local) : : "rax", "memory");
	spin(20000);
	big.x[1] = 9;
	spin(2000);
	a = 10;
	return (int)(local + a + b + c + d + e + f + big.x[6]) == 0;
}
