/*
 * emit.c: applying the rules and writing the result.
 *
 * Lines no rule touches are written back byte for byte.  A line holding a
 * changed instruction is written one statement per line, with the inserted
 * code placed immediately before (after) the instruction: a .loc or label
 * that precedes the instruction therefore precedes the whole group, so gdb
 * steps over it as one line and jumps to the label run the hook.  Each
 * group (before code, instruction or replacement, after code) is bracketed
 * by labels and listed in the .rdb_iot section (docs/iot.md), and inserted
 * code that moves %rsp gets .cfi_adjust_cfa_offset while the CFA is
 * %rsp-based.
 */
#include "altr.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* What the rules decided for one instruction: slices of em->code. */
enum { X_BEFORE, X_REPLACE, X_AFTER };
struct expansion {
	size_t off[3], len[3];   /* X_* */
	bool has_replace;
	bool flags_dead;         /* no status flag live before the instruction */
	int group;               /* IOT group number */
};

/* A template compiled once per run: literal runs, line ends and ${names}
 * resolved to what they stand for.  Expanding by re-reading the text and
 * comparing names was a fifth of the emitter's time. */
enum tkind {
	T_END, T_NL, T_LIT, T_STMT, T_OPND, T_MEM, T_ADDR, T_SIZE, T_BASE,
	T_INDEX, T_SCALE, T_DISP, T_SEG, T_SFX, T_SREG, T_MNEM, T_LABEL, T_CAP,
	T_VAR, T_BAD,
};

struct tpiece {
	uint8_t kind;            /* enum tkind */
	int arg;                 /* T_OPND, T_CAP: number; T_LABEL: suffix
	                            digit; T_SREG: register (-1: bad) */
	const char *s;           /* T_LIT, T_VAR: text; else the name */
	size_t n;
};

struct tmpl {
	const struct altr_action *a;
	struct tpiece *p;
	char *names;             /* the names' text, NUL-separated */
};

struct emitter {
	struct altr_unit *u;
	struct altr_ruleset *rs;
	const struct altr_opts *o;
	struct altr_stats *st;
	int *xi;                 /* per statement: index into xs, or -1 */
	struct expansion *xs;
	int nxs, capxs;
	struct altr_buf code;    /* inserted code of all expansions */
	struct altr_buf part[3]; /* X_*: one instruction's, being built */
	struct altr_buf line;    /* a template line being expanded */
	struct tmpl *tm;         /* compiled templates, hashed by action */
	size_t captm;
	struct cfa_memo *memo;   /* inserted line -> %rsp delta */
	size_t capmemo, nmemo;
	struct altr_buf memokeys;
	int ngroups;
	bool *gdead;             /* per group: its flags_dead (IOT flags bit 0) */
	int capgdead;
	unsigned long nlabels;
	const char **listed;     /* per code of a rule with 'list' (.Laltr_lb<n>
	                            .. .Laltr_le<n>, n its index): its section */
	size_t nlisted, caplisted;
	int errors;
	/* unknown mnemonics already warned about (once each per file) */
	char **warned;
	int nwarned, capwarned;
};

/* -------------------------------------------------------- substitutions */

static void put_reg(struct altr_buf *b, int r)
{
	if (r >= 0) {
		altr_buf_putc(b, '%');
		altr_buf_puts(b, altr_regs[r].name);
	}
}

/* An address expression lea accepts: the operand without its segment. */
static void put_addr(struct altr_buf *b, const struct altr_operand *m)
{
	altr_buf_put(b, m->disp.p, m->disp.len);
	if (m->base < 0 && m->index < 0) {
		if (!m->disp.len)
			altr_buf_putc(b, '0');
		return;
	}
	altr_buf_putc(b, '(');
	put_reg(b, m->base);
	if (m->index >= 0) {
		altr_buf_putc(b, ',');
		put_reg(b, m->index);
		altr_buf_putc(b, ',');
		altr_buf_putl(b, m->scale);
	}
	altr_buf_putc(b, ')');
}

static void put_operand(struct altr_buf *b, const struct altr_operand *op)
{
	if (op->star)
		altr_buf_putc(b, '*');
	altr_buf_put(b, op->text.p, op->text.len);
	altr_buf_put(b, op->deco.p, op->deco.len);
}

