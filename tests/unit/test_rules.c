/* test_rules.c: the rules language: files that parse into the expected AST,
 * every error with its exact FILE:LINE:COL, includes, -D, templates. */
#include "suites.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[64];

/* The shipped rules folder: $ALTR_TEST_RULES (ctest sets it), else found
 * from this file's path (CMake compiles it by absolute path). */
static const char *rules_dir(void)
{
	static char dir[512];
	const char *env = getenv("ALTR_TEST_RULES");
	if (env)
		return env;
	snprintf(dir, sizeof dir, "%s", __FILE__);
	char *p = strstr(dir, "tests/unit/test_rules.c");
	if (!p)
		return "rules";
	strcpy(p, "rules");
	return dir;
}

static void setup(void)
{
	strcpy(tmpdir, "/tmp/test_rulesXXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Writes n bytes of text to tmpdir/name; returns the path (static). */
static const char *put_n(const char *name, const char *text, size_t n)
{
	static char path[8][128];
	static int k;
	char *p = path[k++ % 8];
	snprintf(p, 128, "%s/%s", tmpdir, name);
	char *slash = strrchr(p, '/');
	if (slash > p + strlen(tmpdir)) { /* a subfolder */
		*slash = 0;
		mkdir(p, 0700);
		*slash = '/';
	}
	FILE *f = fopen(p, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, n, f), n);
	fclose(f);
	return p;
}

static const char *put(const char *name, const char *text)
{
	return put_n(name, text, strlen(text));
}

/* Loads path with stderr captured into err (NUL-terminated). */
static int load_err(struct altr_ruleset *rs, const char *path, char *err,
                    size_t n)
{
	char ep[128];
	snprintf(ep, sizeof ep, "%s/stderr", tmpdir);
	fflush(stderr);
	int saved = dup(2);
	FILE *f = fopen(ep, "w+");
	ck_assert_ptr_nonnull(f);
	dup2(fileno(f), 2);
	int rc = altr_rules_load(rs, path);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	size_t got = fread(err, 1, n - 1, f);
	err[got] = 0;
	fclose(f);
	return rc;
}

/* Loads text as tmpdir/name; must succeed with no output. */
static void load_ok(struct altr_ruleset *rs, const char *text)
{
	char err[1024];
	int rc = load_err(rs, put("ok.rules", text), err, sizeof err);
	ck_assert_msg(rc == 0 && !err[0], "load failed: %s", err);
}

static const struct altr_expr *match_of(const struct altr_ruleset *rs, int i)
{
	const struct altr_rule *r = rs->rules;
	while (i-- && r)
		r = r->next;
	ck_assert_ptr_nonnull(r);
	return r->match;
}

static int reg(const char *name)
{
	return altr_reg_lookup(name, strlen(name));
}

/* ------------------------------------------------------------- tables */

START_TEST(pred_table)
{
	for (int i = 0; i < PRED_COUNT; i++) {
		ck_assert_int_eq(altr_pred_lookup(altr_pred_names[i]), i);
		ck_assert_ptr_nonnull(altr_pred_docs[i]);
	}
	ck_assert_ptr_null(altr_pred_names[PRED_COUNT]);
	ck_assert_int_eq(altr_pred_lookup("nope"), -1);
	ck_assert_int_eq(altr_pred_lookup("load"), PRED_load);
}
END_TEST

/* docs/rules.md lists every predicate of preds.def. */
START_TEST(docs_list_every_pred)
{
	char path[600];
	snprintf(path, sizeof path, "%s/../docs/rules.md", rules_dir());
	size_t len;
	char *doc = altr_read_file(path, &len);
	ck_assert_msg(doc != NULL, "cannot read %s", path);
	for (int i = 0; i < PRED_COUNT; i++) {
		char want[64];
		snprintf(want, sizeof want, "| `%s` |", altr_pred_names[i]);
		ck_assert_msg(strstr(doc, want), "docs/rules.md lacks %s", want);
	}
	free(doc);
}
END_TEST

START_TEST(tmpl_names)
{
	struct altr_ruleset rs = {0};
	const char *ok[] = {"0", "1", "5", "9", "mem", "addr", "size", "base",
	                    "index", "scale", "disp", "seg", "mnemonic",
	                    "label", "label1", "label9", "c1", "c9", "sfx",
	                    "sreg:r13", "sreg:rax"};
	const char *bad[] = {"", "10", "label0", "label10", "c0", "c10", "x",
	                     "sreg:eax", "sreg:xmm0", "sreg:", "MEM", " 0"};
	for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
		ck_assert_msg(altr_tmpl_name_ok(&rs, ok[i]), "%s", ok[i]);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ck_assert_msg(!altr_tmpl_name_ok(&rs, bad[i]), "%s", bad[i]);
	altr_rules_define(&rs, "x", "1");
	ck_assert(altr_tmpl_name_ok(&rs, "x"));
	altr_rules_free(&rs);
}
END_TEST

/* ------------------------------------------------------ valid files */

START_TEST(shipped_files)
{
	const char *dir = rules_dir();
	char path[600];
	struct altr_ruleset rs = {0};
	char err[1024];
	snprintf(path, sizeof path, "%s/identity.rules", dir);
	ck_assert_int_eq(load_err(&rs, path, err, sizeof err), 0);
	ck_assert_int_eq(rs.nrules, 0);
	ck_assert_ptr_null(rs.rules);

	snprintf(path, sizeof path, "%s/count-loads.rules", dir);
	ck_assert_int_eq(load_err(&rs, path, err, sizeof err), 0);
	ck_assert_int_eq(rs.nrules, 1);
	const struct altr_rule *r = rs.rules;
	ck_assert_str_eq(r->name, "count-loads");
	ck_assert_int_eq(r->match->op, EX_PRED);
	ck_assert_int_eq(r->match->pred, PRED_load);
	ck_assert_str_eq(altr_rules_var(&rs, "COUNTER"), "__altr_load_count");
	const struct altr_case *c = r->cases;
	ck_assert_int_eq(c->when->op, EX_PRED);
	ck_assert_int_eq(c->when->pred, PRED_flags_dead);
	ck_assert_int_eq(c->actions->place, PLACE_BEFORE);
	ck_assert_str_eq(c->actions->tmpl, "incq ${COUNTER}(%rip)");
	ck_assert_ptr_null(c->actions->next);
	c = c->next;
	ck_assert_ptr_null(c->when);
	ck_assert_str_eq(c->actions->tmpl,
	                 "lea -128(%rsp), %rsp\npushfq\nincq ${COUNTER}(%rip)\n"
	                 "popfq\nlea 128(%rsp), %rsp");
	ck_assert_ptr_null(c->next);
	altr_rules_free(&rs);

	snprintf(path, sizeof path, "%s/trace.rules", dir);
	if (access(path, R_OK) == 0) { /* the tracing rules parse too */
		int rc = load_err(&rs, path, err, sizeof err);
		ck_assert_msg(rc == 0, "%s", err);
		altr_rules_free(&rs);
	}
}
END_TEST

START_TEST(priority_order)
{
	struct altr_ruleset rs = {0};
	load_ok(&rs, "rule a { match load }\n"
	             "rule b priority 5 { match load }\n"
	             "rule c priority 5 { match load }\n"
	             "rule d priority -1 { match load }\n"
	             "rule e priority 0x10 { match load }\n");
	load_ok(&rs, "rule f priority 5 { match load }\n");
	ck_assert_int_eq(rs.nrules, 6);
	altr_rules_finish(&rs);
	const char *want = "ebcfad";
	int prio[] = {16, 5, 5, 5, 0, -1}, order[] = {4, 1, 2, 5, 0, 3};
	int i = 0;
	for (const struct altr_rule *r = rs.rules; r; r = r->next, i++) {
		ck_assert_int_eq(r->name[0], want[i]);
		ck_assert_int_eq(r->priority, prio[i]);
		ck_assert_int_eq(r->order, order[i]);
	}
	ck_assert_int_eq(i, 6);
	altr_rules_free(&rs);
	ck_assert_int_eq(rs.nrules, 0);
}
END_TEST

START_TEST(expr_shapes)
{
	struct altr_ruleset rs = {0};
	load_ok(&rs, "rule a { match load && !store || rmw; }\n"
	             "rule b { match load || store && rmw }\n"
	             "rule c { match !(load || true) && false }\n"
	             "rule d { match (((mem))) }\n");
	const struct altr_expr *e = match_of(&rs, 0);
	ck_assert_int_eq(e->op, EX_OR);
	ck_assert_int_eq(e->l->op, EX_AND);
	ck_assert_int_eq(e->l->l->pred, PRED_load);
	ck_assert_int_eq(e->l->r->op, EX_NOT);
	ck_assert_int_eq(e->l->r->l->pred, PRED_store);
	ck_assert_ptr_null(e->l->r->r);
	ck_assert_int_eq(e->r->op, EX_PRED);
	ck_assert_int_eq(e->r->pred, PRED_rmw);
	e = match_of(&rs, 1);
	ck_assert_int_eq(e->op, EX_OR);
	ck_assert_int_eq(e->l->pred, PRED_load);
	ck_assert_int_eq(e->r->op, EX_AND);
	e = match_of(&rs, 2);
	ck_assert_int_eq(e->op, EX_AND);
	ck_assert_int_eq(e->l->op, EX_NOT);
	ck_assert_int_eq(e->l->l->op, EX_OR);
	ck_assert_int_eq(e->l->l->r->op, EX_TRUE);
	ck_assert_int_eq(e->r->op, EX_NOT); /* false is !true */
	ck_assert_int_eq(e->r->l->op, EX_TRUE);
	e = match_of(&rs, 3);
	ck_assert_int_eq(e->op, EX_PRED);
	ck_assert_int_eq(e->pred, PRED_mem);
	altr_rules_free(&rs);
}
END_TEST

START_TEST(comparisons)
{
	struct altr_ruleset rs = {0};
	load_ok(&rs, "rule a { match size >= 8 && scale != 0x4 && nops < 3 }\n"
	             "rule b { match base == %RSP || seg != none }\n"
	             "rule c { match index == %xmm3 && base == %rip "
	             "&& seg == %fs && size <= -1 && size > 0 && nops == 0 }\n");
	const struct altr_expr *e = match_of(&rs, 0);
	ck_assert_int_eq(e->l->l->op, EX_CMP);
	ck_assert_int_eq(e->l->l->field, FIELD_SIZE);
	ck_assert_int_eq(e->l->l->cmp, CMP_GE);
	ck_assert_int_eq(e->l->l->num, 8);
	ck_assert(!e->l->l->is_reg);
	ck_assert_int_eq(e->l->r->field, FIELD_SCALE);
	ck_assert_int_eq(e->l->r->cmp, CMP_NE);
	ck_assert_int_eq(e->l->r->num, 4);
	ck_assert_int_eq(e->r->field, FIELD_NOPS);
	ck_assert_int_eq(e->r->cmp, CMP_LT);
	e = match_of(&rs, 1);
	ck_assert_int_eq(e->l->field, FIELD_BASE);
	ck_assert(e->l->is_reg);
	ck_assert_int_eq(e->l->reg, reg("rsp"));
	ck_assert_int_eq(e->r->field, FIELD_SEG);
	ck_assert(e->r->is_reg);
	ck_assert_int_eq(e->r->reg, -1);
	ck_assert_int_eq(e->r->cmp, CMP_NE);
	e = match_of(&rs, 2); /* ((((( index && base) && seg) && le) && gt) && eq) */
	ck_assert_int_eq(e->r->cmp, CMP_EQ);
	ck_assert_int_eq(e->r->num, 0);
	ck_assert_int_eq(e->l->r->cmp, CMP_GT);
	ck_assert_int_eq(e->l->l->r->cmp, CMP_LE);
	ck_assert_int_eq(e->l->l->r->num, -1);
	ck_assert_int_eq(e->l->l->l->r->reg, reg("fs"));
	ck_assert_int_eq(e->l->l->l->l->r->reg, reg("rip"));
	ck_assert_int_eq(e->l->l->l->l->l->reg, reg("xmm3"));
	ck_assert_int_eq(e->l->l->l->l->l->field, FIELD_INDEX);
	altr_rules_free(&rs);
}
END_TEST

START_TEST(regexes)
{
	struct altr_ruleset rs = {0};
	load_ok(&rs, "rule a { match mnemonic =~ /^mov(s)?(q)$/ }\n"
	             "rule b { match op2 !~ /\\/x\\.y/ && insn =~ /a#b/ "
	             "&& mem =~ /%fs:/ && op5 =~ /./ }\n");
	const struct altr_expr *e = match_of(&rs, 0);
	ck_assert_int_eq(e->op, EX_MATCH);
	ck_assert_int_eq(e->subj, SUBJ_MNEM);
	ck_assert(!e->negate);
	ck_assert_int_eq(e->nsub, 2);
	ck_assert_str_eq(e->re_src, "^mov(s)?(q)$");
	ck_assert_int_eq(regexec(&e->re, "movsq", 0, NULL, 0), 0);
	ck_assert_int_ne(regexec(&e->re, "movsl", 0, NULL, 0), 0);
	e = match_of(&rs, 1);
	const struct altr_expr *op2 = e->l->l->l;
	ck_assert_int_eq(op2->subj, SUBJ_OP);
	ck_assert_int_eq(op2->opnd, 2);
	ck_assert(op2->negate);
	ck_assert_str_eq(op2->re_src, "/x\\.y");
	ck_assert_int_eq(op2->nsub, 0);
	ck_assert_int_eq(regexec(&op2->re, "a/x.y", 0, NULL, 0), 0);
	ck_assert_int_eq(e->l->l->r->subj, SUBJ_INSN);
	ck_assert_str_eq(e->l->l->r->re_src, "a#b");
	ck_assert_int_eq(e->l->r->subj, SUBJ_MEM);
	ck_assert_int_eq(e->r->subj, SUBJ_OP);
	ck_assert_int_eq(e->r->opnd, 5);
	altr_rules_free(&rs);
}
END_TEST

START_TEST(cases)
{
	struct altr_ruleset rs = {0};
	load_ok(&rs,
	        "rule alt {\n"
	        "  match load\n"
	        "  final\n"
	        "  when flags_dead { before { a } after { b } }\n"
	        "  when size == 16 { replace { c } before { d } }\n"
	        "  else { after { e } }\n"
	        "}\n"
	        "rule plain { final match store before { f } replace { } "
	        "after { g }; }\n"
	        "rule none { match in_app; final list hooks_1 }\n"
	        "rule nowhen { match load when true { } }\n");
	const struct altr_rule *r = rs.rules;
	ck_assert_str_eq(r->name, "alt");
	ck_assert(r->final);
	ck_assert_ptr_null(r->list);
	ck_assert_int_eq(r->line, 1);
	const struct altr_case *c = r->cases;
	ck_assert_int_eq(c->when->pred, PRED_flags_dead);
	ck_assert_int_eq(c->actions->place, PLACE_BEFORE);
	ck_assert_str_eq(c->actions->tmpl, "a");
	ck_assert_int_eq(c->actions->line, 4);
	ck_assert_int_eq(c->actions->next->place, PLACE_AFTER);
	ck_assert_str_eq(c->actions->next->tmpl, "b");
	c = c->next;
	ck_assert_int_eq(c->when->field, FIELD_SIZE);
	ck_assert_int_eq(c->actions->place, PLACE_REPLACE);
	ck_assert_int_eq(c->actions->next->place, PLACE_BEFORE);
	c = c->next;
	ck_assert_ptr_null(c->when);
	ck_assert_str_eq(c->actions->tmpl, "e");
	ck_assert_ptr_null(c->next);

	r = r->next;
	ck_assert_str_eq(r->name, "plain");
	ck_assert(r->final);
	ck_assert_ptr_null(r->cases->when);
	ck_assert_ptr_null(r->cases->next);
	const struct altr_action *a = r->cases->actions;
	ck_assert_int_eq(a->place, PLACE_BEFORE);
	ck_assert_int_eq(a->next->place, PLACE_REPLACE);
	ck_assert_str_eq(a->next->tmpl, "");
	ck_assert_int_eq(a->next->next->place, PLACE_AFTER);
	ck_assert_ptr_null(a->next->next->next);

	r = r->next; /* no actions: one empty case, so "final" still works */
	ck_assert(r->final);
	ck_assert_str_eq(r->list, "hooks_1");
	ck_assert_ptr_nonnull(r->cases);
	ck_assert_ptr_null(r->cases->when);
	ck_assert_ptr_null(r->cases->actions);
	ck_assert_ptr_null(r->cases->next);

	r = r->next;
	ck_assert(!r->final);
	ck_assert_int_eq(r->cases->when->op, EX_TRUE);
	ck_assert_ptr_null(r->cases->actions);
	ck_assert_ptr_null(r->cases->next);
	altr_rules_free(&rs);
}
END_TEST

START_TEST(templates)
{
	struct altr_ruleset rs = {0};
	load_ok(&rs,
	        "var V = \"%r14\"\n"
	        "rule t {\n"
	        "  match load\n"
	        "  before {\n"
	        "\n"
	        "      vmovdqu64 ${1}, %zmm0{%k1}{z}   \n"
	        "\t${label}:  # a { brace } pair\n"
	        "\n"
	        "      lea ${addr}, ${V}; $${x} $$ $5\n"
	        "  }\n"
	        "  after {${0}}\n"
	        "}\n");
	const struct altr_action *a = rs.rules->cases->actions;
	ck_assert_str_eq(a->tmpl, "vmovdqu64 ${1}, %zmm0{%k1}{z}\n"
	                          "${label}:  # a { brace } pair\n"
	                          "lea ${addr}, ${V}; $${x} $$ $5");
	ck_assert_int_eq(a->line, 6);
	ck_assert_str_eq(a->file, rs.rules->file);
	ck_assert_str_eq(a->next->tmpl, "${0}");
	ck_assert_int_eq(a->next->line, 11);
	altr_rules_free(&rs);
}
END_TEST

START_TEST(variables)
{
	struct altr_ruleset rs = {0};
	altr_rules_define(&rs, "SHADOW", "%r15");
	altr_rules_define(&rs, "ONLY_D", "1");
	altr_rules_define(&rs, "ONLY_D", "2"); /* the last -D wins */
	load_ok(&rs, "var SHADOW = \"%r14\"\n"
	             "var OTHER = \"a \\\"q\\\" \\\\ b\"\n"
	             "var OTHER = \"a \\\"q\\\" \\\\ b\"  # same value: fine\n"
	             "rule r { match load before { ${SHADOW} ${OTHER} "
	             "${ONLY_D} } }\n");
	ck_assert_str_eq(altr_rules_var(&rs, "SHADOW"), "%r15");
	ck_assert_str_eq(altr_rules_var(&rs, "ONLY_D"), "2");
	ck_assert_str_eq(altr_rules_var(&rs, "OTHER"), "a \"q\" \\ b");
	ck_assert_ptr_null(altr_rules_var(&rs, "NOPE"));
	altr_rules_free(&rs);
	ck_assert_ptr_null(rs.vars);

	/* without -D the file's default holds */
	load_ok(&rs, "var SHADOW = \"%r14\"\n");
	ck_assert_str_eq(altr_rules_var(&rs, "SHADOW"), "%r14");
	altr_rules_define(&rs, "SHADOW", "%r13");
	ck_assert_str_eq(altr_rules_var(&rs, "SHADOW"), "%r13");
	altr_rules_free(&rs);
}
END_TEST

START_TEST(includes)
{
	struct altr_ruleset rs = {0};
	put("sub/b.rules", "include \"c.rules\"\nvar B = \"b\"\n"
	                   "rule b { match store }\n");
	put("sub/c.rules", "rule c { match rmw before { ${A} } }\n");
	put("d.rules", "include \"sub/c.rules\"\nrule d { match pop }\n");
	const char *a = put("a.rules", "var A = \"a\"\n"
	                               "rule a1 { match load }\n"
	                               "include \"sub/b.rules\"\n"
	                               "rule a2 { match load before { ${B} } }\n"
	                               "include \"d.rules\"\n");
	char err[1024];
	int rc = load_err(&rs, a, err, sizeof err);
	ck_assert_msg(rc == 0, "%s", err);
	/* c is read once, though both b and d include it */
	const char *want[] = {"a1", "c", "b", "a2", "d"};
	int i = 0;
	for (const struct altr_rule *r = rs.rules; r; r = r->next, i++) {
		ck_assert_str_eq(r->name, want[i]);
		ck_assert_int_eq(r->order, i);
	}
	ck_assert_int_eq(i, 5);
	ck_assert_int_eq(rs.nrules, 5);
	ck_assert_ptr_nonnull(strstr(rs.rules->next->file, "sub/c.rules"));
	ck_assert_int_eq(rs.rules->next->line, 1);
	altr_rules_free(&rs);
}
END_TEST

START_TEST(include_cycles)
{
	struct altr_ruleset rs = {0};
	char err[1024], want[512];
	put("x.rules", "rule x { match load }\ninclude \"y.rules\"\n");
	put("y.rules", "\n  include \"z.rules\"\n");
	const char *z = put("z.rules", "include \"x.rules\"\n");
	const char *x = put("x.rules", "rule x { match load }\ninclude \"y.rules\"\n");
	ck_assert_int_eq(load_err(&rs, x, err, sizeof err), -1);
	snprintf(want, sizeof want, "altr:%s:1:9: include cycle: '%s/x.rules' "
	         "is already being read\n", z, tmpdir);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(rs.nrules, 0);
	ck_assert_ptr_null(rs.rules);

	const char *self = put("self.rules", "# me\ninclude \"self.rules\"\n");
	ck_assert_int_eq(load_err(&rs, self, err, sizeof err), -1);
	snprintf(want, sizeof want, "altr:%s:2:9: include cycle", self);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);

	const char *deep = put("deep.rules", "include \"./deep.rules\"\n");
	ck_assert_int_eq(load_err(&rs, deep, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "include cycle"));
	altr_rules_free(&rs);
}
END_TEST

