/*
 * rules.c: the rules language's tables (predicate names from preds.def,
 * template names) and everything the parser's actions call: building and
 * checking the AST, templates, variables, includes, loading and sorting.
 * rules.l tokenizes and rules.y holds the grammar; docs/rules.md is the
 * reference.  A load is all or nothing: on any error the ruleset is left
 * exactly as it was (new rules and variables are dropped) and -1 returned.
 */
#include "altr.h"
#include "rules.tab.h"
#include "rules.lex.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------ tables */

const char *const altr_pred_names[] = {
#define PRED(id, name, doc) name,
#include "preds.def"
#undef PRED
	NULL
};

const char *const altr_pred_docs[] = {
#define PRED(id, name, doc) doc,
#include "preds.def"
#undef PRED
	NULL
};

int altr_pred_lookup(const char *name)
{
	for (int i = 0; i < PRED_COUNT; i++)
		if (strcmp(altr_pred_names[i], name) == 0)
			return i;
	return -1;
}

static const char *const field_names[] = {
	[FIELD_SIZE] = "size", [FIELD_BASE] = "base", [FIELD_INDEX] = "index",
	[FIELD_SEG] = "seg", [FIELD_SCALE] = "scale", [FIELD_NOPS] = "nops",
};
enum { NFIELDS = FIELD_NOPS + 1 };

static bool field_is_reg(int f)
{
	return f == FIELD_BASE || f == FIELD_INDEX || f == FIELD_SEG;
}

/* Built-in template names other than the digit and numbered families. */
static const char *const tmpl_names[] = {
	"mem", "addr", "size", "base", "index", "scale", "disp", "seg",
	"mnemonic", "label", "sfx",
};

static bool builtin_name(const char *n)
{
	if (n[0] >= '0' && n[0] <= '9' && !n[1])
		return true;
	if ((strncmp(n, "label", 5) == 0 && n[5] >= '1' && n[5] <= '9' &&
	     !n[6]) ||
	    (n[0] == 'c' && n[1] >= '1' && n[1] <= '9' && !n[2]))
		return true;
	if (strncmp(n, "sreg:", 5) == 0) { /* sreg:REG, REG a 64-bit GPR */
		int r = altr_reg_lookup(n + 5, strlen(n + 5));
		return r >= 0 && altr_regs[r].cls == RC_GPR &&
		       altr_regs[r].size == 8;
	}
	for (size_t i = 0; i < sizeof tmpl_names / sizeof *tmpl_names; i++)
		if (strcmp(n, tmpl_names[i]) == 0)
			return true;
	return false;
}

bool altr_tmpl_name_ok(const struct altr_ruleset *rs, const char *name)
{
	return builtin_name(name) || (rs && altr_rules_var(rs, name));
}

/* ---------------------------------------------------- load state */

/* What one altr_rules_load call shares across its included files. */
struct rules_load {
	struct altr_ruleset *rs;
	struct altr_rule *head, **tail;  /* the new rules, in load order */
	int nnew;
	char **open;                     /* realpaths being read (the stack) */
	int nopen;
	char **done;                     /* realpaths read completely */
	int ndone;
	bool failed;
};

enum { MAX_INCLUDE_DEPTH = 32 };

/* File names outlive any one ruleset (rules and actions point at them, and
 * the emitter reports errors after loading); they are interned, so memory
 * grows with the number of distinct paths, not with the number of loads. */
static const char *intern(const char *s)
{
	static struct interned {
		struct interned *next;
		char s[];
	} *list;
	for (struct interned *i = list; i; i = i->next)
		if (strcmp(i->s, s) == 0)
			return i->s;
	size_t n = strlen(s) + 1;
	struct interned *i = altr_xmalloc(sizeof *i + n);
	memcpy(i->s, s, n);
	i->next = list;
	list = i;
	return i->s;
}

