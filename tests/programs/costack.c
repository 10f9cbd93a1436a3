/* costack: the program runs on a stack it made in an mmap'd region, as a
 * coroutine library does, and reads data that lies in the same mapping
 * 64 to 192 KiB below that stack.  Only a little below %rsp is dead (what
 * a signal delivery may cover): a replay from the middle needs the data's
 * values (it read zeros while 256 KiB below %rsp counted as dead). */
#include "prog.h"
#include <sys/mman.h>

void costack_run(void *top, void (*fn)(void));
__asm__(".text\n"
        ".globl costack_run\n"
        "costack_run:\n"
        "\tpushq %rbx\n"
        "\tmovq %rsp, %rbx\n"
        "\tmovq %rdi, %rsp\n"
        "\tcall *%rsi\n"
        "\tmovq %rbx, %rsp\n"
        "\tpopq %rbx\n"
        "\tret\n");

static unsigned char *data;
static const size_t nd = 128 * 1024;
static volatile unsigned long result;

static void work(void)
{
	unsigned long sum = 0;
	for (int r = 0; r < 200; r++) {
		for (size_t i = (size_t)r; i < nd; i += 211)
			sum = sum * 31 + data[i];
		if (r % 40 == 0)
			printf("r=%d sum=%lu\n", r, sum);
	}
	result = sum;
}

int main(void)
{
	unsigned char *region = mmap(0, 256 * 1024, PROT_READ | PROT_WRITE,
	                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(region != MAP_FAILED);
	if (region == MAP_FAILED)
		return 1;
	data = region;
	for (size_t i = 0; i < nd; i++)
		data[i] = (unsigned char)(i * 7 + (i >> 9));
	costack_run(region + 192 * 1024, work);
	printf("result %lu\n", result);
	return prog_done("costack");
}
