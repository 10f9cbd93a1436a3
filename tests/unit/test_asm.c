/* test_asm.c: the assembly reader: statements, operands, context. */
#include "suites.h"

static void free_unit(struct altr_unit *u)
{
	altr_asm_free(u);
	free(u);
}

static bool str_is(struct altr_str s, const char *lit)
{
	return altr_str_eq(s, lit);
}

START_TEST(lines_and_statements)
{
	struct altr_unit *u = test_read_unit(
	        "\t.text\n"
	        "f:\tmovq (%rax), %rbx ; addq $1, %rbx # c;omment\n"
	        ".L2: 1: ret\n"
	        "\t.ascii \"a;b#c\"\n"
	        "x = 5\n"
	        "last");
	ck_assert_int_eq(u->nlines, 6);
	ck_assert(!altr_line_has_newline(u, 5));
	const struct altr_line *L = &u->lines[1];
	ck_assert_int_eq(altr_line_n(u, 1), 3);
	ck_assert_int_eq(u->stmts[L->first].kind, STMT_LABEL);
	ck_assert(str_is(altr_stmt_name(&u->stmts[L->first]), "f"));
	ck_assert_int_eq(u->stmts[L->first + 1].kind, STMT_INSN);
	ck_assert(str_is(altr_stmt_text(&u->stmts[L->first + 2]), "addq $1, %rbx"));
	ck_assert(str_is(altr_line_comment(u, 1), "# c;omment"));
	L = &u->lines[2];
	ck_assert_int_eq(altr_line_n(u, 2), 3);
	ck_assert(str_is(altr_stmt_name(&u->stmts[L->first + 1]), "1"));
	L = &u->lines[3];
	ck_assert_int_eq(altr_line_n(u, 3), 1);
	ck_assert_int_eq(u->stmts[L->first].kind, STMT_DIRECTIVE);
	ck_assert(str_is(altr_stmt_args(&u->stmts[L->first]), "\"a;b#c\""));
	ck_assert_int_eq(u->stmts[u->lines[4].first].kind, STMT_OTHER);
	free_unit(u);
}
END_TEST

START_TEST(memory_operands)
{
	struct altr_insn in;
	struct altr_operand ops[ALTR_MAXOPS];
	struct altr_str t = {"movl %fs:-8(%rbx,%rcx,4), %eax", 30};
	ck_assert(altr_asm_parse_insn(t, &in, ops));
	ck_assert_int_eq(in.nops, 2);
	const struct altr_operand *m = &in.ops[0];
	ck_assert_int_eq(m->kind, OPK_MEM);
	ck_assert_str_eq(altr_regs[m->seg].name, "fs");
	ck_assert(str_is(altr_op_disp(m), "-8"));
	ck_assert_str_eq(altr_regs[m->base].name, "rbx");
	ck_assert_str_eq(altr_regs[m->index].name, "rcx");
	ck_assert_int_eq(m->scale, 4);
	ck_assert_int_eq(in.ops[1].kind, OPK_REG);

	t.p = "jmp *.L4(,%rax,8)";
	t.len = strlen(t.p);
	ck_assert(altr_asm_parse_insn(t, &in, ops));
	ck_assert(in.ops[0].star);
	ck_assert_int_eq(in.ops[0].base, -1);
	ck_assert_str_eq(altr_regs[in.ops[0].index].name, "rax");
	ck_assert(str_is(altr_op_disp(&in.ops[0]), ".L4"));

	/* A parenthesis that is not registers belongs to the displacement. */
	t.p = "movq (8*4)(%rsp), %rax";
	t.len = strlen(t.p);
	ck_assert(altr_asm_parse_insn(t, &in, ops));
	ck_assert(str_is(altr_op_disp(&in.ops[0]), "(8*4)"));
	ck_assert_str_eq(altr_regs[in.ops[0].base].name, "rsp");

	t.p = "vmovdqu64 (%rdi), %zmm1{%k2}{z}";
	t.len = strlen(t.p);
	ck_assert(altr_asm_parse_insn(t, &in, ops));
	ck_assert(str_is(altr_op_deco(&in.ops[1]), "{%k2}{z}"));
	ck_assert_int_eq(in.ops[1].kind, OPK_REG);

	t.p = "vmovdqa32 %ymm1, %ymm1 {%k1} {z}";
	t.len = strlen(t.p);
	ck_assert(altr_asm_parse_insn(t, &in, ops));
	ck_assert_int_eq(in.ops[1].kind, OPK_REG);
	ck_assert(str_is(altr_op_deco(&in.ops[1]), "{%k1} {z}"));

	t.p = "fstp %st(1)";
	t.len = strlen(t.p);
	ck_assert(altr_asm_parse_insn(t, &in, ops));
	ck_assert_int_eq(in.ops[0].kind, OPK_REG);
	ck_assert_int_eq(altr_regs[in.ops[0].reg].cls, RC_X87);

	t.p = "movl foo+4, %eax"; /* absolute memory, no parenthesis */
	t.len = strlen(t.p);
	ck_assert(altr_asm_parse_insn(t, &in, ops));
	ck_assert_int_eq(in.ops[0].kind, OPK_MEM);
	ck_assert(str_is(altr_op_disp(&in.ops[0]), "foo+4"));
}
END_TEST