void altr_rules_error(struct rules_ctx *ctx, int line, int col, const char *fmt,
                 ...)
{
	if (ctx->ld->failed)
		return;
	ctx->ld->failed = true;
	ctx->failed = true;
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	altr_error_at(ctx->file, line, col, "%s", small);
}

/* ------------------------------------------------------- AST */

void altr_rules_expr_free(struct altr_expr *e)
{
	if (!e)
		return;
	altr_rules_expr_free(e->l);
	altr_rules_expr_free(e->r);
	if (e->op == EX_MATCH) {
		regfree(&e->re);
		free(e->re_src);
		free(e->filter);
	}
	free(e);
}

void altr_rules_actions_free(struct altr_action *a)
{
	while (a) {
		struct altr_action *n = a->next;
		free(a->tmpl);
		free(a);
		a = n;
	}
}

void altr_rules_case_free(struct altr_case *c)
{
	while (c) {
		struct altr_case *n = c->next;
		altr_rules_expr_free(c->when);
		altr_rules_actions_free(c->actions);
		free(c);
		c = n;
	}
}

void altr_rules_rule_free(struct altr_rule *r)
{
	if (!r)
		return;
	free(r->name);
	free(r->list);
	altr_rules_expr_free(r->match);
	altr_rules_case_free(r->cases);
	free(r);
}

void altr_rules_build_free(struct rules_build *b)
{
	if (!b)
		return;
	altr_rules_rule_free(b->r);
	free(b);
}

static struct altr_expr *new_expr(enum altr_exprop op)
{
	struct altr_expr *e = altr_xcalloc(1, sizeof *e);
	e->op = op;
	e->pred = -1;
	e->reg = -1;
	return e;
}

struct altr_expr *altr_rules_binop(enum altr_exprop op, struct altr_expr *l,
                              struct altr_expr *r)
{
	struct altr_expr *e = new_expr(op);
	e->l = l;
	e->r = r;
	return e;
}

/* Levenshtein distance, for "did you mean"; names are short. */
static int distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 40 || lb > 40)
		return 99;
	int d[41][41];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

static int subject_of(const char *s)
{
	if (strcmp(s, "mnemonic") == 0)
		return SUBJ_MNEM;
	if (strcmp(s, "insn") == 0)
		return SUBJ_INSN;
	if (strcmp(s, "mem") == 0)
		return SUBJ_MEM;
	if (s[0] == 'o' && s[1] == 'p' && s[2] >= '1' &&
	    s[2] <= '0' + ALTR_MAXOPS && !s[3])
		return SUBJ_OP + (s[2] - '1');
	return -1;
}

static int field_of(const char *s)
{
	for (int i = 0; i < NFIELDS; i++)
		if (strcmp(s, field_names[i]) == 0)
			return i;
	return -1;
}

struct altr_expr *altr_rules_atom(struct rules_ctx *ctx, char *name, int line,
                             int col)
{
	struct altr_expr *e = NULL;
	int p;
	if (strcmp(name, "true") == 0) {
		e = new_expr(EX_TRUE);
	} else if (strcmp(name, "false") == 0) {
		e = altr_rules_binop(EX_NOT, new_expr(EX_TRUE), NULL);
	} else if ((p = altr_pred_lookup(name)) >= 0) {
		e = new_expr(EX_PRED);
		e->pred = p;
	} else if (field_of(name) >= 0) {
		altr_rules_error(ctx, line, col,
		            "'%s' needs a comparison, as in '%s == VALUE'", name,
		            name);
	} else if (subject_of(name) >= 0) {
		altr_rules_error(ctx, line, col,
		            "'%s' needs a regular expression, as in '%s =~ /re/'",
		            name, name);
	} else {
		const char *best = NULL;
		int bd = 3;
		for (int i = 0; i < PRED_COUNT; i++) {
			int d = distance(name, altr_pred_names[i]);
			if (d < bd) {
				bd = d;
				best = altr_pred_names[i];
			}
		}
		if (best && bd < (int)strlen(name))
			altr_rules_error(ctx, line, col,
			            "unknown predicate '%s'; did you mean '%s'?", name,
			            best);
		else
			altr_rules_error(ctx, line, col,
			            "unknown predicate '%s' (docs/rules.md lists them)",
			            name);
	}
	free(name);
	return e;
}

