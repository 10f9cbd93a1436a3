/* test_emit.c: applying rules and writing assembly. */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include "suites.h"

/* Runs rules_text over asm_text; returns the output (caller frees) or
 * NULL when altr_emit reported an error. */
static char *run(const char *rules_text, const char *asm_text)
{
	char path[] = "/tmp/altr-test-rulesXXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, rules_text, strlen(rules_text)),
	                 (ssize_t)strlen(rules_text));
	close(fd);
	struct altr_ruleset rs = {0};
	int rc = altr_rules_load(&rs, path);
	unlink(path);
	ck_assert_int_eq(rc, 0);
	altr_rules_finish(&rs);
	struct altr_unit *u = test_read_unit(asm_text);
	altr_analyze(u);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct altr_opts o = {.iot = false};
	struct altr_stats st = {0};
	rc = altr_emit(u, &rs, &o, f, &st);
	fclose(f);
	altr_asm_free(u);
	free(u);
	altr_rules_free(&rs);
	if (rc != 0) {
		free(out);
		return NULL;
	}
	return out;
}

START_TEST(untouched_lines_are_byte_exact)
{
	const char *in = "\t.text\n  f :\n\tmovq   (%rax) ,%rbx\t# x\n\n"
	                 "\tret   \n\t.byte 1 ; .byte 2\n";
	char *out = run("rule r { match store\n before { nop } }\n", in);
	ck_assert_str_eq(out, in);
	free(out);
}
END_TEST

START_TEST(placement_and_substitution)
{
	const char *rules =
	        "rule a priority 5 { match load && mem\n"
	        "  before { lea ${addr}, %r12 # ${size} ${base} ${index} ${scale} ${disp}\n }\n"
	        "  after { nop # ${1} ${2} ${mnemonic} }\n"
	        "}\n"
	        "rule b { match load\n before { ud2 } }\n";
	char *out = run(rules, "\t.text\n\tmovl 8(%rax,%rbx,4), %ecx\n");
	ck_assert_str_eq(out,
	                 "\t.text\n"
	                 "\tlea 8(%rax,%rbx,4), %r12 # 4 %rax %rbx 4 8\n"
	                 "\tud2\n"
	                 "\tmovl 8(%rax,%rbx,4), %ecx\n"
	                 "\tnop # 8(%rax,%rbx,4) %ecx movl\n");
	free(out);
}
END_TEST

START_TEST(final_and_replace)
{
	const char *rules =
	        "rule first priority 2 { match load\n final\n replace { movl $0, %ecx } }\n"
	        "rule never { match load\n before { ud2 } }\n";
	char *out = run(rules, "\t.text\n\tmovl (%rax), %ecx\n");
	ck_assert_str_eq(out, "\t.text\n\tmovl $0, %ecx\n");
	free(out);
}
END_TEST

START_TEST(flags_alternatives)
{
	/* Flags are live between cmp and jne: the load there gets the
	 * flag-preserving variant. */
	const char *rules =
	        "rule r { match load && mem\n"
	        "  when flags_live { before { pushfq } }\n"
	        "  else { before { nop } }\n"
	        "}\n";
	char *out = run(rules,
	                "\t.text\n\t.type f, @function\nf:\n"
	                "\tmovl (%rdi), %eax\n"
	                "\tcmpl $1, %eax\n"
	                "\tmovl (%rsi), %edx\n"
	                "\tjne .L1\n"
	                "\tret\n.L1:\n\tret\n\t.size f, .-f\n");
	ck_assert_ptr_nonnull(strstr(out, "\tnop\n\tmovl (%rdi), %eax\n"));
	ck_assert_ptr_nonnull(strstr(out, "\tpushfq\n\tmovl (%rsi), %edx\n"));
	free(out);
}
END_TEST

START_TEST(labels_are_fresh)
{
	const char *rules =
	        "rule r { match load\n before { jmp ${label}\n${label}:\n } }\n";
	char *out = run(rules, "\t.text\n\tmovl (%rax), %ecx\n\tmovl (%rbx), %ecx\n");
	ck_assert_str_eq(out,
	                 "\t.text\n"
	                 "\tjmp .LR1_0\n\t.LR1_0:\n\tmovl (%rax), %ecx\n"
	                 "\tjmp .LR2_0\n\t.LR2_0:\n\tmovl (%rbx), %ecx\n");
	free(out);
}
END_TEST

