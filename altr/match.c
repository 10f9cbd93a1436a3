/*
 * match.c: evaluating a rule's expression against one statement.  The
 * predicates are declared in preds.def; this file gives each its meaning
 * in terms of the instruction database (struct altr_iinfo) and the facts
 * the reader and the analyses computed.
 */
#include "altr.h"

#include <ctype.h>
#include <emmintrin.h>
#include <stdlib.h>
#include <string.h>

unsigned altr_match_access_size(const struct altr_insn *in)
{
	if (in->info.mem >= 0 && in->info.mem_acc)
		return in->info.mem_size;
	return in->info.impl_size;
}

const struct altr_operand *altr_match_mem_operand(const struct altr_insn *in)
{
	if (in->info.mem < 0 || in->info.mem >= in->nops)
		return NULL;
	return &in->ops[(int)in->info.mem];
}

static bool is_reg_class(int r, enum altr_regclass c)
{
	return r >= 0 && altr_regs[r].cls == c;
}

/* A predicate reading a statement fact must have it in altr_match_ctx:
 * the emitter applies one evaluation to every statement alike. */
static bool eval_pred(int pred, const struct altr_stmt *s)
{
	const struct altr_insn *in = s->insn;
	uint64_t a = in->info.attrs;
	/* what several cases need is worked out in those only: each
	 * predicate is asked for on its own (altr_matcher_run) */
	const struct altr_operand *m;
	unsigned size;
	bool accessed = (a & (ATTR_LOAD | ATTR_STORE)) != 0;

	switch ((enum altr_pred)pred) {
	case PRED_load: return a & ATTR_LOAD;
	case PRED_store: return a & ATTR_STORE;
	case PRED_rmw: return a & ATTR_RMW;
	case PRED_mem:
		m = altr_match_mem_operand(in);
		return m && in->info.mem_acc;
	case PRED_mem_read:
		m = altr_match_mem_operand(in);
		return m && (in->info.mem_acc & ACC_READ);
	case PRED_mem_write:
		m = altr_match_mem_operand(in);
		return m && (in->info.mem_acc & ACC_WRITE);
	case PRED_implicit: return a & (ATTR_STACK | ATTR_STRING);
	case PRED_partial:
		size = altr_match_access_size(in);
		return accessed && (size == 1 || size == 2 || size == 4);
	case PRED_full:
		size = altr_match_access_size(in);
		return accessed && size == 8;
	case PRED_wide:
		size = altr_match_access_size(in);
		return accessed && size > 8;
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
	case PRED_loop_back: return s->facts & SF_LOOP_BACK;
	case PRED_fuses_loop_back: return s->facts & SF_FUSES_LOOP;
	case PRED_forward: return s->facts & SF_FORWARD;
	case PRED_tail_jump: return s->facts & SF_TAIL;
	case PRED_indirect_jump:
		return (a & ATTR_JMP) && in->nops >= 1 && in->ops[0].star;
	case PRED_syscall: return a & ATTR_SYSCALL;
	case PRED_nondet: return a & ATTR_NONDET;
	case PRED_nop: return a & ATTR_NOP;
	case PRED_addr_only:
		m = altr_match_mem_operand(in);
		return m && !in->info.mem_acc;
	case PRED_x87: return a & ATTR_X87;
	case PRED_sse: return a & ATTR_SSE;
	case PRED_avx: return a & ATTR_AVX;
	case PRED_avx512: return a & ATTR_AVX512;
	case PRED_rip_relative:
		m = altr_match_mem_operand(in);
		return m && is_reg_class(m->base, RC_IP);
	case PRED_has_base:
		m = altr_match_mem_operand(in);
		return m && m->base >= 0;
	case PRED_has_index:
		m = altr_match_mem_operand(in);
		return m && m->index >= 0;
	case PRED_has_segment:
		m = altr_match_mem_operand(in);
		return m && m->seg >= 0;
	case PRED_absolute:
		m = altr_match_mem_operand(in);
		return m && m->base < 0 && m->index < 0;
	case PRED_sets_rsp: return a & ATTR_SETS_RSP;
	case PRED_flags_live: return s->flags_live_in != 0;
	case PRED_flags_dead: return s->flags_live_in == 0;
	case PRED_flags_live_after: return s->flags_live_out != 0;
	case PRED_in_app: return s->facts & SF_IN_APP;
	case PRED_func_entry: return s->facts & SF_FUNC_ENTRY;
	case PRED_unknown: return in->desc == NULL;
	case PRED_any: return true;
	case PRED_COUNT: break;
	}
	ALTR_ASSERT(!"predicate without a meaning");
	return false;
}

