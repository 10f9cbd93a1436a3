/* test_insndb.c: the instruction database, through the reader's
 * altr_asm_parse_insn and through hand-built (odd) instructions. */
#include "suites.h"

static struct altr_insn in;
static struct altr_operand in_ops[ALTR_MAXOPS];

/* Parses and decodes text; true if the database knows it. */
static bool dec(const char *text)
{
	struct altr_str s = {text, strlen(text)};
	ck_assert_msg(altr_asm_parse_insn(s, &in, in_ops), "cannot parse %s", text);
	return in.desc != NULL;
}

#define MEM(text, idx, acc, size)                                            \
	do {                                                                 \
		ck_assert_msg(dec(text), "unknown: %s", text);               \
		ck_assert_int_eq(in.info.mem, idx);                          \
		ck_assert_int_eq(in.info.mem_acc, acc);                      \
		ck_assert_int_eq(in.info.mem_size, size);                    \
	} while (0)
#define HAS(a) ck_assert_msg((in.info.attrs & (a)) == (a), "attrs %llx", \
                             (unsigned long long)in.info.attrs)
#define HASNT(a) ck_assert_msg(!(in.info.attrs & (a)), "attrs %llx",     \
                               (unsigned long long)in.info.attrs)

enum { R = ACC_READ, W = ACC_WRITE, RW = ACC_READ | ACC_WRITE };

START_TEST(table_shape)
{
	ck_assert_int_gt(altr_insndb_size(), 500);
	ck_assert(dec("movl %eax, (%rdi)"));
	ck_assert_str_eq(altr_idesc_name(in.desc), "mov");
	ck_assert_str_eq(altr_idesc_name(NULL), "(unknown)");
}
END_TEST

START_TEST(general_purpose)
{
	MEM("movl %eax, (%rdi)", 1, W, 4);
	HAS(ATTR_STORE);
	HASNT(ATTR_LOAD | ATTR_RMW);
	MEM("movq 8(%rsp), %rax", 0, R, 8);
	HAS(ATTR_LOAD);
	MEM("mov %ax, (%rdi)", 1, W, 2);
	MEM("movb $1, x(%rip)", 1, W, 1);
	MEM("addq $1, 8(%rsp)", 1, RW, 8);
	HAS(ATTR_LOAD | ATTR_STORE | ATTR_RMW);
	ck_assert_int_eq(in.info.flags_written, FL_STATUS);
	MEM("cmpl $0, (%rdi)", 1, R, 4);
	MEM("testb $1, (%rdi)", 1, R, 1);
	MEM("incl (%rdi)", 0, RW, 4);
	ck_assert_int_eq(in.info.flags_written, FL_STATUS & ~FL_CF);
	MEM("adcq (%rdi), %rax", 0, R, 8);
	ck_assert_int_eq(in.info.flags_read, FL_CF);
	MEM("movzbl (%rdi), %eax", 0, R, 1);
	MEM("movzwq (%rdi), %rax", 0, R, 2);
	MEM("movsbq (%rdi), %rax", 0, R, 1);
	MEM("movslq (%rdi), %rax", 0, R, 4);
	MEM("movabsq $0x123456789, %rax", -1, 0, 0);
	MEM("imulq $7, (%rdi), %rax", 1, R, 8);
	MEM("idivl (%rdi)", 0, R, 4);
	MEM("cmovgeq 8(%rdi), %rax", 0, R, 8);
	ck_assert_int_eq(in.info.flags_read, FL_SF | FL_OF);
	MEM("setne (%rdi)", 0, W, 1);
	ck_assert_int_eq(in.info.flags_read, FL_ZF);
	MEM("seta %al", -1, 0, 0);
	ck_assert_int_eq(in.info.flags_read, FL_CF | FL_ZF);
	MEM("bswap %eax", -1, 0, 0);
	MEM("movl x, %eax", 0, R, 4); /* bare expression: absolute memory */
	MEM("MOVL %EAX, (%RDI)", 1, W, 4);
	MEM("cltq", -1, 0, 0);
	MEM("popcntq (%rdi), %rax", 0, R, 8);
	MEM("tzcntl (%rdi), %eax", 0, R, 4);
}
END_TEST

