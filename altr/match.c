/*
 * match.c: evaluating a rule's expression against one statement.  The
 * predicates are declared in preds.def; this file gives each its meaning
 * in terms of the instruction database (struct altr_iinfo) and the facts
 * the reader and the analyses computed.
 */
#include "altr.h"

#include <stdlib.h>
#include <string.h>

/* Size of the access the statement makes: explicit operand first. */
static unsigned access_size(const struct altr_insn *in)
{
	if (in->info.mem >= 0 && in->info.mem_acc)
		return in->info.mem_size;
	return in->info.impl_size;
}

static const struct altr_operand *mem_operand(const struct altr_insn *in)
{
	if (in->info.mem < 0 || in->info.mem >= in->nops)
		return NULL;
	return &in->ops[(int)in->info.mem];
}

static bool is_reg_class(int r, enum altr_regclass c)
{
	return r >= 0 && altr_regs[r].cls == c;
}

static bool eval_pred(int pred, const struct altr_stmt *s)
{
	const struct altr_insn *in = s->insn;
	uint64_t a = in->info.attrs;
	const struct altr_operand *m = mem_operand(in);
	unsigned size = access_size(in);
	bool accessed = (a & (ATTR_LOAD | ATTR_STORE)) != 0;

	switch ((enum altr_pred)pred) {
	case PRED_load: return a & ATTR_LOAD;
	case PRED_store: return a & ATTR_STORE;
	case PRED_rmw: return a & ATTR_RMW;
	case PRED_mem: return m && in->info.mem_acc;
	case PRED_implicit: return a & (ATTR_STACK | ATTR_STRING);
	case PRED_partial: return accessed && (size == 1 || size == 2 || size == 4);
	case PRED_full: return accessed && size == 8;
	case PRED_wide: return accessed && size > 8;
	case PRED_atomic: return a & ATTR_ATOMIC;
	case PRED_string: return a & ATTR_STRING;
	case PRED_rep: return in->prefixes & (PFX_REP | PFX_REPNE);
	case PRED_push: return a & ATTR_PUSH;
	case PRED_pop: return a & ATTR_POP;
	case PRED_call: return a & ATTR_CALL;
	case PRED_direct_call:
		return (a & ATTR_CALL) && in->nops >= 1 && !in->ops[0].star;
	case PRED_indirect_call:
		return (a & ATTR_CALL) && in->nops >= 1 && in->ops[0].star;
	case PRED_ret: return a & ATTR_RET;
	case PRED_leave: return a & ATTR_LEAVE;
	case PRED_stack: return a & ATTR_STACK;
	case PRED_branch: return a & (ATTR_JMP | ATTR_JCC);
	case PRED_cond_branch: return a & ATTR_JCC;
	case PRED_uncond_branch: return a & ATTR_JMP;
	case PRED_backward: return s->facts & SF_BACKWARD;
	case PRED_forward: return s->facts & SF_FORWARD;
	case PRED_tail_jump: return s->facts & SF_TAIL;
	case PRED_indirect_jump:
		return (a & ATTR_JMP) && in->nops >= 1 && in->ops[0].star;
	case PRED_syscall: return a & ATTR_SYSCALL;
	case PRED_nondet: return a & ATTR_NONDET;
	case PRED_nop: return a & ATTR_NOP;
	case PRED_addr_only: return m && !in->info.mem_acc;
	case PRED_x87: return a & ATTR_X87;
	case PRED_sse: return a & ATTR_SSE;
	case PRED_avx: return a & ATTR_AVX;
	case PRED_avx512: return a & ATTR_AVX512;
	case PRED_rip_relative: return m && is_reg_class(m->base, RC_IP);
	case PRED_has_base: return m && m->base >= 0;
	case PRED_has_index: return m && m->index >= 0;
	case PRED_has_segment: return m && m->seg >= 0;
	case PRED_absolute: return m && m->base < 0 && m->index < 0;
	case PRED_sets_rsp: return a & ATTR_SETS_RSP;
	case PRED_flags_live: return s->flags_live_in != 0;
	case PRED_flags_dead: return s->flags_live_in == 0;
	case PRED_flags_live_after: return s->flags_live_out != 0;
	case PRED_in_app: return s->facts & SF_IN_APP;
	case PRED_unknown: return in->desc == NULL;
	case PRED_any: return true;
	case PRED_COUNT: break;
	}
	ALTR_ASSERT(!"predicate without a meaning");
	return false;
}

