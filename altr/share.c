/*
 * share.c: plans shared between instructions: a plan whose code (the
 * rules applied and their substitutions) is that of an earlier one shares
 * its text; a branch or call to a label shares the plan of its shape
 * when no rule can see which label it names.
 */
#include "altr.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* The plan kept earlier whose code is that of the key in em->xkey (hash
 * h); else -1, with *slot the free entry where a new one goes. */
int altr_share_code_find(struct emitter *em, uint32_t h, struct altr_kept **slot)
{
	struct altr_kept *e = altr_kept_find(&em->codes, em->xkey.p, em->xkey.len, h);
	if (e->len)
		return (int)e->val;
	*slot = e;
	return -1;
}

/* Whether s is a branch or call whose one operand is a plain label that
 * ends its text, after its first *plen bytes. */
static bool label_shaped(const struct altr_stmt *s, size_t *plen)
{
	const struct altr_insn *in = s->insn;
	if (in->nops != 1)
		return false;
	const struct altr_operand *op = &in->ops[0];
	size_t n = op->text.len;
	if (op->kind != OPK_TARGET || op->star || op->deco_len || !n ||
	    n >= s->text_len ||
	    memcmp(s->text_p + s->text_len - n, op->text.p, n) != 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!altr_label_char(op->text.p[i]))
			return false;
	*plen = s->text_len - n;
	return true;
}

/* Whether a and b, two such instructions, are alike but for their label
 * (the text before it compared apart). */
static bool same_but_label(const struct altr_insn *a, const struct altr_insn *b)
{
	const struct altr_iinfo *x = &a->info, *y = &b->info;
	const struct altr_operand *o = &a->ops[0], *q = &b->ops[0];
	return a->desc == b->desc && a->prefixes == b->prefixes &&
	       a->nops == b->nops && x->attrs == y->attrs && x->mem == y->mem &&
	       x->mem_acc == y->mem_acc && x->mem_size == y->mem_size &&
	       x->op_acc[0] == y->op_acc[0] && x->impl_size == y->impl_size &&
	       x->flags_read == y->flags_read &&
	       x->flags_written == y->flags_written &&
	       x->flags_maybe == y->flags_maybe && o->kind == q->kind &&
	       o->star == q->star && o->scale == q->scale && o->reg == q->reg &&
	       o->seg == q->seg && o->base == q->base && o->index == q->index &&
	       o->deco_len == q->deco_len;
}

/* Whether plan p, made for s (label after plen bytes), is the plan of any
 * label there: every rule's regex tests on the label fail whatever it is
 * (so each evaluates alike), and the code of the rules that applied does
 * not show the statement, its operand or a memory operand. */
static bool label_blind(struct emitter *em, const struct plan *p,
                        const struct altr_stmt *s, size_t plen)
{
	for (int ri = 0; ri < em->nr; ri++) {
		const struct altr_rule *r = em->rule[ri];
		if (!altr_match_label_blind(r->match, s, plen))
			return false;
		for (const struct altr_case *c = r->cases; c; c = c->next)
			if (!altr_match_label_blind(c->when, s, plen))
				return false;
	}
	for (uint32_t k = 0; k < p->nrules; k++) {
		const struct altr_rule *r = em->prules[p->rule0 + k];
		for (const struct altr_case *c = r->cases; c; c = c->next)
			for (const struct altr_action *a = c->actions; a; a = a->next)
				for (const struct tpiece *x = altr_tmpl_pieces(em, a);
				     x->kind != T_END; x++)
					if (x->kind == T_STMT || x->kind == T_OPND ||
					    x->kind == T_MEM || x->kind == T_ADDR ||
					    x->kind == T_DISP)
						return false;
	}
	return true;
}

static bool shape_stop(const void *ent, const void *key)
{
	const struct shape *e = ent, *k = key;
	return !e->p || (e->hash == k->hash && e->plen == k->plen &&
	                 e->ctx == k->ctx && memcmp(e->p, k->p, k->plen) == 0 &&
	                 same_but_label(e->insn, k->insn));
}

static uint32_t shape_hash(const void *ent)
{
	return ((const struct shape *)ent)->hash;
}

static bool shape_used(const void *ent)
{
	return ((const struct shape *)ent)->p != NULL;
}

/* The plan for statement s of context ctx, not kept for its instruction:
 * that of its shape, or a new one. */
int altr_share_shaped_plan(struct emitter *em, const struct altr_stmt *s,
                       unsigned ctx)
{
	size_t plen;
	if (!label_shaped(s, &plen))
		return altr_plan_make(em, s, ctx);
	altr_table_reserve(&em->shapes, 1, shape_hash, shape_used);
	uint32_t h = altr_hash(s->text_p, plen) ^ ctx * 0x9e3779b9u;
	struct shape key = {s->text_p, (uint32_t)plen, ctx, h, -1, s->insn};
	struct shape *e = altr_table_slot(&em->shapes, sizeof *e, h, &key, shape_stop);
	if (e->p)
		return e->plan >= 0 ? e->plan : altr_plan_make(em, s, ctx);
	int pi = altr_plan_make(em, s, ctx);
	const struct plan *p = &em->plans[pi];
	bool share = p->kept && label_blind(em, p, s, plen);
	*e = (struct shape){s->text_p, (uint32_t)plen, ctx, h, share ? pi : -1,
	                    s->insn};
	em->shapes.n++;
	return pi;
}

