/*
 * plan.c: applying the rules to a statement: the plan of an instruction
 * in a context (the rules that apply and their expanded code), made once
 * and applied to every statement of that instruction and context.
 */
#include "altr.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ".LRlb<n>:" or ".LRle<n>:", n the statement's delta-th listed
 * code (a hole). */
static void put_list_label(struct emitter *em, struct altr_buf *b,
                           struct holes *hs,
                           const char *kind, unsigned long n,
                           unsigned long delta)
{
	size_t at = b->len;
	altr_buf_puts(b, LBL_LIST);
	altr_buf_puts(b, kind);
	altr_tmpl_put_hole(b, hs, H_LIST, n, delta);
	altr_buf_putc(b, ':');
	long d = altr_cfi_line_delta(em, b->p + at, b->len - at);
	altr_buf_putc(b, '\n');
	altr_tmpl_add_cfi_hole(hs, b, d);
}

/* The kept plan of instruction iid for context ctx, or -1. */
static int plan_find(const struct emitter *em, uint32_t iid, unsigned ctx)
{
	for (int k = em->heads[iid] - 1; k >= 0; k = em->plans[k].next)
		if (em->plans[k].ctx == ctx)
			return k;
	return -1;
}

/* Copies the parts in em->part and em->phole into the plans' store. */
static void store_parts(struct emitter *em, struct plan *p)
{
	p->off = em->ptext.len;
	p->hole0 = (uint32_t)em->npholes;
	for (int k = 0; k < 3; k++) {
		const struct holes *hs = &em->phole[k];
		p->len[k] = (uint32_t)em->part[k].len;
		p->nholes[k] = (uint32_t)hs->n;
		altr_buf_put(&em->ptext, em->part[k].p, em->part[k].len);
		for (size_t i = 0; i < hs->n; i++) {
			em->pholes = altr_big_grow_raw(em->pholes, &em->cappholes,
			                      em->npholes, sizeof *em->pholes, 1024);
			em->pholes[em->npholes++] = hs->h[i];
		}
	}
}

/* Whether expression e's and-chain holds a regex test (not negated):
 * when e holds, that regex matched and set the captures. */
static bool sets_captures(const struct altr_expr *e)
{
	if (!e)
		return false;
	if (e->op == EX_AND)
		return sets_captures(e->l) || sets_captures(e->r);
	return e->op == EX_MATCH && !e->negate;
}

/* Whether rule r's code may show captures it did not set itself: it
 * uses ${cN}, and its match can hold without a regex matching, so
 * they may be left over from rules before it. */
static bool sees_others_captures(struct emitter *em, const struct altr_rule *r)
{
	if (sets_captures(r->match))
		return false;
	for (const struct altr_case *c = r->cases; c; c = c->next)
		for (const struct altr_action *a = c->actions; a; a = a->next)
			for (const struct tpiece *x = altr_tmpl_pieces(em, a); x->kind != T_END; x++)
				if (x->kind == T_CAP)
					return true;
	return false;
}

void altr_plan_compile_rules(struct emitter *em)
{
	int nr = 0, nc = 0;
	/* A rule's match may skip its regexes when a cheap conjunct fails
	 * (altr_matcher_add_gated) unless some rule sees captures left
	 * over from others: a skipped regex would have set them. */
	bool gate = true;
	for (const struct altr_rule *r = em->rs->rules; r; r = r->next, nr++) {
		for (const struct altr_case *c = r->cases; c; c = c->next)
			nc++;
		gate = gate && !sees_others_captures(em, r);
	}
	em->m = altr_matcher_new();
	em->nr = nr;
	em->rule = altr_xmalloc((size_t)nr * sizeof *em->rule);
	em->rmatch = altr_xmalloc((size_t)nr * sizeof *em->rmatch);
	em->rcase = altr_xmalloc((size_t)nr * sizeof *em->rcase);
	em->cwhen = altr_xmalloc((size_t)nc * sizeof *em->cwhen);
	int ri = 0, ci = 0;
	for (struct altr_rule *r = em->rs->rules; r; r = r->next, ri++) {
		em->rule[ri] = r;
		em->rmatch[ri] = gate ? altr_matcher_add_gated(em->m, r->match)
		                      : altr_matcher_add(em->m, r->match);
		em->rcase[ri] = ci;
		for (const struct altr_case *c = r->cases; c; c = c->next)
			em->cwhen[ci++] = altr_matcher_add(em->m, c->when);
	}
}


