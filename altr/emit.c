/*
 * emit.c: writing the result (the plans are made by plan.c).
 *
 * Lines no rule touches are written back byte for byte.  A line holding a
 * changed instruction is written one statement per line, with the inserted
 * code placed immediately before (after) the instruction: a .loc or label
 * that precedes the instruction therefore precedes the whole group, so gdb
 * steps over it as one line and jumps to the label run the hook (but for
 * labels of #APP code that nothing branches to: labels_to_defer).  Each
 * group (before code, instruction or replacement, after code) is bracketed
 * by labels and listed in the .rdb_iot section (docs/iot.md), and inserted
 * code that moves %rsp gets .cfi_adjust_cfa_offset while the CFA is
 * %rsp-based.
 */
#include "altr.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* One output line's pieces go straight into the buffer, room for them
 * all made at once (line_room); a number's digits are copied as its
 * whole array, the bytes past them written over by the next piece (room
 * is made for all 24): copies of a constant size, inlined, where a put
 * each (a call for a few bytes) was most of writing the table's lines. */
static char *line_room(struct altr_buf *b, size_t n)
{
	if (b->len + n + 1 > b->cap)
		altr_buf_grow(b, n);
	return b->p + b->len;
}

static char *put_dec(char *p, const struct dec *c)
{
	memcpy(p, c->d, sizeof c->d);
	return p + c->n;
}

static void line_done(struct altr_buf *b, char *p)
{
	b->len = (size_t)(p - b->p);
	*p = 0;
}

#define PUT_LIT(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

/* Writes part k of x's plan with x's numbers in its holes, and with the
 * CFI lines when cfa. */
static void put_part(const struct emitter *em, struct altr_buf *out,
                     const struct expansion *x, int k, bool cfa)
{
	static const char cfi[] = "\t.cfi_adjust_cfa_offset ";
	const struct plan *p = &em->plans[x->plan];
	size_t off = p->off, h0 = p->hole0;
	for (int j = 0; j < k; j++) {
		off += p->len[j];
		h0 += p->nholes[j];
	}
	const char *t = em->ptext.p + off;
	/* room for the text and, per hole, a number or a CFI line */
	char *o = line_room(out, p->len[k] + p->nholes[k] * (sizeof cfi + 24));
	size_t at = 0;
	for (size_t i = 0; i < p->nholes[k]; i++) {
		const struct hole *h = &em->pholes[h0 + i];
		if (h->kind == H_CFI && !cfa)
			continue;
		memcpy(o, t + at, h->pos - at);
		o += h->pos - at;
		at = h->pos + h->len;
		if (h->kind == H_CFI) {
			o = PUT_LIT(o, cfi);
			if (h->delta < 0)
				*o++ = '-';
			o = altr_put_ulong(o, h->delta < 0 ? 0ul - (unsigned long)h->delta
			                                   : (unsigned long)h->delta);
			*o++ = '\n';
		} else {
			o = altr_put_ulong(o, (h->kind == H_APP ? x->app0 : x->list0) +
			                      (unsigned long)h->delta);
		}
	}
	memcpy(o, t + at, p->len[k] - at);
	line_done(out, o + p->len[k] - at);
}

/* Writes inserted code (part k of expansion x's plan), adding
 * .cfi_adjust_cfa_offset after each instruction that moves %rsp while the
 * CFA is %rsp-based. */
static void put_inserted(struct emitter *em, struct altr_buf *out,
                         const struct expansion *x, int k, bool cfa_rsp)
{
	struct plan *p = &em->plans[x->plan];
	if (!p->len[k])
		return;
	put_part(em, out, x, k, cfa_rsp);
}

/* ------------------------------------------------------------ the output */

static void put_stmt(struct altr_buf *out, const struct altr_stmt *s)
{
	if (s->kind != STMT_LABEL)
		altr_buf_putc(out, '\t');
	altr_buf_put(out, s->text_p, s->text_len);
	altr_buf_putc(out, '\n');
}

static void dec_inc(struct dec *c)
{
	int i = c->n - 1;
	while (i >= 0 && c->d[i] == '9')
		c->d[i--] = '0';
	if (i >= 0) {
		c->d[i]++;
		return;
	}
	memmove(c->d + 1, c->d, (size_t)c->n++);
	c->d[0] = '1';
}

