/*
 * insndb.c: what an instruction does.  The rows live in insn.def (its head
 * documents the row format); here they are expanded once into a hash of
 * every spelling (base name x condition code x size suffix), and decode
 * picks the first row of a spelling whose operand form matches, then
 * derives the facts of struct altr_iinfo from that row and the operands.
 * Decode never fails loudly: an unknown spelling or form gets conservative
 * info (any memory operand read and written, all status flags read).
 */
#include "altr.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Suffix sets: which AT&T size suffixes a row accepts, and their sizes. */
enum {
	SX_NONE, SX_BWLQ, SX_WLQ, SX_LQ, SX_WQ, SX_Q, SX_BWL,
	SX_FLT,  /* x87 real: s=4 l=8 t=10 */
	SX_FINT, /* x87 integer: s=2 l=4 ll=q=8 */
	SX_XY,   /* vector width for memory forms: x=16 y=32 */
	SX_COUNT
};

struct sfx {
	const char *s;
	uint16_t size;
};

static const struct sfx sfx_sets[SX_COUNT][6] = {
	[SX_NONE] = {{"", 0}},
	[SX_BWLQ] = {{"", 0}, {"b", 1}, {"w", 2}, {"l", 4}, {"q", 8}},
	[SX_WLQ] = {{"", 0}, {"w", 2}, {"l", 4}, {"q", 8}},
	[SX_LQ] = {{"", 0}, {"l", 4}, {"q", 8}},
	[SX_WQ] = {{"", 0}, {"w", 2}, {"q", 8}},
	[SX_Q] = {{"", 0}, {"q", 8}},
	[SX_BWL] = {{"", 0}, {"b", 1}, {"w", 2}, {"l", 4}},
	[SX_FLT] = {{"", 0}, {"s", 4}, {"l", 8}, {"t", 10}},
	[SX_FINT] = {{"", 0}, {"s", 2}, {"l", 4}, {"ll", 8}, {"q", 8}},
	[SX_XY] = {{"", 0}, {"x", 16}, {"y", 32}},
};

/* Memory size rules besides a plain byte count. */
enum {
	MS_OP = -1,   /* suffix, else the size of a general register operand */
	MS_STK = -2,  /* MS_OP, else 8 (push/pop) */
	MS_VEC = -3,  /* size of the widest vector register operand */
	MS_VECH = -4, /* half of it (cvtps2pd, pmovzxbw) */
	MS_VECQ = -5, /* a quarter (pmovzxbd) */
	MS_VECE = -6, /* an eighth (pmovzxbq) */
	MS_XY = -7,   /* suffix x/y, else MS_VEC */
	MS_V8 = -8,   /* 8 with xmm, else MS_VEC (movddup) */
};

/* Internal row attributes, above the public ATTR_* bits. */
#define X_BRANCH (1ull << 48) /* bare operand is a branch target */
#define X_XCHG (1ull << 49)   /* atomic when it has a memory operand */
#define X_CCSSE (1ull << 50)  /* '#' in the name: SSE compare predicates */
#define X_CCAVX (1ull << 51)  /* '#': AVX compare predicates */
#define X_INT (1ull << 52)    /* int $n: $0x80 is a system call */
#define X_MULTI (1ull << 53)  /* two memory operands allowed (movs, cmps) */
#define X_REPF (1ull << 54)   /* rep prefix: written flags only maybe */
#define X_MASK (~0ull >> 16)

struct altr_idesc {
	const char *name;
	uint8_t sfx;
	const char *forms;
	int16_t msize;
	uint8_t fr, fw, fm;
	uint64_t attrs;
};

#define F_ALL FL_STATUS
#define F_SZAPC (FL_SF | FL_ZF | FL_AF | FL_PF | FL_CF)
#define F_NOCF (FL_STATUS & ~FL_CF)
#define F_NOZF (FL_STATUS & ~FL_ZF)
#define F_ZPC (FL_ZF | FL_PF | FL_CF)

static const struct altr_idesc rows[] = {
#define I(name, sfx, forms, msize, fr, fw, fm, attrs)                        \
	{name, sfx, forms, msize, fr, fw, fm, attrs},
#include "insn.def"
#undef I
};

