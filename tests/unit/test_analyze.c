/* test_analyze.c: functions, branch targets and facts, flag liveness,
 * .loc and CFI tracking. */
#include <stdlib.h>
#include "suites.h"

/* Each statement's function and branch target, of the unit last analyzed
 * (altr_analyze_into, then altr_cycles as altr_analyze runs them). */
static int *func, *target;

static struct altr_unit *an(const char *text)
{
	struct altr_unit *u = test_read_unit(text);
	size_t n = (size_t)u->nstmts + 1;
	func = realloc(func, n * sizeof *func);
	target = realloc(target, n * sizeof *target);
	altr_analyze_into(u, func, target);
	altr_cycles(u, func, target);
	return u;
}

static void done(struct altr_unit *u)
{
	altr_asm_free(u);
	free(u);
	free(func);
	free(target);
	func = target = NULL;
}

/* Index of the n-th (0-based) statement whose text is exactly t. */
static int nth(const struct altr_unit *u, const char *t, int n)
{
	for (int i = 0; i < u->nstmts; i++)
		if (altr_str_eq(altr_stmt_text(&u->stmts[i]), t) && n-- == 0)
			return i;
	ck_abort_msg("statement not found: %s", t);
	return -1;
}

static int at(const struct altr_unit *u, const char *t)
{
	return nth(u, t, 0);
}

static const struct altr_stmt *S(const struct altr_unit *u, const char *t)
{
	return &u->stmts[at(u, t)];
}

#define IN(t) (S(u, t)->flags_live_in)
#define OUT(t) (S(u, t)->flags_live_out)
#define FACTS(t) (S(u, t)->facts)

START_TEST(live_between_cmp_and_jne)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.globl f\n"
		"\t.type f, @function\n"
		"f:\n"
		"\tcmpl $1, %edi\n"
		"\tmovl (%rsi), %eax\n"
		"\tjne .L2\n"
		"\tret\n"
		".L2:\n"
		"\txorl %eax, %eax\n"
		"\tret\n"
		"\t.size f, .-f\n");
	ck_assert_int_eq(u->nfuncs, 1);
	ck_assert(altr_str_eq(u->funcs[0].name, "f"));
	ck_assert_int_eq(u->funcs[0].first, at(u, "f:"));
	ck_assert_int_eq(u->funcs[0].last, at(u, ".size f, .-f"));
	ck_assert_int_eq(func[at(u, "movl (%rsi), %eax")], 0);
	ck_assert_int_eq(func[at(u, ".type f, @function")], -1);
	ck_assert(IN("movl (%rsi), %eax") & FL_ZF);
	ck_assert(OUT("cmpl $1, %edi") & FL_ZF);
	ck_assert_int_eq(IN("cmpl $1, %edi"), 0);
	ck_assert_int_eq(IN("jne .L2") & ~FL_ZF, 0);
	ck_assert_int_eq(IN("ret"), 0);
	ck_assert_int_eq(target[at(u, "jne .L2")], at(u, ".L2:"));
	ck_assert(FACTS("jne .L2") & SF_FORWARD);
	ck_assert(!(FACTS("jne .L2") & (SF_BACKWARD | SF_TAIL)));
	done(u);
}
END_TEST

START_TEST(dead_at_target_that_writes_flags)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type f, @function\n"
		"f:\n"
		"\ttestl %edi, %edi\n"
		"\tje .L3\n"
		"\tmovl (%rsi), %eax\n"
		"\tret\n"
		".L3:\n"
		"\txorl %eax, %eax\n"
		"\tmovl (%rdx), %ecx\n"
		"\tret\n"
		"\t.size f, .-f\n");
	ck_assert_int_eq(IN("movl (%rsi), %eax"), 0);
	ck_assert_int_eq(IN("xorl %eax, %eax"), 0);
	ck_assert_int_eq(IN("movl (%rdx), %ecx"), 0);
	ck_assert_int_eq(OUT("je .L3"), 0);
	ck_assert(IN("je .L3") & FL_ZF);
	ck_assert(OUT("testl %edi, %edi") & FL_ZF);
	done(u);
}
END_TEST