static void put_group_start(struct emitter *em, struct altr_buf *out,
                            struct expansion *x)
{
	x->group = ++em->ngroups;
	dec_inc(&em->gdec);
	em->gdead = altr_big_grow_raw(em->gdead, &em->capgdead, (size_t)x->group,
	                     sizeof *em->gdead, 1024);
	em->gdead[x->group] = x->flags_dead;
	if (em->o->iot) {
		char *p = line_room(out, 16 + sizeof em->gdec.d);
		p = PUT_LIT(p, LBL_GROUP_B);
		p = put_dec(p, &em->gdec);
		line_done(out, PUT_LIT(p, ":\n"));
	}
}

static void put_group_end(struct emitter *em, struct altr_buf *out,
                          const struct expansion *x)
{
	if (em->o->iot && x->group == em->ngroups) { /* always so: groups do
	                                              not nest */
		char *p = line_room(out, 16 + sizeof em->gdec.d);
		p = PUT_LIT(p, LBL_GROUP_E);
		p = put_dec(p, &em->gdec);
		line_done(out, PUT_LIT(p, ":\n"));
	} else if (em->o->iot) {
		altr_buf_puts(out, LBL_GROUP_E);
		altr_buf_putl(out, x->group);
		altr_buf_put(out, ":\n", 2);
	}
}

/* The expansion of statement k, or NULL.  The output asks for
 * statements in ascending order, the order of xs: a cursor finds them (a
 * map by statement was an array as long as the statements, filled in
 * for each). */
static struct expansion *exp_of(struct emitter *em, int k)
{
	while (em->xcur < em->nxs && em->xs[em->xcur].stmt < k)
		em->xcur++;
	return em->xcur < em->nxs && em->xs[em->xcur].stmt == k
	       ? &em->xs[em->xcur] : NULL;
}

/* A changed instruction's group after its before code: the instruction
 * or its replacement, the after code, the group's end. */
static void put_insn_rest(struct emitter *em, struct altr_buf *out, const struct altr_stmt *s,
                          const struct expansion *x)
{
	bool cfa = s->facts & SF_CFA_RSP;
	if (em->plans[x->plan].has_replace)
		put_inserted(em, out, x, X_REPLACE, cfa);
	else
		put_stmt(out, s);
	put_inserted(em, out, x, X_AFTER, cfa);
	put_group_end(em, out, x);
}

/* Directives that name a symbol without using its address. */
static bool symbol_attribute(struct altr_str n)
{
	static const char *const names[] = {".globl", ".global", ".type", ".size", ".hidden",
	                                    ".local", ".weak", ".protected", ".internal"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (altr_str_eq(n, names[i]))
			return true;
	return false;
}

/* Whether statement s may go to a label it names: a branch or call, a
 * data directive (a jump table), what altr did not parse.  Not the other
 * instructions (lea, mov: an address taken, to compare a pc with it or
 * for a handler to resume there, which the runtime sends through the
 * hooks: signal.c), not a label or a symbol attribute. */
static bool may_go_to(const struct altr_stmt *s)
{
	switch ((enum altr_stmtkind)s->kind) {
	case STMT_LABEL:
		return false;
	case STMT_DIRECTIVE:
		return !symbol_attribute(altr_stmt_name(s));
	case STMT_INSN:
		return !s->insn || !s->insn->desc ||
		       (s->insn->info.attrs & (ATTR_JMP | ATTR_JCC | ATTR_CALL));
	case STMT_OTHER:
		break;
	}
	return true;
}

static int str_order(const void *a, const void *b)
{
	const struct altr_str *x = a, *y = b;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->p, y->p, x->len);
}

/* The symbol-name tokens, outside strings (-g: .string "name"), of the
 * statements that may go to a label: once for the unit, sorted. */
static void make_gonames(struct emitter *em)
{
	const struct altr_unit *u = em->u;
	size_t cap = 64;
	em->gonames = altr_xmalloc(cap * sizeof *em->gonames);
	for (int i = 0; i < u->nstmts; i++) {
		const struct altr_stmt *s = &u->stmts[i];
		if (!may_go_to(s))
			continue;
		const char *t = s->text_p, *e = t + s->text_len;
		bool quoted = false;
		for (const char *p = t; p < e;) {
			if (*p == '"' && (p == t || p[-1] != '\\'))
				quoted = !quoted;
			if (quoted || !altr_name_char(*p)) {
				p++;
				continue;
			}
			const char *q = p;
			while (q < e && altr_name_char(*q))
				q++;
			if (em->ngonames == cap)
				em->gonames = altr_xrealloc(em->gonames, (cap *= 2) * sizeof *em->gonames);
			em->gonames[em->ngonames++] = (struct altr_str){p, (size_t)(q - p)};
			p = q;
		}
	}
	qsort(em->gonames, em->ngonames, sizeof *em->gonames, str_order);
}

