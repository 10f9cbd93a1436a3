/* memaccess-unit.c: rdb/memaccess.c, a program instruction's memory
 * accesses as rdb's gdb server sees them on a watched stack page: each
 * form's accesses (where, how wide, read or write; the implicit ones of
 * push, pop, call, ret, leave, enter, string instructions, xlat, and the
 * stores capstone 4 marks reads) on known encodings, and the plain loads
 * rdb does itself (mov, movzx, movsx, pop, ret; cmp's flags) against the
 * processor's own, every width, both signs.  Exit 0 pass, 1 fail (each mismatch
 * printed). */
#include <stdio.h>
#include <string.h>

#include "gdbserver.h"

static int bad;

static struct user_regs_struct regs(void)
{
	struct user_regs_struct r;
	memset(&r, 0, sizeof r);
	r.rsp = 0x7fffffffe6f0, r.rbp = 0x7fffffffe700, r.rax = 0x1122334455667788;
	r.rbx = 0x7fffffffe800, r.rcx = 3, r.rsi = 0x7fffffffe900, r.rdi = 0x7fffffffea00;
	r.r9 = 0x10, r.rip = 0x401000, r.fs_base = 0x7ffff7ff8000, r.gs_base = 0x600000;
	return r;
}

/* one access wanted: address, size, rw (R, W, RW) */
struct want {
	uint64_t addr;
	uint32_t size;
	int rw;
};
#define R RDB_MA_READ
#define W RDB_MA_WRITE

/* hex's bytes into p (at most 16), nops after them; their count. */
static size_t code(const char *hex, uint8_t p[16])
{
	size_t k = 0;
	unsigned v;
	memset(p, 0x90, 16);
	while (k < 16 && sscanf(hex + 2 * k, "%2x", &v) == 1)
		p[k++] = (uint8_t)v;
	return k;
}

/* what: its text; hex: its bytes; ok: known; len; load: RDB_MA_*; the
 * accesses (n of them) */
static void check(const char *what, const char *hex, int ok, unsigned len, int load, int n,
                  const struct want *w)
{
	uint8_t p[16];
	size_t k = code(hex, p);
	struct user_regs_struct r = regs();
	struct rdb_ma o;
	int got = rdb_ma_decode(p, k, &r, &o), same = got == ok;
	if (same && ok) {
		same = o.len == len && o.load == load && o.n == n;
		for (int i = 0; same && i < n; i++)
			same = o.a[i].addr == w[i].addr && o.a[i].size == w[i].size && o.a[i].rw == w[i].rw;
	}
	if (!same) {
		printf("FAIL %s (%s): got %d len %u load %d, %d accesses:", what, hex, got, o.len, o.load,
		       o.n);
		for (int i = 0; i < o.n; i++)
			printf(" %#llx/%u/%d", (unsigned long long)o.a[i].addr, o.a[i].size, o.a[i].rw);
		printf("\n");
		bad++;
	}
}
#define CHECK(what, hex, ok, len, load, ...)                                                  \
	do {                                                                                      \
		const struct want w_[] = {__VA_ARGS__};                                               \
		check(what, hex, ok, len, load, (int)(sizeof w_ / sizeof *w_), w_);                   \
	} while (0)
#define NONE(what, hex, ok, len) check(what, hex, ok, len, RDB_MA_NONE, 0, NULL)

/* A load through rdb_ma_load against the processor's: the instruction
 * (hex, reading (%rsi) into %rax or %ah) run here on rax0 and the value
 * at (%rsi), and decoded and applied by memaccess.c. */
#define HWLOAD(name, insn)                                                                     \
	static uint64_t name(uint64_t rax, const uint64_t *m)                                      \
	{                                                                                          \
		__asm__ volatile(insn : "+a"(rax) : "S"(m) : "memory");                                \
		return rax;                                                                            \
	}
