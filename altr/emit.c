/*
 * emit.c: applying the rules and writing the result.
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

/* What the rules decide for an instruction depends on the instruction
 * (and so its text: one instruction, one text, asm.c) and the statement
 * facts altr_match_ctx names, nothing else: it is worked out once per
 * (insn, ctx) as a plan and applied to every statement of that key.
 * Evaluating every rule for every statement was most of a trace run.
 * The numbers in inserted code that differ between such statements are
 * holes in the plan's text, filled in as it is written out. */
/* The labels altr makes: "${label}"s (.LR<n>_<k>), listed code's
 * (.LRlb<n> .. .LRle<n>) and IOT groups' (.LRb<g> .. .LRe<g>).  ".LR" is
 * no prefix gcc's or clang's labels have.  Short, as are the tables' lines
 * that name them: they were a third of a trace run's output, and the
 * output's size is the time to write it and to assemble it. */
#define LBL_APP ".LR"
#define LBL_LIST ".LRl"
#define LBL_GROUP_B ".LRb"
#define LBL_GROUP_E ".LRe"

enum { X_BEFORE, X_REPLACE, X_AFTER };
enum { H_APP, H_LIST, H_CFI };
struct hole {
	uint32_t pos, len;       /* where the digits are in the part's text */
	long delta;              /* the number: the statement's base + delta */
	uint8_t kind;            /* H_APP: a rule application's label number
	                            (base: the count before the statement);
	                            H_LIST: listed code's (base: likewise);
	                            H_CFI: a line ".cfi_adjust_cfa_offset
	                            delta" inserted at pos (len 0) when the
	                            CFA is %rsp-based */
};

struct holes {
	struct hole *h;
	size_t n, cap;
};

/* The part texts (X_*) follow one another in em->ptext, their holes in
 * em->pholes.  Parts end with '\n'. */

/* The plan an instruction had last, by altr_stmt.iid: nearly all have
 * one context, and this array is small (the plans are not, and looking
 * there was most of applying).  Its other plans are chained from its
 * plan kept last (em->heads): no table of all plans (whose pages alone
 * cost more than its lookups).  16 bytes: what a statement of the plan
 * needs is here, counting it too (the count by plan was a cache miss
 * for each). */
struct pcache {
	uint32_t ctx;
	int32_t plan1;           /* 1 + the plan, or 0: it has none (kept) */
	uint32_t uses;           /* statements it was applied to since it
	                            became plan1 (em->uses has the others) */
	uint8_t nrules, nlisted; /* the plan's, unless nrules is PC_BIG */
	bool code;
	uint8_t acc;             /* 0: not known yet; else 1 + whether the
	                            instruction accesses memory (--stats) */
};
enum { PC_BIG = UINT8_MAX }; /* nrules or nlisted too big for a pcache */
_Static_assert(sizeof(struct pcache) == 16, "a pcache entry is 16 bytes");

struct plan {
	const struct altr_insn *insn; /* the key: instruction and context */
	uint32_t ctx;
	uint32_t rule0, nrules;  /* rules applied, in em->prules */
	uint32_t sect0, nlisted; /* sections of listed code, in em->psect */
	uint32_t hole0;
	size_t off;
	uint32_t len[3], nholes[3];
	bool code;               /* inserts or replaces something */
	bool has_replace;
	bool kept;               /* chained (no error making it) */
	int32_t next;            /* kept: the instruction's plan kept before
	                            it (another context), or -1 */
};

/* A statement the rules insert code for. */
struct expansion {
	int stmt;                /* its statement */
	int line;                /* and the statement's line number */
	bool flags_dead;         /* no status flag live before the instruction */
	int plan;                /* index into em->plans */
	int group;               /* IOT group number */
	unsigned long app0;      /* bases of its holes */
	unsigned long list0;
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
	/* By line of the template: L_* and, when known, how far the line
	 * moves %rsp (line_delta).  A line of literal text and labels is
	 * the same wherever it is put but for the labels' digits, which no
	 * push, pop or %rsp is made of: its delta is worked out once, not
	 * for every plan (that was a tenth of a trace run's rule work). */
	uint8_t *lstate;
	long *ldelta;
	uint32_t needs;          /* N_*: what of the statement its pieces show */
};
enum { L_VARIES, L_FIXED, L_KNOWN };
/* What a template's expansion depends on (beside the numbers in holes):
 * the statement's text, its memory operand's (whose parts ${addr} ...
 * ${seg} show), its access size, mnemonic, operands (N_OPND << i for
 * ${i+1}) and captures (N_CAP << i for ${ci}). */