/* Registers compare by family: base == %rsp also holds for %esp. */
static bool same_reg(int a, int b)
{
	if (a < 0 || b < 0)
		return a == b;
	return altr_regs[a].cls == altr_regs[b].cls &&
	       altr_regs[a].num == altr_regs[b].num;
}

static bool cmp_num(long x, enum altr_cmp c, long y)
{
	switch (c) {
	case CMP_EQ: return x == y;
	case CMP_NE: return x != y;
	case CMP_LT: return x < y;
	case CMP_LE: return x <= y;
	case CMP_GT: return x > y;
	case CMP_GE: return x >= y;
	}
	return false;
}

static bool eval_cmp(const struct altr_expr *e, const struct altr_insn *in)
{
	const struct altr_operand *m = mem_operand(in);
	int reg = -1;
	long num = 0;
	switch (e->field) {
	case FIELD_SIZE: num = access_size(in); break;
	case FIELD_SCALE: num = m ? m->scale : 0; break;
	case FIELD_NOPS: num = in->nops; break;
	case FIELD_BASE: reg = m ? m->base : -1; break;
	case FIELD_INDEX: reg = m ? m->index : -1; break;
	case FIELD_SEG: reg = m ? m->seg : -1; break;
	case FIELD_PRIORITY: return false;
	}
	if (e->field == FIELD_BASE || e->field == FIELD_INDEX ||
	    e->field == FIELD_SEG) {
		if (!e->is_reg)
			return false;
		bool eq = same_reg(reg, e->reg);
		return e->cmp == CMP_NE ? !eq : e->cmp == CMP_EQ ? eq : false;
	}
	return cmp_num(num, e->cmp, e->num);
}

static struct altr_str subject(const struct altr_expr *e,
                               const struct altr_stmt *s)
{
	const struct altr_insn *in = s->insn;
	struct altr_str none = {"", 0};
	switch (e->subj) {
	case SUBJ_MNEM: return in->mnem;
	case SUBJ_INSN: return s->text;
	case SUBJ_MEM: {
		const struct altr_operand *m = mem_operand(in);
		return m ? m->text : none;
	}
	case SUBJ_OP:
		if (e->opnd >= 1 && e->opnd <= in->nops)
			return in->ops[e->opnd - 1].text;
		return none;
	}
	return none;
}

static bool eval_match(const struct altr_expr *e, const struct altr_stmt *s,
                       struct altr_str caps[10])
{
	struct altr_str subj = subject(e, s);
	char small[256];
	char *buf = subj.len < sizeof small ? small : altr_xmalloc(subj.len + 1);
	memcpy(buf, subj.p, subj.len);
	buf[subj.len] = 0;
	regmatch_t m[10];
	bool hit = regexec(&e->re, buf, 10, m, 0) == 0;
	if (hit && caps) {
		for (int i = 0; i < 10; i++) {
			if (m[i].rm_so < 0) {
				caps[i].p = "";
				caps[i].len = 0;
			} else {
				caps[i].p = subj.p + m[i].rm_so;
				caps[i].len = (size_t)(m[i].rm_eo - m[i].rm_so);
			}
		}
	}
	if (buf != small)
		free(buf);
	return e->negate ? !hit : hit;
}

bool altr_expr_eval(const struct altr_expr *e, const struct altr_unit *u,
                    const struct altr_stmt *s, struct altr_str caps[10])
{
	(void)u;
	if (!e)
		return true;
	switch (e->op) {
	case EX_TRUE: return true;
	case EX_NOT: return !altr_expr_eval(e->l, u, s, caps);
	case EX_AND:
		return altr_expr_eval(e->l, u, s, caps) &&
		       altr_expr_eval(e->r, u, s, caps);
	case EX_OR:
		return altr_expr_eval(e->l, u, s, caps) ||
		       altr_expr_eval(e->r, u, s, caps);
	case EX_PRED: return eval_pred(e->pred, s);
	case EX_CMP: return eval_cmp(e, s->insn);
	case EX_MATCH: return eval_match(e, s, caps);
	}
	ALTR_ASSERT(!"unknown expression node");
	return false;
}