static void key_put(struct altr_buf *k, const char *p, size_t n)
{
	uint32_t len = (uint32_t)n;
	altr_buf_put(k, (const char *)&len, sizeof len);
	altr_buf_put(k, p, n);
}

/* Appends to em->xkey what the code of a applied to s depends on beyond
 * the rules themselves (N_*; numbers of ${label}s are holes, the same in
 * every plan).  A piece with no value here makes an error when expanded:
 * the key only has to differ, so "absent" is a length of all ones. */
static void key_actions(struct emitter *em, const struct applied *a,
                        const struct altr_stmt *s)
{
	struct altr_buf *k = &em->xkey;
	uint32_t needs = 0;
	for (const struct altr_action *x = a->c ? a->c->actions : NULL; x; x = x->next)
		needs |= altr_tmpl_of(em, x)->needs;
	const struct altr_insn *in = s->insn;
	static const uint32_t absent = UINT32_MAX;
	if (needs & N_STMT)
		key_put(k, s->text_p, s->text_len);
	if (needs & N_MEM) {
		const struct altr_operand *m = altr_match_mem_operand(in);
		if (m)
			key_put(k, m->text.p, m->text.len);
		else
			altr_buf_put(k, (const char *)&absent, sizeof absent);
	}
	if (needs & N_SIZE) {
		unsigned n = altr_match_access_size(in);
		altr_buf_put(k, (const char *)&n, sizeof n);
	}
	if (needs & N_MNEM)
		key_put(k, in->mnem.p, in->mnem.len);
	for (int i = 0; i < 10; i++) {
		if (needs & ((uint32_t)N_OPND << i)) {
			if (i == 0 || i > in->nops) {
				altr_buf_put(k, (const char *)&absent, sizeof absent);
			} else {
				const struct altr_operand *op = &in->ops[i - 1];
				struct altr_str d = altr_op_deco(op);
				altr_buf_putc(k, op->star);
				key_put(k, op->text.p, op->text.len);
				key_put(k, d.p, d.len);
			}
		}
		if (needs & ((uint32_t)N_CAP << i))
			key_put(k, a->caps[i].p, a->caps[i].len);
	}
}

/* Expands the code of the rules applied (em->app) into em->part and
 * em->phole, and lists their listed code's sections; false on an error. */
static bool expand_applied(struct emitter *em, struct plan *p,
                           const struct altr_stmt *s, unsigned long app0,
                           unsigned long list0)
{
	bool ok = true;
	for (int k = 0; k < 3; k++) {
		em->part[k].len = 0;
		em->phole[k].n = 0;
	}
	for (uint32_t i = 0; i < p->nrules; i++) {
		const struct applied *ap = &em->app[i];
		unsigned long napp = i + 1;
		for (const struct altr_action *a = ap->c ? ap->c->actions : NULL; a;
		     a = a->next) {
			int k = a->place == PLACE_BEFORE ? X_BEFORE
			      : a->place == PLACE_AFTER  ? X_AFTER : X_REPLACE;
			struct altr_buf *dst = &em->part[k];
			struct holes *hs = &em->phole[k];
			if (a->place == PLACE_REPLACE) {
				if (p->has_replace)
					continue; /* the first replace wins */
				p->has_replace = true;
			}
			bool listed = ap->r->list && a->place != PLACE_REPLACE;
			size_t at = dst->len, hat = hs->n;
			if (listed)
				put_list_label(em, dst, hs, "b", list0 + p->nlisted, p->nlisted);
			size_t body = dst->len;
			if (!altr_tmpl_expand(em, a, s, app0 + napp, napp, ap->caps, dst, hs)) {
				em->errors++;
				ok = false;
			}
			if (!listed)
				continue;
			if (dst->len == body) { /* nothing to list: no labels */
				dst->len = at;
				hs->n = hat;
				continue;
			}
			put_list_label(em, dst, hs, "e", list0 + p->nlisted, p->nlisted);
			em->psect = altr_big_grow_raw(em->psect, &em->cappsect, em->npsect,
			                     sizeof *em->psect, 256);
			em->psect[em->npsect++] = ap->r->list;
			p->nlisted++;
		}
	}
	return ok;
}