/* The general register of number num and size n, or -1. */
static int sized_gpr(int num, unsigned n)
{
	static int16_t tab[16][9];
	static bool built;
	if (!built) {
		for (int i = 0; i < 16; i++)
			for (int k = 0; k < 9; k++)
				tab[i][k] = -1;
		for (int k = altr_nregs - 1; k >= 0; k--) /* the first wins */
			if (altr_regs[k].cls == RC_GPR && !altr_regs[k].high8 &&
			    altr_regs[k].num < 16 && altr_regs[k].size <= 8)
				tab[altr_regs[k].num][altr_regs[k].size] = (int16_t)k;
		built = true;
	}
	return num >= 0 && num < 16 && n <= 8 ? tab[num][n] : -1;
}

/* What ${name} stands for, decided once per template; the order of the
 * tests is that of the names' meaning (a variable named "label_x" is a
 * label, as it always was). */
static struct tpiece classify_name(struct emitter *em, const char *name)
{
	struct tpiece t = {.kind = T_BAD, .s = name, .n = strlen(name)};
	if (strcmp(name, "0") == 0) {
		t.kind = T_STMT;
	} else if (name[0] >= '0' && name[0] <= '9' && !name[1]) {
		t.kind = T_OPND;
		t.arg = name[0] - '0';
	} else if (strcmp(name, "mem") == 0) {
		t.kind = T_MEM;
	} else if (strcmp(name, "addr") == 0) {
		t.kind = T_ADDR;
	} else if (strcmp(name, "size") == 0) {
		t.kind = T_SIZE;
	} else if (strcmp(name, "base") == 0) {
		t.kind = T_BASE;
	} else if (strcmp(name, "index") == 0) {
		t.kind = T_INDEX;
	} else if (strcmp(name, "scale") == 0) {
		t.kind = T_SCALE;
	} else if (strcmp(name, "disp") == 0) {
		t.kind = T_DISP;
	} else if (strcmp(name, "seg") == 0) {
		t.kind = T_SEG;
	} else if (strcmp(name, "sfx") == 0) {
		t.kind = T_SFX;
	} else if (strncmp(name, "sreg:", 5) == 0) {
		int r = altr_reg_lookup(name + 5, strlen(name + 5));
		t.kind = T_SREG;
		t.arg = r >= 0 && altr_regs[r].cls == RC_GPR ? altr_regs[r].num : -1;
	} else if (strcmp(name, "mnemonic") == 0) {
		t.kind = T_MNEM;
	} else if (strncmp(name, "label", 5) == 0) {
		t.kind = T_LABEL;
		t.arg = name[5] ? name[5] - '0' : 0;
	} else if (name[0] == 'c' && name[1] >= '0' && name[1] <= '9' && !name[2]) {
		t.kind = T_CAP;
		t.arg = name[1] - '0';
	} else {
		const char *v = altr_rules_var(em->rs, name);
		if (v) {
			t.kind = T_VAR;
			t.s = v;
			t.n = strlen(v);
		}
	}
	return t;
}

/* Compiles a template: "$${" is a literal "${"; a "${" without its '}'
 * is literal text to the end. */
static void compile(struct emitter *em, struct tmpl *tm)
{
	const char *t = tm->a->tmpl;
	size_t n = strlen(t), np = 0, cap = 8, nn = 0;
	tm->p = altr_xmalloc(cap * sizeof *tm->p);
	tm->names = altr_xmalloc(n + 1); /* names are shorter than the text */
	for (;;) {
		struct tpiece x = {.kind = T_LIT, .s = t};
		if (*t == '\n' || *t == 0) {
			x.kind = *t ? T_NL : T_END;
			t++;
		} else if (t[0] == '$' && t[1] == '$' && t[2] == '{') {
			x.s = "${";
			x.n = 2;
			t += 3;
		} else if (t[0] == '$' && t[1] == '{') {
			const char *e = strchr(t + 2, '}');
			if (!e) {
				x.n = strlen(t);
				t += x.n;
			} else {
				size_t k = (size_t)(e - t - 2);
				if (k > 63)
					k = 63;
				char *name = tm->names + nn;
				memcpy(name, t + 2, k);
				name[k] = 0;
				nn += k + 1;
				x = classify_name(em, name);
				t = e + 1;
			}
		} else {
			size_t k = 1;
			while (t[k] && t[k] != '\n' && t[k] != '$')
				k++;
			x.n = k;
			t += k;
		}
		if (np == cap) {
			cap *= 2;
			tm->p = altr_xrealloc(tm->p, cap * sizeof *tm->p);
		}
		tm->p[np++] = x;
		if (x.kind == T_END)
			break;
	}
}

