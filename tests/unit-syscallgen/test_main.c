/* test_main.c: runs syscallgen's Check suites (parser and checks, then the
 * generated table). CK_FORK=no runs them in-process under a debugger. */
#include <stdlib.h>
#include "suites.h"

int main(void)
{
  SRunner *sr = srunner_create(parse_suite());
  srunner_add_suite(sr, gen_suite());
  srunner_run_all(sr, CK_ENV);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