START_TEST(shifts_and_bits)
{
	MEM("shll %cl, (%rdi)", 1, RW, 4);
	ck_assert_int_eq(in.info.flags_written, 0);
	ck_assert_int_eq(in.info.flags_maybe, FL_STATUS);
	MEM("sarl $3, %eax", -1, 0, 0);
	ck_assert_int_eq(in.info.flags_written, FL_STATUS);
	ck_assert_int_eq(in.info.flags_maybe, 0);
	MEM("shrq (%rdi)", 0, RW, 8);
	ck_assert_int_eq(in.info.flags_written, FL_STATUS);
	MEM("rolw %cl, %ax", -1, 0, 0);
	ck_assert_int_eq(in.info.flags_maybe, FL_CF | FL_OF);
	MEM("rcrl $1, (%rdi)", 1, RW, 4);
	ck_assert_int_eq(in.info.flags_read, FL_CF);
	MEM("shldq %cl, %rax, (%rdi)", 2, RW, 8);
	ck_assert_int_eq(in.info.flags_maybe, FL_STATUS);
	MEM("shrdq $3, %rax, %rdx", -1, 0, 0);
	ck_assert_int_eq(in.info.flags_written, FL_STATUS);
	/* A register bit offset reaches outside the operand: size unknown. */
	MEM("btq %rax, (%rdi)", 1, R, 0);
	MEM("btsl $3, (%rdi)", 1, RW, 4);
	ck_assert(!(in.info.flags_written & FL_ZF));
	MEM("bsfq (%rdi), %rax", 0, R, 8);
}
END_TEST

START_TEST(atomics)
{
	MEM("lock cmpxchgq %rcx, (%rdi)", 1, RW, 8);
	HAS(ATTR_ATOMIC | ATTR_RMW);
	MEM("lock xaddl %eax, (%rdi)", 1, RW, 4);
	HAS(ATTR_ATOMIC);
	MEM("xchg %eax, (%rdx)", 1, RW, 4);
	HAS(ATTR_ATOMIC);
	MEM("xchgq (%rdx), %rax", 0, RW, 8);
	HAS(ATTR_ATOMIC);
	MEM("xchg %eax, %edx", -1, 0, 0);
	HASNT(ATTR_ATOMIC);
	MEM("lock orl $0, (%rsp)", 1, RW, 4);
	HAS(ATTR_ATOMIC);
	MEM("cmpxchg16b (%rdi)", 0, RW, 16);
	ck_assert_int_eq(in.info.flags_written, FL_ZF);
	MEM("lock cmpxchg8b (%rdi)", 0, RW, 8);
	HAS(ATTR_ATOMIC);
}
END_TEST

START_TEST(strings)
{
	MEM("rep movsq", -1, 0, 0);
	HAS(ATTR_STRING | ATTR_LOAD | ATTR_STORE);
	ck_assert_int_eq(in.info.impl_size, 8);
	ck_assert_int_eq(in.info.flags_read, FL_DF);
	MEM("movsl", -1, 0, 0);
	ck_assert_int_eq(in.info.impl_size, 4);
	MEM("movsb (%rsi), %es:(%rdi)", -1, 0, 0);
	ck_assert_int_eq(in.info.impl_size, 1);
	MEM("rep stosq %rax, %es:(%rdi)", -1, 0, 0);
	HAS(ATTR_STRING | ATTR_STORE);
	HASNT(ATTR_LOAD);
	MEM("stos %al, %es:(%rdi)", -1, 0, 0);
	ck_assert_int_eq(in.info.impl_size, 1);
	MEM("lodsw", -1, 0, 0);
	HAS(ATTR_STRING | ATTR_LOAD);
	ck_assert_int_eq(in.info.impl_size, 2);
	MEM("cmpsb", -1, 0, 0);
	ck_assert_int_eq(in.info.flags_written, FL_STATUS);
	/* With rep and %rcx == 0 the flags stay as they were. */
	MEM("repz cmpsb", -1, 0, 0);
	ck_assert_int_eq(in.info.flags_written, 0);
	ck_assert_int_eq(in.info.flags_maybe, FL_STATUS);
	MEM("repne scasb", -1, 0, 0);
	HAS(ATTR_STRING | ATTR_LOAD);
	/* movsd/cmpsd with operands are SSE, without the string ops. */
	MEM("movsd %xmm0, (%rdi)", 1, W, 8);
	HAS(ATTR_SSE);
	HASNT(ATTR_STRING);
	MEM("movsd", -1, 0, 0);
	HAS(ATTR_STRING);
	MEM("cmpsd $1, (%rdi), %xmm0", 1, R, 8);
	HASNT(ATTR_STRING);
}
END_TEST

