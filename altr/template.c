/*
 * template.c: a rule's assembly templates: altr_tmpl_pieces once into pieces
 * (literal text and substitutions, ${...}), and expanded for a statement
 * into a plan's part, its label numbers left as holes.
 */
#include "altr.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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

/* The names that stand for one thing of the statement, whole. */
static const struct {
	const char *name;
	uint8_t kind;
} fixed_names[] = {
	{"0", T_STMT}, {"mem", T_MEM}, {"addr", T_ADDR}, {"size", T_SIZE},
	{"base", T_BASE}, {"index", T_INDEX}, {"scale", T_SCALE},
	{"disp", T_DISP}, {"seg", T_SEG}, {"sfx", T_SFX}, {"mnemonic", T_MNEM},
};

/* What ${name} stands for, decided once per template; the order of the
 * tests is that of the names' meaning (a variable named "label_x" is a
 * label, as it always was). */
static struct tpiece classify_name(struct emitter *em, const char *name)
{
	struct tpiece t = {.kind = T_BAD, .s = name, .n = strlen(name)};
	for (size_t k = 0; k < sizeof fixed_names / sizeof fixed_names[0]; k++)
		if (strcmp(name, fixed_names[k].name) == 0) {
			t.kind = fixed_names[k].kind;
			return t;
		}
	if (name[0] >= '0' && name[0] <= '9' && !name[1]) {
		t.kind = T_OPND;
		t.arg = name[0] - '0';
	} else if (strncmp(name, "sreg:", 5) == 0) {
		int r = altr_reg_lookup(name + 5, strlen(name + 5));
		t.kind = T_SREG;
		t.arg = r >= 0 && altr_regs[r].cls == RC_GPR ? altr_regs[r].num : -1;
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

const struct tmpl *altr_tmpl_of(struct emitter *em,
                                      const struct altr_action *a)
{
	uint32_t h = (uint32_t)((uintptr_t)a >> 4);
	struct tmpl *e;
	if (em->tm.cap) {
		e = altr_table_slot(&em->tm, sizeof *e, h, a, tmpl_stop);
		if (e->a)
			return e;
	}
	altr_table_reserve(&em->tm, 1, tmpl_hash, tmpl_used);
	e = altr_table_slot(&em->tm, sizeof *e, h, a, tmpl_stop);
	e->a = a;
	em->tm.n++;
	compile(em, e);
	return e;
}

const struct tpiece *altr_tmpl_pieces(struct emitter *em,
                                     const struct altr_action *a)
{
	return altr_tmpl_of(em, a)->p;
}


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
void altr_tmpl_add_cfi_hole(struct holes *hs, const struct altr_buf *b, long d)
{
	if (!d)
		return;
	add_hole(hs, H_CFI, b->len, 0, 0);
	hs->h[hs->n - 1].delta = d;
}

/* Appends number v, a hole of kind with delta. */
void altr_tmpl_put_hole(struct altr_buf *b, struct holes *hs, uint8_t kind,
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
	const struct altr_operand *m = altr_match_mem_operand(in);
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
		altr_buf_putl(b, altr_match_access_size(in));
		return true;
	case T_BASE:
	case T_INDEX:
	case T_SEG:
		if (m)
			put_reg(b, x->kind == T_BASE ? m->base :
			           x->kind == T_INDEX ? m->index : m->seg);
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
	case T_SFX:
	case T_SREG: {
		/* Sized by the access: b w l q, and %r12b %r12w %r12d %r12. */
		static const char sfx[] = {0, 'b', 'w', 0, 'l', 0, 0, 0, 'q'};
		n = altr_match_access_size(in);
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
		altr_tmpl_put_hole(b, hs, H_APP, app, napp);
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
bool altr_tmpl_expand(struct emitter *em, const struct altr_action *a,
                   const struct altr_stmt *s, unsigned long app,
                   unsigned long napp, const struct altr_str caps[10],
                   struct altr_buf *out, struct holes *ohs)
{
	struct altr_buf *line = &em->line;
	struct holes *lh = &em->lhole;
	bool ok = true;
	line->len = 0;
	lh->n = 0;
	const struct tmpl *tm = altr_tmpl_of(em, a);
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
					ldelta[l] = altr_cfi_line_delta(em, out->p + at, out->len - at);
					if (lstate[l] == L_FIXED)
						lstate[l] = L_KNOWN;
				}
				altr_buf_putc(out, '\n');
				altr_tmpl_add_cfi_hole(ohs, out, ldelta[l]);
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