enum {
	N_STMT = 1 << 0, N_MEM = 1 << 1, N_SIZE = 1 << 2, N_MNEM = 1 << 3,
	N_OPND = 1 << 4, N_CAP = 1 << 14,
};

/* A decimal number counted up in place: the group and table numbers
 * follow one another, and formatting each was a tenth of writing. */
struct dec {
	char d[24];
	int n;
};

/* A branch or call to a plain label ("jne .L5") without the label: the
 * plan made for the first instruction of that shape and context, shared
 * by the others when no rule can see which label it is (sqlite3.s: 26,000
 * of 56,000 instruction texts, some hundred shapes). */
struct shape {
	const char *p;           /* the text before the label; NULL: free */
	uint32_t plen, ctx, hash;
	int plan;                /* or -1: not to be shared */
	const struct altr_insn *insn; /* the first instruction's */
};

/* A plan whose code others share: its key's hash and bytes (in
 * em->xkeys; len 0: a free slot), and the plan. */
struct xcent {
	uint32_t hash, len;
	size_t off;
	int plan;
};

struct emitter {
	struct altr_unit *u;
	struct altr_ruleset *rs;
	const struct altr_opts *o;
	struct altr_stats *st;
	struct expansion *xs;    /* in statement order */
	size_t nxs, capxs;
	size_t xcur;             /* the output's place in xs (exp_of) */
	struct plan *plans;
	size_t nplans, capplans;
	struct pcache *pc;       /* by altr_stmt.iid */
	int32_t *heads;          /* and 1 + its plan kept last, or 0: none */
	struct altr_buf ptext;   /* the plans' texts */
	struct hole *pholes;     /* their holes */
	size_t npholes, cappholes;
	struct altr_matcher *m;  /* the rules' expressions, compiled */
	struct altr_rule **rule; /* the rules in order */
	int nr;
	int *rmatch;             /* per rule in order: its match's entry */
	int *rcase;              /* and the index of its first case's in */
	int *cwhen;              /* these: each case's when's entry */
	struct altr_rule **prules;
	size_t nprules, capprules;
	const char **psect;
	size_t npsect, cappsect;
	struct altr_buf part[3]; /* X_*: a plan's, being built */
	struct holes phole[3];   /* their holes */
	struct altr_buf line;    /* a template line being expanded */
	struct holes lhole;      /* its holes */
	struct altr_map tm;      /* of struct tmpl: compiled templates, by
	                            action */
	struct altr_map memo;    /* of struct cfa_memo: inserted line ->
	                            %rsp delta */
	struct altr_str *gonames; /* label_used: the names statements that may
	                            go to a label mention, sorted; NULL: not
	                            made yet (most units never need them) */
	size_t ngonames;
	struct altr_buf memokeys;
	int ngroups;
	struct dec gdec;         /* ngroups, in decimal */
	bool *gdead;             /* per group: its flags_dead (IOT flags bit 0) */
	size_t capgdead;
	unsigned long nlabels;
	const char **listed;     /* per code of a rule with 'list' (.LRlb<n>
	                            .. .LRle<n>, n its index): its section */
	size_t nlisted, caplisted;
	uint32_t *uses;          /* per plan: statements it was applied to */
	size_t capuses;
	struct applied *app;     /* make_plan: the rules that applied */
	size_t capapp;
	struct altr_buf xkey;    /* make_plan: what their code depends on */
	struct altr_map xc;      /* of struct xcent: plans by that key, their
	                            code */
	struct altr_buf xkeys;   /* the keys' bytes */
	struct altr_map shapes;  /* of struct shape: branches to labels, by
	                            shape */
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
	struct altr_str d = altr_op_disp(m);
	altr_buf_put(b, d.p, d.len);
	if (m->base < 0 && m->index < 0) {
		if (!d.len)
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
	struct altr_str d = altr_op_deco(op);
	altr_buf_put(b, d.p, d.len);
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
	size_t nl = 1;
	for (size_t k = 0; k < np; k++)
		nl += tm->p[k].kind == T_NL;
	tm->needs = 0;
	for (size_t k = 0; k < np; k++) {
		const struct tpiece *x = &tm->p[k];
		switch ((enum tkind)x->kind) {
		case T_STMT: tm->needs |= N_STMT; break;
		case T_OPND: tm->needs |= (uint32_t)N_OPND << x->arg; break;
		case T_MEM: case T_ADDR: case T_BASE: case T_INDEX: case T_SCALE:
		case T_DISP: case T_SEG: tm->needs |= N_MEM; break;
		case T_SIZE: case T_SFX: case T_SREG: tm->needs |= N_SIZE; break;
		case T_MNEM: tm->needs |= N_MNEM; break;
		case T_CAP: tm->needs |= (uint32_t)N_CAP << x->arg; break;
		case T_END: case T_NL: case T_LIT: case T_LABEL: case T_VAR:
		case T_BAD: break;
		}
	}
	tm->lstate = altr_xmalloc(nl);
	tm->ldelta = altr_xmalloc(nl * sizeof *tm->ldelta);
	size_t l = 0;
	tm->lstate[0] = L_FIXED;
	for (size_t k = 0; k < np; k++) {
		uint8_t kind = tm->p[k].kind;
		if (kind == T_NL)
			tm->lstate[++l] = L_FIXED;
		else if (kind != T_LIT && kind != T_VAR && kind != T_LABEL &&
		         kind != T_END)
			tm->lstate[l] = L_VARIES;
	}
}

static bool tmpl_stop(const void *ent, const void *key)
{
	const struct tmpl *e = ent;
	return !e->a || e->a == key;
}

static uint32_t tmpl_hash(const void *ent)
{
	return (uint32_t)((uintptr_t)((const struct tmpl *)ent)->a >> 4);
}

static bool tmpl_used(const void *ent)
{
	return ((const struct tmpl *)ent)->a != NULL;
}

static const struct tmpl *template_of(struct emitter *em,
                                      const struct altr_action *a)
{
	uint32_t h = (uint32_t)((uintptr_t)a >> 4);
	struct tmpl *e;
	if (em->tm.cap) {
		e = altr_map_slot(&em->tm, sizeof *e, h, a, tmpl_stop);
		if (e->a)
			return e;
	}
	altr_map_reserve(&em->tm, 1, tmpl_hash, tmpl_used);
	e = altr_map_slot(&em->tm, sizeof *e, h, a, tmpl_stop);
	e->a = a;
	em->tm.n++;
	compile(em, e);
	return e;
}

static const struct tpiece *compiled(struct emitter *em,
                                     const struct altr_action *a)
{
	return template_of(em, a)->p;
}

static long line_delta(struct emitter *em, const char *p, size_t n);

static void add_hole(struct holes *hs, uint8_t kind, size_t pos, size_t len,
                     unsigned long delta)
{
	if (hs->n == hs->cap) {
		hs->cap = hs->cap ? 2 * hs->cap : 16;
		hs->h = altr_xrealloc(hs->h, hs->cap * sizeof *hs->h);
	}
	hs->h[hs->n++] = (struct hole){(uint32_t)pos, (uint32_t)len,
	                               (long)delta, kind};
}

/* After a line just put in b, a .cfi_adjust_cfa_offset hole when it
 * moves %rsp by d (written while the CFA is %rsp-based). */
static void add_cfi_hole(struct holes *hs, const struct altr_buf *b, long d)
{
	if (!d)
		return;
	add_hole(hs, H_CFI, b->len, 0, 0);
	hs->h[hs->n - 1].delta = d;
}

/* Appends number v, a hole of kind with delta. */
static void put_hole(struct altr_buf *b, struct holes *hs, uint8_t kind,
                     unsigned long v, unsigned long delta)
{
	size_t at = b->len;
	altr_buf_putl(b, (long)v);
	add_hole(hs, kind, at, b->len - at, delta);
}

/* Appends what one piece stands for; false if it has no value here.  The
 * label number app is the statement's napp-th application (a hole). */
static bool expand_piece(const struct tpiece *x, const struct altr_stmt *s,
                         unsigned long app, unsigned long napp,
                         const struct altr_str caps[10], struct altr_buf *b,
                         struct holes *hs)
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
		altr_buf_put(b, s->text_p, s->text_len);
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
		if (m && m->disp_len)
			altr_buf_put(b, altr_op_disp(m).p, m->disp_len);
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
		altr_buf_puts(b, LBL_APP);
		put_hole(b, hs, H_APP, app, napp);
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

/* Expands a template into lines of assembly, each "\t" + line + "\n";
 * the holes go to ohs, with those of .cfi_adjust_cfa_offset lines. */
static bool expand(struct emitter *em, const struct altr_action *a,
                   const struct altr_stmt *s, unsigned long app,
                   unsigned long napp, const struct altr_str caps[10],
                   struct altr_buf *out, struct holes *ohs)
{
	struct altr_buf *line = &em->line;
	struct holes *lh = &em->lhole;
	bool ok = true;
	line->len = 0;
	lh->n = 0;
	const struct tmpl *tm = template_of(em, a);
	uint8_t *lstate = tm->lstate;
	long *ldelta = tm->ldelta;
	size_t l = 0; /* the template's line */
	for (const struct tpiece *x = tm->p;; x++) {
		if (x->kind == T_NL || x->kind == T_END) {
			char *p = line->p;
			size_t n = line->len;
			while (n && isspace((unsigned char)*p))
				p++, n--;
			while (n && isspace((unsigned char)p[n - 1]))
				n--;
			if (n) {
				size_t at = out->len;
				altr_buf_putc(out, '\t');
				/* holes are digits: the trimmed line holds them */
				size_t shift = out->len - (size_t)(p - line->p);
				for (size_t k = 0; k < lh->n; k++)
					add_hole(ohs, lh->h[k].kind, lh->h[k].pos + shift,
					         lh->h[k].len, lh->h[k].delta);
				altr_buf_put(out, p, n);
				if (lstate[l] != L_KNOWN) {
					ldelta[l] = line_delta(em, out->p + at, out->len - at);
					if (lstate[l] == L_FIXED)
						lstate[l] = L_KNOWN;
				}
				altr_buf_putc(out, '\n');
				add_cfi_hole(ohs, out, ldelta[l]);
			}
			l++;
			line->len = 0;
			lh->n = 0;
			if (x->kind == T_END)
				break;
		} else if (!expand_piece(x, s, app, napp, caps, line, lh)) {
			altr_error_at(em->u->path, s->line, 0,
			              "rule template (%s:%d) uses ${%s}, which has "
			              "no value for '%.*s'", a->file, a->line, x->s,
			              (int)s->text_len, s->text_p);
			ok = false;
		}
	}
	return ok;
}

/* ---------------------------------------------------------- applying rules */

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
	put_hole(b, hs, H_LIST, n, delta);
	altr_buf_putc(b, ':');
	long d = line_delta(em, b->p + at, b->len - at);
	altr_buf_putc(b, '\n');
	add_cfi_hole(hs, b, d);
}