static const struct tpiece *compiled(struct emitter *em,
                                     const struct altr_action *a)
{
	if (!em->captm) {
		em->captm = 64;
		em->tm = altr_xcalloc(em->captm, sizeof *em->tm);
	}
	size_t mask = em->captm - 1, i = ((uintptr_t)a >> 4) & mask;
	for (; em->tm[i].a; i = (i + 1) & mask)
		if (em->tm[i].a == a)
			return em->tm[i].p;
	size_t used = 0;
	for (size_t k = 0; k < em->captm; k++)
		used += em->tm[k].a != NULL;
	if (2 * (used + 1) > em->captm) { /* grow, then look again */
		struct tmpl *old = em->tm;
		size_t oldcap = em->captm;
		em->captm *= 2;
		em->tm = altr_xcalloc(em->captm, sizeof *em->tm);
		for (size_t k = 0; k < oldcap; k++)
			if (old[k].a) {
				size_t j = ((uintptr_t)old[k].a >> 4) & (em->captm - 1);
				while (em->tm[j].a)
					j = (j + 1) & (em->captm - 1);
				em->tm[j] = old[k];
			}
		free(old);
		return compiled(em, a);
	}
	em->tm[i].a = a;
	compile(em, &em->tm[i]);
	return em->tm[i].p;
}

/* Appends what one piece stands for; false if it has no value here. */
static bool expand_piece(const struct tpiece *x, const struct altr_stmt *s,
                         unsigned long app, const struct altr_str caps[10],
                         struct altr_buf *b)
{
	const struct altr_insn *in = s->insn;
	const struct altr_operand *m = altr_insn_mem_operand(in);
	unsigned n;
	switch ((enum tkind)x->kind) {
	case T_LIT:
	case T_VAR:
		altr_buf_put(b, x->s, x->n);
		return true;
	case T_STMT:
		altr_buf_put(b, s->text.p, s->text.len);
		return true;
	case T_OPND:
		if (x->arg > in->nops)
			return false;
		put_operand(b, &in->ops[x->arg - 1]);
		return true;
	case T_MEM:
		if (!m)
			return false;
		altr_buf_put(b, m->text.p, m->text.len);
		return true;
	case T_ADDR:
		if (!m)
			return false;
		put_addr(b, m);
		return true;
	case T_SIZE:
		altr_buf_putl(b, altr_insn_access_size(in));
		return true;
	case T_BASE:
		if (m)
			put_reg(b, m->base);
		return true;
	case T_INDEX:
		if (m)
			put_reg(b, m->index);
		return true;
	case T_SCALE:
		altr_buf_putl(b, m ? m->scale : 1);
		return true;
	case T_DISP:
		if (m && m->disp.len)
			altr_buf_put(b, m->disp.p, m->disp.len);
		else
			altr_buf_putc(b, '0');
		return true;
	case T_SEG:
		if (m)
			put_reg(b, m->seg);
		return true;
	case T_SFX:
	case T_SREG: {
		/* Sized by the access: b w l q, and %r12b %r12w %r12d %r12. */
		static const char sfx[] = {0, 'b', 'w', 0, 'l', 0, 0, 0, 'q'};
		n = altr_insn_access_size(in);
		if (n > 8 || !sfx[n])
			return false;
		if (x->kind == T_SFX) {
			altr_buf_putc(b, sfx[n]);
			return true;
		}
		int r = x->arg < 0 ? -1 : sized_gpr(x->arg, n);
		if (r < 0)
			return false;
		put_reg(b, r);
		return true;
	}
	case T_MNEM:
		altr_buf_put(b, in->mnem.p, in->mnem.len);
		return true;
	case T_LABEL:
		altr_buf_put(b, ".Laltr", 6);
		altr_buf_putl(b, (long)app);
		altr_buf_putc(b, '_');
		altr_buf_putl(b, x->arg);
		return true;
	case T_CAP:
		altr_buf_put(b, caps[x->arg].p, caps[x->arg].len);
		return true;
	case T_BAD:
	case T_END:
	case T_NL:
		break;
	}
	return false;
}