START_TEST(stack_and_branches)
{
	MEM("pushq %rbp", -1, 0, 0);
	HAS(ATTR_PUSH | ATTR_STACK | ATTR_STORE | ATTR_SETS_RSP);
	ck_assert_int_eq(in.info.impl_size, 8);
	MEM("popw %ax", -1, 0, 0);
	HAS(ATTR_POP | ATTR_STACK | ATTR_LOAD);
	ck_assert_int_eq(in.info.impl_size, 2);
	MEM("pushq 8(%rax)", 0, R, 8);
	HAS(ATTR_LOAD | ATTR_STORE | ATTR_STACK);
	MEM("pushfq", -1, 0, 0);
	ck_assert_int_eq(in.info.flags_read, FL_STATUS | FL_DF);
	MEM("popfq", -1, 0, 0);
	ck_assert_int_eq(in.info.flags_written, FL_STATUS | FL_DF);
	MEM("leave", -1, 0, 0);
	HAS(ATTR_LEAVE | ATTR_STACK | ATTR_LOAD | ATTR_SETS_RSP);
	MEM("ret", -1, 0, 0);
	HAS(ATTR_RET | ATTR_NOFALL | ATTR_STACK | ATTR_LOAD);
	ck_assert_int_eq(in.info.impl_size, 8);
	MEM("call foo@PLT", -1, 0, 0);
	ck_assert_int_eq(in.ops[0].kind, OPK_TARGET);
	HAS(ATTR_CALL | ATTR_STACK | ATTR_STORE | ATTR_SETS_RSP);
	MEM("call *(%rax)", 0, R, 8);
	HAS(ATTR_CALL | ATTR_LOAD | ATTR_STORE);
	MEM("call *%rax", -1, 0, 0);
	MEM("jne .L3", -1, 0, 0);
	ck_assert_int_eq(in.ops[0].kind, OPK_TARGET);
	HAS(ATTR_JCC);
	ck_assert_int_eq(in.info.flags_read, FL_ZF);
	MEM("jmp 1f", -1, 0, 0);
	HAS(ATTR_JMP | ATTR_NOFALL);
	MEM("notrack jmp *%rax", -1, 0, 0);
	HAS(ATTR_JMP);
	MEM("jmpq *.L4(,%rax,8)", 0, R, 8);
	MEM("loopne 1b", -1, 0, 0);
	HAS(ATTR_JCC);
	ck_assert_int_eq(in.info.flags_read, FL_ZF);
	MEM("jrcxz 1b", -1, 0, 0);
	HAS(ATTR_JCC);
	MEM("subq $8, %rsp", -1, 0, 0);
	HAS(ATTR_SETS_RSP);
	MEM("movq %rsp, %rbp", -1, 0, 0);
	HASNT(ATTR_SETS_RSP);
	MEM("lea -128(%rsp), %rsp", 0, 0, 0);
	HAS(ATTR_SETS_RSP | ATTR_ADDR_ONLY);
	MEM("ud2", -1, 0, 0);
	HAS(ATTR_TRAP | ATTR_NOFALL);
	MEM("int3", -1, 0, 0);
	HASNT(ATTR_NOFALL);
}
END_TEST