/* The emitter's arrays grow in big-block memory (altr_big_free them with
 * cap * size): freed blocks of the earlier stages are reused.  Their new
 * room is zeroed, or with raw left as it is (an array written before it
 * is read: zeroing the plans' room alone was 4 MB on sqlite3.s). */
static void *grow_as(void *p, size_t *cap, size_t n, size_t size,
                     size_t first, bool raw)
{
	if (n < *cap)
		return p;
	size_t old = *cap;
	*cap = *cap ? 2 * *cap : first;
	return raw ? altr_big_realloc_raw(p, old * size, *cap * size)
	           : altr_big_realloc(p, old * size, *cap * size);
}

static void *grow(void *p, size_t *cap, size_t n, size_t size, size_t first)
{
	return grow_as(p, cap, n, size, first, false);
}

static void *grow_raw(void *p, size_t *cap, size_t n, size_t size,
                      size_t first)
{
	return grow_as(p, cap, n, size, first, true);
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
			em->pholes = grow_raw(em->pholes, &em->cappholes,
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
			for (const struct tpiece *x = compiled(em, a); x->kind != T_END; x++)
				if (x->kind == T_CAP)
					return true;
	return false;
}

static void compile_rules(struct emitter *em)
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

/* A rule that applied to the statement a plan is made for: its case
 * (NULL: it has none) and the captures its code may show, as they were
 * when it matched (later rules' regexes overwrite them). */
struct applied {
	const struct altr_rule *r;
	const struct altr_case *c;
	struct altr_str caps[10];
};

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
		needs |= template_of(em, x)->needs;
	const struct altr_insn *in = s->insn;
	static const uint32_t absent = UINT32_MAX;
	if (needs & N_STMT)
		key_put(k, s->text_p, s->text_len);
	if (needs & N_MEM) {
		const struct altr_operand *m = altr_insn_mem_operand(in);
		if (m)
			key_put(k, m->text.p, m->text.len);
		else
			altr_buf_put(k, (const char *)&absent, sizeof absent);
	}
	if (needs & N_SIZE) {
		unsigned n = altr_insn_access_size(in);
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
			if (!expand(em, a, s, app0 + napp, napp, ap->caps, dst, hs)) {
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
			em->psect = grow_raw(em->psect, &em->cappsect, em->npsect,
			                     sizeof *em->psect, 256);
			em->psect[em->npsect++] = ap->r->list;
			p->nlisted++;
		}
	}
	return ok;
}