START_TEST(code_goes_before_a_prefix_line)
{
	char *out = run("rule r { match string\n before { nop } }\n",
	                "\t.text\n\trep\n\tstosq\n");
	ck_assert_str_eq(out, "\t.text\n\tnop\n\trep\n\tstosq\n");
	free(out);
}
END_TEST

START_TEST(loc_stays_before_the_group)
{
	char *out = run("rule r { match load\n before { nop } }\n",
	                "\t.text\n\t.loc 1 3 5\n\tmovl (%rax), %ecx\n");
	ck_assert_str_eq(out, "\t.text\n\t.loc 1 3 5\n\tnop\n\tmovl (%rax), %ecx\n");
	free(out);
}
END_TEST

START_TEST(cfi_adjusted_for_pushes)
{
	const char *rules = "rule r { match load && mem\n before { pushfq\n popfq } }\n";
	char *out = run(rules,
	                "\t.text\nf:\n\t.cfi_startproc\n\tmovl (%rax), %ecx\n"
	                "\tpushq %rbp\n\t.cfi_def_cfa_register %rbp\n"
	                "\tmovl (%rbx), %ecx\n\t.cfi_endproc\n");
	ck_assert_ptr_nonnull(strstr(out,
	        "\tpushfq\n\t.cfi_adjust_cfa_offset 8\n\tpopfq\n"
	        "\t.cfi_adjust_cfa_offset -8\n\tmovl (%rax), %ecx\n"));
	/* With the CFA on %rbp, no adjustment. */
	ck_assert_ptr_nonnull(strstr(out, "\tpushfq\n\tpopfq\n\tmovl (%rbx), %ecx\n"));
	free(out);
}
END_TEST

/* altr_buf_putl writes the label numbers: as "%ld" would, around every
 * power of ten (where its digit count changes) and at the extremes. */
START_TEST(decimal_numbers)
{
	long v[] = {0, LONG_MAX, LONG_MIN, LONG_MIN + 1};
	char want[32];
	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		struct altr_buf b = {0};
		altr_buf_putl(&b, v[i]);
		snprintf(want, sizeof want, "%ld", v[i]);
		ck_assert_str_eq(b.p, want);
		altr_buf_free(&b);
	}
	for (long p = 1; p > 0 && p <= LONG_MAX / 10; p *= 10)
		for (long d = -2; d <= 2; d++)
			for (int sign = -1; sign <= 1; sign += 2) {
				struct altr_buf b = {0};
				altr_buf_putl(&b, sign * (p + d));
				snprintf(want, sizeof want, "%ld", sign * (p + d));
				ck_assert_str_eq(b.p, want);
				altr_buf_free(&b);
			}
}
END_TEST

/* A regex ending in '$' is tried only on subjects that end as one of its
 * matches must (a prefilter): these must not differ from regexec. */
START_TEST(regex_tails)
{
	const char *rules =
	        "rule t { match insn =~ /,[[:space:]]*%r1[3-5][dwb]?$/\n"
	        "  before { nop # t } }\n"
	        "rule g { match insn =~ /(%rax|%rbx)$/\n  before { nop # g } }\n"
	        "rule a { match insn =~ /%rcx$|^pushq/\n  before { nop # a } }\n";
	char *out = run(rules, "\t.text\n"
	                       "\tmovq %rax, %r13\n"
	                       "\tmovq %rax,%r14d\n"
	                       "\tmovq %r13, %rax\n"
	                       "\taddw $5, %r15w\n"
	                       "\tpushq %rdx\n"
	                       "\tmovq %rdx, %rcx\n");
	ck_assert_str_eq(out, "\t.text\n"
	                      "\tnop # t\n\tmovq %rax, %r13\n"
	                      "\tnop # t\n\tmovq %rax,%r14d\n"
	                      "\tnop # g\n\tmovq %r13, %rax\n"
	                      "\tnop # t\n\taddw $5, %r15w\n"
	                      "\tnop # a\n\tpushq %rdx\n"
	                      "\tnop # a\n\tmovq %rdx, %rcx\n");
	free(out);
}
END_TEST