HWLOAD(hw_movq, "movq (%1), %0") HWLOAD(hw_movl, "movl (%1), %k0")
HWLOAD(hw_movw, "movw (%1), %w0") HWLOAD(hw_movb, "movb (%1), %b0")
HWLOAD(hw_movh, "movb (%1), %h0") HWLOAD(hw_movzbl, "movzbl (%1), %k0")
HWLOAD(hw_movzwq, "movzwq (%1), %0") HWLOAD(hw_movzbw, "movzbw (%1), %w0")
HWLOAD(hw_movsbq, "movsbq (%1), %0") HWLOAD(hw_movswl, "movswl (%1), %k0")
HWLOAD(hw_movslq, "movslq (%1), %0") HWLOAD(hw_movsbw, "movsbw (%1), %w0")

/* A cmp with memory: the processor's status flags after it (the
 * instruction reads (%rsi), its other operand %rax or an immediate). */
#define HWCMP(name, insn)                                                                      \
	static uint64_t name(uint64_t rax, const uint64_t *m)                                      \
	{                                                                                          \
		uint64_t f;                                                                            \
		__asm__ volatile(insn "\n\tpushfq\n\tpopq %0" : "=r"(f) : "a"(rax), "S"(m) : "cc", "memory"); \
		return f;                                                                              \
	}
HWCMP(hw_cmpl5, "cmpl $5, (%2)") HWCMP(hw_cmpb80, "cmpb $0x80, (%2)")
HWCMP(hw_cmpqm1, "cmpq $-1, (%2)") HWCMP(hw_cmpqr, "cmpq %1, (%2)")
HWCMP(hw_cmprq, "cmpq (%2), %1") HWCMP(hw_cmpwr, "cmpw %w1, (%2)") HWCMP(hw_cmprb, "cmpb (%2), %b1")

/* The registers after rdb does o's load (or cmp) of *m, from r. */
static struct user_regs_struct by_rdb(const struct rdb_ma *o, const uint64_t *m,
                                      struct user_regs_struct r)
{
	uint64_t val = 0;
	memcpy(&val, m, o->a[0].size);
	rdb_ma_load(o, val, &r);
	return r;
}

static void cmp(const char *what, const char *hex, uint64_t (*hw)(uint64_t, const uint64_t *),
                uint64_t rax, uint64_t m)
{
	const uint64_t status = 1 | 4 | 0x10 | 0x40 | 0x80 | 0x800;
	uint8_t p[16];
	size_t k = code(hex, p);
	struct user_regs_struct r = regs();
	r.rax = rax;
	r.rsi = (uint64_t)(uintptr_t)&m;
	r.eflags = 0x202;
	struct rdb_ma o;
	if (!rdb_ma_decode(p, k, &r, &o) || o.load != RDB_MA_CMP || o.n != 1 || o.a[0].addr != r.rsi) {
		printf("FAIL cmp %s (%s): not decoded as a cmp with (%%rsi)\n", what, hex);
		bad++;
		return;
	}
	struct user_regs_struct after = by_rdb(&o, &m, r);
	uint64_t want = hw(rax, &m);
	if ((after.eflags & status) != (want & status) || after.rip != r.rip + k || after.rax != rax) {
		printf("FAIL cmp %s %%rax %#llx, (%%rsi) %#llx: flags %#llx, the processor's %#llx\n", what,
		       (unsigned long long)rax, (unsigned long long)m,
		       (unsigned long long)(after.eflags & status), (unsigned long long)(want & status));
		bad++;
	}
}

static void load(const char *what, const char *hex, uint64_t (*hw)(uint64_t, const uint64_t *),
                 uint64_t rax, uint64_t m)
{
	uint8_t p[16];
	size_t k = code(hex, p);
	struct user_regs_struct r = regs();
	r.rax = rax;
	r.rsi = (uint64_t)(uintptr_t)&m;
	struct rdb_ma o;
	if (!rdb_ma_decode(p, k, &r, &o) || o.load != RDB_MA_MOV || o.n != 1 ||
	    o.a[0].addr != r.rsi || !(o.a[0].rw & R)) {
		printf("FAIL load %s (%s): not decoded as a plain load at %%rsi\n", what, hex);
		bad++;
		return;
	}
	struct user_regs_struct after = by_rdb(&o, &m, r);
	uint64_t want = hw(rax, &m);
	if (after.rax != want || after.rip != r.rip + k || after.rsp != r.rsp) {
		printf("FAIL load %s %#llx from %#llx: %%rax %#llx, the processor's %#llx\n", what,
		       (unsigned long long)m, (unsigned long long)rax, (unsigned long long)after.rax,
		       (unsigned long long)want);
		bad++;
	}
}

