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

/* What the rules decided for one instruction. */
struct expansion {
	struct altr_buf before, after, replace;
	bool has_replace;
	int group;               /* IOT group number */
};

struct emitter {
	struct altr_unit *u;
	struct altr_ruleset *rs;
	const struct altr_opts *o;
	struct altr_stats *st;
	struct expansion **exp;  /* per statement, NULL if unchanged */
	int ngroups;
	unsigned long nlabels;
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

static const struct altr_operand *mem_op(const struct altr_insn *in)
{
	return in->info.mem >= 0 && in->info.mem < in->nops
	               ? &in->ops[(int)in->info.mem]
	               : NULL;
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
		altr_buf_printf(b, ",%d", m->scale);
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

static unsigned access_size(const struct altr_insn *in)
{
	if (in->info.mem >= 0 && in->info.mem_acc)
		return in->info.mem_size;
	return in->info.impl_size;
}

/* Expands one ${name}; false if the name has no value here. */
static bool expand_name(struct emitter *em, const char *name,
                        const struct altr_stmt *s, unsigned long app,
                        const struct altr_str caps[10], struct altr_buf *b)
{
	const struct altr_insn *in = s->insn;
	const struct altr_operand *m = mem_op(in);
	if (strcmp(name, "0") == 0) {
		altr_buf_put(b, s->text.p, s->text.len);
	} else if (isdigit((unsigned char)name[0]) && !name[1]) {
		int k = name[0] - '0';
		if (k > in->nops)
			return false;
		put_operand(b, &in->ops[k - 1]);
	} else if (strcmp(name, "mem") == 0) {
		if (!m)
			return false;
		altr_buf_put(b, m->text.p, m->text.len);
	} else if (strcmp(name, "addr") == 0) {
		if (!m)
			return false;
		put_addr(b, m);
	} else if (strcmp(name, "size") == 0) {
		altr_buf_printf(b, "%u", access_size(in));
	} else if (strcmp(name, "base") == 0) {
		if (m)
			put_reg(b, m->base);
	} else if (strcmp(name, "index") == 0) {
		if (m)
			put_reg(b, m->index);
	} else if (strcmp(name, "scale") == 0) {
		altr_buf_printf(b, "%d", m ? m->scale : 1);
	} else if (strcmp(name, "disp") == 0) {
		if (m && m->disp.len)
			altr_buf_put(b, m->disp.p, m->disp.len);
		else
			altr_buf_putc(b, '0');
	} else if (strcmp(name, "seg") == 0) {
		if (m)
			put_reg(b, m->seg);
	} else if (strcmp(name, "sfx") == 0 || strncmp(name, "sreg:", 5) == 0) {
		/* Sized by the access: b w l q, and %r12b %r12w %r12d %r12. */
		static const char sfx[] = {0, 'b', 'w', 0, 'l', 0, 0, 0, 'q'};
		unsigned n = access_size(in);
		if (n > 8 || !sfx[n])
			return false;
		if (name[1] == 'f') {
			altr_buf_putc(b, sfx[n]);
			return true;
		}
		int r = altr_reg_lookup(name + 5, strlen(name + 5));
		if (r < 0 || altr_regs[r].cls != RC_GPR)
			return false;
		for (int k = 0; k < altr_nregs; k++)
			if (altr_regs[k].cls == RC_GPR && !altr_regs[k].high8 &&
			    altr_regs[k].num == altr_regs[r].num && altr_regs[k].size == n) {
				put_reg(b, k);
				return true;
			}
		return false;
	} else if (strcmp(name, "mnemonic") == 0) {
		altr_buf_put(b, in->mnem.p, in->mnem.len);
	} else if (strncmp(name, "label", 5) == 0) {
		int k = name[5] ? name[5] - '0' : 0;
		altr_buf_printf(b, ".Laltr%lu_%d", app, k);
	} else if (name[0] == 'c' && isdigit((unsigned char)name[1]) && !name[2]) {
		altr_buf_put(b, caps[name[1] - '0'].p, caps[name[1] - '0'].len);
	} else {
		const char *v = altr_rules_var(em->rs, name);
		if (!v)
			return false;
		altr_buf_puts(b, v);
	}
	return true;
}

/* Expands a template into lines of assembly, each "\t" + line + "\n". */
static bool expand(struct emitter *em, const struct altr_action *a,
                   const struct altr_stmt *s, unsigned long app,
                   const struct altr_str caps[10], struct altr_buf *out)
{
	struct altr_buf line = {0};
	const char *t = a->tmpl;
	bool ok = true;
	for (;;) {
		char c = *t;
		if (c == '\n' || c == 0) {
			char *p = line.p;
			size_t n = line.len;
			while (n && isspace((unsigned char)*p))
				p++, n--;
			while (n && isspace((unsigned char)p[n - 1]))
				n--;
			if (n) {
				altr_buf_putc(out, '\t');
				altr_buf_put(out, p, n);
				altr_buf_putc(out, '\n');
			}
			line.len = 0;
			if (!c)
				break;
			t++;
		} else if (c == '$' && t[1] == '$' && t[2] == '{') {
			altr_buf_puts(&line, "${");
			t += 3;
		} else if (c == '$' && t[1] == '{') {
			const char *e = strchr(t + 2, '}');
			if (!e) {
				altr_buf_puts(&line, t);
				t += strlen(t);
				continue;
			}
			char name[64];
			size_t n = (size_t)(e - t - 2);
			if (n >= sizeof name)
				n = sizeof name - 1;
			memcpy(name, t + 2, n);
			name[n] = 0;
			if (!expand_name(em, name, s, app, caps, &line)) {
				altr_error_at(em->u->path, s->line, 0,
				              "rule template (%s:%d) uses ${%s}, which has "
				              "no value for '%.*s'", a->file, a->line, name,
				              (int)s->text.len, s->text.p);
				ok = false;
			}
			t = e + 1;
		} else {
			altr_buf_putc(&line, c);
			t++;
		}
	}
	altr_buf_free(&line);
	return ok;
}

/* ---------------------------------------------------------- applying rules */

static struct expansion *apply_rules(struct emitter *em, int si)
{
	const struct altr_stmt *s = &em->u->stmts[si];
	struct expansion *x = NULL;
	struct altr_str caps[10];
	memset(caps, 0, sizeof caps);
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
		if (!x)
			x = altr_xcalloc(1, sizeof *x);
		for (const struct altr_action *a = c ? c->actions : NULL; a; a = a->next) {
			struct altr_buf *dst = a->place == PLACE_BEFORE ? &x->before
			                     : a->place == PLACE_AFTER  ? &x->after
			                                                : &x->replace;
			if (a->place == PLACE_REPLACE) {
				if (x->has_replace)
					continue; /* the first replace wins */
				x->has_replace = true;
			}
			if (!expand(em, a, s, app, caps, dst))
				em->errors++;
		}
		if (r->final)
			break;
	}
	if (x && !x->before.len && !x->after.len && !x->has_replace) {
		free(x);
		return NULL; /* matched, but with nothing to insert */
	}
	return x;
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

/* Writes inserted code, adding .cfi_adjust_cfa_offset after each
 * instruction that moves %rsp while the CFA is %rsp-based. */
static void put_inserted(struct altr_buf *out, const struct altr_buf *code,
                         bool cfa_rsp)
{
	if (!code->len)
		return;
	if (!cfa_rsp) {
		altr_buf_put(out, code->p, code->len);
		return;
	}
	const char *p = code->p, *end = code->p + code->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		altr_buf_put(out, p, n);
		altr_buf_putc(out, '\n');
		struct altr_str t = {p, n};
		struct altr_insn in;
		if (altr_asm_parse_insn(t, &in)) {
			long d = rsp_push_delta(&in);
			if (d)
				altr_buf_printf(out, "\t.cfi_adjust_cfa_offset %ld\n", d);
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
	if (em->o->iot)
		altr_buf_printf(out, ".Lrdb_iot_b%d:\n", x->group);
}

static void put_group_end(struct emitter *em, struct altr_buf *out,
                          const struct expansion *x)
{
	if (em->o->iot)
		altr_buf_printf(out, ".Lrdb_iot_e%d:\n", x->group);
}

static void emit_line(struct emitter *em, struct altr_buf *out,
                      const struct altr_line *L)
{
	struct altr_unit *u = em->u;
	for (int k = L->first; k < L->first + L->n; k++) {
		struct altr_stmt *s = &u->stmts[k];
		struct expansion *x = em->exp[k];
		/* Code for the insn after a prefix-only statement goes first. */
		if ((s->facts & SF_PREFIX_ONLY) && k + 1 < u->nstmts && em->exp[k + 1]) {
			struct expansion *nx = em->exp[k + 1];
			put_group_start(em, out, nx);
			put_inserted(out, &nx->before, u->stmts[k + 1].facts & SF_CFA_RSP);
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
			put_inserted(out, &x->before, cfa);
		}
		if (x->has_replace)
			put_inserted(out, &x->replace, cfa);
		else
			put_stmt(out, s);
		put_inserted(out, &x->after, cfa);
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
		if (em->exp[k])
			return true;
		if ((em->u->stmts[k].facts & SF_PREFIX_ONLY) && k + 1 < em->u->nstmts &&
		    em->exp[k + 1])
			return true;
	}
	return false;
}

static void emit_iot(struct emitter *em, struct altr_buf *out)
{
	if (!em->o->iot || !em->ngroups)
		return;
	/* Entries are PC-relative so that no dynamic relocation is needed;
	 * rdb-iot rewrites them to image offsets and sorts them after linking. */
	altr_buf_puts(out, "\t.section .rdb_iot,\"aR\",@progbits\n\t.balign 8\n");
	for (int g = 1; g <= em->ngroups; g++)
		altr_buf_printf(out,
		                "\t.quad .Lrdb_iot_b%d - .\n"
		                "\t.long .Lrdb_iot_e%d - .Lrdb_iot_b%d\n"
		                "\t.long 0\n",
		                g, g, g);
}

int altr_emit(struct altr_unit *u, struct altr_ruleset *rs,
              const struct altr_opts *o, FILE *f, struct altr_stats *st)
{
	struct emitter em = {.u = u, .rs = rs, .o = o, .st = st};
	em.exp = altr_xcalloc((size_t)u->nstmts + 1, sizeof *em.exp);
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
		em.exp[i] = apply_rules(&em, i);
		if (em.exp[i])
			st->matched_insns++;
	}
	int rc = 0;
	if (em.errors) {
		rc = -1;
	} else {
		struct altr_buf out = {0};
		for (int l = 0; l < u->nlines; l++) {
			const struct altr_line *L = &u->lines[l];
			if (line_changed(&em, L)) {
				emit_line(&em, &out, L);
			} else {
				altr_buf_put(&out, L->text.p, L->text.len);
				if (L->has_newline)
					altr_buf_putc(&out, '\n');
			}
		}
		if (em.ngroups && u->nlines && !u->lines[u->nlines - 1].has_newline)
			altr_buf_putc(&out, '\n');
		emit_iot(&em, &out);
		st->groups += (unsigned long)em.ngroups;
		if (out.len && fwrite(out.p, 1, out.len, f) != out.len)
			rc = -1;
		altr_buf_free(&out);
	}
	for (int i = 0; i < u->nstmts; i++) {
		if (em.exp[i]) {
			altr_buf_free(&em.exp[i]->before);
			altr_buf_free(&em.exp[i]->after);
			altr_buf_free(&em.exp[i]->replace);
			free(em.exp[i]);
		}
	}
	for (int i = 0; i < em.nwarned; i++)
		free(em.warned[i]);
	free(em.warned);
	free(em.exp);
	return rc;
}