static bool goname(const struct emitter *em, const char *p, size_t len)
{
	struct altr_str k = {p, len};
	return bsearch(&k, em->gonames, em->ngonames, sizeof k, str_order) != NULL;
}

/* Whether a statement of the unit that may go to a label names label
 * name.  A numeric label ("1") is named by any "1b" or "1f". */
static bool label_used(struct emitter *em, struct altr_str name)
{
	if (!em->gonames)
		make_gonames(em);
	if (!(name.len && name.p[0] >= '0' && name.p[0] <= '9'))
		return goname(em, name.p, name.len);
	char *ref = altr_xmalloc(name.len + 1);
	memcpy(ref, name.p, name.len);
	ref[name.len] = 'b';
	bool used = goname(em, ref, name.len + 1);
	ref[name.len] = 'f';
	used = used || goname(em, ref, name.len + 1);
	free(ref);
	return used;
}

/* Where labels of hand-written code (#APP) come right before an
 * instruction with code inserted before it, and nothing in the unit
 * branches to them, they go after that code, at the instruction (the
 * index of which is returned; -1: not so): such a label is there for C
 * code, which compares a faulting pc with it (a SIGSEGV handler that
 * steps over a probing load), and must see the instruction's address, as
 * without rdb.  A label the unit branches to stays in front: whatever
 * jumps there runs the hook. */
static int labels_to_defer(struct emitter *em, int k, int end)
{
	const struct altr_unit *u = em->u;
	int j = k;
	while (j < end && u->stmts[j].kind == STMT_LABEL && (u->stmts[j].facts & SF_IN_APP))
		j++;
	if (j == k || j >= end || u->stmts[j].kind != STMT_INSN)
		return -1;
	/* (asking ahead is fine: statements k..j-1, labels, have none) */
	struct expansion *x = exp_of(em, j);
	if (!x || !em->plans[x->plan].len[X_BEFORE])
		return -1;
	for (int m = k; m < j; m++)
		if (label_used(em, altr_stmt_name(&u->stmts[m])))
			return -1;
	return j;
}

static void emit_line(struct emitter *em, struct altr_buf *out, int l)
{
	struct altr_unit *u = em->u;
	int first = (int)u->lines[l].first, n = altr_line_n(u, l);
	for (int k = first; k < first + n; k++) {
		struct altr_stmt *s = &u->stmts[k];
		int j = s->kind == STMT_LABEL && (s->facts & SF_IN_APP)
		        ? labels_to_defer(em, k, first + n) : -1;
		if (j >= 0) {
			struct expansion *x = exp_of(em, j);
			put_group_start(em, out, x);
			put_inserted(em, out, x, X_BEFORE, u->stmts[j].facts & SF_CFA_RSP);
			for (; k < j; k++)
				put_stmt(out, &u->stmts[k]);
			put_insn_rest(em, out, &u->stmts[k], x);
			continue;
		}
		struct expansion *x = exp_of(em, k);
		/* Code for the insn after a prefix-only statement goes first. */
		struct expansion *nx = (s->facts & SF_PREFIX_ONLY) && k + 1 < u->nstmts
		                       ? exp_of(em, k + 1) : NULL;
		if (nx) {
			put_group_start(em, out, nx);
			put_inserted(em, out, nx, X_BEFORE, u->stmts[k + 1].facts & SF_CFA_RSP);
			put_stmt(out, s);
			continue;
		}
		if (!x) {
			put_stmt(out, s);
			continue;
		}
		bool started = k > 0 && (u->stmts[k - 1].facts & SF_PREFIX_ONLY);
		if (!started) {
			put_group_start(em, out, x);
			put_inserted(em, out, x, X_BEFORE, s->facts & SF_CFA_RSP);
		}
		put_insn_rest(em, out, s, x);
	}
	struct altr_str c = altr_line_comment(u, l);
	if (c.len) {
		altr_buf_putc(out, '\t');
		altr_buf_put(out, c.p, c.len);
		altr_buf_putc(out, '\n');
	}
}

/* The index of the line holding statement k: the reader numbers
 * statements by input line (else the lines are searched). */