START_TEST(system_and_hints)
{
	MEM("syscall", -1, 0, 0);
	HAS(ATTR_SYSCALL);
	MEM("int $0x80", -1, 0, 0);
	HAS(ATTR_SYSCALL | ATTR_TRAP);
	MEM("int $3", -1, 0, 0);
	HASNT(ATTR_SYSCALL);
	const char *nondet[] = {"rdtsc", "rdtscp", "cpuid", "xgetbv", "rdpmc",
	                        "rdrand %eax", "rdseed %rax", "rdpid %rax"};
	for (size_t i = 0; i < sizeof nondet / sizeof nondet[0]; i++) {
		ck_assert(dec(nondet[i]));
		HAS(ATTR_NONDET);
	}
	ck_assert(dec("rdrand %eax"));
	ck_assert_int_eq(in.info.flags_written, FL_STATUS);
	MEM("nopw 0x0(%rax,%rax,1)", 0, 0, 0);
	HAS(ATTR_NOP | ATTR_ADDR_ONLY);
	MEM("nop", -1, 0, 0);
	HAS(ATTR_NOP);
	HASNT(ATTR_ADDR_ONLY);
	MEM("prefetcht0 (%rdi)", 0, 0, 0);
	HAS(ATTR_ADDR_ONLY);
	MEM("clflush (%rdi)", 0, 0, 0);
	MEM("ldmxcsr (%rdi)", 0, R, 4);
	MEM("stmxcsr -4(%rsp)", 0, W, 4);
	MEM("fxsave (%rdi)", 0, W, 512);
	MEM("fxrstor64 (%rdi)", 0, R, 512);
	MEM("cld", -1, 0, 0);
	ck_assert_int_eq(in.info.flags_written, FL_DF);
	MEM("endbr64", -1, 0, 0);
	MEM("mfence", -1, 0, 0);
	MEM("pause", -1, 0, 0);
}
END_TEST

START_TEST(vector)
{
	MEM("movups (%rdi), %xmm0", 0, R, 16);
	HAS(ATTR_SSE);
	MEM("movss %xmm1, 4(%rdi)", 1, W, 4);
	MEM("movq %xmm0, %rax", -1, 0, 0);
	MEM("movq %xmm0, (%rdi)", 1, W, 8);
	MEM("movd (%rdi), %xmm0", 0, R, 4);
	MEM("addsd 8(%rsp), %xmm0", 0, R, 8);
	MEM("addps (%rdi), %xmm0", 0, R, 16);
	MEM("vaddps (%rdi), %ymm1, %ymm0", 0, R, 32);
	HAS(ATTR_AVX);
	MEM("vmovdqu (%rdi), %ymm0", 0, R, 32);
	MEM("vmovdqu64 (%rdi), %zmm1{%k1}{z}", 0, R, 64);
	HAS(ATTR_AVX512);
	MEM("vmovups %zmm0, (%rdi)", 1, W, 64);
	HAS(ATTR_AVX512);
	HASNT(ATTR_AVX);
	MEM("vaddps (%rdi){1to16}, %zmm1, %zmm2", 0, R, 4);
	MEM("ucomisd (%rdi), %xmm0", 0, R, 8);
	ck_assert_int_eq(in.info.flags_written, FL_STATUS);
	MEM("ptest %xmm1, %xmm0", -1, 0, 0);
	ck_assert_int_eq(in.info.flags_written, FL_STATUS);
	MEM("pcmpistri $12, (%rdi), %xmm0", 1, R, 16);
	ck_assert_int_eq(in.info.flags_written, FL_STATUS);
	MEM("cvtsi2sdl (%rdi), %xmm0", 0, R, 4);
	MEM("cvtsi2sdq %rax, %xmm0", -1, 0, 0);
	MEM("cvttsd2si (%rdi), %eax", 0, R, 8);
	MEM("cvtps2pd (%rdi), %xmm0", 0, R, 8);
	MEM("vcvtps2pd (%rdi), %ymm0", 0, R, 16);
	MEM("vcvtpd2psy (%rdi), %xmm0", 0, R, 32);
	MEM("pmovzxbd (%rdi), %xmm0", 0, R, 4);
	MEM("vpmovzxbq (%rdi), %ymm0", 0, R, 4);
	MEM("movddup (%rdi), %xmm0", 0, R, 8);
	MEM("pextrw $1, %xmm0, (%rdi)", 2, W, 2);
	MEM("pinsrq $1, (%rdi), %xmm0", 1, R, 8);
	MEM("vinserti128 $1, (%rdi), %ymm1, %ymm0", 1, R, 16);
	MEM("vextracti128 $1, %ymm1, (%rdi)", 2, W, 16);
	MEM("vbroadcastss (%rdi), %ymm0", 0, R, 4);
	MEM("vpbroadcastb (%rdi), %zmm0", 0, R, 1);
	MEM("vmaskmovps %ymm0, %ymm1, (%rdi)", 2, W, 32);
	MEM("movntdq %xmm0, (%rdi)", 1, W, 16);
	MEM("maskmovdqu %xmm1, %xmm0", -1, 0, 0);
	HAS(ATTR_STORE);
	ck_assert_int_eq(in.info.impl_size, 16);
	MEM("cmpltsd %xmm1, %xmm0", -1, 0, 0);
	MEM("vcmpneq_oqps (%rdi), %ymm1, %ymm2", 0, R, 32);
	MEM("vfmadd231sd (%rdi), %xmm1, %xmm2", 0, R, 8);
	ck_assert_int_eq(in.info.op_acc[2], RW);
	MEM("kmovw %k1, (%rdi)", 1, W, 2);
	MEM("vpcmpeqb %zmm1, %zmm0, %k0", -1, 0, 0);
	MEM("vpslld $1, (%rdi), %zmm0", 1, R, 64);
	MEM("vpsllq %xmm2, %ymm1, %ymm0", -1, 0, 0);
	MEM("vzeroupper", -1, 0, 0);
}
END_TEST