/* Expands a template into lines of assembly, each "\t" + line + "\n". */
static bool expand(struct emitter *em, const struct altr_action *a,
                   const struct altr_stmt *s, unsigned long app,
                   const struct altr_str caps[10], struct altr_buf *out)
{
	struct altr_buf *line = &em->line;
	bool ok = true;
	line->len = 0;
	for (const struct tpiece *x = compiled(em, a);; x++) {
		if (x->kind == T_NL || x->kind == T_END) {
			char *p = line->p;
			size_t n = line->len;
			while (n && isspace((unsigned char)*p))
				p++, n--;
			while (n && isspace((unsigned char)p[n - 1]))
				n--;
			if (n) {
				altr_buf_putc(out, '\t');
				altr_buf_put(out, p, n);
				altr_buf_putc(out, '\n');
			}
			line->len = 0;
			if (x->kind == T_END)
				break;
		} else if (!expand_piece(x, s, app, caps, line)) {
			altr_error_at(em->u->path, s->line, 0,
			              "rule template (%s:%d) uses ${%s}, which has "
			              "no value for '%.*s'", a->file, a->line, x->s,
			              (int)s->text.len, s->text.p);
			ok = false;
		}
	}
	return ok;
}

/* ---------------------------------------------------------- applying rules */

static void put_list_label(struct emitter *em, struct altr_buf *b, const char *kind)
{
	altr_buf_put(b, ".Laltr_", 7);
	altr_buf_puts(b, kind);
	altr_buf_putl(b, (long)em->nlisted);
	altr_buf_put(b, ":\n", 2);
}

/* Closes the listed code that began at dst[at] (its code at dst[body]);
 * an action that expanded to nothing is not listed, and its label goes. */
static void end_listed(struct emitter *em, struct altr_buf *dst, size_t at,
                       size_t body, const char *section)
{
	if (dst->len == body) {
		dst->len = at;
		return;
	}
	put_list_label(em, dst, "le");
	if (em->nlisted == em->caplisted) {
		em->caplisted = em->caplisted ? 2 * em->caplisted : 1024;
		em->listed = altr_xrealloc(em->listed, em->caplisted * sizeof *em->listed);
	}
	em->listed[em->nlisted++] = section;
}

/* Applies the rules to statement si; its expansion's index into em->xs,
 * or -1 when nothing is inserted. */
static int apply_rules(struct emitter *em, int si)
{
	if (!em->rs->rules)
		return -1;
	const struct altr_stmt *s = &em->u->stmts[si];
	bool matched = false, has_replace = false;
	struct altr_str caps[10];
	memset(caps, 0, sizeof caps);
	for (int k = 0; k < 3; k++)
		em->part[k].len = 0;
	for (struct altr_rule *r = em->rs->rules; r; r = r->next) {
		if (!altr_expr_eval(r->match, em->u, s, caps))
			continue;
		const struct altr_case *c = r->cases;
		while (c && !altr_expr_eval(c->when, em->u, s, caps))
			c = c->next;
		if (!c && r->cases)
			continue;
		r->nmatched++;
		unsigned long app = ++em->nlabels;
		matched = true;
		for (const struct altr_action *a = c ? c->actions : NULL; a; a = a->next) {
			struct altr_buf *dst = a->place == PLACE_BEFORE ? &em->part[X_BEFORE]
			                     : a->place == PLACE_AFTER  ? &em->part[X_AFTER]
			                                                : &em->part[X_REPLACE];
			if (a->place == PLACE_REPLACE) {
				if (has_replace)
					continue; /* the first replace wins */
				has_replace = true;
			}
			bool listed = r->list && a->place != PLACE_REPLACE;
			size_t at = dst->len;
			if (listed)
				put_list_label(em, dst, "lb");
			size_t body = dst->len;
			if (!expand(em, a, s, app, caps, dst))
				em->errors++;
			if (listed)
				end_listed(em, dst, at, body, r->list);
		}
		if (r->final)
			break;
	}
	if (!matched || (!em->part[X_BEFORE].len && !em->part[X_AFTER].len &&
	                 !has_replace))
		return -1; /* nothing to insert */
	if (em->nxs == em->capxs) {
		em->capxs = em->capxs ? 2 * em->capxs : 1024;
		em->xs = altr_xrealloc(em->xs, (size_t)em->capxs * sizeof *em->xs);
	}
	struct expansion *x = &em->xs[em->nxs];
	*x = (struct expansion){.has_replace = has_replace, .flags_dead = !s->flags_live_in};
	for (int k = 0; k < 3; k++) {
		x->off[k] = em->code.len;
		x->len[k] = em->part[k].len;
		altr_buf_put(&em->code, em->part[k].p, em->part[k].len);
	}
	return em->nxs++;
}