START_TEST(loop_backward_and_forward)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type f, @function\n"
		"f:\n"
		"\txorl %eax, %eax\n"
		".L2:\n"
		"\tcmpq %rsi, %rdi\n"
		"\tjae .L4\n"
		"\taddq (%rdi), %rax\n"
		"\taddq $8, %rdi\n"
		"\tjmp .L2\n"
		".L4:\n"
		"\tret\n"
		"\t.size f, .-f\n");
	ck_assert(FACTS("jae .L4") & SF_FORWARD);
	ck_assert(FACTS("jmp .L2") & SF_BACKWARD);
	ck_assert(!(FACTS("jmp .L2") & (SF_FORWARD | SF_TAIL)));
	ck_assert_int_eq(target[at(u, "jmp .L2")], at(u, ".L2:"));
	ck_assert_int_eq(IN("addq (%rdi), %rax"), 0);
	ck_assert_int_eq(OUT("jmp .L2"), 0);
	done(u);
}
END_TEST

/* CF from the adc's carry chain flows round the back edge: only a second
 * pass over the loop can see it. */
START_TEST(loop_carries_flags_round_back_edge)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type f, @function\n"
		"f:\n"
		"\tclc\n"
		".L5:\n"
		"\tmovq (%rdi), %rdx\n"
		"\tadcq %rdx, %rax\n"
		"\tleaq 8(%rdi), %rdi\n"
		"\tdecq %rcx\n"
		"\tjnz .L5\n"
		"\tret\n"
		"\t.size f, .-f\n");
	ck_assert(FACTS("jnz .L5") & SF_BACKWARD);
	ck_assert(IN("movq (%rdi), %rdx") & FL_CF);
	ck_assert(IN("leaq 8(%rdi), %rdi") & FL_CF);
	ck_assert(IN("decq %rcx") & FL_CF);
	ck_assert(OUT("jnz .L5") & FL_CF);
	ck_assert_int_eq(IN("clc"), 0);
	done(u);
}
END_TEST

START_TEST(numeric_labels)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.globl f\n"
		"\t.type f, @function\n"
		"f:\n"
		"1:\tdecl %edi\n"
		"\tjnz 1b\n"
		"\tjmp 1f\n"
		"\tnop\n"
		"1:\tdecl %esi\n"
		"\tjnz 1b\n"
		"\tjs 2f\n"
		"\tjmp 12f\n"
		"12:\n"
		"2:\n"
		"\tret\n"
		"\t.size f, .-f\n");
	int one0 = nth(u, "1:", 0), one1 = nth(u, "1:", 1);
	ck_assert_int_eq(target[nth(u, "jnz 1b", 0)], one0);
	ck_assert_int_eq(target[nth(u, "jnz 1b", 1)], one1);
	ck_assert_int_eq(target[at(u, "jmp 1f")], one1);
	ck_assert_int_eq(target[at(u, "js 2f")], at(u, "2:"));
	ck_assert_int_eq(target[at(u, "jmp 12f")], at(u, "12:"));
	ck_assert(u->stmts[nth(u, "jnz 1b", 0)].facts & SF_BACKWARD);
	ck_assert(u->stmts[nth(u, "jnz 1b", 1)].facts & SF_BACKWARD);
	ck_assert(FACTS("jmp 1f") & SF_FORWARD);
	ck_assert(FACTS("js 2f") & SF_FORWARD);
	/* liveness follows the resolved edges: jnz's fall-through is js */
	ck_assert(OUT("decl %esi") & (FL_ZF | FL_SF));
	done(u);
}
END_TEST

