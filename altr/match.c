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
		m = altr_insn_mem_operand(in);
		return m && in->info.mem_acc;
	case PRED_mem_read:
		m = altr_insn_mem_operand(in);
		return m && (in->info.mem_acc & ACC_READ);
	case PRED_mem_write:
		m = altr_insn_mem_operand(in);
		return m && (in->info.mem_acc & ACC_WRITE);
	case PRED_implicit: return a & (ATTR_STACK | ATTR_STRING);
	case PRED_partial:
		size = altr_insn_access_size(in);
		return accessed && (size == 1 || size == 2 || size == 4);
	case PRED_full:
		size = altr_insn_access_size(in);
		return accessed && size == 8;
	case PRED_wide:
		size = altr_insn_access_size(in);
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
		m = altr_insn_mem_operand(in);
		return m && !in->info.mem_acc;
	case PRED_x87: return a & ATTR_X87;
	case PRED_sse: return a & ATTR_SSE;
	case PRED_avx: return a & ATTR_AVX;
	case PRED_avx512: return a & ATTR_AVX512;
	case PRED_rip_relative:
		m = altr_insn_mem_operand(in);
		return m && is_reg_class(m->base, RC_IP);
	case PRED_has_base:
		m = altr_insn_mem_operand(in);
		return m && m->base >= 0;
	case PRED_has_index:
		m = altr_insn_mem_operand(in);
		return m && m->index >= 0;
	case PRED_has_segment:
		m = altr_insn_mem_operand(in);
		return m && m->seg >= 0;
	case PRED_absolute:
		m = altr_insn_mem_operand(in);
		return m && m->base < 0 && m->index < 0;
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

