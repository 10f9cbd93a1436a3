/* tls_vars: __thread variables updated in a long loop, so that intervals
 * start in the middle of it and read TLS only through %fs: operands.
 * Their hooks read the word at the thread pointer (the TCB's pointer to
 * itself), which no hook marks: a replay from such an interval found 0
 * there and crashed (SIGSEGV). */
#include "prog.h"

static __thread long tls_counter;
static __thread char tls_buf[100];

int main(void)
{
	printf("start\n");
	for (int i = 0; i < 100000; i++) {
		tls_counter += i;
		tls_buf[i % 100] += (char)i;
	}
	long t = 0;
	for (int i = 0; i < 100; i++)
		t += tls_buf[i];
	printf("tls %ld %ld\n", tls_counter, t);
	CHECK(tls_counter == 4999950000L);
	return prog_done("tls_vars");
}