START_TEST(tail_jumps)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type foo, @function\n"
		"foo:\n"
		"\ttestl %edi, %edi\n"
		"\tjne bar\n"
		"\tcall baz@PLT\n"
		"\tjmp qux@PLT\n"
		"\t.size foo, .-foo\n"
		"\t.type bar, @function\n"
		"bar:\n"
		"\tmovl (%rdi), %eax\n"
		"\tjmp foo\n"
		"\t.size bar, .-bar\n");
	ck_assert_int_eq(u->nfuncs, 2);
	ck_assert(FACTS("jne bar") & SF_TAIL);
	ck_assert_int_eq(target[at(u, "jne bar")], at(u, "bar:"));
	ck_assert(FACTS("jmp qux@PLT") & SF_TAIL);
	ck_assert_int_eq(target[at(u, "jmp qux@PLT")], -1);
	ck_assert(FACTS("jmp foo") & SF_TAIL);
	ck_assert(!(FACTS("call baz@PLT") & (SF_TAIL | SF_FORWARD | SF_BACKWARD)));
	ck_assert_int_eq(func[at(u, "jmp foo")], 1);
	/* the ABI holds across a tail jump: nothing live after it */
	ck_assert_int_eq(OUT("jne bar"), 0);
	ck_assert_int_eq(OUT("jmp qux@PLT"), 0);
	ck_assert_int_eq(IN("movl (%rdi), %eax"), 0);
	ck_assert(OUT("testl %edi, %edi") & FL_ZF);
	done(u);
}
END_TEST

START_TEST(call_kills_flags)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type f, @function\n"
		"f:\n"
		"\tcmpl $0, %edi\n"
		"\tmovq (%rsi), %rdx\n"
		"\tcall g\n"
		"\tmovl (%rax), %ecx\n"
		"\tcall *%rdx\n"
		"\tret\n"
		"\t.size f, .-f\n");
	ck_assert_int_eq(IN("movq (%rsi), %rdx"), 0);
	ck_assert_int_eq(OUT("cmpl $0, %edi"), 0);
	ck_assert_int_eq(IN("call g"), 0);
	ck_assert_int_eq(IN("call *%rdx"), 0);
	ck_assert_int_eq(IN("movl (%rax), %ecx"), 0);
	ck_assert_int_eq(target[at(u, "call g")], -1);
	done(u);
}
END_TEST

START_TEST(indirect_jump_conservative)
{
	/* gcc -O2 switch: the table sits in .rodata mid-function */
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type sw, @function\n"
		"sw:\n"
		"\tcmpl $5, %edi\n"
		"\tja .L10\n"
		"\tleaq .L4(%rip), %rdx\n"
		"\tmovq (%rdx,%rdi,8), %rax\n"
		"\tjmp *%rax\n"
		"\t.section .rodata\n"
		"\t.align 4\n"
		".L4:\n"
		"\t.quad .L5\n"
		"\t.quad .L10\n"
		"\t.text\n"
		"\t.p2align 4,,10\n"
		".L5:\n"
		"\tmovl $5, %eax\n"
		"\tret\n"
		".L10:\n"
		"\txorl %eax, %eax\n"
		"\tret\n"
		"\t.size sw, .-sw\n"
		"\t.type g, @function\n"
		"g:\n"
		"\tmovq (%rdi), %rax\n"
		"\tjmp *8(%rax)\n"
		"\t.size g, .-g\n");
	ck_assert_int_eq(u->nfuncs, 2);
	ck_assert_int_eq(func[at(u, ".L4:")], -1);
	ck_assert_int_eq(func[at(u, ".quad .L5")], -1);
	ck_assert_int_eq(func[at(u, ".L5:")], 0);
	ck_assert_int_eq(func[at(u, "ja .L10")], 0);
	ck_assert(FACTS("ja .L10") & SF_FORWARD);
	ck_assert_int_eq(OUT("jmp *%rax"), FL_STATUS);
	ck_assert_int_eq(IN("movq (%rdx,%rdi,8), %rax"), FL_STATUS);
	ck_assert_int_eq(IN("movq (%rdi), %rax"), FL_STATUS);
	ck_assert(!(FACTS("jmp *%rax") & (SF_TAIL | SF_FORWARD | SF_BACKWARD)));
	ck_assert_int_eq(target[at(u, "jmp *%rax")], -1);
	ck_assert_int_eq(IN("movl $5, %eax"), 0);
	done(u);
}
END_TEST