/* Works out the plan for statement s of context ctx: evaluates the rules
 * and expands their templates with the numbers s gets (the counts so
 * far).  The code is that of an earlier plan when the same rules applied
 * with the same substitutions (most plans, docs/perf.md):
 * the plans then share their text and holes, which hold no number of
 * their own.  A plan that met an error is not kept for other statements:
 * each one reports its own. */
int altr_plan_make(struct emitter *em, const struct altr_stmt *s,
                     unsigned ctx)
{
	struct plan p = {.insn = s->insn, .ctx = ctx,
	                 .rule0 = (uint32_t)em->nprules,
	                 .sect0 = (uint32_t)em->npsect};
	unsigned long app0 = em->nlabels, list0 = em->nlisted;
	bool matched = false, bad = false;
	struct altr_eval ev = {.s = s};
	em->xkey.len = 0;
	for (int ri = 0;; ri++) {
		ri = altr_matcher_first(em->m, em->rmatch, em->nr, ri, &ev);
		if (ri == em->nr)
			break;
		struct altr_rule *r = em->rule[ri];
		const struct altr_case *c = r->cases;
		for (int ci = em->rcase[ri];
		     c && !altr_matcher_run(em->m, em->cwhen[ci], &ev); ci++)
			c = c->next;
		if (!c && r->cases)
			continue;
		em->prules = altr_big_grow_raw(em->prules, &em->capprules, em->nprules,
		                      sizeof *em->prules, 256);
		em->prules[em->nprules++] = r;
		em->app = altr_big_grow_raw(em->app, &em->capapp, p.nrules, sizeof *em->app, 16);
		struct applied *ap = &em->app[p.nrules++];
		*ap = (struct applied){.r = r, .c = c};
		memcpy(ap->caps, ev.caps, sizeof ap->caps);
		matched = true;
		const void *id[2] = {r, c};
		altr_buf_put(&em->xkey, (const char *)id, sizeof id);
		key_actions(em, ap, s);
		if (r->final)
			break;
	}
	int src = -1;
	struct altr_kept *slot = NULL;
	uint32_t h = 0;
	if (matched && altr_shortcuts) {
		h = altr_hash(em->xkey.p, em->xkey.len);
		src = altr_share_code_find(em, h, &slot);
	}
	if (src >= 0) {
		const struct plan *q = &em->plans[src];
		p.off = q->off;
		p.hole0 = q->hole0;
		memcpy(p.len, q->len, sizeof p.len);
		memcpy(p.nholes, q->nholes, sizeof p.nholes);
		p.sect0 = q->sect0;
		p.nlisted = q->nlisted;
		p.has_replace = q->has_replace;
	} else {
		bad = !expand_applied(em, &p, s, app0, list0);
		store_parts(em, &p);
	}
	p.code = matched && (p.len[X_BEFORE] || p.len[X_AFTER] || p.has_replace);
	/* about one plan per instruction: room for that many at once (each
	 * doubling faulted in pages anew), and for some instructions seen in
	 * a second context (a few: docs/perf.md) */
	size_t first = em->u->ninsn_ids + em->u->ninsn_ids / 8 + 1024;
	em->uses = altr_big_grow(em->uses, &em->capuses, em->nplans, sizeof *em->uses,
	                first);
	em->plans = altr_big_grow_raw(em->plans, &em->capplans, em->nplans,
	                     sizeof *em->plans, first);
	int i = (int)em->nplans++;
	p.kept = !bad;
	p.next = -1;
	if (p.kept) {
		p.next = em->heads[s->iid] - 1;
		em->heads[s->iid] = i + 1;
		if (slot) {
			altr_kept_add(&em->codes, slot, em->xkey.p, em->xkey.len, h, i);
		}
	}
	em->plans[i] = p;
	return i;
}

