/*
 * cfi.c: keeping the CFI right: how far an inserted line moves %rsp,
 * for the .cfi_adjust_cfa_offset the output adds while the CFA is
 * %rsp-based.
 */
#include "altr.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

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

long altr_cfi_line_delta(struct emitter *em, const char *p, size_t n)
{
	if (!altr_shortcuts)
		return parsed_delta(p, n);
	/* most inserted lines neither push nor pop nor name %rsp: they
	 * need no decoding (rsp_push_delta returns 0 for them) */
	if (!may_move_rsp((struct altr_str){p, n}))
		return 0;
	uint32_t h = altr_hash(p, n);
	struct altr_kept *e = altr_kept_find(&em->deltas, p, n, h);
	if (e->len)
		return e->val;
	long d = parsed_delta(p, n);
	altr_kept_add(&em->deltas, e, p, n, h, d);
	return d;
}