unsigned altr_match_ctx(const struct altr_stmt *s)
{
	return (s->facts & (SF_BACKWARD | SF_FORWARD | SF_TAIL | SF_IN_APP |
	                    SF_FUSED | SF_FUSES_BACK | SF_LOOP_BACK |
	                    SF_FUSES_LOOP)) |
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
	case SUBJ_INSN: return altr_stmt_text(s);
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

/* ------------------------------------------------- regex prefilters */

/* Most regexes in rules fail on most subjects (/%r1[2-5]|%gs/ on every
 * instruction's text) and the text of an instruction seen for the first
 * time is new to every memo.  A regex is parsed once more here, into
 * literals one of which each match must contain: a subject holding none
 * cannot match, and regexec is not called.  Only a subset of POSIX ERE is
 * understood (no intervals, no backslash letters, no collating elements);
 * for anything else there is no filter.  A piece of a regex is known as
 * the set of strings it matches (exact), or a set of which each match
 * contains one, or nothing. */
#define LIT_MAX 16 /* strings in a set */
#define LIT_LEN 16 /* bytes in a string; longer ones are cut (still needed) */

struct lits {
	bool exact;              /* str is all the piece matches */
	bool known;              /* else: each match contains one of str */
	int n;
	uint8_t len[LIT_MAX];
	char str[LIT_MAX][LIT_LEN];
};

static const struct lits lits_unknown = {0};

static bool lits_add(struct lits *l, const char *p, size_t n)
{
	if (n > LIT_LEN) {
		if (l->exact)
			return false;
		n = LIT_LEN;
	}
	for (int i = 0; i < l->n; i++)
		if (l->len[i] == n && memcmp(l->str[i], p, n) == 0)
			return true;
	if (l->n == LIT_MAX)
		return false;
	memcpy(l->str[l->n], p, n);
	l->len[l->n++] = (uint8_t)n;
	return true;
}

/* What a piece requires of any match: its set, unless it holds "". */
static struct lits lits_req(struct lits a)
{
	a.exact = false;
	for (int i = 0; i < a.n; i++)
		if (!a.len[i])
			return lits_unknown;
	if (!a.known || !a.n)
		return lits_unknown;
	return a;
}

static int lits_minlen(const struct lits *a)
{
	int m = LIT_LEN + 1;
	for (int i = 0; i < a->n; i++)
		if (a->len[i] < m)
			m = a->len[i];
	return m;
}

/* The better requirement: longer shortest string, then fewer strings. */
static struct lits lits_better(struct lits a, struct lits b)
{
	a = lits_req(a);
	b = lits_req(b);
	if (!a.known)
		return b;
	if (!b.known)
		return a;
	int ma = lits_minlen(&a), mb = lits_minlen(&b);
	if (ma != mb)
		return ma > mb ? a : b;
	return a.n <= b.n ? a : b;
}

static struct lits lits_cat(struct lits a, struct lits b)
{
	if (a.exact && b.exact && a.n * b.n <= LIT_MAX) {
		struct lits c = {.exact = true, .known = true};
		bool ok = true;
		for (int i = 0; i < a.n && ok; i++)
			for (int j = 0; j < b.n && ok; j++) {
				char t[2 * LIT_LEN];
				memcpy(t, a.str[i], a.len[i]);
				memcpy(t + a.len[i], b.str[j], b.len[j]);
				ok = lits_add(&c, t, (size_t)a.len[i] + b.len[j]);
			}
		if (ok)
			return c;
	}
	return lits_better(a, b);
}

static struct lits lits_alt(struct lits a, struct lits b)
{
	if (!a.exact || !b.exact) {
		a = lits_req(a);
		b = lits_req(b);
		if (!a.known || !b.known)
			return lits_unknown;
	}
	struct lits c = a;
	for (int i = 0; i < b.n; i++)
		if (!lits_add(&c, b.str[i], b.len[i]))
			return lits_unknown;
	return c;
}

struct rescan {
	const char *p;
	bool bad;                /* not understood: no filter */
	bool plain;              /* no anchor or group seen */
};

static struct lits re_alt(struct rescan *r);

/* A bracket expression after its '['; the set of its bytes, if few. */
static struct lits re_bracket(struct rescan *r)
{
	static const struct {
		const char *name;
		int (*is)(int);
	} classes[] = {
		{"alpha", isalpha}, {"digit", isdigit}, {"alnum", isalnum},
		{"upper", isupper}, {"lower", islower}, {"space", isspace},
		{"blank", isblank}, {"punct", ispunct}, {"print", isprint},
		{"graph", isgraph}, {"cntrl", iscntrl}, {"xdigit", isxdigit},
	};
	bool in[256] = {0}, neg = false;
	const char *p = r->p;
	if (*p == '^')
		neg = true, p++;
	for (bool first = true; first || *p != ']'; first = false) {
		unsigned char c = (unsigned char)*p;
		if (!c || c == '\\') {
			r->bad = true;
			return lits_unknown;
		}
		if (c == '[' && (p[1] == '.' || p[1] == '=')) {
			r->bad = true;
			return lits_unknown;
		}
		if (c == '[' && p[1] == ':') {
			const char *e = strstr(p + 2, ":]");
			size_t k, n = e ? (size_t)(e - p - 2) : 0;
			for (k = 0; e && k < sizeof classes / sizeof classes[0]; k++)
				if (strlen(classes[k].name) == n &&
				    memcmp(classes[k].name, p + 2, n) == 0)
					break;
			if (!e || k == sizeof classes / sizeof classes[0]) {
				r->bad = true;
				return lits_unknown;
			}
			for (int b = 0; b < 256; b++)
				if (classes[k].is(b))
					in[b] = true;
			p = e + 2;
			continue;
		}
		if (p[1] == '-' && p[2] && p[2] != ']') {
			unsigned char d = (unsigned char)p[2];
			if (d == '[' || d == '\\' || d < c) {
				r->bad = true;
				return lits_unknown;
			}
			for (int b = c; b <= d; b++)
				in[b] = true;
			p += 3;
			continue;
		}
		in[c] = true;
		p++;
	}
	r->p = p + 1;
	if (neg)
		return lits_unknown;
	struct lits l = {.exact = true, .known = true};
	for (int b = 1; b < 256; b++) /* a subject holds no NUL regexec sees */
		if (in[b]) {
			char ch = (char)b;
			if (!lits_add(&l, &ch, 1))
				return lits_unknown;
		}
	return l;
}

static struct lits re_atom(struct rescan *r)
{
	char c = *r->p;
	struct lits l = {.exact = true, .known = true};
	switch (c) {
	case '(':
		r->p++;
		r->plain = false;
		l = re_alt(r);
		if (*r->p != ')') {
			r->bad = true;
			return lits_unknown;
		}
		r->p++;
		return l;
	case '[':
		r->p++;
		return re_bracket(r);
	case '.':
		r->p++;
		return lits_unknown;
	case '^':
	case '$':
		r->p++;
		r->plain = false;
		lits_add(&l, "", 0);
		return l;
	case '\\':
		c = r->p[1];
		/* letters, digits and these are GNU operators, not literals */
		if (!c || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') || (unsigned char)c >= 0x80 ||
		    strchr("<>`'", c)) {
			r->bad = true;
			return lits_unknown;
		}
		r->p += 2;
		lits_add(&l, &c, 1);
		return l;
	case 0: case ')': case '|': case '*': case '+': case '?': case '{':
	case '}': case ']':
		r->bad = true;
		return lits_unknown;
	}
	r->p++;
	lits_add(&l, &c, 1);
	return l;
}

static struct lits re_repeat(struct rescan *r)
{
	struct lits l = re_atom(r);
	for (;;) {
		char c = *r->p;
		if (c == '*') {
			l = lits_unknown;
		} else if (c == '+') {
			l = lits_req(l);
		} else if (c == '?') {
			if (!l.exact || !lits_add(&l, "", 0))
				l = lits_unknown;
		} else if (c == '{') {
			r->bad = true;
			return lits_unknown;
		} else {
			return l;
		}
		r->p++;
	}
}

/* A concatenation: exact pieces in a row are joined into cur; once one
 * is not exact, the result only requires (the best run, or piece). */
static struct lits re_cat(struct rescan *r)
{
	struct lits empty = {.exact = true, .known = true, .n = 1};
	struct lits cur = empty, best = lits_unknown;
	bool exact = true;
	while (!r->bad && *r->p && *r->p != '|' && *r->p != ')') {
		struct lits b = re_repeat(r);
		if (b.exact) {
			struct lits c = lits_cat(cur, b);
			if (c.exact) {
				cur = c;
				continue;
			}
			best = lits_better(best, cur);
			cur = b;
		} else {
			best = lits_better(lits_better(best, cur), b);
			cur = empty;
		}
		exact = false;
	}
	return exact ? cur : lits_better(best, cur);
}

static struct lits re_alt(struct rescan *r)
{
	struct lits l = re_cat(r);
	while (!r->bad && *r->p == '|') {
		r->p++;
		l = lits_alt(l, re_cat(r));
	}
	return l;
}

/* The literals, and by byte which of them start with it. */
struct altr_refilter {
	bool exact;              /* the regex is these strings, "a|bc|d": a
	                            match is the leftmost, then longest */
	bool whole;              /* the regex is "^M$" and M at most these
	                            strings (all of them, none left out): a
	                            subject must be one of them */
	bool whole_exact;        /* ... and M exactly these, without groups */
	int nwhole;              /* whole: how many strings */
	int nlit;                /* else: how many literals */
	uint64_t wlens;          /* whole: bit n set if a string is n bytes
	                            long (n < 64; bit 63: any longer) */
	uint64_t wfirst[4];      /* whole: bit c set if one starts with c */
	int nfirst;              /* distinct first bytes, if at most 4 */
	uint8_t firsts[4];
	uint16_t first[256];
	uint16_t next[2][256];   /* literals whose byte 1 (2) is this, or
	                            that end before it (by index: a bit) */
	uint8_t len[LIT_MAX];
	uint32_t pre[LIT_MAX], mask[LIT_MAX]; /* first 4 bytes, as loaded */
	char str[LIT_MAX][LIT_LEN];
	int ntail;               /* not whole: the regex is "R$" and any match
	                            ends with one of these strings, or 0 */
	uint64_t tlast[4];       /* bit c set if one ends with c */
	uint8_t tlen[LIT_MAX];
	char tstr[LIT_MAX][LIT_LEN];
};

/* Up to 4 bytes of p[0..n) as a little-endian word, zeros after. */
static uint32_t load4(const char *p, size_t n)
{
	uint32_t w = 0;
	if (n >= 4) {
		memcpy(&w, p, 4);
		return w;
	}
	for (size_t i = 0; i < n; i++)
		w |= (uint32_t)(unsigned char)p[i] << (8 * i);
	return w;
}

/* "^M$" with M (no '|' at its top) at most a set of strings: that set. */
static bool whole_set(const char *src, struct lits *l, bool *plain)
{
	size_t n = strlen(src), bs = 0;
	if (n < 2 || src[0] != '^' || src[n - 1] != '$')
		return false;
	while (bs + 2 < n && src[n - 2 - bs] == '\\')
		bs++;
	if (bs % 2) /* "\$": a dollar sign */
		return false;
	char *m = altr_xstrndup(src + 1, n - 2);
	struct rescan r = {m, false, true};
	*l = re_cat(&r);
	bool ok = !r.bad && !*r.p && l->exact;
	*plain = r.plain;
	free(m);
	return ok;
}

/* "R$" with no '|' at its top: the strings one of which ends any match
 * (those R's last exact pieces spell, none empty), if there are such. */
static bool tail_set(const char *src, struct lits *l)
{
	size_t n = strlen(src), bs = 0;
	if (n < 2 || src[n - 1] != '$')
		return false;
	while (bs + 1 < n && src[n - 2 - bs] == '\\')
		bs++;
	if (bs % 2) /* "\$": a dollar sign */
		return false;
	char *m = altr_xstrndup(src, n - 1);
	struct rescan r = {m, false, true};
	struct lits empty = {.exact = true, .known = true, .n = 1};
	struct lits cur = empty; /* the exact pieces last read, joined */
	while (!r.bad && *r.p && *r.p != '|' && *r.p != ')') {
		struct lits b = re_repeat(&r);
		struct lits c = b.exact ? lits_cat(cur, b) : empty;
		cur = c.exact ? c : b;
	}
	bool ok = !r.bad && !*r.p && cur.exact && cur.n > 0 &&
	          lits_minlen(&cur) > 0;
	*l = cur;
	free(m);
	return ok;
}

void altr_re_prefilter(struct altr_expr *e)
{
	free(e->filter);
	e->filter = NULL;
	bool wplain;
	struct lits w;
	if (whole_set(e->re_src, &w, &wplain)) {
		struct altr_refilter *f = altr_xcalloc(1, sizeof *f);
		f->whole = true;
		f->whole_exact = wplain && e->nsub == 0;
		for (int i = 0; i < w.n; i++) {
			f->len[i] = w.len[i];
			memcpy(f->str[i], w.str[i], w.len[i]);
		}
		f->nwhole = w.n;
		for (int i = 0; i < w.n; i++) {
			f->wlens |= 1ull << (w.len[i] < 63 ? w.len[i] : 63);
			if (w.len[i]) {
				unsigned char c0 = (unsigned char)w.str[i][0];
				f->wfirst[c0 >> 6] |= 1ull << (c0 & 63);
			}
		}
		e->filter = f;
		return;
	}
	struct rescan r = {e->re_src, false, true};
	struct lits l = re_alt(&r);
	if (r.bad || *r.p)
		return;
	bool exact = r.plain && l.exact;
	l = lits_req(l);
	if (!l.known)
		return;
	/* a string holding another one of the set adds nothing (but is a
	 * match of its own, if exact) */
	for (int i = 0; i < l.n && !exact; i++)
		for (int j = 0; j < l.n; j++)
			if (i != j && l.len[j] <= l.len[i] &&
			    memmem(l.str[i], l.len[i], l.str[j], l.len[j])) {
				l.n--;
				memmove(&l.str[i], &l.str[i + 1],
				        (size_t)(l.n - i) * sizeof l.str[0]);
				memmove(&l.len[i], &l.len[i + 1], (size_t)(l.n - i));
				i--;
				break;
			}
	struct altr_refilter *f = altr_xcalloc(1, sizeof *f);
	f->exact = exact;
	f->nlit = l.n;
	for (int i = 0; i < l.n; i++) {
		unsigned char c0 = (unsigned char)l.str[i][0];
		if (!f->first[c0] && f->nfirst >= 0) {
			if (f->nfirst < 4)
				f->firsts[f->nfirst++] = c0;
			else
				f->nfirst = -1;
		}
		f->first[(unsigned char)l.str[i][0]] |= (uint16_t)(1u << i);
		for (int k = 1; k <= 2; k++)
			for (int b = 0; b < 256; b++)
				if (l.len[i] <= k || (unsigned char)l.str[i][k] == b)
					f->next[k - 1][b] |= (uint16_t)(1u << i);
		f->len[i] = l.len[i];
		memcpy(f->str[i], l.str[i], l.len[i]);
		size_t k = l.len[i] < 4 ? l.len[i] : 4;
		f->pre[i] = load4(l.str[i], k);
		f->mask[i] = k == 4 ? ~0u : (1u << (8 * k)) - 1;
	}
	struct lits t;
	if (tail_set(e->re_src, &t)) {
		f->ntail = t.n;
		for (int i = 0; i < t.n; i++) {
			unsigned char c = (unsigned char)t.str[i][t.len[i] - 1];
			f->tlast[c >> 6] |= 1ull << (c & 63);
			f->tlen[i] = t.len[i];
			memcpy(f->tstr[i], t.str[i], t.len[i]);
		}
	}
	e->filter = f;
}

/* Where a literal of f starts at subj.p[i]: the longest one's index, or
 * -1. */
static inline int lit_at(const struct altr_refilter *f, struct altr_str subj,
                         size_t i)
{
	unsigned m = f->first[(unsigned char)subj.p[i]];
	if (!m)
		return -1;
	size_t left = subj.len - i;
	/* the next two bytes leave few or none (a NUL past the end: the
	 * literals hold none, so only those shorter than that pass) */
	m &= f->next[0][left > 1 ? (unsigned char)subj.p[i + 1] : 0];
	m &= f->next[1][left > 2 ? (unsigned char)subj.p[i + 2] : 0];
	uint32_t w = load4(subj.p + i, left);
	int best = -1;
	for (; m; m &= m - 1) {
		int k = __builtin_ctz(m);
		if ((w & f->mask[k]) == f->pre[k] && f->len[k] <= left &&
		    (f->len[k] <= 4 || memcmp(subj.p + i + 4, f->str[k] + 4,
		                              f->len[k] - 4u) == 0) &&
		    (best < 0 || f->len[k] > f->len[best]))
			best = k;
	}
	return best;
}

/* Bits of the 16 bytes at p[0..16) equal to one of f's first bytes. */
static unsigned first_mask(const struct altr_refilter *f, __m128i v)
{
	__m128i eq = _mm_cmpeq_epi8(v, _mm_set1_epi8((char)f->firsts[0]));
	for (int k = 1; k < f->nfirst; k++)
		eq = _mm_or_si128(eq, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)f->firsts[k])));
	return (unsigned)_mm_movemask_epi8(eq);
}