START_TEST(mnemonic_settles_only_what_it_decides)
{
	/* rules whose outcome the mnemonic alone may settle (match.c
	 * mn_dead): skipped only where it settles them as false */
	const char *rules =
	        "rule a { match mnemonic =~ /^movq$/ || load\n  before { nop # a } }\n"
	        "rule b { match !(mnemonic =~ /^addq$/) && store\n  before { nop # b } }\n"
	        "rule c { match mnemonic =~ /^(rdrand|rdseed)q?$/ && op1 =~ /^%r(..)$/\n"
	        "  before { nop # c ${c1} } }\n"
	        "rule d { match !(mnemonic =~ /^(movq|addq|addl)$/)\n  before { nop # d } }\n";
	char *out = run(rules, "\t.text\n"
	                       "\tmovq %rax, %rbx\n"
	                       "\taddl (%rax), %ebx\n"
	                       "\taddq %rax, (%rbx)\n"
	                       "\taddl %eax, (%rbx)\n"
	                       "\trdrand %rax\n"
	                       "\taddl $1, %eax\n");
	ck_assert_str_eq(out, "\t.text\n"
	                      "\tnop # a\n\tmovq %rax, %rbx\n"
	                      "\tnop # a\n\taddl (%rax), %ebx\n"
	                      "\tnop # a\n\taddq %rax, (%rbx)\n"
	                      "\tnop # a\n\tnop # b\n\taddl %eax, (%rbx)\n"
	                      "\tnop # c ax\n\tnop # d\n\trdrand %rax\n"
	                      "\taddl $1, %eax\n");
	free(out);
}
END_TEST

START_TEST(shared_code_only_where_substitutions_agree)
{
	/* A plan takes the code of an earlier one when the same rules
	 * applied with the same substitutions; its label numbers are its
	 * own all the same.  Lines 1 and 2 differ only in a register no
	 * template shows: one code.  Line 3 differs in the capture and the
	 * size, line 4 in the memory operand, line 5 in nothing but the
	 * statement, which its rule's template shows. */
	const char *rules =
	        "rule r { match load && mnemonic =~ /^mov(.)$/\n"
	        "  before { jmp ${label}\n${label}: # ${mem} ${c1} ${size}\n } }\n"
	        "rule s { match load && mnemonic =~ /^add/\n before { nop # ${0}\n } }\n";
	char *out = run(rules, "\t.text\n\tmovl 8(%rax), %ecx\n\tmovl 8(%rax), %edx\n"
	                       "\tmovq 8(%rax), %rdx\n\tmovl 16(%rax), %ecx\n"
	                       "\taddl 8(%rax), %ecx\n\taddl 8(%rax), %edx\n");
	ck_assert_str_eq(out,
	                 "\t.text\n"
	                 "\tjmp .LR1_0\n\t.LR1_0: # 8(%rax) l 4\n\tmovl 8(%rax), %ecx\n"
	                 "\tjmp .LR2_0\n\t.LR2_0: # 8(%rax) l 4\n\tmovl 8(%rax), %edx\n"
	                 "\tjmp .LR3_0\n\t.LR3_0: # 8(%rax) q 8\n\tmovq 8(%rax), %rdx\n"
	                 "\tjmp .LR4_0\n\t.LR4_0: # 16(%rax) l 4\n\tmovl 16(%rax), %ecx\n"
	                 "\tnop # addl 8(%rax), %ecx\n\taddl 8(%rax), %ecx\n"
	                 "\tnop # addl 8(%rax), %edx\n\taddl 8(%rax), %edx\n");
	free(out);
}
END_TEST

START_TEST(missing_substitution_is_an_error)
{
	altr_quiet_warnings = true;
	/* ${mem} has no value for an instruction without a memory operand. */
	char *out = run("rule r { match ret\n before { nop ${mem} } }\n",
	                "\t.text\n\tret\n");
	ck_assert_ptr_null(out);
}
END_TEST

Suite *suite_emit(void)
{
	Suite *s = suite_create("emit");
	TCase *tc = tcase_create("rules");
	tcase_add_test(tc, untouched_lines_are_byte_exact);
	tcase_add_test(tc, placement_and_substitution);
	tcase_add_test(tc, final_and_replace);
	tcase_add_test(tc, flags_alternatives);
	tcase_add_test(tc, labels_are_fresh);
	tcase_add_test(tc, code_goes_before_a_prefix_line);
	tcase_add_test(tc, loc_stays_before_the_group);
	tcase_add_test(tc, cfi_adjusted_for_pushes);
	tcase_add_test(tc, decimal_numbers);
	tcase_add_test(tc, regex_tails);
	tcase_add_test(tc, mnemonic_settles_only_what_it_decides);
	tcase_add_test(tc, missing_substitution_is_an_error);
	tcase_add_test(tc, shared_code_only_where_substitutions_agree);
	suite_add_tcase(s, tc);
	return s;
}