#define NROWS ((int)(sizeof rows / sizeof rows[0]))

/* -------------------------------------------------- operand forms */

/* Operand kinds, one bit each; a form operand accepts a set of them. */
enum {
	K_GPR = 1 << 0,  /* r */
	K_CL = 1 << 1,   /* c: %cl only */
	K_MEM = 1 << 2,  /* m */
	K_IMM = 1 << 3,  /* i */
	K_XMM = 1 << 4,  /* x: xmm or mm */
	K_YMM = 1 << 5,  /* y */
	K_ZMM = 1 << 6,  /* z */
	K_MASK = 1 << 7, /* k */
	K_ST = 1 << 8,   /* s: x87 stack register */
	K_SEG = 1 << 9,  /* g: segment register */
	K_TGT = 1 << 10, /* t: branch target */
};

#define MAXALT 6

struct form {
	uint8_t n;
	uint16_t kinds[ALTR_MAXOPS];
	uint8_t acc[ALTR_MAXOPS];
};

struct rowforms {
	uint8_t nalt;
	struct form alt[MAXALT];
};

static struct rowforms row_forms[NROWS];

static uint16_t kind_of_letter(char c)
{
	switch (c) {
	case 'r': return K_GPR | K_CL;
	case 'c': return K_CL;
	case 'm': return K_MEM;
	case 'i': return K_IMM;
	case 'x': return K_XMM;
	case 'y': return K_YMM;
	case 'z': return K_ZMM;
	case 'v': return K_XMM | K_YMM | K_ZMM;
	case 'k': return K_MASK;
	case 's': return K_ST;
	case 'g': return K_SEG;
	case 't': return K_TGT;
	}
	ALTR_ASSERT(!"bad operand kind letter in insn.def");
}

static uint8_t acc_of_letter(char c)
{
	switch (c) {
	case 'r': return ACC_READ;
	case 'w': return ACC_WRITE;
	case 'x': return ACC_READ | ACC_WRITE;
	case 'n': return 0;
	}
	ALTR_ASSERT(!"bad access letter in insn.def");
}

/* Parses "kinds:acc,kinds:acc|..." (empty alternative: no operands). */
static void parse_forms(const char *s, struct rowforms *rf)
{
	struct form *f = &rf->alt[0];
	rf->nalt = 1;
	memset(f, 0, sizeof *f);
	for (; *s; s++) {
		if (*s == '|') {
			ALTR_ASSERT(rf->nalt < MAXALT);
			f = &rf->alt[rf->nalt++];
			memset(f, 0, sizeof *f);
		} else if (*s == ',' || *s == ' ') {
			continue;
		} else {
			ALTR_ASSERT(f->n < ALTR_MAXOPS);
			uint16_t k = 0;
			while (*s && *s != ':')
				k |= kind_of_letter(*s++);
			ALTR_ASSERT(*s == ':' && s[1]);
			f->acc[f->n] = acc_of_letter(*++s);
			f->kinds[f->n++] = k;
		}
	}
}

/* -------------------------------------------------- spellings hash */

struct cond {
	const char *s;
	uint8_t fl;
};

/* Condition codes of jcc/setcc/cmovcc with the flags each reads. */
static const struct cond cc_jcc[] = {
	{"o", FL_OF}, {"no", FL_OF}, {"b", FL_CF}, {"c", FL_CF},
	{"nae", FL_CF}, {"ae", FL_CF}, {"nb", FL_CF}, {"nc", FL_CF},
	{"e", FL_ZF}, {"z", FL_ZF}, {"ne", FL_ZF}, {"nz", FL_ZF},
	{"be", FL_CF | FL_ZF}, {"na", FL_CF | FL_ZF}, {"a", FL_CF | FL_ZF},
	{"nbe", FL_CF | FL_ZF}, {"s", FL_SF}, {"ns", FL_SF}, {"p", FL_PF},
	{"pe", FL_PF}, {"np", FL_PF}, {"po", FL_PF}, {"l", FL_SF | FL_OF},
	{"nge", FL_SF | FL_OF}, {"ge", FL_SF | FL_OF}, {"nl", FL_SF | FL_OF},
	{"le", FL_ZF | FL_SF | FL_OF}, {"ng", FL_ZF | FL_SF | FL_OF},
	{"g", FL_ZF | FL_SF | FL_OF}, {"nle", FL_ZF | FL_SF | FL_OF},
	{NULL, 0},
};