/* A failed load leaves the ruleset as it was. */
START_TEST(rollback)
{
	struct altr_ruleset rs = {0};
	char err[1024];
	altr_rules_define(&rs, "D", "1");
	load_ok(&rs, "var A = \"a\"\nrule a { match load }\n");
	const char *bad = put("bad.rules", "var B = \"b\"\nrule b { match "
	                                   "store }\nrule c { match lod }\n");
	ck_assert_int_eq(load_err(&rs, bad, err, sizeof err), -1);
	ck_assert_int_eq(rs.nrules, 1);
	ck_assert_str_eq(rs.rules->name, "a");
	ck_assert_ptr_null(rs.rules->next);
	ck_assert_ptr_null(altr_rules_var(&rs, "B"));
	ck_assert_str_eq(altr_rules_var(&rs, "A"), "a");
	ck_assert_str_eq(altr_rules_var(&rs, "D"), "1");
	/* and the same file, fixed, loads afterwards */
	load_ok(&rs, "var B = \"b\"\nrule b { match store }\n");
	ck_assert_int_eq(rs.nrules, 2);
	ck_assert_int_eq(rs.rules->next->order, 1);
	altr_rules_free(&rs);
}
END_TEST

/* ---------------------------------------------------------- errors */

struct bad {
	const char *text;
	int line, col;           /* col 0: any */
	const char *msg;         /* the message starts with this */
};