static int line_of(const struct altr_unit *u, int k)
{
	int l = u->stmts[k].line - 1;
	if (l >= 0 && l < u->nlines && (int)u->lines[l].first <= k &&
	    k < (int)u->lines[l].first + altr_line_n(u, l))
		return l;
	int lo = 0, hi = u->nlines - 1;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if ((int)u->lines[mid].first + altr_line_n(u, mid) <= k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
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
	struct dec g = {.n = 0};
	for (int k = 1; k <= em->ngroups; k++) {
		dec_inc(&g);
		char *p = line_room(out, 80 + 3 * sizeof g.d);
		p = put_dec(PUT_LIT(p, "\t.quad " LBL_GROUP_B), &g);
		p = put_dec(PUT_LIT(p, "-.\n\t.long " LBL_GROUP_E), &g);
		p = put_dec(PUT_LIT(p, "-" LBL_GROUP_B), &g);
		p = em->gdead[k] ? PUT_LIT(p, ",1\n") : PUT_LIT(p, ",0\n");
		line_done(out, p);
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
	size_t *which = altr_xmalloc((em->nlisted + 1) * sizeof *which);
	for (size_t i = 0; i < em->nlisted; i++) {
		size_t k = 0;
		while (k < nnames && names[k] != em->listed[i] &&
		       strcmp(names[k], em->listed[i]) != 0)
			k++;
		if (k == nnames) {
			names = altr_xrealloc(names, (nnames + 1) * sizeof *names);
			names[nnames++] = em->listed[i];
		}
		which[i] = k;
	}
	for (size_t k = 0; k < nnames; k++) {
		altr_buf_puts(out, "\t.section ");
		altr_buf_puts(out, names[k]);
		altr_buf_puts(out, ",\"aR\",@progbits\n\t.balign 4\n");
		struct dec t = {"0", 1}; /* n */
		for (size_t n = 0; n < em->nlisted; n++, dec_inc(&t)) {
			if (which[n] != k)
				continue;
			char *p = line_room(out, 48 + 3 * sizeof t.d);
			p = put_dec(PUT_LIT(p, "\t.long " LBL_LIST "b"), &t);
			p = put_dec(PUT_LIT(p, "-.," LBL_LIST "e"), &t);
			p = put_dec(PUT_LIT(p, "-" LBL_LIST "b"), &t);
			line_done(out, PUT_LIT(p, "\n"));
			flush_out(out, f, rc);
		}
	}
	free(which);
	free(names);
}

int altr_emit(struct altr_unit *u, struct altr_ruleset *rs,
              const struct altr_opts *o, FILE *f, struct altr_stats *st)
{
	struct emitter em = {
		.u = u, .rs = rs, .o = o, .st = st,
		.tm = {.size = sizeof(struct tmpl), .load = 2, .first = 64},
		.shapes = {.size = sizeof(struct shape), .load = 2, .first = 256},
	};
	altr_plan_compile_rules(&em);
	altr_regex_memo_begin();
	size_t npc = ((size_t)u->ninsn_ids + 1) * sizeof *em.pc;
	size_t nheads = ((size_t)u->ninsn_ids + 1) * sizeof *em.heads;
	em.pc = altr_big_alloc(npc);
	em.heads = altr_big_alloc(nheads);
	bool rules = em.rs->rules != NULL;
	for (int i = 0; i < u->nstmts; i++) {
		/* loaded ahead: a statement's plan at 16, and at 8, for a new
		 * plan, its instruction and text (cache misses all) */
		if (i + 16 < u->nstmts && u->stmts[i + 16].kind == STMT_INSN)
			__builtin_prefetch(&em.pc[u->stmts[i + 16].iid]);
		if (i + 8 < u->nstmts && u->stmts[i + 8].kind == STMT_INSN &&
		    !em.pc[u->stmts[i + 8].iid].plan1) {
			const struct altr_stmt *a = &u->stmts[i + 8];
			__builtin_prefetch(a->insn);
			__builtin_prefetch((const char *)a->insn + 64);
			__builtin_prefetch(a->text_p);
		}
		struct altr_stmt *s = &u->stmts[i];
		if (s->kind != STMT_INSN)
			continue;
		if (s->facts & SF_OPAQUE) {
			st->opaque++;
			continue;
		}
		st->insns++;
		/* the reader counted them: no need to look at every insn */
		if (u->nunknown && !s->insn->desc) {
			st->unknown++;
			altr_plan_warn_unknown(&em, s);
		}
		if (s->flags_live_in) {
			struct pcache *c = &em.pc[s->iid];
			if (!c->acc)
				c->acc = (s->insn->info.attrs & (ATTR_LOAD | ATTR_STORE))
				         ? 2 : 1;
			st->flags_live_sites += c->acc == 2;
		}
		if (!(s->facts & SF_EXEC))
			continue;
		if (rules && altr_plan_apply(&em, i) >= 0)
			st->matched_insns++;
	}
	altr_regex_memo_end();
	altr_plan_tally(&em);
	int rc = 0;
	if (em.errors) {
		rc = -1;
	} else {
		/* Nothing is written before the rules have all applied without
		 * error; then the output goes out in pieces. */
		struct altr_buf out = {0};
		const char *same = u->src; /* start of unchanged input not yet out */
		int done = -1;             /* lines before this one are out */
		for (size_t x = 0; x < em.nxs; x++) {
			/* what is written for expansions ahead, loaded early */
			if (x + 8 < em.nxs) {
				const struct expansion *a = &em.xs[x + 8];
				__builtin_prefetch(&em.plans[a->plan]);
				__builtin_prefetch(&u->stmts[a->stmt]);
				if (a->line > 0 && a->line <= u->nlines)
					__builtin_prefetch(&u->lines[a->line - 1]);
			}
			if (x + 4 < em.nxs) {
				const struct plan *p = &em.plans[em.xs[x + 4].plan];
				if (em.ptext.p)
					__builtin_prefetch(em.ptext.p + p->off);
				if (em.pholes)
					__builtin_prefetch(&em.pholes[p->hole0]);
				__builtin_prefetch(u->stmts[em.xs[x + 4].stmt].text_p);
			}
			/* the lines changed: the statement's, and that of a
			 * prefix statement before it */
			int k = em.xs[x].stmt;
			int ls[2] = {-1, line_of(u, k)};
			if (k > 0 && (u->stmts[k - 1].facts & SF_PREFIX_ONLY))
				ls[0] = line_of(u, k - 1);
			for (int j = 0; j < 2; j++) {
				if (ls[j] <= done)
					continue;
				struct altr_str t = altr_line_text(u, ls[j]);
				put_src(&out, same, (size_t)(t.p - same), f, &rc);
				emit_line(&em, &out, ls[j]);
				same = t.p + t.len + altr_line_has_newline(u, ls[j]);
				flush_out(&out, f, &rc);
				done = ls[j];
			}
		}
		if (u->len)
			put_src(&out, same, (size_t)(u->src + u->len - same), f, &rc);
		if (em.ngroups && u->nlines && !altr_line_has_newline(u, u->nlines - 1))
			altr_buf_putc(&out, '\n');
		emit_iot(&em, &out, f, &rc);
		emit_lists(&em, &out, f, &rc);
		st->groups += (unsigned long)em.ngroups;
		if (out.len && fwrite(out.p, 1, out.len, f) != out.len)
			rc = -1;
		altr_buf_free(&out);
	}
	struct tmpl *tms = (struct tmpl *)em.tm.e;
	for (size_t i = 0; i < em.tm.cap; i++) {
		free(tms[i].p);
		free(tms[i].names);
		free(tms[i].lstate);
		free(tms[i].ldelta);
	}
	altr_table_free(&em.tm);
	altr_table_free(&em.shapes);
	altr_kept_free(&em.deltas);
	free(em.gonames);
	altr_buf_free(&em.line);
	free(em.lhole.h);
	for (int k = 0; k < 3; k++) {
		altr_buf_free(&em.part[k]);
		free(em.phole[k].h);
	}
	altr_matcher_free(em.m);
	free(em.rule);
	free(em.rmatch);
	free(em.rcase);
	free(em.cwhen);
	altr_big_free(em.plans, em.capplans * sizeof *em.plans);
	altr_buf_free(&em.ptext);
	altr_big_free(em.app, em.capapp * sizeof *em.app);
	altr_buf_free(&em.xkey);
	altr_kept_free(&em.codes);
	altr_big_free(em.pholes, em.cappholes * sizeof *em.pholes);
	altr_big_free(em.prules, em.capprules * sizeof *em.prules);
	altr_big_free(em.psect, em.cappsect * sizeof *em.psect);
	altr_big_free(em.xs, em.capxs * sizeof *em.xs);
	altr_big_free(em.pc, npc);
	altr_big_free(em.heads, nheads);
	altr_big_free(em.listed, em.caplisted * sizeof *em.listed);
	altr_big_free(em.uses, em.capuses * sizeof *em.uses);
	altr_big_free(em.gdead, em.capgdead * sizeof *em.gdead);
	for (int i = 0; i < em.nwarned; i++)
		free(em.warned[i]);
	free(em.warned);
	return rc;
}