int main(void)
{
	const uint64_t sp = 0x7fffffffe6f0, bp = 0x7fffffffe700;
	/* plain loads and stores, explicit operands */
	CHECK("mov 8(%rsp), %rax", "488b442408", 1, 5, RDB_MA_MOV, {sp + 8, 8, R});
	CHECK("mov -4(%rbp), %eax", "8b45fc", 1, 3, RDB_MA_MOV, {bp - 4, 4, R});
	CHECK("movzbl 8(%rsp), %eax", "0fb6442408", 1, 5, RDB_MA_MOV, {sp + 8, 1, R});
	CHECK("movswq (%rsp), %rax", "480fbf0424", 1, 5, RDB_MA_MOV, {sp, 2, R});
	CHECK("movslq 8(%rsp), %rax", "4863442408", 1, 5, RDB_MA_MOV, {sp + 8, 4, R});
	CHECK("mov 8(%rsp,%r9,2), %ah", "428a644c08", 1, 5, RDB_MA_MOV, {sp + 8 + 0x20, 1, R});
	CHECK("mov %rax, 8(%rsp)", "4889442408", 1, 5, RDB_MA_NONE, {sp + 8, 8, W});
	CHECK("mov %fs:0x28, %rax", "64488b042528000000", 1, 9, RDB_MA_MOV,
	      {0x7ffff7ff8000 + 0x28, 8, R});
	CHECK("mov %gs:8(%rbx), %eax", "658b4308", 1, 4, RDB_MA_MOV, {0x600000 + 0x7fffffffe808, 4, R});
	CHECK("mov 0x10(%rip), %rax", "488b0510000000", 1, 7, RDB_MA_MOV, {0x401000 + 7 + 0x10, 8, R});
	CHECK("mov (%esp), %eax", "678b0424", 1, 4, RDB_MA_MOV, {0xffffe6f0, 4, R});
	CHECK("cmpl $5, -4(%rbp)", "837dfc05", 1, 4, RDB_MA_CMP, {bp - 4, 4, R});
	CHECK("cmp 8(%rsp), %rax", "483b442408", 1, 5, RDB_MA_CMP, {sp + 8, 8, R});
	CHECK("testb $1, (%rsp)", "f6042401", 1, 4, RDB_MA_NONE, {sp, 1, R});
	CHECK("addq %rax, (%rsp)", "48010424", 1, 4, RDB_MA_NONE, {sp, 8, R | W});
	CHECK("addl $1, -4(%rbp)", "8345fc01", 1, 4, RDB_MA_NONE, {bp - 4, 4, R | W});
	CHECK("xchg %rax, (%rsp)", "48870424", 1, 4, RDB_MA_NONE, {sp, 8, R | W});
	CHECK("lock cmpxchg %rcx, (%rsp)", "f0480fb10c24", 1, 6, RDB_MA_NONE, {sp, 8, R | W});
	CHECK("cmpxchg16b (%rsp)", "480fc70c24", 1, 5, RDB_MA_NONE, {sp, 16, R | W});
	CHECK("xadd %rax, (%rsp)", "480fc10424", 1, 5, RDB_MA_NONE, {sp, 8, R | W});
	CHECK("bt %rax, (%rsp)", "480fa30424", 1, 5, RDB_MA_NONE,
	      {sp + (0x1122334455667788ull >> 6) * 8, 8, R});
	/* SSE and AVX: stores capstone 4 marks reads */
	CHECK("movdqu (%rsp), %xmm0", "f30f6f0424", 1, 5, RDB_MA_NONE, {sp, 16, R});
	CHECK("vmovdqu (%rsp), %ymm0", "c5fe6f0424", 1, 5, RDB_MA_NONE, {sp, 32, R});
	CHECK("vmovdqu %ymm0, (%rsp)", "c5fe7f0424", 1, 5, RDB_MA_NONE, {sp, 32, W});
	CHECK("movq %xmm0, (%rsp)", "660fd60424", 1, 5, RDB_MA_NONE, {sp, 8, W});
	CHECK("movnti %rax, (%rsp)", "480fc30424", 1, 5, RDB_MA_NONE, {sp, 8, W});
	CHECK("movsd %xmm0, 8(%rsp)", "f20f11442408", 1, 6, RDB_MA_NONE, {sp + 8, 8, W});
	CHECK("fxsave (%rsp)", "0fae0424", 1, 4, RDB_MA_NONE, {sp, 512, W});
	/* the stack's implicit accesses */
	CHECK("push %rax", "50", 1, 1, RDB_MA_NONE, {sp - 8, 8, W});
	CHECK("push $1", "6a01", 1, 2, RDB_MA_NONE, {sp - 8, 8, W});
	CHECK("push %ax", "6650", 1, 2, RDB_MA_NONE, {sp - 2, 2, W});
	CHECK("push 8(%rsp)", "ff742408", 1, 4, RDB_MA_NONE, {sp + 8, 8, R}, {sp - 8, 8, W});
	CHECK("pop %rbx", "5b", 1, 1, RDB_MA_POP, {sp, 8, R});
	CHECK("pop %r12", "415c", 1, 2, RDB_MA_POP, {sp, 8, R});
	CHECK("pop (%rsp)", "8f0424", 1, 3, RDB_MA_NONE, {sp + 8, 8, W}, {sp, 8, R});
	CHECK("call rel32", "e800000000", 1, 5, RDB_MA_NONE, {sp - 8, 8, W});
	CHECK("call *8(%rsp)", "ff542408", 1, 4, RDB_MA_NONE, {sp + 8, 8, R}, {sp - 8, 8, W});
	CHECK("ret", "c3", 1, 1, RDB_MA_RET, {sp, 8, R});
	CHECK("ret $16", "c21000", 1, 3, RDB_MA_RET, {sp, 8, R});
	CHECK("leave", "c9", 1, 1, RDB_MA_NONE, {bp, 8, R});
	CHECK("enter $16, $0", "c8100000", 1, 4, RDB_MA_NONE, {sp - 8, 8, W});
	CHECK("pushfq", "9c", 1, 1, RDB_MA_NONE, {sp - 8, 8, W});
	CHECK("popfq", "9d", 1, 1, RDB_MA_NONE, {sp, 8, R});
	/* string instructions: the element at %rsi and %rdi */
	CHECK("rep movsb", "f3a4", 1, 2, RDB_MA_NONE, {0x7fffffffea00, 1, W}, {0x7fffffffe900, 1, R});
	CHECK("movsq", "48a5", 1, 2, RDB_MA_NONE, {0x7fffffffea00, 8, W}, {0x7fffffffe900, 8, R});
	CHECK("rep stosq", "f348ab", 1, 3, RDB_MA_NONE, {0x7fffffffea00, 8, W});
	CHECK("lodsb", "ac", 1, 1, RDB_MA_NONE, {0x7fffffffe900, 1, R});
	CHECK("cmpsb", "a6", 1, 1, RDB_MA_NONE, {0x7fffffffe900, 1, R}, {0x7fffffffea00, 1, R});
	CHECK("repne scasb", "f2ae", 1, 2, RDB_MA_NONE, {0x7fffffffea00, 1, R});
	CHECK("xlat", "d7", 1, 1, RDB_MA_NONE, {0x7fffffffe800 + 0x88, 1, R});
	CHECK("maskmovdqu %xmm1, %xmm0", "660ff7c1", 1, 4, RDB_MA_NONE, {0x7fffffffea00, 16, W});
	/* no access */
	NONE("nopl (%rax)", "0f1f4000", 1, 4);
	NONE("lea 8(%rsp), %rax", "488d442408", 1, 5);
	NONE("prefetchnta (%rsp)", "0f180424", 1, 4);
	NONE("mov %rax, %rbx", "4889c3", 1, 3);
	/* not known: a gather's vector index, xsave's size, no instruction */
	NONE("vpgatherdq", "c4e2f99004e0", 0, 6);
	NONE("xsave (%rsp)", "0fae2424", 0, 4);
	NONE("(bad): push %es", "06", 0, 0);

	/* the plain loads against the processor: every width, both signs */
	const uint64_t rax0[] = {0x1122334455667788, 0xffffffffffffffff, 0};
	const uint64_t mem[] = {0x8091a2b3c4d5e6f7, 0x0102030405060708, 0x7f, 0x80, 0xffff8000};
	for (size_t i = 0; i < sizeof rax0 / sizeof *rax0; i++)
		for (size_t j = 0; j < sizeof mem / sizeof *mem; j++) {
			load("movq", "488b06", hw_movq, rax0[i], mem[j]);
			load("movl", "8b06", hw_movl, rax0[i], mem[j]);
			load("movw", "668b06", hw_movw, rax0[i], mem[j]);
			load("movb", "8a06", hw_movb, rax0[i], mem[j]);
			load("movb %ah", "8a26", hw_movh, rax0[i], mem[j]);
			load("movzbl", "0fb606", hw_movzbl, rax0[i], mem[j]);
			load("movzwq", "480fb706", hw_movzwq, rax0[i], mem[j]);
			load("movzbw", "660fb606", hw_movzbw, rax0[i], mem[j]);
			load("movsbq", "480fbe06", hw_movsbq, rax0[i], mem[j]);
			load("movswl", "0fbf06", hw_movswl, rax0[i], mem[j]);
			load("movslq", "486306", hw_movslq, rax0[i], mem[j]);
			load("movsbw", "660fbe06", hw_movsbw, rax0[i], mem[j]);
			cmp("cmpl $5, (%rsi)", "833e05", hw_cmpl5, rax0[i], mem[j]);
			cmp("cmpb $0x80, (%rsi)", "803e80", hw_cmpb80, rax0[i], mem[j]);
			cmp("cmpq $-1, (%rsi)", "48833eff", hw_cmpqm1, rax0[i], mem[j]);
			cmp("cmpq %rax, (%rsi)", "483906", hw_cmpqr, rax0[i], mem[j]);
			cmp("cmpq (%rsi), %rax", "483b06", hw_cmprq, rax0[i], mem[j]);
			cmp("cmpw %ax, (%rsi)", "663906", hw_cmpwr, rax0[i], mem[j]);
			cmp("cmpb (%rsi), %al", "3a06", hw_cmprb, rax0[i], mem[j]);
		}
	/* pop and ret: the register, %rsp and %rip after */
	struct user_regs_struct r = regs(), a;
	struct rdb_ma o;
	uint8_t pop[16] = {0x41, 0x5c}, pops[16] = {0x5c}, ret[16] = {0xc2, 0x10, 0x00};
	a = r;
	if (!rdb_ma_decode(pop, 2, &r, &o) || (rdb_ma_load(&o, 0xabc, &a), 0) || a.r12 != 0xabc ||
	    a.rsp != sp + 8 || a.rip != r.rip + 2) {
		printf("FAIL pop %%r12: %%r12 %#llx %%rsp %#llx %%rip %#llx\n", a.r12, a.rsp, a.rip);
		bad++;
	}
	a = r;
	if (!rdb_ma_decode(pops, 1, &r, &o) || (rdb_ma_load(&o, 0x1230, &a), 0) || a.rsp != 0x1230) {
		printf("FAIL pop %%rsp: %%rsp %#llx, not the value popped\n", a.rsp);
		bad++;
	}
	a = r;
	if (!rdb_ma_decode(ret, 3, &r, &o) || (rdb_ma_load(&o, 0x402345, &a), 0) ||
	    a.rip != 0x402345 || a.rsp != sp + 8 + 16) {
		printf("FAIL ret $16: %%rip %#llx %%rsp %#llx\n", a.rip, a.rsp);
		bad++;
	}
	if (bad)
		printf("memaccess-unit: %d failures\n", bad);
	else
		printf("memaccess-unit: ok\n");
	return bad != 0;
}