START_TEST(adc_across_label)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type f, @function\n"
		"f:\n"
		"\taddq (%rsi), %rax\n"
		".L1:\n"
		"\tmovq 8(%rsi), %rdx\n"
		"\tadcq %rdx, %rcx\n"
		"\tret\n"
		"\t.size f, .-f\n");
	ck_assert(IN("movq 8(%rsi), %rdx") & FL_CF);
	ck_assert(OUT("addq (%rsi), %rax") & FL_CF);
	ck_assert_int_eq(IN("addq (%rsi), %rax"), 0);
	done(u);
}
END_TEST

START_TEST(shift_by_cl_does_not_kill)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type f, @function\n"
		"f:\n"
		"\tcmpl %esi, %edi\n"
		"\tshll %cl, %eax\n"
		"\tmovl (%rdx), %r8d\n"
		"\tsetl %al\n"
		"\tret\n"
		"\t.size f, .-f\n"
		"\t.type g, @function\n"
		"g:\n"
		"\tcmpl %esi, %edi\n"
		"\tshll $3, %eax\n"
		"\tmovl (%rdx), %r9d\n"
		"\tsetl %al\n"
		"\tret\n"
		"\t.size g, .-g\n");
	ck_assert(IN("shll %cl, %eax") & (FL_SF | FL_OF));
	ck_assert(OUT("cmpl %esi, %edi") & (FL_SF | FL_OF));
	ck_assert(IN("movl (%rdx), %r9d") & (FL_SF | FL_OF));
	ck_assert_int_eq(IN("shll $3, %eax") & (FL_SF | FL_OF), 0);
	ck_assert_int_eq(u->stmts[nth(u, "cmpl %esi, %edi", 1)].flags_live_out &
	                 (FL_SF | FL_OF), 0);
	done(u);
}
END_TEST

START_TEST(loc_tracking)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type f, @function\n"
		"f:\n"
		"\t.loc 1 2 3\n"
		"\tmovl $1, %eax\n"
		"\tmovl $2, %ecx\n"
		"\t.loc 1 3 0 is_stmt 0\n"
		".L5:\n"
		"\t.p2align 4\n"
		"\tret\n"
		"\t.size f, .-f\n");
	ck_assert(FACTS("movl $1, %eax") & SF_HAS_LOC);
	ck_assert(!(FACTS("movl $2, %ecx") & SF_HAS_LOC));
	ck_assert(FACTS("ret") & SF_HAS_LOC);
	done(u);
}
END_TEST

START_TEST(cfi_tracking)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type f, @function\n"
		"f:\n"
		"\tnop\n"
		"\t.cfi_startproc\n"
		"\tpushq %rbp\n"
		"\t.cfi_def_cfa_offset 16\n"
		"\tmovq %rsp, %rbp\n"
		"\t.cfi_def_cfa_register %rbp\n"
		"\tmovl (%rdi), %eax\n"
		"\ttestl %eax, %eax\n"
		"\tje .L2\n"
		"\t.cfi_remember_state\n"
		"\t.cfi_def_cfa 7, 8\n"
		"\tpopq %rbp\n"
		"\tret\n"
		".L2:\n"
		"\t.cfi_restore_state\n"
		"\tmovl 4(%rdi), %eax\n"
		"\tleave\n"
		"\t.cfi_def_cfa %rsp, 8\n"
		"\tretq\n"
		"\t.cfi_endproc\n"
		"\t.size f, .-f\n"
		"\tpause\n");
	ck_assert(!(FACTS("nop") & SF_CFA_RSP));
	ck_assert(FACTS("pushq %rbp") & SF_CFA_RSP);
	ck_assert(FACTS("movq %rsp, %rbp") & SF_CFA_RSP);
	ck_assert(!(FACTS("movl (%rdi), %eax") & SF_CFA_RSP));
	ck_assert(!(FACTS("je .L2") & SF_CFA_RSP));
	ck_assert(FACTS("popq %rbp") & SF_CFA_RSP);
	ck_assert(FACTS("ret") & SF_CFA_RSP);
	ck_assert(!(FACTS("movl 4(%rdi), %eax") & SF_CFA_RSP));
	ck_assert(!(FACTS("leave") & SF_CFA_RSP));
	ck_assert(FACTS("retq") & SF_CFA_RSP);
	ck_assert(!(FACTS("pause") & SF_CFA_RSP));
	/* .cfi_endproc closes the function before its .size */
	ck_assert_int_eq(u->funcs[0].last, at(u, ".cfi_endproc"));
	ck_assert_int_eq(func[at(u, "pause")], -1);
	done(u);
}
END_TEST