/* The first place in subj where one of f's literals starts, with the
 * index of the longest there in *k; false if there is none.  With at
 * NULL, only whether any literal is there at all. */
static bool find_lit(const struct altr_refilter *f, struct altr_str subj,
                     size_t *at, int *k)
{
	size_t i = 0;
	if (f->nfirst > 0 && subj.len >= 8) {
		/* 16 bytes at a time, never past the subject's end */
		for (; i < subj.len; i += 16) {
			__m128i v;
			unsigned keep = 0xffff;
			if (i + 16 <= subj.len) {
				v = _mm_loadu_si128((const __m128i *)(const void *)(subj.p + i));
			} else if (subj.len >= 16) { /* the last 16, overlapping */
				size_t b = subj.len - 16;
				v = _mm_loadu_si128((const __m128i *)(const void *)(subj.p + b));
				keep = 0xffffu << (i - b);
				i = b;
			} else { /* 8 <= len < 16: two overlapping halves */
				uint64_t lo, hi;
				memcpy(&lo, subj.p, 8);
				memcpy(&hi, subj.p + subj.len - 8, 8);
				v = _mm_set_epi64x((long long)hi, (long long)lo);
				unsigned m = first_mask(f, v);
				unsigned pos = (m & 0xff) | ((m >> 8) << (subj.len - 8));
				for (; pos; pos &= pos - 1) {
					size_t j = (size_t)__builtin_ctz(pos);
					int kk = lit_at(f, subj, j);
					if (kk >= 0) {
						if (at)
							*at = j, *k = kk;
						return true;
					}
				}
				return false;
			}
			for (unsigned m = first_mask(f, v) & keep; m; m &= m - 1) {
				size_t j = i + (size_t)__builtin_ctz(m);
				int kk = lit_at(f, subj, j);
				if (kk >= 0) {
					if (at)
						*at = j, *k = kk;
					return true;
				}
			}
		}
		return false;
	}
	for (; i < subj.len; i++) {
		if (!f->first[(unsigned char)subj.p[i]])
			continue;
		int kk = lit_at(f, subj, i);
		if (kk >= 0) {
			if (at)
				*at = i, *k = kk;
			return true;
		}
	}
	return false;
}