START_TEST(x87)
{
	MEM("flds (%rdi)", 0, R, 4);
	HAS(ATTR_X87);
	MEM("fldl (%rdi)", 0, R, 8);
	MEM("fldt 16(%rsp)", 0, R, 10);
	MEM("fstpt (%rdi)", 0, W, 10);
	MEM("fildll (%rdi)", 0, R, 8);
	MEM("filds (%rdi)", 0, R, 2);
	MEM("fistpl (%rdi)", 0, W, 4);
	MEM("fisttpll (%rdi)", 0, W, 8);
	MEM("fadds (%rdi)", 0, R, 4);
	MEM("fimull (%rdi)", 0, R, 4);
	MEM("fld %st(1)", -1, 0, 0);
	MEM("faddp %st, %st(1)", -1, 0, 0);
	MEM("fucomip %st(1), %st", -1, 0, 0);
	ck_assert(in.info.flags_written & FL_ZF);
	ck_assert(in.info.flags_written & FL_CF);
	ck_assert(in.info.flags_written & FL_PF);
	MEM("fcomi %st(2), %st", -1, 0, 0);
	ck_assert(in.info.flags_written & FL_ZF);
	MEM("fcmovbe %st(1), %st", -1, 0, 0);
	ck_assert_int_eq(in.info.flags_read, FL_CF | FL_ZF);
	MEM("fnstsw %ax", -1, 0, 0);
	MEM("fnstsw (%rdi)", 0, W, 2);
	MEM("fnstcw (%rdi)", 0, W, 2);
	MEM("fldcw (%rdi)", 0, R, 2);
	MEM("fnstenv (%rdi)", 0, W, 28);
	MEM("fldenv (%rdi)", 0, R, 28);
	const char *noop[] = {"fxch", "fchs", "fabs", "fsqrt", "frndint",
	                      "fscale", "fprem", "f2xm1", "fyl2x", "fxam",
	                      "fnclex", "fld1", "fldz"};
	for (size_t i = 0; i < sizeof noop / sizeof noop[0]; i++) {
		MEM(noop[i], -1, 0, 0);
		HAS(ATTR_X87);
		ck_assert_int_eq(in.info.flags_written, 0);
	}
}
END_TEST

START_TEST(bmi)
{
	MEM("andn (%rdi), %eax, %ecx", 0, R, 4);
	HAS(ATTR_BMI);
	ck_assert_int_eq(in.info.flags_written, FL_STATUS);
	MEM("bextr %ecx, (%rdi), %eax", 1, R, 4);
	MEM("blsrq (%rdi), %rax", 0, R, 8);
	MEM("bzhi %eax, (%rdi), %ecx", 1, R, 4);
	const char *flagfree[] = {"shlx %rax, (%rdi), %rcx", "sarx %eax, %ecx, %edx",
	                          "shrxq %rax, %rcx, %rdx", "rorx $3, (%rdi), %eax",
	                          "pdep (%rdi), %rax, %rcx", "pext %eax, %ecx, %edx",
	                          "mulx (%rdi), %rax, %rcx"};
	for (size_t i = 0; i < sizeof flagfree / sizeof flagfree[0]; i++) {
		ck_assert_msg(dec(flagfree[i]), "%s", flagfree[i]);
		HAS(ATTR_BMI);
		ck_assert_int_eq(in.info.flags_written | in.info.flags_maybe, 0);
	}
	ck_assert(dec("mulx (%rdi), %rax, %rcx"));
	ck_assert_int_eq(in.info.mem_size, 8);
	ck_assert_int_eq(in.info.op_acc[1], W);
	ck_assert_int_eq(in.info.op_acc[2], W);
}
END_TEST