int altr_rules_int(struct rules_ctx *ctx, const char *text, int line, int col,
              long lo, long hi, long *out)
{
	const char *s = text;
	bool neg = *s == '-';
	if (neg)
		s++;
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	errno = 0;
	char *end;
	long long v = strtoll(s, &end, base);
	if (neg)
		v = -v;
	if (errno || *end || v < lo || v > hi) {
		altr_rules_error(ctx, line, col, "integer '%s' out of range [%ld, %ld]",
		            text, lo, hi);
		return -1;
	}
	*out = (long)v;
	return 0;
}

struct altr_expr *altr_rules_value_int(struct rules_ctx *ctx, const char *text,
                                  int line, int col)
{
	long v;
	if (altr_rules_int(ctx, text, line, col, INT_MIN, INT_MAX, &v))
		return NULL;
	struct altr_expr *e = new_expr(EX_CMP);
	e->num = v;
	return e;
}

struct altr_expr *altr_rules_value_reg(struct rules_ctx *ctx, const char *text,
                                  bool bare, int line, int col)
{
	int r = -1;
	if (bare && strcmp(text, "none") != 0) {
		if (altr_reg_lookup(text, strlen(text)) >= 0)
			altr_rules_error(ctx, line, col, "registers are written with "
			            "'%%': '%%%s'", text);
		else
			altr_rules_error(ctx, line, col, "expected a number, a "
			            "%%register or 'none', not '%s'", text);
		return NULL;
	}
	if (!bare && (r = altr_reg_lookup(text, strlen(text))) < 0) {
		altr_rules_error(ctx, line, col, "unknown register '%%%s'", text);
		return NULL;
	}
	struct altr_expr *e = new_expr(EX_CMP);
	e->is_reg = true;
	e->reg = r;
	return e;
}

struct altr_expr *altr_rules_cmp(struct rules_ctx *ctx, char *field, int fline,
                            int fcol, enum altr_cmp op,
                            struct altr_expr *val, int vline, int vcol)
{
	int f = field_of(field);
	if (f < 0) {
		altr_rules_error(ctx, fline, fcol,
		            "unknown field '%s' (fields: size base index seg "
		            "scale nops)", field);
		goto fail;
	}
	if (field_is_reg(f) != val->is_reg) {
		altr_rules_error(ctx, vline, vcol, "'%s' compares with %s", field,
		            field_is_reg(f) ? "a %register or 'none'"
		                            : "a number");
		goto fail;
	}
	if (val->is_reg && op != CMP_EQ && op != CMP_NE) {
		altr_rules_error(ctx, vline, vcol,
		            "registers compare only with == and !=");
		goto fail;
	}
	if (val->is_reg && val->reg >= 0) {
		enum altr_regclass c = altr_regs[val->reg].cls;
		bool ok = f == FIELD_SEG ? c == RC_SEG
		        : f == FIELD_BASE ? c == RC_GPR || c == RC_IP
		        : c == RC_GPR || c == RC_XMM || c == RC_YMM || c == RC_ZMM;
		if (!ok) {
			altr_rules_error(ctx, vline, vcol,
			            "'%%%s' cannot be a memory operand's %s",
			            altr_regs[val->reg].name, field);
			goto fail;
		}
	}
	val->field = (enum altr_field)f;
	val->cmp = op;
	free(field);
	return val;
fail:
	free(field);
	altr_rules_expr_free(val);
	return NULL;
}