/* The string of a whole filter subj is (up to a NUL, where regexec
 * stops), or -1. */
static int whole_of(const struct altr_refilter *f, struct altr_str subj)
{
	/* (a first byte that is no NUL is the first byte regexec sees) */
	if (subj.len && subj.p[0]) {
		unsigned char c0 = (unsigned char)subj.p[0];
		if (!(f->wfirst[c0 >> 6] & (1ull << (c0 & 63))))
			return -1;
	}
	const char *z = memchr(subj.p, 0, subj.len);
	if (z)
		subj.len = (size_t)(z - subj.p);
	/* most subjects differ from all in length or first byte */
	if (!(f->wlens & (1ull << (subj.len < 63 ? subj.len : 63))))
		return -1;
	if (subj.len) {
		unsigned char c0 = (unsigned char)subj.p[0];
		if (!(f->wfirst[c0 >> 6] & (1ull << (c0 & 63))))
			return -1;
	}
	for (int k = 0; k < f->nwhole; k++)
		if (f->len[k] == subj.len && memcmp(f->str[k], subj.p, subj.len) == 0)
			return k;
	return -1;
}

/* Whether subj (up to a NUL, where regexec stops) ends with one of f's
 * tail strings. */
static bool has_tail(const struct altr_refilter *f, struct altr_str subj)
{
	const char *z = memchr(subj.p, 0, subj.len);
	if (z)
		subj.len = (size_t)(z - subj.p);
	if (!subj.len)
		return false;
	/* most subjects end with a byte none of them does */
	unsigned char c = (unsigned char)subj.p[subj.len - 1];
	if (!(f->tlast[c >> 6] & (1ull << (c & 63))))
		return false;
	for (int k = 0; k < f->ntail; k++)
		if (f->tlen[k] <= subj.len &&
		    memcmp(subj.p + subj.len - f->tlen[k], f->tstr[k], f->tlen[k]) == 0)
			return true;
	return false;
}