static const struct bad bads[] = {
	{"rule x { match lod }", 1, 16,
	 "unknown predicate 'lod'; did you mean 'load'?"},
	{"rule x { match zzzzzzzz }", 1, 16, "unknown predicate 'zzzzzzzz'"},
	{"rule x {\n  match load\n  before { ${nope} }\n}", 3, 12,
	 "unknown substitution '${nope}'"},
	{"rule x {\n  match load\n  before {\n\tmov ${1}\n\tx ${c0} }\n}", 5, 4,
	 "unknown substitution '${c0}'"},
	{"rule x { match load before { ${abc\n } }", 1, 30,
	 "'${' without its '}'"},
	{"rule x { match load before { ${V} } }\nvar V = \"1\"", 1, 30,
	 "unknown substitution '${V}'"},
	{"rule x { match mnemonic =~ /(/ }", 1, 28, "bad regular expression: "},
	{"rule x { match load before {\n incq x", 1, 28,
	 "template opened here is not closed"},
	{"rule x { final }", 1, 1, "rule 'x' has no 'match'"},
	{"\n\n  rule x { }", 3, 3, "rule 'x' has no 'match'"},
	{"rule x { match load match store }", 1, 21, "a rule has one 'match'"},
	{"rule x { match load list a list b }", 1, 33, "a rule has one 'list': 'b'"},
	{"rule x { match load list a.b }", 1, 26, "a 'list' section name must be a C identifier"},
	{"rule x { match load list a-b }", 1, 26, "a 'list' section name must be a C identifier"},
	{"rule x { match load list }", 1, 26, "syntax error, unexpected '}', expecting identifier"},
	{"rule x { match load else { } when load { } }", 1, 30,
	 "'when' after 'else'"},
	{"rule x { match load else { } else { } }", 1, 30,
	 "a rule has one 'else'"},
	{"rule x { match load when load { } before { x } }", 1, 35,
	 "an action after 'when'/'else' must be inside one"},
	{"rule x { match load before { x } when load { } }", 1, 34,
	 "'when' and 'else' cannot follow"},
	{"rule x { match load replace { a } replace { b } }", 1, 35,
	 "a rule replaces an instruction once"},
	{"rule x { match load when true { replace { a } replace { b } } }", 1,
	 21, "a case replaces an instruction once"},
	{"rule x { match sise == 8 }", 1, 16, "unknown field 'sise'"},
	{"rule x { match size == %rax }", 1, 24, "'size' compares with a number"},
	{"rule x { match base == 8 }", 1, 24,
	 "'base' compares with a %register or 'none'"},
	{"rule x { match base < %rax }", 1, 23,
	 "registers compare only with == and !="},
	{"rule x { match seg == %rax }", 1, 23,
	 "'%rax' cannot be a memory operand's seg"},
	{"rule x { match base == %xmm1 }", 1, 24,
	 "'%xmm1' cannot be a memory operand's base"},
	{"rule x { match base == %foo }", 1, 24, "unknown register '%foo'"},
	{"rule x { match base == rsp }", 1, 24,
	 "registers are written with '%': '%rsp'"},
	{"rule x { match base == nothing }", 1, 24,
	 "expected a number, a %register or 'none', not 'nothing'"},
	{"rule x { match size == 99999999999 }", 1, 24, "integer '99999999999'"},
	{"rule x { match size }", 1, 16, "'size' needs a comparison"},
	{"rule x { match mnemonic }", 1, 16,
	 "'mnemonic' needs a regular expression"},
	{"rule x { match size =~ /a/ }", 1, 16, "'size' cannot be matched"},
	{"rule x { match op6 =~ /a/ }", 1, 16, "'op6' cannot be matched"},
	{"rule { }", 1, 6,
	 "syntax error, unexpected '{', expecting identifier"},
	{"rule x { match load", 1, 20, "syntax error, unexpected end of file"},
	{"rule x { match load }\n}", 2, 1, "syntax error, unexpected '}'"},
	{"rule x { match }", 1, 16, "syntax error, unexpected '}'"},
	{"rule x { match load && }", 1, 24, "syntax error"},
	{"rule x @", 1, 8, "unexpected character '@'"},
	{"rule x \x80", 1, 8, "unexpected byte 0x80"},
	{"var X = \"abc", 1, 9, "unterminated string"},
	{"var X = \"abc\ndef\"", 1, 9, "unterminated string"},
	{"rule x { match mnemonic =~ /abc", 1, 28,
	 "unterminated regular expression"},
	{"rule x { match load before x }", 1, 28,
	 "expected '{' to open a template"},
	{"rule x { match load after", 1, 26,
	 "expected '{' to open a template, not the end of the file"},
	{"rule x priority 99999999999 { match load }", 1, 17,
	 "integer '99999999999' out of range"},
	{"rule x priority 12ab { match load }", 1, 17,
	 "malformed number '12ab'"},
	{"rule x priority high { match load }", 1, 17, "syntax error"},
	{"var size = \"1\"", 1, 5, "'size' is a built-in substitution"},
	{"var c3 = \"1\"", 1, 5, "'c3' is a built-in substitution"},
	{"var A = \"1\"\n var A = \"2\"", 2, 6,
	 "variable 'A' is already defined as \"1\""},
	{"var A \"1\"", 1, 7, "syntax error"},
	{"rule x { match load }\nrule x { match store }", 2, 1,
	 "rule 'x' is already defined at "},
	{"include \"nope.rules\"", 1, 9, "cannot read '"},
	{"include nope", 1, 9, "syntax error"},
	{"\ninclude \"/dev/zero\"", 2, 9,
	 "cannot read '/dev/zero': not a regular file"},
	{"include \".\"", 1, 9, "cannot read '"},
	{"# only a comment\n  match load", 2, 3, "syntax error"},
	{"rule match { match load }", 1, 6, "syntax error"},
};