/* Applies the rules to statement si; its expansion's index into em->xs,
 * or -1 when nothing is inserted.  What a statement adds to the counts of
 * rule matches and listed code is added up per plan at the end. */
int altr_plan_apply(struct emitter *em, int si)
{
	const struct altr_stmt *s = &em->u->stmts[si];
	unsigned ctx = altr_match_ctx(s);
	struct pcache *c = &em->pc[s->iid];
	int pi;
	size_t nrules, nlisted;
	bool code;
	if (!altr_shortcuts) {
		/* each statement its own plan, its rules evaluated anew */
		pi = altr_plan_make(em, s, ctx);
		const struct plan *p = &em->plans[pi];
		nrules = p->nrules;
		nlisted = p->nlisted;
		code = p->code;
		em->uses[pi]++;
	} else if (c->plan1 && c->ctx == ctx && c->nrules != PC_BIG) {
		pi = c->plan1 - 1;
		nrules = c->nrules;
		nlisted = c->nlisted;
		code = c->code;
		c->uses++;
	} else {
		/* (an instruction without a plan has none kept: its first
		 * statement does not look at em->heads, a cache miss) */
		pi = c->plan1 && em->heads[s->iid] ? plan_find(em, s->iid, ctx)
		                                   : -1;
		if (pi < 0)
			pi = altr_share_shaped_plan(em, s, ctx);
		const struct plan *p = &em->plans[pi];
		nrules = p->nrules;
		nlisted = p->nlisted;
		code = p->code;
		/* the instruction's last context is kept (one is the rule) */
		if (p->kept) {
			if (c->plan1)
				em->uses[c->plan1 - 1] += c->uses;
			c->ctx = ctx;
			c->plan1 = pi + 1;
			c->uses = 1;
			bool big = nrules >= PC_BIG || nlisted >= PC_BIG;
			c->nrules = big ? PC_BIG : (uint8_t)nrules;
			c->nlisted = (uint8_t)nlisted;
			c->code = code;
		} else {
			em->uses[pi]++;
		}
	}
	unsigned long app0 = em->nlabels, list0 = em->nlisted;
	em->nlabels += nrules;
	em->nlisted += nlisted;
	if (!code)
		return -1; /* nothing to insert */
	em->xs = altr_big_grow_raw(em->xs, &em->capxs, em->nxs, sizeof *em->xs, 1024);
	em->xs[em->nxs] = (struct expansion){.stmt = si, .line = s->line,
	                                     .flags_dead = !s->flags_live_in,
	                                     .plan = pi, .app0 = app0,
	                                     .list0 = list0};
	return (int)em->nxs++;
}

/* The rules' match counts, and the listed code's sections: what applying
 * the plans added up to. */
void altr_plan_tally(struct emitter *em)
{
	for (uint32_t i = 0; i < em->u->ninsn_ids; i++)
		if (em->pc[i].plan1)
			em->uses[em->pc[i].plan1 - 1] += em->pc[i].uses;
	for (size_t k = 0; k < em->nplans; k++) {
		const struct plan *p = &em->plans[k];
		for (size_t r = 0; r < p->nrules; r++)
			em->prules[p->rule0 + r]->nmatched += em->uses[k];
	}
	size_t cap = 0;
	em->listed = altr_big_grow(em->listed, &cap, 0, sizeof *em->listed,
	                  em->nlisted + 1);
	em->caplisted = cap;
	for (size_t i = 0; i < em->nxs; i++) {
		const struct expansion *x = &em->xs[i];
		const struct plan *p = &em->plans[x->plan];
		for (size_t k = 0; k < p->nlisted; k++)
			em->listed[x->list0 + k] = em->psect[p->sect0 + k];
	}
}

void altr_plan_warn_unknown(struct emitter *em, const struct altr_stmt *s)
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
		              (int)s->text_len, s->text_p);
		em->errors++;
	} else {
		altr_warn(em->u->path, s->line, "unknown instruction '%.*s' passed "
		          "through uninstrumented", (int)s->text_len, s->text_p);
	}
}