struct altr_expr *altr_rules_regex(struct rules_ctx *ctx, char *subject,
                              int sline, int scol, bool negate, char *re,
                              int rline, int rcol)
{
	struct altr_expr *e = NULL;
	int s = subject_of(subject);
	if (s < 0) {
		altr_rules_error(ctx, sline, scol,
		            "'%s' cannot be matched: use mnemonic, insn, mem or "
		            "op1..op%d", subject, ALTR_MAXOPS);
		goto out;
	}
	e = new_expr(EX_MATCH);
	int rc = regcomp(&e->re, re, REG_EXTENDED);
	if (rc) {
		char msg[256];
		regerror(rc, &e->re, msg, sizeof msg);
		free(e);
		e = NULL;
		altr_rules_error(ctx, rline, rcol, "bad regular expression: %s", msg);
		goto out;
	}
	e->subj = s >= SUBJ_OP ? SUBJ_OP : (enum altr_subject)s;
	e->opnd = s >= SUBJ_OP ? s - SUBJ_OP + 1 : 0;
	e->negate = negate;
	e->re_src = re;
	e->nsub = (int)e->re.re_nsub;
	altr_prefilter_make(e);
	re = NULL;
out:
	free(subject);
	free(re);
	return e;
}

/* ---------------------------------------------------- templates */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Checks every ${NAME} (and skips the $${ escape), then trims every line
 * and drops blank ones; see docs/rules.md, "Templates". */
struct altr_action *altr_rules_action(struct rules_ctx *ctx, enum altr_place p,
                                 struct rules_asm a)
{
	const char *t = a.text;
	int line = a.line, col = a.col, first = 0;
	for (size_t i = 0; t[i]; i++, col++) {
		if (t[i] == '\n') {
			line++;
			col = 0;
			continue;
		}
		if (!first && !is_blank(t[i]))
			first = line;
		if (t[i] != '$')
			continue;
		if (t[i + 1] == '$' && t[i + 2] == '{') {
			i += 2;
			col += 2;
			continue;
		}
		if (t[i + 1] != '{')
			continue;
		size_t j = i + 2;
		while (t[j] && t[j] != '}' && t[j] != '\n')
			j++;
		if (t[j] != '}') {
			altr_rules_error(ctx, line, col, "'${' without its '}'");
			goto fail;
		}
		char *name = altr_xstrndup(t + i + 2, j - i - 2);
		bool ok = altr_tmpl_name_ok(ctx->ld->rs, name);
		if (!ok)
			altr_rules_error(ctx, line, col,
			            "unknown substitution '${%s}' (not built in, "
			            "not a variable defined above or with -D)", name);
		free(name);
		if (!ok)
			goto fail;
		col += (int)(j - i);
		i = j;
	}

	struct altr_buf out = {0};
	for (const char *s = t; *s;) {
		const char *e = strchr(s, '\n');
		if (!e)
			e = s + strlen(s);
		const char *b = s, *z = e;
		while (b < z && is_blank(*b))
			b++;
		while (z > b && is_blank(z[-1]))
			z--;
		if (z > b) {
			if (out.len)
				altr_buf_putc(&out, '\n');
			altr_buf_put(&out, b, (size_t)(z - b));
		}
		s = *e ? e + 1 : e;
	}
	struct altr_action *act = altr_xcalloc(1, sizeof *act);
	act->place = p;
	act->tmpl = out.p ? out.p : altr_xstrndup("", 0);
	act->file = ctx->file;
	act->line = first ? first : a.line;
	free(a.text);
	return act;
fail:
	free(a.text);
	return NULL;
}

/* ---------------------------------------------------------- rules */

static int count_replace(const struct altr_action *a)
{
	int n = 0;
	for (; a; a = a->next)
		n += a->place == PLACE_REPLACE;
	return n;
}

/* The name becomes a section that the linker brackets with __start_NAME
 * and __stop_NAME, which it does only for names that are C identifiers. */
int altr_rules_set_list(struct rules_ctx *ctx, struct rules_build *b, char *name,
                   int line, int col)
{
	const char *why = NULL;
	if (b->r->list)
		why = "a rule has one 'list'";
	else if (strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	                      "0123456789_") != strlen(name) ||
	         (name[0] >= '0' && name[0] <= '9'))
		why = "a 'list' section name must be a C identifier "
		      "(the linker defines __start_NAME and __stop_NAME only for those)";
	if (why) {
		altr_rules_error(ctx, line, col, "%s: '%s'", why, name);
		free(name);
		return -1;
	}
	b->r->list = name;
	return 0;
}