START_TEST(errors)
{
	const struct bad *b = &bads[_i];
	struct altr_ruleset rs = {0};
	char err[2048], want[512];
	const char *path = put("bad.rules", b->text);
	int rc = load_err(&rs, path, err, sizeof err);
	ck_assert_msg(rc == -1, "'%s' loaded", b->text);
	if (b->col)
		snprintf(want, sizeof want, "altr:%s:%d:%d: %s", path, b->line,
		         b->col, b->msg);
	else
		snprintf(want, sizeof want, "altr:%s:%d:", path, b->line);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0,
	              "for '%s'\n got:  %s want: %s", b->text, err, want);
	/* one message, one line */
	ck_assert_ptr_eq(strchr(err, '\n'), err + strlen(err) - 1);
	ck_assert_int_eq(rs.nrules, 0);
	ck_assert_ptr_null(rs.vars);
	altr_rules_free(&rs);
}
END_TEST

START_TEST(error_in_include)
{
	struct altr_ruleset rs = {0};
	char err[1024], want[512];
	const char *inc = put("inc/i.rules", "rule i {\n match load\n"
	                                     " before { ${what} }\n}\n");
	const char *top = put("top.rules", "rule t { match load }\n"
	                                   "include \"inc/i.rules\"\n");
	ck_assert_int_eq(load_err(&rs, top, err, sizeof err), -1);
	snprintf(want, sizeof want, "altr:%s:3:11: unknown substitution", inc);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
	ck_assert_int_eq(rs.nrules, 0);
}
END_TEST