/* The key of an xcent lookup: its bytes, and where the kept keys are. */
struct xkey {
	const char *p, *keys;
	size_t len;
	uint32_t hash;
};

static bool xcent_stop(const void *ent, const void *key)
{
	const struct xcent *e = ent;
	const struct xkey *k = key;
	return !e->len || (e->hash == k->hash && e->len == k->len &&
	                   memcmp(k->keys + e->off, k->p, e->len) == 0);
}

static uint32_t xcent_hash(const void *ent)
{
	return ((const struct xcent *)ent)->hash;
}

static bool xcent_used(const void *ent)
{
	return ((const struct xcent *)ent)->len != 0;
}

/* The plan kept earlier whose code is that of the key in em->xkey (hash
 * h); else -1, with *slot the free entry where a new one goes. */
static int xcache_find(struct emitter *em, uint32_t h, struct xcent **slot)
{
	struct xkey key = {em->xkey.p, em->xkeys.p, em->xkey.len, h};
	struct xcent *e = altr_map_slot(&em->xc, sizeof *e, h, &key, xcent_stop);
	if (e->len)
		return e->plan;
	*slot = e;
	return -1;
}

static void xcache_grow(struct emitter *em)
{
	altr_map_reserve(&em->xc, 1, xcent_hash, xcent_used);
}

