/* suites.h: one Check suite per altr source file; test_main.c runs them. */
#ifndef SUITES_H
#define SUITES_H
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "altr.h"

Suite *suite_regs(void);
Suite *suite_asm(void);
Suite *suite_insndb(void);
Suite *suite_analyze(void);
Suite *suite_rules(void);
Suite *suite_emit(void);
Suite *suite_prefilter(void);

/* Reads text as a unit (copying it); for tests. */
static inline struct altr_unit *test_read_unit(const char *text)
{
	struct altr_unit *u = altr_xcalloc(1, sizeof *u);
	size_t n = strlen(text);
	altr_asm_read(u, "<test>", altr_xstrndup(text, n), n);
	return u;
}
#endif