static void warn_unknown(struct emitter *em, const struct altr_stmt *s)
{
	struct altr_str m = s->insn->mnem;
	for (int i = 0; i < em->nwarned; i++)
		if (altr_str_eq(m, em->warned[i]))
			return;
	if (em->nwarned == em->capwarned) {
		em->capwarned = em->capwarned ? 2 * em->capwarned : 16;
		em->warned = altr_xrealloc(em->warned, (size_t)em->capwarned * sizeof *em->warned);
	}
	em->warned[em->nwarned++] = altr_strdup_str(m);
	if (em->o->strict) {
		altr_error_at(em->u->path, s->line, 0, "unknown instruction '%.*s'",
		              (int)s->text.len, s->text.p);
		em->errors++;
	} else {
		altr_warn(em->u->path, s->line, "unknown instruction '%.*s' passed "
		          "through uninstrumented", (int)s->text.len, s->text.p);
	}
}

/* ------------------------------------------------------------ CFI upkeep */

/* How far an inserted instruction moves %rsp down (push: +8), or 0. */
static long rsp_push_delta(const struct altr_insn *in)
{
	uint64_t a = in->info.attrs;
	if (a & ATTR_PUSH)
		return in->info.impl_size;
	if (a & ATTR_POP)
		return -(long)in->info.impl_size;
	if (in->nops == 2 && in->ops[1].kind == OPK_REG &&
	    altr_regs[in->ops[1].reg].cls == RC_GPR &&
	    altr_regs[in->ops[1].reg].num == ALTR_GPR_RSP &&
	    altr_regs[in->ops[1].reg].size == 8) {
		const struct altr_operand *s = &in->ops[0];
		char buf[32];
		size_t n;
		if (altr_str_starts(in->mnem, "lea") && s->kind == OPK_MEM &&
		    s->base >= 0 && altr_regs[s->base].num == ALTR_GPR_RSP &&
		    s->index < 0 && s->disp.len < sizeof buf) {
			n = s->disp.len;
			memcpy(buf, s->disp.p, n);
			buf[n] = 0;
			char *end;
			long d = strtol(buf, &end, 0);
			return *end ? 0 : -d;
		}
		if (s->kind == OPK_IMM && s->text.len - 1 < sizeof buf) {
			n = s->text.len - 1;
			memcpy(buf, s->text.p + 1, n);
			buf[n] = 0;
			char *end;
			long d = strtol(buf, &end, 0);
			if (*end)
				return 0;
			if (altr_str_starts(in->mnem, "sub"))
				return d;
			if (altr_str_starts(in->mnem, "add"))
				return -d;
		}
	}
	return 0;
}

/* The %rsp delta of an inserted line, remembered by its text: parsing
 * each inserted line again was a tenth of the emitter's time, and the
 * lines repeat. */
struct cfa_memo {
	uint64_t hash;           /* 0: empty slot */
	size_t off, len;         /* the text, in em->memokeys */
	long delta;
};