START_TEST(app_blocks)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type f, @function\n"
		"f:\n"
		"\tcmpl $1, %edi\n"
		"#APP\n"
		"# 5 \"x.c\" 1\n"
		"\tmovl (%rsi), %eax ; jae 1f ; incl %eax\n"
		"1:\n"
		"# 0 \"\" 2\n"
		"#NO_APP\n"
		"\tret\n"
		"\t.size f, .-f\n"
		"#APP\n"
		"\t.text\n"
		"\t.globl myasm\n"
		"myasm:\n"
		"\tmovl (%rdi), %eax\n"
		"\tjmp 1b\n"
		"\tret\n"
		"#NO_APP\n");
	ck_assert(FACTS("movl (%rsi), %eax") & SF_IN_APP);
	ck_assert(!(FACTS("cmpl $1, %edi") & SF_IN_APP));
	ck_assert(IN("movl (%rsi), %eax") & FL_CF);
	ck_assert_int_eq(target[at(u, "jae 1f")], at(u, "1:"));
	ck_assert(FACTS("jae 1f") & SF_FORWARD);
	ck_assert_int_eq(func[at(u, "incl %eax")], 0);
	/* a top-level asm function with no .type starts a function */
	ck_assert_int_eq(u->nfuncs, 2);
	ck_assert(altr_str_eq(u->funcs[1].name, "myasm"));
	ck_assert_int_eq(func[at(u, "movl (%rdi), %eax")], 1);
	/* 1b resolves to f's label: a jump into another function */
	ck_assert_int_eq(target[at(u, "jmp 1b")], at(u, "1:"));
	ck_assert(FACTS("jmp 1b") & SF_TAIL);
	ck_assert_int_eq(OUT("jmp 1b"), FL_STATUS);
	done(u);
}
END_TEST

START_TEST(functions_without_type)
{
	struct altr_unit *u = an(
		".text\n"
		".global memset_like\n"
		"memset_like:\n"
		"\tmov %rdi,%rax\n"
		"\ttest %rdx,%rdx\n"
		"\tjz 1f\n"
		"\tmov %sil,(%rdi)\n"
		"1:\tret\n"
		"\n"
		"helper:\n"
		"\tcmp $1,%rdi\n"
		"\tjmp memset_like\n"
		".data\n"
		"table:\n"
		"\t.quad 1\n"
		".text\n"
		"after:\n"
		"\t.quad 2\n");
	ck_assert_int_eq(u->nfuncs, 2);
	ck_assert(altr_str_eq(u->funcs[0].name, "memset_like"));
	ck_assert(altr_str_eq(u->funcs[1].name, "helper"));
	ck_assert_int_eq(func[at(u, "1:")], 0);
	ck_assert(FACTS("jz 1f") & SF_FORWARD);
	ck_assert(FACTS("jmp memset_like") & SF_TAIL);
	ck_assert_int_eq(OUT("cmp $1,%rdi"), 0);
	ck_assert_int_eq(func[at(u, "table:")], -1);
	/* back in .text, code continues the open function: data there is
	 * code we cannot see into */
	ck_assert_int_eq(func[at(u, "after:")], 1);
	done(u);
}
END_TEST