/* Works out the plan for statement s of context ctx: evaluates the rules
 * and expands their templates with the numbers s gets (the counts so
 * far).  The code is that of an earlier plan when the same rules applied
 * with the same substitutions (sqlite3.s: 31,000 plans, 5,700 codes):
 * the plans then share their text and holes, which hold no number of
 * their own.  A plan that met an error is not kept for other statements:
 * each one reports its own. */
static int make_plan(struct emitter *em, const struct altr_stmt *s,
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
		em->prules = grow_raw(em->prules, &em->capprules, em->nprules,
		                      sizeof *em->prules, 256);
		em->prules[em->nprules++] = r;
		em->app = grow_raw(em->app, &em->capapp, p.nrules, sizeof *em->app, 16);
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
	struct xcent *slot = NULL;
	uint32_t h = 0;
	if (matched && altr_shortcuts) {
		h = altr_hash(em->xkey.p, em->xkey.len);
		xcache_grow(em);
		src = xcache_find(em, h, &slot);
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
	 * a second context (sqlite3.s: 6% more plans than instructions) */
	size_t first = em->u->ninsn_ids + em->u->ninsn_ids / 8 + 1024;
	em->uses = grow(em->uses, &em->capuses, em->nplans, sizeof *em->uses,
	                first);
	em->plans = grow_raw(em->plans, &em->capplans, em->nplans,
	                     sizeof *em->plans, first);
	int i = (int)em->nplans++;
	p.kept = !bad;
	p.next = -1;
	if (p.kept) {
		p.next = em->heads[s->iid] - 1;
		em->heads[s->iid] = i + 1;
		if (slot) {
			*slot = (struct xcent){.hash = h, .len = (uint32_t)em->xkey.len,
			                       .off = em->xkeys.len, .plan = i};
			altr_buf_put(&em->xkeys, em->xkey.p, em->xkey.len);
			em->xc.n++;
		}
	}
	em->plans[i] = p;
	return i;
}

/* --------------------------------------------- plans shared by shape */

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
		if (!altr_expr_label_blind(r->match, s, plen))
			return false;
		for (const struct altr_case *c = r->cases; c; c = c->next)
			if (!altr_expr_label_blind(c->when, s, plen))
				return false;
	}
	for (uint32_t k = 0; k < p->nrules; k++) {
		const struct altr_rule *r = em->prules[p->rule0 + k];
		for (const struct altr_case *c = r->cases; c; c = c->next)
			for (const struct altr_action *a = c->actions; a; a = a->next)
				for (const struct tpiece *x = compiled(em, a);
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
static int shaped_plan(struct emitter *em, const struct altr_stmt *s,
                       unsigned ctx)
{
	size_t plen;
	if (!label_shaped(s, &plen))
		return make_plan(em, s, ctx);
	altr_map_reserve(&em->shapes, 1, shape_hash, shape_used);
	uint32_t h = altr_hash(s->text_p, plen) ^ ctx * 0x9e3779b9u;
	struct shape key = {s->text_p, (uint32_t)plen, ctx, h, -1, s->insn};
	struct shape *e = altr_map_slot(&em->shapes, sizeof *e, h, &key, shape_stop);
	if (e->p)
		return e->plan >= 0 ? e->plan : make_plan(em, s, ctx);
	int pi = make_plan(em, s, ctx);
	const struct plan *p = &em->plans[pi];
	bool share = p->kept && label_blind(em, p, s, plen);
	*e = (struct shape){s->text_p, (uint32_t)plen, ctx, h, share ? pi : -1,
	                    s->insn};
	em->shapes.n++;
	return pi;
}

/* Applies the rules to statement si; its expansion's index into em->xs,
 * or -1 when nothing is inserted.  What a statement adds to the counts of
 * rule matches and listed code is added up per plan at the end. */
static int apply_rules(struct emitter *em, int si)
{
	const struct altr_stmt *s = &em->u->stmts[si];
	unsigned ctx = altr_match_ctx(s);
	struct pcache *c = &em->pc[s->iid];
	int pi;
	size_t nrules, nlisted;
	bool code;
	if (!altr_shortcuts) {
		/* each statement its own plan, its rules evaluated anew */
		pi = make_plan(em, s, ctx);
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
			pi = shaped_plan(em, s, ctx);
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
	em->xs = grow_raw(em->xs, &em->capxs, em->nxs, sizeof *em->xs, 1024);
	em->xs[em->nxs] = (struct expansion){.stmt = si, .line = s->line,
	                                     .flags_dead = !s->flags_live_in,
	                                     .plan = pi, .app0 = app0,
	                                     .list0 = list0};
	return (int)em->nxs++;
}

/* The rules' match counts, and the listed code's sections: what applying
 * the plans added up to. */
static void tally(struct emitter *em)
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
	em->listed = grow(em->listed, &cap, 0, sizeof *em->listed,
	                  em->nlisted + 1);
	em->caplisted = cap;
	for (size_t i = 0; i < em->nxs; i++) {
		const struct expansion *x = &em->xs[i];
		const struct plan *p = &em->plans[x->plan];
		for (size_t k = 0; k < p->nlisted; k++)
			em->listed[x->list0 + k] = em->psect[p->sect0 + k];
	}
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
		              (int)s->text_len, s->text_p);
		em->errors++;
	} else {
		altr_warn(em->u->path, s->line, "unknown instruction '%.*s' passed "
		          "through uninstrumented", (int)s->text_len, s->text_p);
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
		    s->index < 0 && s->disp_len < sizeof buf) {
			n = s->disp_len;
			memcpy(buf, altr_op_disp(s).p, n);
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

/* altr_hash, never 0 (0 marks an empty slot). */
static uint64_t hash_bytes(const char *p, size_t n)
{
	return (uint64_t)altr_hash(p, n) << 1 | 1;
}

/* The key of a cfa_memo lookup: the line, and where the kept lines are. */
struct line_key {
	const char *p, *keys;
	size_t len;
	uint64_t hash;
};

static bool cfa_stop(const void *ent, const void *key)
{
	const struct cfa_memo *e = ent;
	const struct line_key *k = key;
	return !e->hash || (e->hash == k->hash && e->len == k->len &&
	                    memcmp(k->keys + e->off, k->p, k->len) == 0);
}

static uint32_t cfa_hash(const void *ent)
{
	return (uint32_t)((const struct cfa_memo *)ent)->hash;
}

static bool cfa_used(const void *ent)
{
	return ((const struct cfa_memo *)ent)->hash != 0;
}

/* Whether a line may move %rsp for rsp_push_delta: only if it holds
 * (in any case) the name of a push or pop row or of the 64-bit %rsp.  Most
 * inserted lines hold none, and then need no decoding. */
static bool may_move_rsp(struct altr_str t)
{
	static char words[16][16];   /* lowercase, none holding another */
	static uint16_t first[256];  /* by byte, the words starting so */
	static int nwords = -1;
	static char every;           /* a letter all words hold, or 0 */
	if (nwords < 0) {
		const char *w[16];
		int n = altr_insndb_push_pop_names(w, 15);
		for (int r = 0; r < altr_nregs; r++)
			if (altr_regs[r].cls == RC_GPR &&
			    altr_regs[r].num == ALTR_GPR_RSP && altr_regs[r].size == 8) {
				ALTR_ASSERT(n < 16);
				w[n++] = altr_regs[r].name;
			}
		nwords = 0;
		for (int i = 0; i < n; i++) {
			bool dup = false;
			for (int k = 0; k < n && !dup; k++)
				dup = k != i && strstr(w[i], w[k]) &&
				      (strcmp(w[i], w[k]) != 0 || k < i);
			if (dup)
				continue;
			ALTR_ASSERT(strlen(w[i]) < 16);
			for (size_t c = 0; w[i][c]; c++)
				words[nwords][c] = (char)tolower((unsigned char)w[i][c]);
			unsigned char c0 = (unsigned char)words[nwords][0];
			first[c0] |= (uint16_t)(1u << nwords);
			first[toupper(c0)] |= (uint16_t)(1u << nwords);
			nwords++;
		}
		for (const char *c = words[0]; *c && nwords && !every; c++) {
			int k = 1;
			while (k < nwords && strchr(words[k], *c))
				k++;
			if (k == nwords && *c >= 'a' && *c <= 'z')
				every = *c;
		}
	}
	/* a line without the letter all words hold (most) is done at once */
	if (every && !memchr(t.p, every, t.len) &&
	    !memchr(t.p, every - 'a' + 'A', t.len))
		return false;
	for (size_t i = 0; i < t.len; i++) {
		for (unsigned m = first[(unsigned char)t.p[i]]; m; m &= m - 1) {
			const char *w = words[__builtin_ctz(m)];
			size_t j = 1;
			while (w[j] && i + j < t.len &&
			       tolower((unsigned char)t.p[i + j]) == w[j])
				j++;
			if (!w[j])
				return true;
		}
	}
	return false;
}

/* The %rsp delta of inserted line p[0..n), worked out from its text. */
static long parsed_delta(const char *p, size_t n)
{
	struct altr_str t = {p, n};
	struct altr_insn in;
	struct altr_operand ops[ALTR_MAXOPS];
	return altr_asm_parse_insn(t, &in, ops) ? rsp_push_delta(&in) : 0;
}

static long line_delta(struct emitter *em, const char *p, size_t n)
{
	if (!altr_shortcuts)
		return parsed_delta(p, n);
	/* most inserted lines neither push nor pop nor name %rsp: they
	 * need no decoding (rsp_push_delta returns 0 for them) */
	if (!may_move_rsp((struct altr_str){p, n}))
		return 0;
	altr_map_reserve(&em->memo, 1, cfa_hash, cfa_used);
	uint64_t h = hash_bytes(p, n);
	struct line_key key = {p, em->memokeys.p, n, h};
	struct cfa_memo *e = altr_map_slot(&em->memo, sizeof *e, (uint32_t)h,
	                                   &key, cfa_stop);
	if (e->hash)
		return e->delta;
	long d = parsed_delta(p, n);
	*e = (struct cfa_memo){h, em->memokeys.len, n, d};
	altr_buf_put(&em->memokeys, p, n);
	em->memo.n++;
	return d;
}

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
	em->gdead = grow_raw(em->gdead, &em->capgdead, (size_t)x->group,
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
		.memo = {.size = sizeof(struct cfa_memo), .load = 2, .first = 1024},
		.xc = {.size = sizeof(struct xcent), .load = 2, .first = 1024},
		.shapes = {.size = sizeof(struct shape), .load = 2, .first = 256},
	};
	compile_rules(&em);
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
			warn_unknown(&em, s);
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
		if (rules && apply_rules(&em, i) >= 0)
			st->matched_insns++;
	}
	altr_regex_memo_end();
	tally(&em);
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
	altr_map_free(&em.tm);
	altr_map_free(&em.shapes);
	altr_map_free(&em.memo);
	free(em.gonames);
	altr_buf_free(&em.memokeys);
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
	altr_buf_free(&em.xkeys);
	altr_map_free(&em.xc);
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