static uint64_t hash_bytes(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
	return h | 1;
}

static struct cfa_memo *memo_slot(struct cfa_memo *m, size_t cap,
                                  const struct altr_buf *keys, uint64_t h,
                                  const char *p, size_t n)
{
	for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1))
		if (!m[i].hash || (m[i].hash == h && m[i].len == n &&
		                   memcmp(keys->p + m[i].off, p, n) == 0))
			return &m[i];
}

static long line_delta(struct emitter *em, const char *p, size_t n)
{
	if (2 * (em->nmemo + 1) > em->capmemo) {
		size_t cap = em->capmemo ? 2 * em->capmemo : 1024;
		struct cfa_memo *m = altr_xcalloc(cap, sizeof *m);
		for (size_t i = 0; i < em->capmemo; i++)
			if (em->memo[i].hash)
				*memo_slot(m, cap, &em->memokeys, em->memo[i].hash,
				           em->memokeys.p + em->memo[i].off,
				           em->memo[i].len) = em->memo[i];
		free(em->memo);
		em->memo = m;
		em->capmemo = cap;
	}
	uint64_t h = hash_bytes(p, n);
	struct cfa_memo *e = memo_slot(em->memo, em->capmemo, &em->memokeys,
	                               h, p, n);
	if (e->hash)
		return e->delta;
	long d = 0;
	struct altr_str t = {p, n};
	struct altr_insn in;
	struct altr_operand ops[ALTR_MAXOPS];
	if (altr_asm_parse_insn(t, &in, ops))
		d = rsp_push_delta(&in);
	*e = (struct cfa_memo){h, em->memokeys.len, n, d};
	altr_buf_put(&em->memokeys, p, n);
	em->nmemo++;
	return d;
}

/* Writes inserted code (slice k of expansion x), adding
 * .cfi_adjust_cfa_offset after each instruction that moves %rsp while the
 * CFA is %rsp-based. */
static void put_inserted(struct emitter *em, struct altr_buf *out,
                         const struct expansion *x, int k, bool cfa_rsp)
{
	if (!x->len[k])
		return;
	const char *p = em->code.p + x->off[k], *end = p + x->len[k];
	if (!cfa_rsp) {
		altr_buf_put(out, p, x->len[k]);
		return;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		altr_buf_put(out, p, n);
		altr_buf_putc(out, '\n');
		long d = line_delta(em, p, n);
		if (d) {
			altr_buf_puts(out, "\t.cfi_adjust_cfa_offset ");
			altr_buf_putl(out, d);
			altr_buf_putc(out, '\n');
		}
		p = nl ? nl + 1 : end;
	}
}

/* ------------------------------------------------------------ the output */

static void put_stmt(struct altr_buf *out, const struct altr_stmt *s)
{
	if (s->kind != STMT_LABEL)
		altr_buf_putc(out, '\t');
	altr_buf_put(out, s->text.p, s->text.len);
	altr_buf_putc(out, '\n');
}

static void put_group_start(struct emitter *em, struct altr_buf *out,
                            struct expansion *x)
{
	x->group = ++em->ngroups;
	if (x->group >= em->capgdead) {
		em->capgdead = em->capgdead ? 2 * em->capgdead : 1024;
		em->gdead = altr_xrealloc(em->gdead, (size_t)em->capgdead * sizeof *em->gdead);
	}
	em->gdead[x->group] = x->flags_dead;
	if (em->o->iot) {
		altr_buf_put(out, ".Lrdb_iot_b", 11);
		altr_buf_putl(out, x->group);
		altr_buf_put(out, ":\n", 2);
	}
}

static void put_group_end(struct emitter *em, struct altr_buf *out,
                          const struct expansion *x)
{
	if (em->o->iot) {
		altr_buf_put(out, ".Lrdb_iot_e", 11);
		altr_buf_putl(out, x->group);
		altr_buf_put(out, ":\n", 2);
	}
}

static struct expansion *exp_of(const struct emitter *em, int k)
{
	return em->xi[k] >= 0 ? &em->xs[em->xi[k]] : NULL;
}