/* musl's syscall_cp.s: labels a signal handler compares the pc with. */
START_TEST(entry_points_inside_function)
{
	struct altr_unit *u = an(
		".text\n"
		".global __cp_begin\n"
		".global __syscall_cp_asm\n"
		".type   __syscall_cp_asm,@function\n"
		"__syscall_cp_asm:\n"
		"\n"
		"__cp_begin:\n"
		"\tmov (%rdi),%eax\n"
		"\ttest %eax,%eax\n"
		"\tjnz __cp_cancel\n"
		"\tmov %rdi,%r11\n"
		"\tsyscall\n"
		"__cp_end:\n"
		"\tret\n"
		"__cp_cancel:\n"
		"\tjmp __cancel\n");
	ck_assert_int_eq(u->nfuncs, 1);
	ck_assert_int_eq(func[at(u, "__cp_cancel:")], 0);
	ck_assert(FACTS("jnz __cp_cancel") & SF_FORWARD);
	ck_assert(FACTS("jmp __cancel") & SF_TAIL);
	ck_assert_int_eq(OUT("syscall"), FL_STATUS);
	ck_assert_int_eq(OUT("jnz __cp_cancel") & FL_STATUS, FL_STATUS);
	ck_assert_int_eq(IN("mov (%rdi),%eax"), 0);
	done(u);
}
END_TEST

START_TEST(unknown_code_conservative)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type f, @function\n"
		"f:\n"
		"\tmovl (%rdi), %eax\n"
		"\tfrobnicate %eax\n"
		"\tmovl (%rsi), %ecx\n"
		"\t.byte 0x0f,0x0b\n"
		"\tmovl (%rdx), %r8d\n"
		"\tjmp 7f\n"
		"\tmovl (%rcx), %r9d\n"
		"\t.intel_syntax noprefix\n"
		"\tmov eax, [rbx]\n"
		"\t.att_syntax prefix\n"
		"\txorl %eax, %eax\n"
		"\tmovl (%r8), %r10d\n"
		"\t.size f, .-f\n");
	ck_assert_int_eq(IN("movl (%rdi), %eax"), FL_STATUS);
	ck_assert_int_eq(IN("movl (%rsi), %ecx"), FL_STATUS);
	ck_assert_int_eq(IN("movl (%rdx), %r8d"), FL_STATUS);
	ck_assert(FACTS("jmp 7f") & SF_TAIL);
	ck_assert_int_eq(target[at(u, "jmp 7f")], -1);
	ck_assert_int_eq(IN("movl (%rcx), %r9d"), FL_STATUS);
	ck_assert_int_eq(IN("xorl %eax, %eax"), 0);
	/* falling off the end of a function */
	ck_assert_int_eq(OUT("movl (%r8), %r10d"), FL_STATUS);
	done(u);
}
END_TEST

START_TEST(hot_cold_split)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.globl sw\n"
		"\t.type sw, @function\n"
		"sw:\n"
		".LFB11:\n"
		"\t.cfi_startproc\n"
		"\tsubq $8, %rsp\n"
		"\t.cfi_def_cfa_offset 16\n"
		"\tcmpl $5, %edi\n"
		"\tja .L10\n"
		".L1:\n"
		"\taddq $8, %rsp\n"
		"\tret\n"
		"\t.cfi_endproc\n"
		"\t.section .text.unlikely\n"
		"\t.cfi_startproc\n"
		"\t.type sw.cold, @function\n"
		"sw.cold:\n"
		".L10:\n"
		"\t.cfi_def_cfa_offset 16\n"
		"\txorl %eax, %eax\n"
		"\tjmp .L1\n"
		"\t.cfi_endproc\n"
		"\t.text\n"
		"\t.size sw, .-sw\n"
		"\t.section .text.unlikely\n"
		"\t.size sw.cold, .-sw.cold\n");
	ck_assert_int_eq(u->nfuncs, 2);
	ck_assert(altr_str_eq(u->funcs[1].name, "sw.cold"));
	ck_assert_int_eq(func[at(u, ".L10:")], 1);
	ck_assert(FACTS("ja .L10") & SF_TAIL);
	ck_assert(FACTS("jmp .L1") & SF_TAIL);
	ck_assert(FACTS("subq $8, %rsp") & SF_CFA_RSP);
	ck_assert(FACTS("xorl %eax, %eax") & SF_CFA_RSP);
	/* .L10 is inside another function: no ABI to lean on */
	ck_assert_int_eq(OUT("ja .L10"), FL_STATUS);
	ck_assert_int_eq(OUT("jmp .L1"), FL_STATUS);
	done(u);
}
END_TEST