unsigned altr_match_ctx(const struct altr_stmt *s)
{
	return (s->facts & (SF_BACKWARD | SF_FORWARD | SF_TAIL | SF_IN_APP |
	                    SF_FUSED | SF_FUSES_BACK | SF_LOOP_BACK |
	                    SF_FUSES_LOOP | SF_FUNC_ENTRY)) |
	       (s->flags_live_in ? 1u << 16 : 0) |
	       (s->flags_live_out ? 1u << 17 : 0);
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
	const struct altr_operand *m = altr_match_mem_operand(in);
	int reg = -1;
	long num = 0;
	switch (e->field) {
	case FIELD_SIZE: num = altr_match_access_size(in); break;
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
	case SUBJ_INSN: return altr_stmt_text(s);
	case SUBJ_MEM: {
		const struct altr_operand *m = altr_match_mem_operand(in);
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
                       struct altr_str caps[10], struct altr_regex_cache *cache)
{
	return altr_regex_test(e, subject(e, s), caps, cache);
}

/* ------------------------------------------------- compiled expressions */

/* An expression becomes its leaves in the order the tree walk would test
 * them, each naming the leaf to test next when it holds and when it does
 * not (or the result): the same tests in the same order, so the same
 * captures, without a recursive walk through every and/or/not. */
enum { PC_TRUE = -1, PC_FALSE = -2 };

struct mtest {
	uint8_t op;                /* e's, and its predicate: the leaves are */
	uint8_t pred;              /* mostly predicates, known without e */
	int on_true, on_false;
	const struct altr_expr *e; /* EX_PRED, EX_CMP or EX_MATCH */
	struct altr_regex_cache *cache;       /* EX_MATCH on a short subject */
};

/* A gate: a conjunct of an expression's top-level and-chain that is
 * pure and cheap (a predicate, known once worked out; a whole-set regex's
 * length-and-first-byte test).  When one fails the expression is false
 * whatever its other leaves say, and they are not evaluated: which
 * regexes would have matched, and set the captures, is then not known
 * (altr_matcher_add_gated says when that does not matter). */
struct mgate {
	uint8_t op;                /* EX_PRED or EX_MATCH (whole) */
	uint8_t pred;
	bool want;                 /* the value the conjunct must have */
	const struct altr_expr *e;
};

/* A mnemonic's mask of the rules that cannot hold for it (bits of
 * altr_matcher.mnbit), direct-mapped by the mnemonic's bytes (pack is
 * exact for up to 16 of them). */
enum { MN_SIZE = 512 };
struct mnent {
	uint64_t a, b;
	uint64_t dead;
	uint8_t len;
	bool valid;
};

/* e's value as far as the mnemonic mn settles it: 1 or 0, or -1 when
 * other facts decide.  The leaves are pure (captures aside), so when this
 * gives a value, evaluation in any order gives it too. */
static int mn_eval(const struct altr_expr *e, struct altr_str mn)
{
	int l, r;
	switch (e->op) {
	case EX_TRUE:
		return 1;
	case EX_NOT:
		l = mn_eval(e->l, mn);
		return l < 0 ? l : !l;
	case EX_AND:
		if ((l = mn_eval(e->l, mn)) == 0 || (r = mn_eval(e->r, mn)) == 0)
			return 0;
		return l == 1 && r == 1 ? 1 : -1;
	case EX_OR:
		if ((l = mn_eval(e->l, mn)) == 1 || (r = mn_eval(e->r, mn)) == 1)
			return 1;
		return l == 0 && r == 0 ? 0 : -1;
	case EX_MATCH:
		if (e->subj != SUBJ_MNEM)
			return -1;
		return altr_regex_test(e, mn, (struct altr_str[10]){{0}}, NULL);
	default:
		return -1;
	}
}

static bool tests_mnemonic(const struct altr_expr *e)
{
	if (!e)
		return false;
	if (e->op == EX_MATCH)
		return e->subj == SUBJ_MNEM;
	return tests_mnemonic(e->l) || tests_mnemonic(e->r);
}

struct altr_matcher {
	struct mtest *t;
	int n, cap;
	struct mgate *g;
	int ng, capg;
	int *gfirst, *gn;          /* by test (an entry): its gates, if any */
	uint64_t *pmask, *pwant;   /* and its predicate gates, by bit: the
	                              value each must have (a test of all
	                              at once: a loop over them was most of
	                              the matching's own time, for the rules
	                              that do not apply) */
	int capgi;
	/* Rules whose outcome may be settled by the mnemonic alone (a rule
	 * for rdrand fails for every other instruction): by entry, a bit of
	 * the mask mn_dead works out once per mnemonic, or -1 */
	int8_t *mnbit;
	int capmn, nmn;
	const struct altr_expr *mnexpr[64];
	struct mnent *mncache;     /* MN_SIZE, direct-mapped */
};

/* The entries' bits that mnemonic mn settles as false. */
static uint64_t mn_dead(const struct altr_matcher *m, struct altr_str mn)
{
	if (!mn.len || mn.len > 16)
		return 0;
	uint64_t a, b;
	struct mnent *c = &m->mncache[altr_regex_short_key(mn, &a, &b, MN_SIZE)];
	if (c->valid && c->a == a && c->b == b && c->len == mn.len)
		return c->dead;
	uint64_t dead = 0;
	for (int k = 0; k < m->nmn; k++)
		if (mn_eval(m->mnexpr[k], mn) == 0)
			dead |= 1ull << k;
	*c = (struct mnent){a, b, dead, (uint8_t)mn.len, true};
	return dead;
}

struct altr_matcher *altr_matcher_new(void)
{
	return altr_xcalloc(1, sizeof(struct altr_matcher));
}

void altr_matcher_free(struct altr_matcher *m)
{
	if (m) {
		for (int i = 0; i < m->n; i++)
			free(m->t[i].cache);
		free(m->t);
		free(m->g);
		free(m->gfirst);
		free(m->gn);
		free(m->pmask);
		free(m->pwant);
		free(m->mnbit);
		free(m->mncache);
	}
	free(m);
}

static int compile(struct altr_matcher *m, const struct altr_expr *e, int t,
                   int f)
{
	if (!e)
		return t;
	switch (e->op) {
	case EX_TRUE:
		return t;
	case EX_NOT:
		return compile(m, e->l, f, t);
	case EX_AND:
		return compile(m, e->l, compile(m, e->r, t, f), f);
	case EX_OR:
		return compile(m, e->l, t, compile(m, e->r, t, f));
	case EX_PRED:
	case EX_CMP:
	case EX_MATCH:
		break;
	default:
		ALTR_ASSERT(!"unknown expression node");
	}
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 64;
		m->t = altr_xrealloc(m->t, (size_t)m->cap * sizeof *m->t);
	}
	m->t[m->n] = (struct mtest){(uint8_t)e->op,
	                            (uint8_t)(e->op == EX_PRED ? e->pred : 0),
	                            t, f, e, NULL};
	if (e->op == EX_MATCH && e->subj != SUBJ_INSN)
		m->t[m->n].cache = altr_regex_cache_new();
	return m->n++;
}

int altr_matcher_add(struct altr_matcher *m, const struct altr_expr *e)
{
	return compile(m, e, PC_TRUE, PC_FALSE);
}

static void add_gate(struct altr_matcher *m, const struct altr_expr *e,
                     bool want)
{
	if (m->ng == m->capg) {
		m->capg = m->capg ? 2 * m->capg : 16;
		m->g = altr_xrealloc(m->g, (size_t)m->capg * sizeof *m->g);
	}
	m->g[m->ng++] = (struct mgate){(uint8_t)e->op,
	                               (uint8_t)(e->op == EX_PRED ? e->pred : 0),
	                               want, e};
}

/* The gates of e's and-chain, of one kind (op) at a time. */
static void find_gates(struct altr_matcher *m, const struct altr_expr *e,
                       enum altr_exprop op)
{
	if (!e)
		return;
	if (e->op == EX_AND) {
		find_gates(m, e->l, op);
		find_gates(m, e->r, op);
		return;
	}
	bool want = true;
	if (e->op == EX_NOT && e->l && e->l->op != EX_MATCH) {
		want = false;
		e = e->l;
	}
	if (e->op != op)
		return;
	if (op == EX_PRED)
		add_gate(m, e, want);
	else if (op == EX_MATCH && !e->negate && e->filter && e->filter->whole)
		add_gate(m, e, true);
}

int altr_matcher_add_gated(struct altr_matcher *m, const struct altr_expr *e)
{
	if (!altr_shortcuts) /* no gates, nothing settled by the mnemonic */
		return altr_matcher_add(m, e);
	int entry = compile(m, e, PC_TRUE, PC_FALSE);
	if (entry < 0)
		return entry;
	if (m->n > m->capgi) {
		int cap = m->cap;
		m->gfirst = altr_xrealloc(m->gfirst, (size_t)cap * sizeof *m->gfirst);
		m->gn = altr_xrealloc(m->gn, (size_t)cap * sizeof *m->gn);
		m->pmask = altr_xrealloc(m->pmask, (size_t)cap * sizeof *m->pmask);
		m->pwant = altr_xrealloc(m->pwant, (size_t)cap * sizeof *m->pwant);
		for (int i = m->capgi; i < cap; i++) {
			m->gfirst[i] = m->gn[i] = 0;
			m->pmask[i] = m->pwant[i] = 0;
		}
		m->capgi = cap;
	}
	/* predicates first: known bits, mostly */
	int first = m->ng;
	find_gates(m, e, EX_PRED);
	find_gates(m, e, EX_MATCH);
	/* the predicates go to the masks (but one wanted both true and false,
	 * which the masks cannot say: it stays a gate) */
	int kept = first;
	for (int k = first; k < m->ng; k++) {
		const struct mgate *g = &m->g[k];
		uint64_t bit = 1ull << g->pred;
		if (g->op == EX_PRED && (!(m->pmask[entry] & bit) ||
		                         !(m->pwant[entry] & bit) == !g->want)) {
			m->pmask[entry] |= bit;
			m->pwant[entry] |= g->want ? bit : 0;
		} else {
			m->g[kept++] = *g;
		}
	}
	m->ng = kept;
	/* a lone gate that is the first test anyway would only repeat it */
	if (m->ng - first == 1 && m->g[first].e == m->t[entry].e)
		m->ng = first;
	m->gfirst[entry] = first;
	m->gn[entry] = m->ng - first;
	if (tests_mnemonic(e) && m->nmn < 64) {
		if (m->n > m->capmn) {
			m->mnbit = altr_xrealloc(m->mnbit, (size_t)m->cap);
			memset(m->mnbit + m->capmn, -1, (size_t)(m->cap - m->capmn));
			m->capmn = m->cap;
		}
		if (!m->mncache)
			m->mncache = altr_xcalloc(MN_SIZE, sizeof *m->mncache);
		m->mnbit[entry] = (int8_t)m->nmn;
		m->mnexpr[m->nmn++] = e;
	}
	return entry;
}

/* Whether string w has a byte no label has. */
static bool has_nonlabel(const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!altr_label_char(w[i]))
			return true;
	return false;
}