/* cmpps/cmpss pseudo-op predicates (cmpltps ...); AVX has 32. */
static const struct cond cc_sse[] = {
	{"eq", 0}, {"lt", 0}, {"le", 0}, {"unord", 0}, {"neq", 0},
	{"nlt", 0}, {"nle", 0}, {"ord", 0}, {NULL, 0},
};

static const struct cond cc_avx[] = {
	{"eq", 0}, {"lt", 0}, {"le", 0}, {"unord", 0}, {"neq", 0},
	{"nlt", 0}, {"nle", 0}, {"ord", 0}, {"eq_uq", 0}, {"nge", 0},
	{"ngt", 0}, {"false", 0}, {"neq_oq", 0}, {"ge", 0}, {"gt", 0},
	{"true", 0}, {"eq_os", 0}, {"lt_oq", 0}, {"le_oq", 0},
	{"unord_s", 0}, {"neq_us", 0}, {"nlt_uq", 0}, {"nle_uq", 0},
	{"ord_s", 0}, {"eq_us", 0}, {"nge_uq", 0}, {"ngt_uq", 0},
	{"false_os", 0}, {"neq_os", 0}, {"ge_oq", 0}, {"gt_oq", 0},
	{"true_us", 0}, {NULL, 0},
};

static const struct cond cc_none[] = {{"", 0}, {NULL, 0}};

/* One spelling: a row with the suffix and condition it was spelled with. */
struct entry {
	char key[24];
	uint8_t klen;  /* strlen(key) */
	int16_t row;
	uint16_t sfx_size;
	uint8_t cc_flags;
	int next;   /* next entry with the same key, or -1 */
};

#define HSIZE 16384
static int hslot[HSIZE];      /* first entry of a key, or -1 */
static struct entry *entries;
static int nentries, entries_cap;
static bool built;

static unsigned hash_key(const char *s, size_t n)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* Slot holding key (whose hash_key is h), or the empty slot where it
 * would go. */
static unsigned find_slot(const char *key, size_t n, unsigned h)
{
	h &= HSIZE - 1;
	while (hslot[h] >= 0) {
		const struct entry *e = &entries[hslot[h]];
		if (e->klen == n && memcmp(e->key, key, n) == 0)
			break;
		h = (h + 1) & (HSIZE - 1);
	}
	return h;
}

static void add_entry(const char *key, int row, uint16_t size, uint8_t cc)
{
	if (nentries == entries_cap) {
		entries_cap = entries_cap ? 2 * entries_cap : 4096;
		entries = altr_xrealloc(entries, entries_cap * sizeof *entries);
	}
	ALTR_ASSERT(nentries < HSIZE / 2 && strlen(key) < sizeof entries->key);
	struct entry *e = &entries[nentries];
	strcpy(e->key, key);
	e->klen = (uint8_t)strlen(key);
	e->row = (int16_t)row;
	e->sfx_size = size;
	e->cc_flags = cc;
	e->next = -1;
	unsigned h = find_slot(key, strlen(key), hash_key(key, strlen(key)));
	if (hslot[h] < 0) {
		hslot[h] = nentries;
	} else { /* keep table order within a spelling */
		int i = hslot[h];
		while (entries[i].next >= 0)
			i = entries[i].next;
		entries[i].next = nentries;
	}
	nentries++;
}

static const struct cond *conds_of(const struct altr_idesc *d)
{
	if (!strchr(d->name, '#'))
		return cc_none;
	if (d->attrs & X_CCSSE)
		return cc_sse;
	if (d->attrs & X_CCAVX)
		return cc_avx;
	return cc_jcc;
}

/* dst (24 bytes) = a[0..na), then b, then c, cut to 23 bytes as
 * snprintf would: the table is built at every start, and a snprintf for
 * each of its 3,000 spellings was most of the time of a small input. */
