/* test_regs.c: the register table. */
#include "suites.h"

START_TEST(lookup_families)
{
	int r = altr_reg_lookup("eax", 3);
	ck_assert_int_ge(r, 0);
	ck_assert_int_eq(altr_regs[r].num, 0);
	ck_assert_int_eq(altr_regs[r].size, 4);
	r = altr_reg_lookup("R13B", 4);
	ck_assert_int_ge(r, 0);
	ck_assert_int_eq(altr_regs[r].num, 13);
	ck_assert_int_eq(altr_regs[r].size, 1);
	r = altr_reg_lookup("st (3)", 6);
	ck_assert_int_ge(r, 0);
	ck_assert_int_eq(altr_regs[r].cls, RC_X87);
	ck_assert_int_eq(altr_regs[r].num, 3);
	ck_assert_int_eq(altr_reg_lookup("rsx", 3), -1);
	ck_assert_int_eq(altr_reg_lookup("", 0), -1);
	r = altr_reg_lookup("ah", 2);
	ck_assert(altr_regs[r].high8);
	r = altr_reg_lookup("zmm31", 5);
	ck_assert_int_eq(altr_regs[r].size, 64);
}
END_TEST

START_TEST(every_name_round_trips)
{
	for (int i = 0; i < altr_nregs; i++)
		ck_assert_int_eq(altr_reg_lookup(altr_regs[i].name,
		                                 strlen(altr_regs[i].name)), i);
}
END_TEST

Suite *suite_regs(void)
{
	Suite *s = suite_create("regs");
	TCase *tc = tcase_create("lookup");
	tcase_add_test(tc, lookup_families);
	tcase_add_test(tc, every_name_round_trips);
	suite_add_tcase(s, tc);
	return s;
}
