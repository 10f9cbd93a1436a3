/* test_prefilter.c: the regex prefilter (prefilter.c) and the regex test
 * built on it (regex.c) against regexec itself.  Every regex below, on
 * every subject made from pieces of them, must give regexec's verdict and
 * captures; a subject the filter turns away must be one regexec does not
 * match. */
#include "suites.h"

/* The shipped rules' and golden cases' regexes, and some the filter must
 * get right in its corners: alternations of prefixes, anchors, classes,
 * repeats, literals that run into one another, escapes. */
static const char *const regexes[] = {
	"%r12", "%r12|,", "%r1[2-5]|%gs", "%r1[3-5]",
	",[[:space:]]*%r1[3-5][dwb]?$", "@gottpoff", "\\{%k[1-7]\\}",
	"^%([abcd]x|[sd]i|bp|r(8|9|1[01])w)$", "^%(e..|r(8|9|1[01])d)$",
	"^%(r..)$", "^%r([abcd]x|[sd]i|bp|8|9|1[01])$", "^%r1[3-5][dwb]?$",
	"^%r[sb]p$", "^%rsp$", "^(mov)([bwlq])$", "^(rdrand|rdseed)l?$",
	"^(rdtsc|rdtscp|cpuid)$", "^(xchg|xadd|cmpxchg|mulx)", "^\\.L1$",
	"^__tls_get_addr", "^jmp\t\\.L2$", "^lea", "^leaq?$", "^mov",
	"^movb$", "^movq?$", "^syscall$", "jmp\t\\.L3", "maskmov",
	"a|bc|d", "ab|abc", "abc|ab", "^(a|bc)$", "^a|bc$", "abc$", "x*y",
	"(ab)+c", "[a-c]x", "a.b", "^$", "a?", "(a|b)*", "\\.L[0-9]+",
	"^mov[bwlq]?$", "%r(ax|bx)|%e", "(abc|ab)(c|bcd)", "[[:digit:]]+q",
	"^(jmp|call)", "x{2}", "a\\|b", "[^a]b", "$", "^", "(^a|b$)", "mov|movl",
	"(mov)(l|q)", "q$|^l", "[.]L1", "\\$1", "a\\.b|c", "((a))", "(a|)b",
	"lea(q)?", "^(a|ab)(c|bcd)$", "%r[0-9]+d?$", "(%rsp)|(%rbp)",
};

/* Pieces the subjects are made of: bytes and words of the regexes above,
 * so that most regexes match some subjects and nearly miss others. */
static const char *const pieces[] = {
	"a", "b", "c", "d", "x", "y", "q", "l", "w", "e", "mov", "lea", "%r",
	"%e", "ax", "bx", "sp", "bp", "di", "12", "13", "1", "5", "8", "0",
	".L", "L", "2", "3", "@gottpoff", " ", ",", "\t", "(", ")", "$", "^",
	"jmp", "call", "rdrand", "rdtsc", "p", "cpuid", "{%k1}", "%gs", "|",
	".", "_", "__tls_get_addr", "xchg", "syscall", "mask", "movq", "ab",
};

enum { NSUBJ = 4000 };

/* A fixed pseudo-random sequence: the same subjects every run. */
static unsigned next_rand(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 16;
}

static char **make_subjects(void)
{
	char **s = altr_xcalloc(NSUBJ, sizeof *s);
	unsigned seed = 1;
	size_t np = sizeof pieces / sizeof pieces[0];
	for (int i = 0; i < NSUBJ; i++) {
		char buf[256] = "";
		int n = (int)(next_rand(&seed) % 7);
		for (int k = 0; k < n; k++)
			strcat(buf, pieces[next_rand(&seed) % np]);
		s[i] = altr_xstrndup(buf, strlen(buf));
	}
	return s;
}

