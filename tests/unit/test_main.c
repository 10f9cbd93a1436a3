/* test_main.c: runs every altr unit suite; exit status is the verdict. */
#include <stdlib.h>
#include <string.h>
#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(suite_regs());
	srunner_add_suite(sr, suite_asm());
	srunner_add_suite(sr, suite_insndb());
	srunner_add_suite(sr, suite_analyze());
	srunner_add_suite(sr, suite_rules());
	srunner_add_suite(sr, suite_emit());
	srunner_add_suite(sr, suite_prefilter());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