/* musl's memcpy.s: two names for one entry, "rep" on its own line. */
START_TEST(aliases_and_prefix_lines)
{
	struct altr_unit *u = an(
		".text\n"
		".global memcpy\n"
		".global __memcpy_fwd\n"
		".type memcpy,@function\n"
		"memcpy:\n"
		"__memcpy_fwd:\n"
		"\tcmp $8,%rdx\n"
		"\trep\n"
		"\tmovsq\n"
		"\tjc 1f\n"
		"\tjmp __memcpy_fwd\n"
		"1:\tret\n");
	ck_assert_int_eq(u->nfuncs, 1);
	ck_assert_int_eq(func[at(u, "__memcpy_fwd:")], 0);
	ck_assert(FACTS("jmp __memcpy_fwd") & SF_BACKWARD);
	ck_assert_int_eq(OUT("cmp $8,%rdx"), FL_CF);
	ck_assert_int_eq(IN("movsq"), FL_CF);
	done(u);
}
END_TEST

/* A chain of backward jumps, each block reached from the one after it:
 * sweeping in reverse text order would need one pass per block. */
START_TEST(big_function)
{
	struct altr_buf b = {0};
	enum { N = 20000 };
	altr_buf_printf(&b, "\t.text\n\t.type f, @function\nf:\n"
	                "\tcmpq $1, %%rax\n\tjmp .L%d\n"
	                ".L0:\n\tsete %%al\n\tret\n", N - 1);
	for (int i = 1; i < N; i++)
		altr_buf_printf(&b, ".L%d:\n\tmovq (%%rdi), %%rax\n"
		                "\tjmp .L%d\n", i, i - 1);
	altr_buf_puts(&b, "\t.size f, .-f\n");
	struct altr_unit *u = an(b.p);
	ck_assert_int_eq(u->nfuncs, 1);
	ck_assert(FACTS("jmp .L0") & SF_BACKWARD);
	/* no cycle: none of the 20,000 backward jumps closes one */
	for (int i = 0; i < u->nstmts; i++)
		ck_assert(!(u->stmts[i].facts & SF_LOOP_BACK));
	for (int i = 0; i < u->nstmts; i++)
		if (altr_str_eq(altr_stmt_text(&u->stmts[i]), "movq (%rdi), %rax"))
			ck_assert_int_eq(u->stmts[i].flags_live_in, FL_ZF);
	ck_assert_int_eq(OUT("cmpq $1, %rax"), FL_ZF);
	altr_buf_free(&b);
	done(u);
}
END_TEST

/* Statement t has every fact of set and none of clear. */
static void facts(const struct altr_unit *u, const char *t, unsigned set, unsigned clear)
{
	unsigned f = S(u, t)->facts;
	ck_assert_msg((f & set) == set && !(f & clear), "%s: facts 0x%x", t, f);
}

/* loop_back: a loop's back edge closes a cycle, the jump to an exit
 * block placed before it does not; the flag setter fused with a loop's
 * jump, .loc between, is marked. */
START_TEST(loop_back_edges)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type f, @function\n"
		"f:\n"
		"\tjmp .L3\n"
		".L1:\n"
		"\tsetb %al\n"
		"\tret\n"
		".L3:\n"
		"\tcmpl %esi, %edi\n"
		"\tjne .L1\n"
		"\taddl $1, %edi\n"
		"\tcmpl $9, %edi\n"
		"\t.loc 1 2 3\n"
		"\tjle .L3\n"
		"\tret\n"
		"\t.size f, .-f\n");
	facts(u, "jne .L1", SF_BACKWARD | SF_FUSED, SF_LOOP_BACK);
	facts(u, "cmpl %esi, %edi", SF_FUSES_BACK, SF_FUSES_LOOP);
	facts(u, "jle .L3", SF_LOOP_BACK, 0);
	facts(u, "cmpl $9, %edi", SF_FUSES_LOOP, 0);
	facts(u, "jmp .L3", 0, SF_LOOP_BACK);
	done(u);
}
END_TEST

