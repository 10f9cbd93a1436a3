/*
 * match.c: evaluating a rule's expression against one statement.  The
 * predicates are declared in preds.def; this file gives each its meaning
 * in terms of the instruction database (struct altr_iinfo) and the facts
 * the reader and the analyses computed.
 */
#include "altr.h"

#include <stdlib.h>
#include <string.h>

unsigned altr_insn_access_size(const struct altr_insn *in)
{
	if (in->info.mem >= 0 && in->info.mem_acc)
		return in->info.mem_size;
	return in->info.impl_size;
}

const struct altr_operand *altr_insn_mem_operand(const struct altr_insn *in)
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
	const struct altr_operand *m = altr_insn_mem_operand(in);
	unsigned size = altr_insn_access_size(in);
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
	case PRED_fused_branch: return s->facts & SF_FUSED;
	case PRED_fuses_backward: return s->facts & SF_FUSES_BACK;
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
	const struct altr_operand *m = altr_insn_mem_operand(in);
	int reg = -1;
	long num = 0;
	switch (e->field) {
	case FIELD_SIZE: num = altr_insn_access_size(in); break;
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
		const struct altr_operand *m = altr_insn_mem_operand(in);
		return m ? m->text : none;
	}
	case SUBJ_OP:
		if (e->opnd >= 1 && e->opnd <= in->nops)
			return in->ops[e->opnd - 1].text;
		return none;
	}
	return none;
}

/* Regex results by (expression, subject text), while altr_match_begin is
 * in force: regexec on instruction texts and operands was most of a trace
 * run, and compilers repeat instructions.  The table is dropped by
 * altr_match_end, so no key outlives its ruleset. */
struct re_memo {
	const struct altr_expr *e;   /* NULL: empty slot */
	const char *p;               /* the subject text first seen */
	uint32_t hash;
	uint16_t len;
	bool hit;
	int16_t so0, eo0;            /* capture 0 when hit, or -1 */
	int32_t more;                /* captures 1..9 in memo.caps (9 pairs
	                                from here), or -1: all none */
};

static struct {
	bool on;
	struct re_memo *m;
	size_t cap, n;
	int16_t *caps;
	size_t ncaps, capcaps;
	struct {
		const char *p;
		size_t len;
		uint64_t h;
	} last[4];                   /* recent subjects' text hashes */
} memo;

void altr_match_begin(void)
{
	memo.on = true;
}

void altr_match_end(void)
{
	altr_big_free(memo.m, memo.cap * sizeof *memo.m);
	free(memo.caps);
	memset(&memo, 0, sizeof memo);
}

static struct re_memo *re_slot(struct re_memo *m, size_t cap,
                               const struct altr_expr *e, uint32_t h,
                               const char *p, size_t len)
{
	for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1))
		if (!m[i].e || (m[i].e == e && m[i].hash == h && m[i].len == len &&
		                (m[i].p == p || memcmp(m[i].p, p, len) == 0)))
			return &m[i];
}

/* The entry for (e, subj); empty (e NULL, hash set) if there is none. */
static struct re_memo *re_find(const struct altr_expr *e, struct altr_str subj)
{
	if (4 * (memo.n + 1) > 3 * memo.cap) {
		size_t cap = memo.cap ? 2 * memo.cap : 4096;
		struct re_memo *m = altr_big_alloc(cap * sizeof *m);
		for (size_t i = 0; i < memo.cap; i++)
			if (memo.m[i].e)
				*re_slot(m, cap, memo.m[i].e, memo.m[i].hash, memo.m[i].p,
				         memo.m[i].len) = memo.m[i];
		altr_big_free(memo.m, memo.cap * sizeof *memo.m);
		memo.m = m;
		memo.cap = cap;
	}
	/* Several expressions test the same subject (the mnemonic, op1): its
	 * hash is kept for the text last hashed at the same place. */
	unsigned k = (unsigned)(((uintptr_t)subj.p >> 2) ^ subj.len) & 3;
	uint64_t h;
	if (memo.last[k].p == subj.p && memo.last[k].len == subj.len && subj.p) {
		h = memo.last[k].h;
	} else {
		h = 1469598103934665603ull;
		for (size_t i = 0; i < subj.len; i++)
			h = (h ^ (unsigned char)subj.p[i]) * 1099511628211ull;
		memo.last[k].p = subj.p, memo.last[k].len = subj.len, memo.last[k].h = h;
	}
	h = (h ^ (uint64_t)(uintptr_t)e) * 0x9e3779b97f4a7c15ull;
	uint32_t h32 = (uint32_t)(h ^ (h >> 32));
	struct re_memo *r = re_slot(memo.m, memo.cap, e, h32, subj.p, subj.len);
	if (!r->e)
		r->hash = h32; /* for the caller to fill in */
	return r;
}

static void set_caps(struct altr_str caps[10], struct altr_str subj,
                     const regoff_t so[10], const regoff_t eo[10])
{
	for (int i = 0; i < 10; i++) {
		if (so[i] < 0) {
			caps[i].p = "";
			caps[i].len = 0;
		} else {
			caps[i].p = subj.p + so[i];
			caps[i].len = (size_t)(eo[i] - so[i]);
		}
	}
}

static bool eval_match(const struct altr_expr *e, const struct altr_stmt *s,
                       struct altr_str caps[10])
{
	struct altr_str subj = subject(e, s);
	regoff_t so[10], eo[10];
	struct re_memo *r = NULL;
	if (memo.on && subj.len < 0x7fff) {
		r = re_find(e, subj);
		if (r->e) {
			if (r->hit && caps) {
				so[0] = r->so0, eo[0] = r->eo0;
				for (int i = 1; i < 10; i++) {
					so[i] = r->more < 0 ? -1 : memo.caps[r->more + 2 * (i - 1)];
					eo[i] = r->more < 0 ? -1 : memo.caps[r->more + 2 * (i - 1) + 1];
				}
				set_caps(caps, subj, so, eo);
			}
			return e->negate ? !r->hit : r->hit;
		}
	}
	char small[256];
	char *buf = subj.len < sizeof small ? small : altr_xmalloc(subj.len + 1);
	memcpy(buf, subj.p, subj.len);
	buf[subj.len] = 0;
	regmatch_t m[10];
	bool hit = regexec(&e->re, buf, 10, m, 0) == 0;
	for (int i = 0; i < 10; i++) {
		so[i] = hit ? m[i].rm_so : -1;
		eo[i] = hit ? m[i].rm_eo : -1;
	}
	if (hit && caps)
		set_caps(caps, subj, so, eo);
	if (r) {
		/* the slot is still free: nothing was added since re_find */
		*r = (struct re_memo){.e = e, .p = subj.p, .hash = r->hash,
		                      .len = (uint16_t)subj.len, .hit = hit,
		                      .so0 = (int16_t)so[0], .eo0 = (int16_t)eo[0],
		                      .more = -1};
		bool any = false;
		for (int i = 1; i < 10; i++)
			any |= so[i] >= 0;
		if (any) {
			if (memo.ncaps + 18 > memo.capcaps) {
				memo.capcaps = memo.capcaps ? 2 * memo.capcaps : 1024;
				memo.caps = altr_xrealloc(memo.caps, memo.capcaps * sizeof *memo.caps);
			}
			r->more = (int32_t)memo.ncaps;
			for (int i = 1; i < 10; i++) {
				memo.caps[memo.ncaps++] = (int16_t)so[i];
				memo.caps[memo.ncaps++] = (int16_t)eo[i];
			}
		}
		memo.n++;
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