/* Unknown: conservative info. */
static void assert_conservative(int mem)
{
	ck_assert_ptr_null(in.desc);
	ck_assert_int_eq(in.info.attrs, 0);
	ck_assert_int_eq(in.info.mem, mem);
	if (mem >= 0)
		ck_assert_int_eq(in.info.mem_acc, RW);
	ck_assert_int_eq(in.info.flags_read, FL_STATUS);
	ck_assert_int_eq(in.info.flags_written, 0);
}

START_TEST(unknown_is_conservative)
{
	ck_assert(!dec("frobnicate %eax, 8(%rdi)"));
	assert_conservative(1);
	ck_assert(!dec("addl %eax")); /* known name, unknown form */
	assert_conservative(-1);
	ck_assert(!dec("movl (%rdi), (%rsi)")); /* two memory operands */
	assert_conservative(0);
	ck_assert(!dec("lea %rax, %rbx"));
	assert_conservative(-1);
	ck_assert(!dec("jmp"));
	assert_conservative(-1);
}
END_TEST

/* Hand-built instructions the reader would never produce. */
START_TEST(odd_input_does_not_crash)
{
	struct altr_insn x;
	struct altr_operand xops[ALTR_MAXOPS];
	memset(&x, 0, sizeof x);
	memset(xops, 0, sizeof xops);
	x.ops = xops;
	ck_assert(!altr_insn_decode(&x)); /* empty mnemonic */
	x.mnem = (struct altr_str){"movl", 4};
	x.nops = ALTR_MAXOPS;
	for (int i = 0; i < ALTR_MAXOPS; i++) {
		x.ops[i].kind = OPK_REG;
		x.ops[i].reg = 30000; /* out of range */
		x.ops[i].base = x.ops[i].index = x.ops[i].seg = -1;
	}
	ck_assert(!altr_insn_decode(&x));
	x.nops = 2;
	ck_assert(!altr_insn_decode(&x));
	x.ops[0].reg = -1;
	ck_assert(!altr_insn_decode(&x));
	x.nops = -3;
	ck_assert(!altr_insn_decode(&x));
	x.nops = 99;
	ck_assert(!altr_insn_decode(&x));
	x.nops = 2;
	x.ops[0].kind = (enum altr_opkind)77;
	ck_assert(!altr_insn_decode(&x));
	static const char longname[] = "vfmadd231pdvfmadd231pdvfmadd231pd";
	x.mnem = (struct altr_str){longname, sizeof longname - 1};
	ck_assert(!altr_insn_decode(&x));
	x.mnem = (struct altr_str){"ret\0junk", 8};
	x.nops = 0;
	ck_assert(!altr_insn_decode(&x));
	/* Decoding twice gives the same answer (the reader re-decodes after
	 * joining a prefix statement). */
	ck_assert(dec("jne .L3"));
	struct altr_iinfo first = in.info;
	ck_assert(altr_insn_decode(&in));
	ck_assert_int_eq(in.info.attrs, first.attrs);
	ck_assert_int_eq(in.ops[0].kind, OPK_TARGET);
}
END_TEST

Suite *suite_insndb(void)
{
	Suite *s = suite_create("insndb");
	TCase *tc = tcase_create("decode");
	tcase_add_test(tc, table_shape);
	tcase_add_test(tc, general_purpose);
	tcase_add_test(tc, shifts_and_bits);
	tcase_add_test(tc, atomics);
	tcase_add_test(tc, strings);
	tcase_add_test(tc, stack_and_branches);
	tcase_add_test(tc, system_and_hints);
	tcase_add_test(tc, vector);
	tcase_add_test(tc, x87);
	tcase_add_test(tc, bmi);
	tcase_add_test(tc, unknown_is_conservative);
	tcase_add_test(tc, odd_input_does_not_crash);
	suite_add_tcase(s, tc);
	return s;
}
