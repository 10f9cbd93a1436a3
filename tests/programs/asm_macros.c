/* asm_macros: loads and stores inside inline assembly made by GNU as
 * .rept, .irp and .macro: altr expands them, so each access gets its hooks
 * like any other (they were passed through uninstrumented: a replay from
 * the middle of the run read stale values there, silently). */
#include "prog.h"

static uint64_t table[64];

/* sum of p[0..7] through eight loads made by .rept (of table[16..23]: no
 * C code reads them after the start, so a replay from the middle has
 * their values only if these loads are hooked) */
static uint64_t sum8(const uint64_t *p)
{
	uint64_t s = 0;
	__asm__ volatile(".rept 8\n\t"
	                 "add (%1), %0\n\t"
	                 "lea 8(%1), %1\n\t"
	                 ".endr"
	                 : "+r"(s), "+r"(p)
	                 :
	                 : "memory", "cc");
	return s;
}

/* table[i] += k for i in 8..11, stores made by .irp */
static void bump(uint64_t *p, uint64_t k)
{
	__asm__ volatile(".irp off, 64, 72, 80, 88\n\t"
	                 "add %1, \\off(%0)\n\t"
	                 ".endr"
	                 :
	                 : "r"(p), "r"(k)
	                 : "memory", "cc");
}

/* a macro with an argument: load, double, store */
__asm__(".macro rdb_double reg, off\n\t"
        "mov \\off(\\reg), %rax\n\t"
        "add %rax, %rax\n\t"
        "mov %rax, \\off(\\reg)\n\t"
        ".endm");

static void double3(uint64_t *p)
{
	__asm__ volatile("rdb_double %0, 96\n\t"
	                 "rdb_double %0, 104\n\t"
	                 "rdb_double %0, 112"
	                 :
	                 : "r"(p)
	                 : "rax", "memory");
}

int main(void)
{
	uint64_t h = 0;
	for (int i = 0; i < 64; i++)
		table[i] = (uint64_t)i * 7 + 1;
	for (int round = 0; round < 20000; round++) {
		bump(table, (uint64_t)round);
		if (round % 64 == 0)
			double3(table);
		table[round % 8] += table[8 + round % 4];
		h = h * 31 + sum8(table + 16) + table[round % 8];
	}
	printf("hash %llx, table[9] %llu, table[13] %llu\n", (unsigned long long)h,
	       (unsigned long long)table[9], (unsigned long long)table[13]);
	return prog_done("asm_macros");
}