int altr_rules_set_match(struct rules_ctx *ctx, struct rules_build *b,
                    struct altr_expr *e, int line, int col)
{
	if (b->has_match) {
		altr_rules_error(ctx, line, col, "a rule has one 'match'; "
		            "combine conditions with && or ||");
		altr_rules_expr_free(e);
		return -1;
	}
	b->has_match = true;
	b->r->match = e;
	return 0;
}

int altr_rules_add_plain(struct rules_ctx *ctx, struct rules_build *b,
                    struct altr_action *a, int line, int col)
{
	if (!b->plain && b->r->cases) {
		altr_rules_error(ctx, line, col, "an action after 'when'/'else' must "
		            "be inside one");
		altr_rules_actions_free(a);
		return -1;
	}
	if (!b->plain) {
		b->plain = true;
		*b->ctail = altr_xcalloc(1, sizeof **b->ctail);
	}
	struct altr_case *c = *b->ctail;
	if (a->place == PLACE_REPLACE && count_replace(c->actions)) {
		altr_rules_error(ctx, line, col, "a rule replaces an instruction "
		            "once: merge the two 'replace' templates");
		altr_rules_actions_free(a);
		return -1;
	}
	struct altr_action **p = &c->actions;
	while (*p)
		p = &(*p)->next;
	*p = a;
	return 0;
}

int altr_rules_add_case(struct rules_ctx *ctx, struct rules_build *b,
                   struct altr_expr *when, struct altr_action *acts,
                   int line, int col)
{
	const char *err = NULL;
	if (b->plain)
		err = "'when' and 'else' cannot follow actions outside them";
	else if (b->has_else)
		err = when ? "'when' after 'else': 'else' comes last"
		           : "a rule has one 'else'";
	else if (count_replace(acts) > 1)
		err = "a case replaces an instruction once: merge the two "
		      "'replace' templates";
	if (err) {
		altr_rules_error(ctx, line, col, "%s", err);
		altr_rules_expr_free(when);
		altr_rules_actions_free(acts);
		return -1;
	}
	struct altr_case *c = altr_xcalloc(1, sizeof *c);
	c->when = when;
	c->actions = acts;
	*b->ctail = c;
	b->ctail = &c->next;
	b->has_else = !when;
	return 0;
}

static const struct altr_rule *find_rule(const struct altr_rule *r,
                                         const char *name)
{
	for (; r; r = r->next)
		if (strcmp(r->name, name) == 0)
			return r;
	return NULL;
}

int altr_rules_add_rule(struct rules_ctx *ctx, struct rules_build *b, char *name,
                   int priority, int line, int col)
{
	struct rules_load *ld = ctx->ld;
	const struct altr_rule *old = find_rule(ld->rs->rules, name);
	if (!old)
		old = find_rule(ld->head, name);
	if (old || !b->has_match) {
		if (old)
			altr_rules_error(ctx, line, col,
			            "rule '%s' is already defined at %s:%d", name,
			            old->file, old->line);
		else
			altr_rules_error(ctx, line, col, "rule '%s' has no 'match'",
			            name);
		free(name);
		altr_rules_build_free(b);
		return -1;
	}
	struct altr_rule *r = b->r;
	if (!r->cases) /* no actions: still a rule (a final one suppresses) */
		r->cases = altr_xcalloc(1, sizeof *r->cases);
	r->name = name;
	r->priority = priority;
	r->file = ctx->file;
	r->line = line;
	free(b);
	*ld->tail = r;
	ld->tail = &r->next;
	ld->nnew++;
	return 0;
}

/* ------------------------------------------------------ variables */

