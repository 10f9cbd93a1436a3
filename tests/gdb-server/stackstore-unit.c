/* stackstore-unit.c: rdb/stackstore.c, the stores rdb's gdb server does
 * itself on a watched stack page, against the processor: each form's
 * decoding (where, how wide, what) on known encodings, and add and sub's
 * result and status flags on edge and pseudo-random operands of each
 * width, run by the processor here.  Exit 0 pass, 1 fail (each mismatch
 * printed). */
#include <stdio.h>
#include <string.h>

#include "gdbserver.h"

static int bad;

static void decode(const char *what, const uint8_t *code, size_t n, int ok, int op, unsigned len,
                   unsigned size, uint64_t ea, uint64_t src)
{
	uint8_t p[16];
	memset(p, 0x90, sizeof p);
	memcpy(p, code, n);
	struct user_regs_struct r;
	memset(&r, 0, sizeof r);
	r.rbp = 0x7fffffffe700, r.rsp = 0x7fffffffe6f0, r.rax = 0x1122334455667788;
	r.rcx = 3, r.r9 = 0xa0b0c0d0e0f00102, r.rip = 0x401000;
	struct rdb_ss o;
	int got = rdb_ss_decode(p, &r, &o);
	int64_t rsp = 0;
	uint64_t jump = 0;
	if (ok == 2) { /* push or call: %rsp down 8; a call's target in src's place */
		rsp = -8;
		if (code[0] == 0xe8)
			jump = src, src = r.rip + len;
		ok = 1;
	}
	if (got != ok || (ok && (o.op != op || o.len != len || o.size != size || o.ea != ea ||
	                         o.src != src || o.rsp != rsp || o.jump != jump))) {
		printf("FAIL decode %s: got %d op %d len %u size %u ea %#llx src %#llx\n", what, got,
		       got ? o.op : -1, got ? o.len : 0, got ? o.size : 0,
		       got ? (unsigned long long)o.ea : 0, got ? (unsigned long long)o.src : 0);
		bad++;
	}
}