/* What altr cannot see through may go to any label: an indirect jump, a
 * data directive, a ret of a function that calls its own label. */
START_TEST(loop_back_conservative)
{
	struct altr_unit *u = an(
		"\t.text\n"
		"\t.type f, @function\n"
		"f:\n"
		".L1:\n"
		"\tdecl %edi\n"
		".L2:\n"
		"\tjmp *%rax\n"
		"\tjmp .L1\n"
		"\tjmp .L2\n"
		"\t.size f, .-f\n"
		"\t.type g, @function\n"
		"g:\n"
		"\tjmp .L12\n"
		".L11:\n"
		"\t.byte 0x90\n"
		"\tret\n"
		".L12:\n"
		"\tjmp .L11\n"
		"\t.size g, .-g\n"
		"\t.type h, @function\n"
		"h:\n"
		"\tcall .L22\n"
		".L21:\n"
		"\tret\n"
		".L22:\n"
		"\tjmp .L21\n"
		"\t.size h, .-h\n"
		"\t.type k, @function\n"
		"k:\n"
		"\tcall m\n"
		".L31:\n"
		"\tret\n"
		".L32:\n"
		"\tjmp .L31\n"
		"\t.size k, .-k\n");
	static const char *const loops[] = {"jmp .L1", "jmp .L2", "jmp .L11", "jmp .L21"};
	for (size_t k = 0; k < sizeof loops / sizeof loops[0]; k++)
		facts(u, loops[k], SF_LOOP_BACK, 0);
	facts(u, "jmp .L31", SF_BACKWARD, SF_LOOP_BACK);
	done(u);
}
END_TEST

/* One loop of 20,000 blocks: the components are found without
 * recursion. */
START_TEST(loop_back_deep)
{
	struct altr_buf b = {0};
	enum { N = 20000 };
	altr_buf_printf(&b, "\t.text\n\t.type f, @function\nf:\n");
	for (int i = 0; i < N; i++)
		altr_buf_printf(&b, ".L%d:\n\taddq $1, %%rax\n"
		                "\tjne .L%d\n", i, i + 1);
	altr_buf_printf(&b, ".L%d:\n\tjmp .L0\n\tret\n", N);
	altr_buf_puts(&b, "\t.size f, .-f\n");
	struct altr_unit *u = an(b.p);
	ck_assert(FACTS("jmp .L0") & SF_LOOP_BACK);
	altr_buf_free(&b);
	done(u);
}
END_TEST

Suite *suite_analyze(void)
{
	Suite *s = suite_create("analyze");
	TCase *tc = tcase_create("flags");
	tcase_add_test(tc, live_between_cmp_and_jne);
	tcase_add_test(tc, dead_at_target_that_writes_flags);
	tcase_add_test(tc, loop_carries_flags_round_back_edge);
	tcase_add_test(tc, call_kills_flags);
	tcase_add_test(tc, indirect_jump_conservative);
	tcase_add_test(tc, adc_across_label);
	tcase_add_test(tc, shift_by_cl_does_not_kill);
	tcase_add_test(tc, unknown_code_conservative);
	suite_add_tcase(s, tc);
	tc = tcase_create("branches");
	tcase_add_test(tc, loop_backward_and_forward);
	tcase_add_test(tc, numeric_labels);
	tcase_add_test(tc, tail_jumps);
	tcase_add_test(tc, big_function);
	tcase_add_test(tc, loop_back_edges);
	tcase_add_test(tc, loop_back_conservative);
	tcase_add_test(tc, loop_back_deep);
	suite_add_tcase(s, tc);
	tc = tcase_create("functions");
	tcase_add_test(tc, app_blocks);
	tcase_add_test(tc, functions_without_type);
	tcase_add_test(tc, entry_points_inside_function);
	tcase_add_test(tc, hot_cold_split);
	tcase_add_test(tc, aliases_and_prefix_lines);
	suite_add_tcase(s, tc);
	tc = tcase_create("debug");
	tcase_add_test(tc, loc_tracking);
	tcase_add_test(tc, cfi_tracking);
	suite_add_tcase(s, tc);
	return s;
}