static void emit_line(struct emitter *em, struct altr_buf *out,
                      const struct altr_line *L)
{
	struct altr_unit *u = em->u;
	for (int k = L->first; k < L->first + L->n; k++) {
		struct altr_stmt *s = &u->stmts[k];
		struct expansion *x = exp_of(em, k);
		/* Code for the insn after a prefix-only statement goes first. */
		if ((s->facts & SF_PREFIX_ONLY) && k + 1 < u->nstmts && em->xi[k + 1] >= 0) {
			struct expansion *nx = exp_of(em, k + 1);
			put_group_start(em, out, nx);
			put_inserted(em, out, nx, X_BEFORE, u->stmts[k + 1].facts & SF_CFA_RSP);
			put_stmt(out, s);
			continue;
		}
		if (!x) {
			put_stmt(out, s);
			continue;
		}
		bool cfa = s->facts & SF_CFA_RSP;
		bool started = k > 0 && (u->stmts[k - 1].facts & SF_PREFIX_ONLY);
		if (!started) {
			put_group_start(em, out, x);
			put_inserted(em, out, x, X_BEFORE, cfa);
		}
		if (x->has_replace)
			put_inserted(em, out, x, X_REPLACE, cfa);
		else
			put_stmt(out, s);
		put_inserted(em, out, x, X_AFTER, cfa);
		put_group_end(em, out, x);
	}
	if (L->comment.len) {
		altr_buf_putc(out, '\t');
		altr_buf_put(out, L->comment.p, L->comment.len);
		altr_buf_putc(out, '\n');
	}
}

static bool line_changed(const struct emitter *em, const struct altr_line *L)
{
	for (int k = L->first; k < L->first + L->n; k++) {
		if (em->xi[k] >= 0)
			return true;
		if ((em->u->stmts[k].facts & SF_PREFIX_ONLY) && k + 1 < em->u->nstmts &&
		    em->xi[k + 1] >= 0)
			return true;
	}
	return false;
}

/* Writes out what is buffered once there is enough of it. */
static void flush_out(struct altr_buf *out, FILE *f, int *rc)
{
	if (out->len < (256u << 10))
		return;
	if (fwrite(out->p, 1, out->len, f) != out->len)
		*rc = -1;
	out->len = 0;
}

/* Unchanged input: large runs go out directly, not through the buffer. */
static void put_src(struct altr_buf *out, const char *p, size_t n, FILE *f,
                    int *rc)
{
	if (n < (64u << 10)) {
		altr_buf_put(out, p, n);
		return;
	}
	if (out->len && fwrite(out->p, 1, out->len, f) != out->len)
		*rc = -1;
	out->len = 0;
	if (fwrite(p, 1, n, f) != n)
		*rc = -1;
}

static void emit_iot(struct emitter *em, struct altr_buf *out, FILE *f, int *rc)
{
	if (!em->o->iot || !em->ngroups)
		return;
	/* Entries are PC-relative so that no dynamic relocation is needed;
	 * rdb-iot rewrites them to image offsets and sorts them after linking.
	 * Flags bit 0: no status flag is live before the group's instruction
	 * (a boundary at a SIC check there need not compare them). */
	altr_buf_puts(out, "\t.section .rdb_iot,\"aR\",@progbits\n\t.balign 8\n");
	for (int g = 1; g <= em->ngroups; g++) {
		altr_buf_put(out, "\t.quad .Lrdb_iot_b", 18);
		altr_buf_putl(out, g);
		altr_buf_put(out, " - .\n\t.long .Lrdb_iot_e", 23);
		altr_buf_putl(out, g);
		altr_buf_put(out, " - .Lrdb_iot_b", 14);
		altr_buf_putl(out, g);
		altr_buf_puts(out, em->gdead[g] ? "\n\t.long 1\n" : "\n\t.long 0\n");
		flush_out(out, f, rc);
	}
}

/* One section per 'list' name: 8-byte entries, the listed code's start
 * relative to the entry and its length (docs/rules.md "list").  Names are
 * few (trace.rules has two): each entry is compared with those seen. */