START_TEST(error_cannot_read)
{
	struct altr_ruleset rs = {0};
	char err[1024], want[512];
	snprintf(want, sizeof want, "%s/absent.rules", tmpdir);
	ck_assert_int_eq(load_err(&rs, want, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "absent.rules: cannot read"));
	ck_assert_ptr_eq(strstr(err, "altr:"), err);
}
END_TEST

START_TEST(error_nul_byte)
{
	struct altr_ruleset rs = {0};
	char err[1024], want[512];
	const char *p = put_n("nul.rules", "rule x\n{ m\0atch", 15);
	ck_assert_int_eq(load_err(&rs, p, err, sizeof err), -1);
	snprintf(want, sizeof want, "altr:%s:2:4: NUL byte", p);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
}
END_TEST

START_TEST(error_too_deep)
{
	struct altr_ruleset rs = {0};
	char err[1024];
	struct altr_buf b = {0};
	altr_buf_puts(&b, "rule x { match ");
	for (int i = 0; i < 600; i++)
		altr_buf_puts(&b, "!");
	altr_buf_puts(&b, "load }\n");
	altr_buf_puts(&b, "rule y { match load");
	for (int i = 0; i < 600; i++)
		altr_buf_puts(&b, " && load");
	altr_buf_puts(&b, " }\n");
	const char *p = put("deep.rules", b.p);
	ck_assert_int_eq(load_err(&rs, p, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, ":1:"));
	ck_assert_ptr_nonnull(strstr(err, "expression nested deeper than"));
	/* the same depth in parentheses and a long chain are fine at 400 */
	b.len = 0;
	altr_buf_puts(&b, "rule y { match load");
	for (int i = 0; i < 400; i++)
		altr_buf_puts(&b, " || (load)");
	altr_buf_puts(&b, " }\n");
	p = put("ok.rules", b.p);
	ck_assert_int_eq(load_err(&rs, p, err, sizeof err), 0);
	altr_buf_free(&b);
	altr_rules_free(&rs);
}
END_TEST

Suite *suite_rules(void)
{
	Suite *s = suite_create("rules");
	TCase *tc = tcase_create("tables");
	tcase_add_test(tc, pred_table);
	tcase_add_test(tc, docs_list_every_pred);
	tcase_add_test(tc, tmpl_names);
	suite_add_tcase(s, tc);

	tc = tcase_create("parse");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, shipped_files);
	tcase_add_test(tc, priority_order);
	tcase_add_test(tc, expr_shapes);
	tcase_add_test(tc, comparisons);
	tcase_add_test(tc, regexes);
	tcase_add_test(tc, cases);
	tcase_add_test(tc, templates);
	tcase_add_test(tc, variables);
	tcase_add_test(tc, includes);
	tcase_add_test(tc, include_cycles);
	tcase_add_test(tc, rollback);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, errors, 0, (int)(sizeof bads / sizeof *bads));
	tcase_add_test(tc, error_in_include);
	tcase_add_test(tc, error_cannot_read);
	tcase_add_test(tc, error_nul_byte);
	tcase_add_test(tc, error_too_deep);
	suite_add_tcase(s, tc);
	return s;
}