static void join3(char dst[24], const char *a, size_t na, const char *b,
                  const char *c)
{
	size_t n = 0;
	for (size_t i = 0; i < na && n < 23; i++)
		dst[n++] = a[i];
	for (; *b && n < 23; b++)
		dst[n++] = *b;
	for (; *c && n < 23; c++)
		dst[n++] = *c;
	dst[n] = 0;
}

/* Adds every spelling of row r: '#' replaced by each condition, then each
 * suffix appended. */
static void add_row(int r)
{
	const struct altr_idesc *d = &rows[r];
	const char *hash = strchr(d->name, '#');
	for (const struct cond *c = conds_of(d); c->s; c++) {
		char base[24];
		if (hash)
			join3(base, d->name, (size_t)(hash - d->name), c->s, hash + 1);
		else
			join3(base, d->name, strlen(d->name), "", "");
		for (const struct sfx *s = sfx_sets[d->sfx]; s->s; s++) {
			char key[24];
			join3(key, base, strlen(base), s->s, "");
			add_entry(key, r, s->size, c->fl);
		}
	}
}

static void build(void)
{
	for (int i = 0; i < HSIZE; i++)
		hslot[i] = -1;
	for (int r = 0; r < NROWS; r++) {
		parse_forms(rows[r].forms, &row_forms[r]);
		add_row(r);
	}
	built = true;
}

/* -------------------------------------------------- decoding */

static bool is_gpr(int reg, int num, int size)
{
	return reg >= 0 && reg < altr_nregs && altr_regs[reg].cls == RC_GPR &&
	       altr_regs[reg].num == num && altr_regs[reg].size == size &&
	       !altr_regs[reg].high8;
}

/* A bare expression (no '*', base, index or segment): a branch target for
 * direct jumps and calls, absolute memory for everything else. */
static bool is_bare(const struct altr_operand *op)
{
	return op->kind == OPK_MEM && !op->star && op->base < 0 &&
	       op->index < 0 && op->seg < 0;
}

/* The kind bits an actual operand has (in a branch row or not). */
static uint16_t kind_of_op(const struct altr_operand *op, bool branch)
{
	switch (op->kind) {
	case OPK_IMM: return K_IMM;
	case OPK_MEM: return branch && is_bare(op) ? K_TGT : K_MEM;
	case OPK_TARGET: return K_TGT;
	case OPK_REG: break;
	default: return 0;
	}
	if (op->reg < 0 || op->reg >= altr_nregs)
		return 0;
	switch (altr_regs[op->reg].cls) {
	case RC_GPR: return is_gpr(op->reg, 1, 1) ? K_GPR | K_CL : K_GPR;
	case RC_XMM: case RC_MMX: return K_XMM;
	case RC_YMM: return K_YMM;
	case RC_ZMM: return K_ZMM;
	case RC_MASK: return K_MASK;
	case RC_X87: return K_ST;
	case RC_SEG: return K_SEG;
	default: return 0;
	}
}

static const struct form *match_form(int r, const struct altr_insn *in)
{
	const struct rowforms *rf = &row_forms[r];
	bool branch = rows[r].attrs & X_BRANCH;
	for (int a = 0; a < rf->nalt; a++) {
		const struct form *f = &rf->alt[a];
		if (f->n != in->nops)
			continue;
		int i, nmem = 0;
		for (i = 0; i < f->n; i++) {
			uint16_t k = kind_of_op(&in->ops[i], branch);
			if (!(k & f->kinds[i]))
				break;
			nmem += k == K_MEM;
		}
		if (i == f->n && (nmem <= 1 || (rows[r].attrs & X_MULTI)))
			return f;
	}
	return NULL;
}

static void mark_targets(struct altr_insn *in)
{
	for (int i = 0; i < in->nops; i++)
		if (is_bare(&in->ops[i]))
			in->ops[i].kind = OPK_TARGET;
}

static int widest_vec(const struct altr_insn *in)
{
	int w = 0;
	for (int i = 0; i < in->nops; i++) {
		const struct altr_operand *op = &in->ops[i];
		if (op->kind != OPK_REG || op->reg < 0 || op->reg >= altr_nregs)
			continue;
		enum altr_regclass c = altr_regs[op->reg].cls;
		if ((c == RC_XMM || c == RC_YMM || c == RC_ZMM || c == RC_MMX) &&
		    altr_regs[op->reg].size > w)
			w = altr_regs[op->reg].size;
	}
	return w;
}