static struct altr_var *find_var(const struct altr_ruleset *rs,
                                 const char *name)
{
	for (struct altr_var *v = rs->vars; v; v = v->next)
		if (strcmp(v->name, name) == 0)
			return v;
	return NULL;
}

const char *altr_rules_var(const struct altr_ruleset *rs, const char *name)
{
	struct altr_var *v = find_var(rs, name);
	return v ? v->value : NULL;
}

void altr_rules_define(struct altr_ruleset *rs, const char *name,
                       const char *value)
{
	struct altr_var *v = find_var(rs, name);
	if (!v) {
		v = altr_xcalloc(1, sizeof *v);
		v->name = altr_xstrndup(name, strlen(name));
		v->next = rs->vars;
		rs->vars = v;
	} else {
		free(v->value);
	}
	v->value = altr_xstrndup(value, strlen(value));
	v->from_cmdline = true;
}

int altr_rules_add_var(struct rules_ctx *ctx, char *name, char *value, int line,
              int col)
{
	struct altr_ruleset *rs = ctx->ld->rs;
	struct altr_var *v = find_var(rs, name);
	int rc = 0;
	if (builtin_name(name)) {
		altr_rules_error(ctx, line, col, "'%s' is a built-in substitution, "
		            "not a variable name", name);
		rc = -1;
	} else if (v && !v->from_cmdline && strcmp(v->value, value) != 0) {
		altr_rules_error(ctx, line, col, "variable '%s' is already defined "
		            "as \"%s\"", name, v->value);
		rc = -1;
	} else if (!v) {
		v = altr_xcalloc(1, sizeof *v);
		v->name = name;
		v->value = value;
		v->next = rs->vars;
		rs->vars = v;
		return 0;
	}
	/* -D wins, or the same value again (a file included twice) */
	free(name);
	free(value);
	return rc;
}

/* ------------------------------------------------------- loading */

static bool in_list(char **l, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(l[i], s) == 0)
			return true;
	return false;
}

/* Parses one file; from is the including file's context (NULL at the top),
 * line:col where it names this one. */
static int load_file(struct rules_load *ld, const char *path,
                     struct rules_ctx *from, int line, int col)
{
	struct rules_ctx ctx = {.ld = ld, .file = intern(path), .line = 1,
	                        .col = 1, .depth = from ? from->depth + 1 : 0};
	struct rules_ctx *at = from ? from : &ctx;
	int aline = from ? line : 0, acol = from ? col : 0;
	if (ctx.depth > MAX_INCLUDE_DEPTH) {
		altr_rules_error(at, aline, acol, "includes nest deeper than %d",
		            MAX_INCLUDE_DEPTH);
		return -1;
	}
	char *rp = realpath(path, NULL);
	if (!rp) {
		altr_rules_error(at, aline, acol, "cannot read '%s': %s", path,
		            strerror(errno));
		return -1;
	}
	if (in_list(ld->open, ld->nopen, rp)) {
		altr_rules_error(at, aline, acol, "include cycle: '%s' is already "
		            "being read", path);
		free(rp);
		return -1;
	}
	if (in_list(ld->done, ld->ndone, rp)) { /* included before: once */
		free(rp);
		return 0;
	}
	struct stat st;
	if (stat(rp, &st) == 0 && !S_ISREG(st.st_mode)) { /* /dev/zero... */
		altr_rules_error(at, aline, acol, "cannot read '%s': not a regular "
		            "file", path);
		free(rp);
		return -1;
	}
	size_t len;
	char *src = altr_read_file(rp, &len);
	if (!src) {
		altr_rules_error(at, aline, acol, "cannot read '%s': %s", path,
		            strerror(errno));
		free(rp);
		return -1;
	}
	const char *nul = memchr(src, 0, len);
	if (nul) {
		int l = 1, c = 1;
		for (const char *s = src; s < nul; s++, c++)
			if (*s == '\n')
				l++, c = 0;
		altr_rules_error(&ctx, l, c, "NUL byte in a rules file");
		free(src);
		free(rp);
		return -1;
	}
	ld->open = altr_xrealloc(ld->open, (size_t)(ld->nopen + 1) *
	                                   sizeof *ld->open);
	ld->open[ld->nopen++] = rp;