/* Whether regex test e, on a subject that is a label or ends with one
 * (text p[0..plen) then the label), fails for every label: its filter
 * says what any match holds, and that cannot be found there. */
static bool fails_for_any_label(const struct altr_expr *e, const char *p,
                                size_t plen)
{
	const struct altr_refilter *f = e->filter;
	if (!f || memchr(p, 0, plen))
		return false;
	if (f->whole) { /* the subject is one of the strings */
		for (int k = 0; k < f->nwhole; k++)
			if (f->len[k] > plen && memcmp(f->str[k], p, plen) == 0 &&
			    !has_nonlabel(f->str[k] + plen, f->len[k] - plen))
				return false;
		return true;
	}
	/* one of the literals (or its first ALTR_LIT_LEN bytes) is in any match:
	 * each must be neither in p, nor in a label, nor partly in p and
	 * partly in a label */
	for (int k = 0; k < f->nlit; k++) {
		size_t n = f->len[k];
		const char *l = f->str[k];
		if (!n || !has_nonlabel(l, n) ||
		    (plen >= n && memmem(p, plen, l, n)))
			return false;
		for (size_t i = 1; i < n; i++)
			if (i <= plen && memcmp(p + plen - i, l, i) == 0 &&
			    !has_nonlabel(l + i, n - i))
				return false;
	}
	return true;
}