START_TEST(prefixes)
{
	struct altr_unit *u = test_read_unit(
	        "\t.text\n"
	        "\tlock ; cmpxchgq %rdx, (%rdi)\n"
	        "\trep\n"
	        "\tstosq\n"
	        "\trepnz scasb\n"
	        "\tnotrack jmp *%rax\n");
	const struct altr_stmt *s = &u->stmts[u->lines[1].first];
	ck_assert_int_eq(altr_line_n(u, 1), 1);
	ck_assert_int_eq(s->kind, STMT_INSN);
	ck_assert(s->insn->prefixes & PFX_LOCK);
	ck_assert(str_is(s->insn->mnem, "cmpxchgq"));
	s = &u->stmts[u->lines[2].first];
	ck_assert(s->facts & SF_PREFIX_ONLY);
	s = &u->stmts[u->lines[3].first];
	ck_assert(s->insn->prefixes & PFX_REP);
	s = &u->stmts[u->lines[4].first];
	ck_assert(s->insn->prefixes & PFX_REPNE);
	s = &u->stmts[u->lines[5].first];
	ck_assert(s->insn->prefixes & PFX_NOTRACK);
	ck_assert(s->insn->ops[0].star);
	free_unit(u);
}
END_TEST

/* .rept and macro invocations are expanded before reading: their
 * instructions are statements, on the line of the directive. */
START_TEST(macro_expansion)
{
	altr_quiet_warnings = true;
	struct altr_unit *u = test_read_unit(
	        "\t.macro ld r\n"
	        "\tmovl (\\r), %eax\n"
	        "\t.endm\n"
	        "\t.rept 2\n"                          /* 4 */
	        "\tmovl 4(%rdi), %eax\n"
	        "\t.endr\n"
	        "\tld %rsi\n"                          /* 7 */
	        "\tnop\n");                            /* 8 */
	int lines[8], n = 0;
	for (int i = 0; i < u->nstmts && n < 8; i++)
		if (u->stmts[i].kind == STMT_INSN)
			lines[n++] = u->stmts[i].line;
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(lines[0], 4);
	ck_assert_int_eq(lines[1], 4);
	ck_assert_int_eq(lines[2], 7);
	ck_assert_int_eq(lines[3], 8);
	ck_assert_uint_eq(u->ninsns, 4);
	free_unit(u);
}
END_TEST

START_TEST(context_facts)
{
	altr_quiet_warnings = true;
	struct altr_unit *u = test_read_unit(
	        "\t.data\n"
	        "\tmovl %eax, %ebx\n"                   /* 1: not exec */
	        "\t.section .text.hot,\"ax\",@progbits\n"
	        "#APP\n"
	        "\tmovl %eax, %ebx\n"                   /* 4: app, exec */
	        "#NO_APP\n"
	        "\t.intel_syntax noprefix\n"
	        "\tmov eax, [rbx]\n"                    /* 7: opaque */
	        "\t.att_syntax\n"
	        "\t.rept n\n"                          /* n unknown: not */
	        "\tmovl %ecx, %eax\n"                   /* 10: opaque */
	        "\t.endr\n"
	        "/* a comment\n"
	        "   movl %eax, %ebx */ movl %ecx, %edx\n" /* 13: after comment */
	        "\t.pushsection .rodata\n"
	        "\tnop\n"                               /* 15: not exec */
	        "\t.popsection\n"
	        "\tnop\n");                             /* 17: exec */
#define FACTS(l) (u->stmts[u->lines[l].first].facts)
	ck_assert(!(FACTS(1) & SF_EXEC));
	ck_assert(FACTS(4) & SF_EXEC);
	ck_assert(FACTS(4) & SF_IN_APP);
	ck_assert(FACTS(7) & SF_OPAQUE);
	ck_assert(FACTS(10) & SF_OPAQUE);
	ck_assert_int_eq(altr_line_n(u, 12), 0);
	ck_assert_int_eq(altr_line_n(u, 13), 1);
	ck_assert(str_is(altr_stmt_text(&u->stmts[u->lines[13].first]), "movl %ecx, %edx"));
	ck_assert(!(FACTS(13) & SF_OPAQUE));
	ck_assert(!(FACTS(15) & SF_EXEC));
	ck_assert(FACTS(17) & SF_EXEC);
#undef FACTS
	free_unit(u);
}
END_TEST

START_TEST(never_fails)
{
	/* Junk and half-statements become STMT_OTHER, never a crash. */
	const char *junk[] = {
	        "movl (%rax", "movl %, %eax", ")(", "\"unterminated", "'",
	        "a,b,c,d,e,f,g,h", "movl $1, %eax, %ebx, %ecx, %edx, %esi",
	        "/*", "lock", ":", "1:", "%rax:", "movq (%rax,%rbx,3), %rcx",
	        "jmp *", "{", "}", "vaddps {rn-sae}, %zmm1, %zmm2, %zmm3",
	};
	for (size_t i = 0; i < sizeof junk / sizeof junk[0]; i++) {
		struct altr_unit *u = test_read_unit(junk[i]);
		ck_assert_int_eq(u->nlines, 1);
		free_unit(u);
	}
}
END_TEST

Suite *suite_asm(void)
{
	Suite *s = suite_create("asm");
	TCase *tc = tcase_create("reader");
	tcase_add_test(tc, lines_and_statements);
	tcase_add_test(tc, memory_operands);
	tcase_add_test(tc, prefixes);
	tcase_add_test(tc, context_facts);
	tcase_add_test(tc, macro_expansion);
	tcase_add_test(tc, never_fails);
	suite_add_tcase(s, tc);
	return s;
}