	yyscan_t sc;
	if (altr_rules_yylex_init_extra(&ctx, &sc))
		altr_die("cannot start the rules lexer: %s", strerror(errno));
	altr_rules_yy_scan_bytes(src, (int)len, sc);
	int rc = altr_rules_yyparse(sc, &ctx);
	altr_rules_yylex_destroy(sc);
	altr_buf_free(&ctx.asmbuf);
	free(src);

	ld->nopen--;
	ld->done = altr_xrealloc(ld->done, (size_t)(ld->ndone + 1) *
	                                   sizeof *ld->done);
	ld->done[ld->ndone++] = rp;
	return rc || ld->failed ? -1 : 0;
}

int altr_rules_include(struct rules_ctx *ctx, char *path, int line, int col)
{
	struct altr_buf full = {0};
	const char *slash = strrchr(ctx->file, '/');
	if (path[0] != '/' && slash)
		altr_buf_put(&full, ctx->file, (size_t)(slash - ctx->file + 1));
	altr_buf_puts(&full, path);
	int rc = load_file(ctx->ld, full.p, ctx, line, col);
	altr_buf_free(&full);
	free(path);
	return rc;
}

int altr_rules_load(struct altr_ruleset *rs, const char *path)
{
	struct rules_load ld = {.rs = rs};
	ld.tail = &ld.head;
	struct altr_var *vars = rs->vars;
	int rc = load_file(&ld, path, NULL, 0, 0);
	for (int i = 0; i < ld.nopen; i++)
		free(ld.open[i]);
	for (int i = 0; i < ld.ndone; i++)
		free(ld.done[i]);
	free(ld.open);
	free(ld.done);
	if (rc) {
		while (ld.head) {
			struct altr_rule *n = ld.head->next;
			altr_rules_rule_free(ld.head);
			ld.head = n;
		}
		/* new variables were pushed in front of the old ones */
		while (rs->vars != vars) {
			struct altr_var *n = rs->vars->next;
			free(rs->vars->name);
			free(rs->vars->value);
			free(rs->vars);
			rs->vars = n;
		}
		return -1;
	}
	struct altr_rule **p = &rs->rules;
	while (*p)
		p = &(*p)->next;
	*p = ld.head;
	for (struct altr_rule *r = ld.head; r; r = r->next)
		r->order = rs->nrules++;
	return 0;
}

static int by_priority(const void *a, const void *b)
{
	const struct altr_rule *x = *(const struct altr_rule *const *)a;
	const struct altr_rule *y = *(const struct altr_rule *const *)b;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

void altr_rules_finish(struct altr_ruleset *rs)
{
	if (rs->nrules < 2)
		return;
	struct altr_rule **v = altr_xmalloc((size_t)rs->nrules * sizeof *v);
	int n = 0;
	for (struct altr_rule *r = rs->rules; r; r = r->next)
		v[n++] = r;
	ALTR_ASSERT(n == rs->nrules);
	qsort(v, (size_t)n, sizeof *v, by_priority);
	for (int i = 0; i + 1 < n; i++)
		v[i]->next = v[i + 1];
	v[n - 1]->next = NULL;
	rs->rules = v[0];
	free(v);
}

void altr_rules_free(struct altr_ruleset *rs)
{
	while (rs->rules) {
		struct altr_rule *n = rs->rules->next;
		altr_rules_rule_free(rs->rules);
		rs->rules = n;
	}
	while (rs->vars) {
		struct altr_var *n = rs->vars->next;
		free(rs->vars->name);
		free(rs->vars->value);
		free(rs->vars);
		rs->vars = n;
	}
	rs->nrules = 0;
}