/* An EX_MATCH node as the rules parser makes one. */
static struct altr_expr *make_expr(const char *re)
{
	struct altr_expr *e = altr_xcalloc(1, sizeof *e);
	e->op = EX_MATCH;
	e->subj = SUBJ_OP;
	e->opnd = 1;
	ck_assert_msg(regcomp(&e->re, re, REG_EXTENDED) == 0, "regcomp %s", re);
	e->re_src = altr_xstrndup(re, strlen(re));
	e->nsub = (int)e->re.re_nsub;
	altr_prefilter_make(e);
	return e;
}

static void free_expr(struct altr_expr *e)
{
	regfree(&e->re);
	free(e->re_src);
	free(e->filter);
	free(e);
}

/* The filter never turns away a subject regexec matches, and the regex
 * test gives regexec's verdict and captures, with and without its caches
 * and memo (each subject tested twice: the second answer remembered). */
START_TEST(prefilter_agrees_with_regexec)
{
	char **subj = make_subjects();
	int nfiltered = 0, nturned = 0, nmatched = 0;
	for (size_t r = 0; r < sizeof regexes / sizeof regexes[0]; r++) {
		/* (a memo per regex: its keys are the expressions' addresses) */
		altr_regex_memo_begin();
		struct altr_expr *e = make_expr(regexes[r]);
		const struct altr_refilter *f = e->filter;
		nfiltered += f != NULL;
		struct altr_regex_cache *cache = altr_regex_cache_new();
		for (int i = 0; i < NSUBJ; i++) {
			struct altr_str t = {subj[i], strlen(subj[i])};
			regmatch_t m[10];
			bool hit = regexec(&e->re, subj[i], 10, m, 0) == 0;
			nmatched += hit;
			bool may = altr_prefilter_may_match(e, t);
			nturned += !may;
			ck_assert_msg(may || !hit, "/%s/ on '%s': filter turned a match away",
			              regexes[r], subj[i]);
			if (f && f->whole)
				ck_assert_msg((altr_prefilter_whole(f, t) >= 0) || !hit,
				              "/%s/ on '%s': not in the whole set", regexes[r],
				              subj[i]);
			for (int pass = 0; pass < 4; pass++) {
				struct altr_str caps[10];
				struct altr_regex_cache *c = pass < 2 ? cache : NULL;
				bool got = altr_regex_test(e, t, caps, c);
				ck_assert_msg(got == hit, "/%s/ on '%s' (pass %d): %d, regexec %d",
				              regexes[r], subj[i], pass, got, hit);
				for (int k = 0; hit && k < 10; k++) {
					bool none = m[k].rm_so < 0;
					ck_assert_msg(none ? caps[k].len == 0 :
					              caps[k].p == subj[i] + m[k].rm_so &&
					              caps[k].len == (size_t)(m[k].rm_eo - m[k].rm_so),
					              "/%s/ on '%s' (pass %d): capture %d differs",
					              regexes[r], subj[i], pass, k);
				}
			}
		}
		free(cache);
		free_expr(e);
		altr_regex_memo_end();
	}
	for (int i = 0; i < NSUBJ; i++)
		free(subj[i]);
	free(subj);
	/* not vacuous: most regexes have a filter, and it turns subjects
	 * away that regexec would have been called on */
	ck_assert_int_gt(nfiltered, (int)(sizeof regexes / sizeof regexes[0]) / 2);
	ck_assert_int_gt(nturned, NSUBJ);
	ck_assert_int_gt(nmatched, NSUBJ);
}
END_TEST

/* With the shortcuts off there is no filter: regexec decides alone. */
START_TEST(no_filter_without_shortcuts)
{
	altr_shortcuts = false;
	struct altr_expr *e = make_expr("%r12|,");
	altr_shortcuts = true;
	ck_assert_ptr_null(e->filter);
	free_expr(e);
	e = make_expr("%r12|,");
	ck_assert_ptr_nonnull(e->filter);
	free_expr(e);
}
END_TEST

Suite *suite_prefilter(void)
{
	Suite *s = suite_create("prefilter");
	TCase *tc = tcase_create("regexec");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, prefilter_agrees_with_regexec);
	tcase_add_test(tc, no_filter_without_shortcuts);
	suite_add_tcase(s, tc);
	return s;
}