/* e evaluated as the matcher does (leaves left to right, with short
 * cuts) on s, whose label follows its text's first plen bytes: 1 or 0,
 * or -1 when that may depend on the label.  A regex test on a subject
 * holding the label is known only when it fails for any label. */
static int blind_eval(const struct altr_expr *e, const struct altr_stmt *s,
                      size_t plen)
{
	const struct altr_insn *in = s->insn;
	struct altr_str caps[10];
	int l;
	switch (e->op) {
	case EX_TRUE:
		return 1;
	case EX_NOT:
		l = blind_eval(e->l, s, plen);
		return l < 0 ? l : !l;
	case EX_AND:
		l = blind_eval(e->l, s, plen);
		return l == 1 ? blind_eval(e->r, s, plen) : l;
	case EX_OR:
		l = blind_eval(e->l, s, plen);
		return l == 0 ? blind_eval(e->r, s, plen) : l;
	case EX_PRED:
		return eval_pred(e->pred, s);
	case EX_CMP:
		return eval_cmp(e, in);
	case EX_MATCH:
		break;
	}
	bool label = e->subj == SUBJ_INSN ||
	             (e->subj == SUBJ_OP && e->opnd == 1) ||
	             (e->subj == SUBJ_MEM && altr_match_mem_operand(in) == &in->ops[0]);
	if (!label)
		return eval_match(e, s, caps, NULL);
	if (e->subj == SUBJ_INSN ? fails_for_any_label(e, s->text_p, plen)
	                         : fails_for_any_label(e, "", 0))
		return e->negate;
	return -1;
}

