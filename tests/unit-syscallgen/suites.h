/* suites.h: the Check suites of syscallgen's unit tests. */
#ifndef SG_SUITES_H
#define SG_SUITES_H
#include <check.h>
Suite *parse_suite(void);
Suite *gen_suite(void);
#endif