/* Size of the general register operands (not a %cl shift count). */
static int gpr_size(const struct altr_insn *in, const struct form *f)
{
	for (int i = 0; i < in->nops; i++) {
		const struct altr_operand *op = &in->ops[i];
		if (op->kind == OPK_REG && f->kinds[i] != K_CL &&
		    altr_regs[op->reg].cls == RC_GPR)
			return altr_regs[op->reg].size;
	}
	return 0;
}

/* "{1toN}" broadcast on the memory operand: N, else 1. */
static int bcast_count(const struct altr_operand *op)
{
	const char *p = altr_op_deco(op).p, *end = p + op->deco_len;
	for (; p && p + 3 < end; p++) {
		if (memcmp(p, "1to", 3) != 0)
			continue;
		int n = 0;
		for (p += 3; p < end && isdigit((unsigned char)*p); p++)
			n = n * 10 + (*p - '0');
		return n > 0 && n <= 64 ? n : 1;
	}
	return 1;
}

static int mem_size(const struct altr_idesc *d, const struct entry *e,
                    const struct altr_insn *in, const struct form *f, int mem)
{
	int vec = widest_vec(in), size;
	switch (d->msize) {
	case MS_OP: return e->sfx_size ? e->sfx_size : gpr_size(in, f);
	case MS_STK:
		size = e->sfx_size ? e->sfx_size : gpr_size(in, f);
		return size ? size : 8;
	case MS_XY: size = e->sfx_size ? e->sfx_size : vec; break;
	case MS_V8: size = vec == 16 ? 8 : vec; break;
	case MS_VEC: size = vec; break;
	case MS_VECH: size = vec / 2; break;
	case MS_VECQ: size = vec / 4; break;
	case MS_VECE: size = vec / 8; break;
	default: return d->msize;
	}
	return mem >= 0 ? size / bcast_count(&in->ops[mem]) : size;
}

/* VEX rows become EVEX ones with zmm, mask registers, x/ymm16-31 or
 * decorations. */
static bool uses_evex(const struct altr_insn *in)
{
	for (int i = 0; i < in->nops; i++) {
		const struct altr_operand *op = &in->ops[i];
		if (op->deco_len)
			return true;
		if (op->kind != OPK_REG)
			continue;
		const struct altr_reg *r = &altr_regs[op->reg];
		if (r->cls == RC_ZMM || r->cls == RC_MASK ||
		    ((r->cls == RC_XMM || r->cls == RC_YMM) && r->num >= 16))
			return true;
	}
	return false;
}

static bool imm_is(const struct altr_operand *op, long v)
{
	char buf[32];
	if (op->kind != OPK_IMM || op->text.len < 2 || op->text.len >= sizeof buf)
		return false;
	memcpy(buf, op->text.p + 1, op->text.len - 1); /* skip '$' */
	buf[op->text.len - 1] = 0;
	char *end;
	long x = strtol(buf, &end, 0);
	return *end == 0 && x == v;
}

static uint64_t derive_attrs(const struct altr_idesc *d,
                             const struct altr_insn *in)
{
	const struct altr_iinfo *info = &in->info;
	uint64_t a = d->attrs & X_MASK;
	if (info->mem >= 0) {
		if (info->mem_acc & ACC_READ)
			a |= ATTR_LOAD;
		if (info->mem_acc & ACC_WRITE)
			a |= ATTR_STORE;
		if (info->mem_acc == (ACC_READ | ACC_WRITE))
			a |= ATTR_RMW;
		if (!info->mem_acc)
			a |= ATTR_ADDR_ONLY;
	}
	if ((in->prefixes & PFX_LOCK) || ((d->attrs & X_XCHG) && info->mem >= 0))
		a |= ATTR_ATOMIC;
	if ((a & ATTR_AVX) && uses_evex(in))
		a = (a & ~ATTR_AVX) | ATTR_AVX512;
	if ((d->attrs & X_INT) && in->nops == 1 && imm_is(&in->ops[0], 0x80))
		a |= ATTR_SYSCALL;
	for (int i = 0; i < in->nops; i++)
		if ((info->op_acc[i] & ACC_WRITE) && in->ops[i].kind == OPK_REG &&
		    altr_regs[in->ops[i].reg].cls == RC_GPR &&
		    altr_regs[in->ops[i].reg].num == ALTR_GPR_RSP &&
		    !altr_regs[in->ops[i].reg].high8)
			a |= ATTR_SETS_RSP;
	return a;
}