static void emit_lists(struct emitter *em, struct altr_buf *out, FILE *f, int *rc)
{
	const char **names = NULL;
	size_t nnames = 0;
	for (size_t i = 0; i < em->nlisted; i++) {
		size_t k = 0;
		while (k < nnames && strcmp(names[k], em->listed[i]) != 0)
			k++;
		if (k == nnames) {
			names = altr_xrealloc(names, (nnames + 1) * sizeof *names);
			names[nnames++] = em->listed[i];
		}
	}
	for (size_t k = 0; k < nnames; k++) {
		altr_buf_puts(out, "\t.section ");
		altr_buf_puts(out, names[k]);
		altr_buf_puts(out, ",\"aR\",@progbits\n\t.balign 4\n");
		for (size_t n = 0; n < em->nlisted; n++) {
			if (strcmp(em->listed[n], names[k]) != 0)
				continue;
			altr_buf_puts(out, "\t.long .Laltr_lb");
			altr_buf_putl(out, (long)n);
			altr_buf_puts(out, " - ., .Laltr_le");
			altr_buf_putl(out, (long)n);
			altr_buf_puts(out, " - .Laltr_lb");
			altr_buf_putl(out, (long)n);
			altr_buf_putc(out, '\n');
			flush_out(out, f, rc);
		}
	}
	free(names);
}

int altr_emit(struct altr_unit *u, struct altr_ruleset *rs,
              const struct altr_opts *o, FILE *f, struct altr_stats *st)
{
	struct emitter em = {.u = u, .rs = rs, .o = o, .st = st};
	em.xi = altr_xmalloc(((size_t)u->nstmts + 1) * sizeof *em.xi);
	for (int i = 0; i <= u->nstmts; i++)
		em.xi[i] = -1;
	altr_match_begin();
	for (int i = 0; i < u->nstmts; i++) {
		struct altr_stmt *s = &u->stmts[i];
		if (s->kind != STMT_INSN)
			continue;
		if (s->facts & SF_OPAQUE) {
			st->opaque++;
			continue;
		}
		st->insns++;
		if (!s->insn->desc) {
			st->unknown++;
			warn_unknown(&em, s);
		}
		if (s->flags_live_in && (s->insn->info.attrs & (ATTR_LOAD | ATTR_STORE)))
			st->flags_live_sites++;
		if (!(s->facts & SF_EXEC))
			continue;
		em.xi[i] = apply_rules(&em, i);
		if (em.xi[i] >= 0)
			st->matched_insns++;
	}
	altr_match_end();
	int rc = 0;
	if (em.errors) {
		rc = -1;
	} else {
		/* Nothing is written before the rules have all applied without
		 * error; then the output goes out in pieces. */
		struct altr_buf out = {0};
		const char *same = u->src; /* start of unchanged input not yet out */
		for (int l = 0; l < u->nlines; l++) {
			const struct altr_line *L = &u->lines[l];
			if (!line_changed(&em, L))
				continue;
			put_src(&out, same, (size_t)(L->text.p - same), f, &rc);
			emit_line(&em, &out, L);
			same = L->text.p + L->text.len + L->has_newline;
			flush_out(&out, f, &rc);
		}
		if (u->len)
			put_src(&out, same, (size_t)(u->src + u->len - same), f, &rc);
		if (em.ngroups && u->nlines && !u->lines[u->nlines - 1].has_newline)
			altr_buf_putc(&out, '\n');
		emit_iot(&em, &out, f, &rc);
		emit_lists(&em, &out, f, &rc);
		st->groups += (unsigned long)em.ngroups;
		if (out.len && fwrite(out.p, 1, out.len, f) != out.len)
			rc = -1;
		altr_buf_free(&out);
	}
	for (size_t i = 0; i < em.captm; i++) {
		free(em.tm[i].p);
		free(em.tm[i].names);
	}
	free(em.tm);
	free(em.memo);
	altr_buf_free(&em.memokeys);
	altr_buf_free(&em.code);
	altr_buf_free(&em.line);
	for (int k = 0; k < 3; k++)
		altr_buf_free(&em.part[k]);
	free(em.xs);
	free(em.xi);
	free(em.gdead);
	free(em.listed);
	for (int i = 0; i < em.nwarned; i++)
		free(em.warned[i]);
	free(em.warned);
	return rc;
}