/* the processor's add or sub of b to *m (size bytes): the flags after */
#define HW(insn, type)                                                                         \
	static uint64_t hw_##insn(type *m, type b)                                                 \
	{                                                                                          \
		uint64_t f;                                                                            \
		__asm__ volatile(#insn " %2, %0\n\tpushfq\n\tpopq %1" : "+m"(*m), "=r"(f) : "r"(b) : "cc"); \
		return f;                                                                              \
	}
HW(addb, uint8_t) HW(addw, uint16_t) HW(addl, uint32_t) HW(addq, uint64_t)
HW(subb, uint8_t) HW(subw, uint16_t) HW(subl, uint32_t) HW(subq, uint64_t)

static void arith(int op, unsigned size, uint64_t a, uint64_t b)
{
	const uint64_t status = 1 | 4 | 0x10 | 0x40 | 0x80 | 0x800;
	uint64_t mask = size == 8 ? ~0ull : (1ull << (size * 8)) - 1, hwf = 0, hwres = 0;
	a &= mask, b &= mask;
	union { uint8_t b; uint16_t w; uint32_t l; uint64_t q; } m = {.q = a};
	if (op == RDB_SS_ADD)
		hwf = size == 1 ? hw_addb(&m.b, (uint8_t)b) : size == 2 ? hw_addw(&m.w, (uint16_t)b)
		    : size == 4 ? hw_addl(&m.l, (uint32_t)b) : hw_addq(&m.q, b);
	else
		hwf = size == 1 ? hw_subb(&m.b, (uint8_t)b) : size == 2 ? hw_subw(&m.w, (uint16_t)b)
		    : size == 4 ? hw_subl(&m.l, (uint32_t)b) : hw_subq(&m.q, b);
	hwres = m.q & mask;
	struct rdb_ss o = {.op = op, .size = size, .src = b};
	uint64_t efl = 0x202 | status, res = rdb_ss_apply(&o, a, &efl);
	if (res != hwres || (efl & status) != (hwf & status) || (efl & ~status) != 0x202) {
		printf("FAIL %s%u %#llx, %#llx: %#llx flags %#llx, the processor's %#llx flags %#llx\n",
		       op == RDB_SS_ADD ? "add" : "sub", size * 8, (unsigned long long)a,
		       (unsigned long long)b, (unsigned long long)res, (unsigned long long)(efl & status),
		       (unsigned long long)hwres, (unsigned long long)(hwf & status));
		bad++;
	}
}

int main(void)
{
	/* addl $1, -4(%rbp) */
	decode("addl imm8", (const uint8_t[]){0x83, 0x45, 0xfc, 0x01}, 4, 1, RDB_SS_ADD, 4, 4,
	       0x7fffffffe6fc, 1);
	/* subq $-2, 8(%rsp) (a byte, sign-extended) */
	decode("subq imm8", (const uint8_t[]){0x48, 0x83, 0x6c, 0x24, 0x08, 0xfe}, 6, 1, RDB_SS_SUB, 6,
	       8, 0x7fffffffe6f8, ~1ull);
	/* movq $-1, 0x10(%rsp,%rcx,8) */
	decode("movq imm32 sib", (const uint8_t[]){0x48, 0xc7, 0x44, 0xcc, 0x10, 0xff, 0xff, 0xff, 0xff},
	       9, 1, RDB_SS_MOV, 9, 8, 0x7fffffffe6f0 + 0x10 + 24, ~0ull);
	/* movw $0x1234, -8(%rbp) */
	decode("movw imm16", (const uint8_t[]){0x66, 0xc7, 0x45, 0xf8, 0x34, 0x12}, 6, 1, RDB_SS_MOV, 6,
	       2, 0x7fffffffe6f8, 0x1234);
	/* movb %ah, -1(%rbp); movb %r9b, -1(%rbp) */
	decode("movb ah", (const uint8_t[]){0x88, 0x65, 0xff}, 3, 1, RDB_SS_MOV, 3, 1, 0x7fffffffe6ff,
	       0x77);
	decode("movb r9b", (const uint8_t[]){0x44, 0x88, 0x4d, 0xff}, 4, 1, RDB_SS_MOV, 4, 1,
	       0x7fffffffe6ff, 0x02);
	/* movl %eax, 0x100(%rip): from the next instruction */
	decode("movl riprel", (const uint8_t[]){0x89, 0x05, 0x00, 0x01, 0x00, 0x00}, 6, 1, RDB_SS_MOV, 6,
	       4, 0x401006 + 0x100, 0x55667788);
	/* addb $7, 0x100(%rip): the immediate after the displacement */
	decode("addb riprel imm", (const uint8_t[]){0x80, 0x05, 0x00, 0x01, 0x00, 0x00, 0x07}, 7, 1,
	       RDB_SS_ADD, 7, 1, 0x401007 + 0x100, 7);
	/* subl %ecx, (%rsp,%rcx,4) with a disp32 base: 29 0c 8d d32 (no base) */
	decode("subl no base", (const uint8_t[]){0x29, 0x0c, 0x8d, 0x00, 0x10, 0x00, 0x00}, 7, 1,
	       RDB_SS_SUB, 7, 4, 0x1000 + 12, 3);
	/* push %rbp, push %r9, push $-2, push $0x12345678, call .+0x100 */
	decode("push rbp", (const uint8_t[]){0x55}, 1, 2, RDB_SS_MOV, 1, 8, 0x7fffffffe6e8,
	       0x7fffffffe700);
	decode("push r9", (const uint8_t[]){0x41, 0x51}, 2, 2, RDB_SS_MOV, 2, 8, 0x7fffffffe6e8,
	       0xa0b0c0d0e0f00102);
	decode("push imm8", (const uint8_t[]){0x6a, 0xfe}, 2, 2, RDB_SS_MOV, 2, 8, 0x7fffffffe6e8, ~1ull);
	decode("push imm32", (const uint8_t[]){0x68, 0x78, 0x56, 0x34, 0x12}, 5, 2, RDB_SS_MOV, 5, 8,
	       0x7fffffffe6e8, 0x12345678);
	decode("call", (const uint8_t[]){0xe8, 0x00, 0x01, 0x00, 0x00}, 5, 2, RDB_SS_MOV, 5, 8,
	       0x7fffffffe6e8, 0x401005 + 0x100);
	decode("call back", (const uint8_t[]){0xe8, 0xfb, 0xff, 0xff, 0xff}, 5, 2, RDB_SS_MOV, 5, 8,
	       0x7fffffffe6e8, 0x401000);
	/* not done: or, cmp, a register destination, a 2-byte push, a lock or rep prefix */
	decode("pushw", (const uint8_t[]){0x66, 0x50}, 2, 0, 0, 0, 0, 0, 0);
	decode("orl", (const uint8_t[]){0x83, 0x4d, 0xfc, 0x01}, 4, 0, 0, 0, 0, 0, 0);
	decode("cmpl", (const uint8_t[]){0x83, 0x7d, 0xfc, 0x01}, 4, 0, 0, 0, 0, 0, 0);
	decode("addl to a register", (const uint8_t[]){0x83, 0xc0, 0x01}, 3, 0, 0, 0, 0, 0, 0);
	decode("lock addl", (const uint8_t[]){0xf0, 0x83, 0x45, 0xfc, 0x01}, 5, 0, 0, 0, 0, 0, 0);
	decode("rep stosb", (const uint8_t[]){0xf3, 0xaa}, 2, 0, 0, 0, 0, 0, 0);

	static const uint64_t edge[] = {0, 1, 2, 0xf, 0x10, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
	                                0x7fffffff, 0x80000000, 0xffffffff, 0x7fffffffffffffff,
	                                0x8000000000000000, ~0ull};
	size_t ne = sizeof edge / sizeof *edge;
	uint64_t x = 0x9e3779b97f4a7c15;
	for (unsigned size = 1; size <= 8; size *= 2)
		for (int op = RDB_SS_ADD; op <= RDB_SS_SUB; op++) {
			for (size_t i = 0; i < ne; i++)
				for (size_t j = 0; j < ne; j++)
					arith(op, size, edge[i], edge[j]);
			for (int k = 0; k < 2000; k++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				uint64_t a = x;
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				arith(op, size, a, x);
			}
		}
	if (!bad)
		printf("stackstore: decoding and add/sub flags agree with the processor\n");
	return bad ? 1 : 0;
}