bool altr_match_label_blind(const struct altr_expr *e,
                           const struct altr_stmt *s, size_t plen)
{
	return !e || blind_eval(e, s, plen) >= 0;
}

_Static_assert(PRED_COUNT <= 64, "predicates are bits of a uint64_t");

/* Predicate pred of s, from the bits: each is worked out once per
 * statement, as the rules test the same few (known: the bits set). */
static inline bool pred_memo(int pred, const struct altr_stmt *s,
                             uint64_t *known, uint64_t *value)
{
	uint64_t bit = 1ull << pred;
	if (!(*known & bit)) {
		*known |= bit;
		if (eval_pred(pred, s))
			*value |= bit;
	}
	return *value & bit;
}

/* The work of altr_matcher_run, with ev's predicate bits in registers. */
static inline bool run(const struct altr_matcher *m, int entry,
                       struct altr_eval *ev, uint64_t *knownp,
                       uint64_t *valuep)
{
	const struct altr_stmt *s = ev->s;
	uint64_t known = *knownp, value = *valuep;
	int pc = entry;
	uint64_t pm = pc >= 0 && pc < m->capgi ? m->pmask[pc] : 0;
	if (pm) {
		for (uint64_t need = pm & ~known; need; need &= need - 1) {
			int p = __builtin_ctzll(need);
			if (eval_pred(p, s))
				value |= 1ull << p;
		}
		known |= pm;
		if ((value & pm) != m->pwant[pc])
			pc = PC_FALSE;
	}
	int ng = pc >= 0 && pc < m->capgi ? m->gn[pc] : 0;
	for (const struct mgate *g = ng ? &m->g[m->gfirst[pc]] : NULL; ng--; g++) {
		bool r;
		if (g->op == EX_PRED) {
			r = pred_memo(g->pred, s, &known, &value);
		} else {
			r = altr_prefilter_whole(g->e->filter, subject(g->e, s)) >= 0;
		}
		if (r != g->want) {
			pc = PC_FALSE;
			break;
		}
	}
	while (pc >= 0) {
		const struct mtest *t = &m->t[pc];
		bool r;
		if (t->op == EX_PRED) {
			r = pred_memo(t->pred, s, &known, &value);
		} else if (t->op == EX_CMP) {
			r = eval_cmp(t->e, s->insn);
		} else {
			r = eval_match(t->e, s, ev->caps, t->cache);
		}
		pc = r ? t->on_true : t->on_false;
	}
	*knownp = known;
	*valuep = value;
	return pc == PC_TRUE;
}

bool altr_matcher_run(const struct altr_matcher *m, int entry,
                      struct altr_eval *ev)
{
	return run(m, entry, ev, &ev->known, &ev->value);
}

/* One call for the rules that do not hold (most of them, for most
 * instructions): a call per rule was a tenth of the matching. */
int altr_matcher_first(const struct altr_matcher *m, const int *entries,
                       int n, int from, struct altr_eval *ev)
{
	uint64_t known = ev->known, value = ev->value;
	uint64_t dead = m->nmn && ev->s->insn ? mn_dead(m, ev->s->insn->mnem) : 0;
	int i = from;
	for (; i < n; i++) {
		int en = entries[i];
		if (dead && en >= 0 && en < m->capmn && m->mnbit[en] >= 0 &&
		    (dead >> m->mnbit[en] & 1)) {
			continue;
		}
		if (run(m, en, ev, &known, &value))
			break;
	}
	ev->known = known;
	ev->value = value;
	return i;
}