/* False if e cannot match subj: it holds none of e's literals, does not
 * end with one of its tails, or is not one of its whole strings. */
static bool may_match(const struct altr_expr *e, struct altr_str subj)
{
	const struct altr_refilter *f = e->filter;
	if (!f)
		return true;
	if (f->whole)
		return whole_of(f, subj) >= 0;
	if (f->ntail && !has_tail(f, subj))
		return false;
	return find_lit(f, subj, NULL, NULL);
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
		struct re_memo *m = altr_big_alloc_sparse(cap * sizeof *m);
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

/* Results of one regex leaf by subject, for subjects of 16 bytes at most
 * (mnemonics, most operands): these repeat, and the packed subject is
 * its own key.  Direct-mapped. */
enum { LC_SIZE = 256 };
struct lcent {
	uint64_t a, b;           /* the subject: first and last 8 bytes (4, or
	                            bytes 0, n/2 and n-1 when shorter) */
	uint8_t len;
	bool valid, hit;
	int8_t so[10], eo[10];   /* captures when hit, -1: none */
};

static void pack(struct altr_str t, uint64_t *a, uint64_t *b)
{
	const char *p = t.p;
	size_t n = t.len;
	*a = *b = 0;
	if (n >= 8) {
		memcpy(a, p, 8);
		memcpy(b, p + n - 8, 8);
	} else if (n >= 4) {
		uint32_t x, y;
		memcpy(&x, p, 4);
		memcpy(&y, p + n - 4, 4);
		*a = x | (uint64_t)y << 32;
	} else if (n) {
		*a = (unsigned char)p[0] | (unsigned)(unsigned char)p[n / 2] << 8 |
		     (unsigned)(unsigned char)p[n - 1] << 16;
	}
}

/* t's packed key, and its slot in a direct-mapped table of size entries
 * (a power of two). */
static size_t short_slot(struct altr_str t, uint64_t *a, uint64_t *b,
                         size_t size)
{
	pack(t, a, b);
	uint64_t h = (*a * 0x9e3779b97f4a7c15ull) ^ (*b * 0xc2b2ae3d27d4eb4full) ^ t.len;
	return (h ^ (h >> 29) ^ (h >> 47)) & (size - 1);
}

/* Regex test e on subj, a slice of the input (the memo keeps it). */
static bool match_subject(const struct altr_expr *e, struct altr_str subj,
                          struct altr_str caps[10], struct lcent *cache)
{
	struct lcent *c = NULL;
	regoff_t so[10], eo[10];
	/* a subject not in a whole set fails at once, before any cache */
	if (e->filter && e->filter->whole && whole_of(e->filter, subj) < 0)
		return e->negate;
	if (cache && subj.len <= 16) {
		uint64_t a, b;
		c = &cache[short_slot(subj, &a, &b, LC_SIZE)];
		if (c->valid && c->a == a && c->b == b && c->len == subj.len) {
			if (c->hit) {
				for (int i = 0; i < 10; i++)
					so[i] = c->so[i], eo[i] = c->eo[i];
				set_caps(caps, subj, so, eo);
			}
			return e->negate ? !c->hit : c->hit;
		}
		*c = (struct lcent){.a = a, .b = b, .len = (uint8_t)subj.len,
		                    .valid = true};
	}
	struct re_memo *r = NULL;
	bool hit;
	const struct altr_refilter *f = e->filter;
	if (f && f->whole_exact) {
		/* "^(a|bc)$"-like without groups: the subject is the match */
		int k = whole_of(f, subj);
		if (k < 0) {
			if (c)
				c->hit = false;
			return e->negate;
		}
		hit = true;
		for (int i = 0; i < 10; i++)
			so[i] = eo[i] = -1;
		so[0] = 0;
		eo[0] = (regoff_t)f->len[k];
		goto found;
	}
	if (f && f->exact) {
		/* a union of strings: its match is found directly, as POSIX has
		 * it (the leftmost, then the longest) */
		size_t at = 0;
		int k = 0;
		hit = find_lit(f, subj, &at, &k);
		if (!hit) {
			if (c)
				c->hit = false;
			return e->negate;
		}
		/* (regexec stops at a NUL: past one, it decides) */
		if (!memchr(subj.p, 0, at + f->len[k])) {
			for (int i = 0; i < 10; i++)
				so[i] = eo[i] = -1;
			so[0] = (regoff_t)at;
			eo[0] = (regoff_t)(at + f->len[k]);
			goto found;
		}
	} else if (!may_match(e, subj)) {
		return e->negate;
	}
	/* an instruction's whole text is new to the memo nearly always (the
	 * emitter evaluates each text once or so): it would only grow */
	if (memo.on && subj.len < 0x7fff && e->subj != SUBJ_INSN) {
		r = re_find(e, subj);
		if (r->e) {
			if (r->hit) {
				so[0] = r->so0, eo[0] = r->eo0;
				for (int i = 1; i < 10; i++) {
					so[i] = r->more < 0 ? -1 : memo.caps[r->more + 2 * (i - 1)];
					eo[i] = r->more < 0 ? -1 : memo.caps[r->more + 2 * (i - 1) + 1];
				}
				set_caps(caps, subj, so, eo);
				if (c)
					for (int i = 0; i < 10; i++)
						c->so[i] = (int8_t)so[i], c->eo[i] = (int8_t)eo[i];
			}
			if (c)
				c->hit = r->hit;
			return e->negate ? !r->hit : r->hit;
		}
	}
	char small[256];
	char *buf = subj.len < sizeof small ? small : altr_xmalloc(subj.len + 1);
	memcpy(buf, subj.p, subj.len);
	buf[subj.len] = 0;
	regmatch_t m[10];
	hit = regexec(&e->re, buf, 10, m, 0) == 0;
	for (int i = 0; i < 10; i++) {
		so[i] = hit ? m[i].rm_so : -1;
		eo[i] = hit ? m[i].rm_eo : -1;
	}
	if (buf != small)
		free(buf);
found:
	if (hit && caps)
		set_caps(caps, subj, so, eo);
	if (c) {
		c->hit = hit;
		for (int i = 0; hit && i < 10; i++)
			c->so[i] = (int8_t)so[i], c->eo[i] = (int8_t)eo[i];
	}
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
	return e->negate ? !hit : hit;
}

static bool eval_match(const struct altr_expr *e, const struct altr_stmt *s,
                       struct altr_str caps[10], struct lcent *cache)
{
	return match_subject(e, subject(e, s), caps, cache);
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
	struct lcent *cache;       /* EX_MATCH on a short subject */
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
		return match_subject(e, mn, (struct altr_str[10]){{0}}, NULL);
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
	struct mnent *c = &m->mncache[short_slot(mn, &a, &b, MN_SIZE)];
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
		m->t[m->n].cache = altr_xcalloc(LC_SIZE, sizeof(struct lcent));
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
	/* one of the literals (or its first LIT_LEN bytes) is in any match:
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
	             (e->subj == SUBJ_MEM && altr_insn_mem_operand(in) == &in->ops[0]);
	if (!label)
		return eval_match(e, s, caps, NULL);
	if (e->subj == SUBJ_INSN ? fails_for_any_label(e, s->text_p, plen)
	                         : fails_for_any_label(e, "", 0))
		return e->negate;
	return -1;
}

bool altr_expr_label_blind(const struct altr_expr *e,
                           const struct altr_stmt *s, size_t plen)
{
	return !e || blind_eval(e, s, plen) >= 0;
}

_Static_assert(PRED_COUNT <= 64, "predicates are bits of a uint64_t");

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
			uint64_t bit = 1ull << g->pred;
			if (!(known & bit)) {
				known |= bit;
				if (eval_pred(g->pred, s))
					value |= bit;
			}
			r = value & bit;
		} else {
			r = whole_of(g->e->filter, subject(g->e, s)) >= 0;
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
			/* the rules test the same few: each worked out once */
			uint64_t bit = 1ull << t->pred;
			if (!(known & bit)) {
				known |= bit;
				if (eval_pred(t->pred, s))
					value |= bit;
			}
			r = value & bit;
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