static void fill(struct altr_insn *in, const struct entry *e,
                 const struct form *f)
{
	const struct altr_idesc *d = &rows[e->row];
	struct altr_iinfo *info = &in->info;
	memset(info, 0, sizeof *info);
	info->mem = -1;
	for (int i = 0; i < f->n; i++) {
		info->op_acc[i] = f->acc[i];
		if (in->ops[i].kind == OPK_MEM && info->mem < 0 &&
		    !(d->attrs & ATTR_STRING)) {
			info->mem = (int8_t)i;
			info->mem_acc = f->acc[i];
		}
	}
	int size = mem_size(d, e, in, f, info->mem);
	if (info->mem >= 0)
		info->mem_size = (uint16_t)size;
	if (d->attrs & ATTR_STACK)
		info->impl_size = d->msize == MS_STK ? (uint16_t)size : 8;
	else if (d->attrs & ATTR_STRING)
		info->impl_size = (uint16_t)size;
	else if (d->attrs & (ATTR_LOAD | ATTR_STORE)) /* maskmovdqu */
		info->impl_size = (uint16_t)size;
	info->flags_read = d->fr | e->cc_flags;
	info->flags_written = d->fw;
	info->flags_maybe = d->fm;
	if ((d->attrs & X_REPF) && (in->prefixes & (PFX_REP | PFX_REPNE))) {
		info->flags_maybe |= info->flags_written;
		info->flags_written = 0;
	}
	info->attrs = derive_attrs(d, in);
}

static void fill_unknown(struct altr_insn *in)
{
	struct altr_iinfo *info = &in->info;
	memset(info, 0, sizeof *info);
	info->mem = -1;
	for (int i = 0; i < in->nops && i < ALTR_MAXOPS; i++) {
		info->op_acc[i] = ACC_READ | ACC_WRITE;
		if (in->ops[i].kind == OPK_MEM && info->mem < 0)
			info->mem = (int8_t)i;
	}
	if (info->mem >= 0)
		info->mem_acc = ACC_READ | ACC_WRITE;
	info->flags_read = FL_STATUS;
	in->desc = NULL;
}

/* The first entry spelled like mnem (case-insensitive), or -1. */
static int lookup(struct altr_str mnem)
{
	char key[24];
	if (mnem.len == 0 || mnem.len >= sizeof key)
		return -1;
	unsigned h = 2166136261u; /* hash_key of key, as it grows */
	for (size_t i = 0; i < mnem.len; i++) {
		unsigned char c = (unsigned char)mnem.p[i];
		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		key[i] = (char)c;
		h = (h ^ c) * 16777619u;
	}
	if (!built)
		build();
	return hslot[find_slot(key, mnem.len, h)];
}

bool altr_insn_decode(struct altr_insn *in)
{
	for (int e = lookup(in->mnem); e >= 0; e = entries[e].next) {
		const struct altr_idesc *d = &rows[entries[e].row];
		const struct form *f = match_form(entries[e].row, in);
		if (!f)
			continue;
		if (d->attrs & X_BRANCH)
			mark_targets(in);
		in->desc = d;
		fill(in, &entries[e], f);
		return true;
	}
	fill_unknown(in);
	return false;
}

int altr_insndb_push_pop_names(const char *names[], int max)
{
	int n = 0;
	for (int i = 0; i < NROWS; i++)
		if (rows[i].attrs & (ATTR_PUSH | ATTR_POP)) {
			ALTR_ASSERT(n < max && !strchr(rows[i].name, '#'));
			names[n++] = rows[i].name;
		}
	return n;
}

const char *altr_idesc_name(const struct altr_idesc *d)
{
	return d ? d->name : "(unknown)";
}

int altr_insndb_size(void)
{
	return NROWS;
}
