/*
 * analyze.c: the facts rules ask about that no single statement shows.
 * Partitions code into functions, resolves direct branch targets (named,
 * .L and numeric 1f/1b labels), marks backward, forward and tail branches,
 * follows .loc and CFI state in text order, and computes status-flag
 * liveness per function by backward dataflow to a fixpoint.  Whatever is
 * not understood (indirect jumps, unknown instructions, opaque regions,
 * data in code, entry points from outside) counts as "all flags live".
 * Linear in the statements: names are hashed, the fixpoint is a worklist.
 */
#include "altr.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------- names to statements */

/* Map from a name (a slice of the source) to an int (altr_table).  The
 * hash is kept so that a probe rarely touches the text itself.  The
 * tables are big-block memory: the labels' is megabytes. */
struct smap_ent {
	const char *p;           /* NULL: empty */
	uint32_t len, hash;
	int val;
};

struct smap {
	struct altr_table m;       /* of struct smap_ent; zeroed: empty */
};

static bool smap_stop(const void *ent, const void *key)
{
	const struct smap_ent *e = ent, *k = key;
	return !e->p || (e->hash == k->hash && e->len == k->len &&
	                 memcmp(e->p, k->p, k->len) == 0);
}

static uint32_t smap_hash(const void *ent)
{
	return ((const struct smap_ent *)ent)->hash;
}

static bool smap_used(const void *ent)
{
	return ((const struct smap_ent *)ent)->p != NULL;
}

static struct smap_ent *smap_slot(const struct smap *m, struct altr_str s,
                                  uint32_t h)
{
	struct smap_ent key = {s.p, (uint32_t)s.len, h, 0};
	return altr_table_slot(&m->m, sizeof key, h, &key, smap_stop);
}

/* Value for name, or -1. */
static int smap_get(const struct smap *m, struct altr_str s)
{
	if (!m->m.cap || !s.len)
		return -1;
	struct smap_ent *e = smap_slot(m, s, altr_hash(s.p, s.len));
	return e->p ? e->val : -1;
}

/* Makes room for n more names: they are then added without growing. */
static void smap_reserve(struct smap *m, size_t n)
{
	if (!m->m.size)
		m->m = (struct altr_table){.size = sizeof(struct smap_ent), .load = 2,
		                         .first = 64, .mem = ALTR_TABLE_BIG};
	altr_table_reserve(&m->m, n, smap_hash, smap_used);
}

/* Sets name to val; with keep, an existing entry is left as it is. */
static void smap_set(struct smap *m, struct altr_str s, int val, bool keep)
{
	if (!s.len)
		return;
	smap_reserve(m, 1);
	uint32_t h = altr_hash(s.p, s.len);
	struct smap_ent *e = smap_slot(m, s, h);
	if (e->p && keep)
		return;
	if (!e->p)
		m->m.n++;
	*e = (struct smap_ent){s.p, (uint32_t)s.len, h, val};
}

static void smap_put(struct smap *m, struct altr_str s, int val)
{
	smap_set(m, s, val, false);
}

static void smap_free(struct smap *m)
{
	altr_table_free(&m->m);
}

/* --------------------------------------------------------- small helpers */

static struct altr_str str_trim(struct altr_str s)
{
	while (s.len && (*s.p == ' ' || *s.p == '\t')) {
		s.p++;
		s.len--;
	}
	while (s.len && (s.p[s.len - 1] == ' ' || s.p[s.len - 1] == '\t'))
		s.len--;
	return s;
}

/* The first argument of a directive: up to a ',' or blank, unquoted. */
static struct altr_str first_arg(struct altr_str a)
{
	a = str_trim(a);
	if (a.len && a.p[0] == '"') {
		size_t i = 1;
		while (i < a.len && a.p[i] != '"')
			i++;
		return (struct altr_str){a.p + 1, i - 1};
	}
	size_t i = 0;
	while (i < a.len && a.p[i] != ',' && a.p[i] != ' ' && a.p[i] != '\t')
		i++;
	return (struct altr_str){a.p, i};
}

/* What follows the first ',' of the arguments, trimmed. */
static struct altr_str rest_args(struct altr_str a)
{
	const char *c = memchr(a.p, ',', a.len);
	if (!c)
		return (struct altr_str){a.p + a.len, 0};
	return str_trim((struct altr_str){c + 1, a.len - (size_t)(c + 1 - a.p)});
}

static bool str_contains(struct altr_str s, const char *lit)
{
	size_t n = strlen(lit);
	for (size_t i = 0; i + n <= s.len; i++)
		if (memcmp(s.p + i, lit, n) == 0)
			return true;
	return false;
}

static bool all_digits(const char *p, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return true;
}

/* A numeric local label "N". */
static bool is_numeric_label(struct altr_str s)
{
	return all_digits(s.p, s.len);
}

/* Non-local: neither .L... nor numeric (gas keeps those out of the symbol
 * table, so nothing outside the unit can reach them). */
static bool is_nonlocal_label(struct altr_str s)
{
	return s.len && !(s.len >= 2 && s.p[0] == '.' && s.p[1] == 'L') &&
	       !is_numeric_label(s);
}

/* What a directive means to the analyses; computed once per statement. */
enum dirkind {
	DK_NONE,       /* not a directive */
	DK_OTHER,      /* transparent: .p2align, .globl, .set, .cfi_offset ... */
	DK_DATA,       /* puts bytes (or holes) into the section: in code,
	                  hand-encoded instructions we cannot see through */
	DK_BARRIER,    /* assembly-time control (.if, .rept, .macro ...): text
	                  order is not execution order around it (macro.c
	                  expands .macro/.rept/.irp/.irpc before reading: only
	                  those it could not expand get here) */
	DK_TEXT,       /* .text .data .bss: switch to the section so named */
	DK_SECTION,
	DK_PREVIOUS,
	DK_PUSHSECTION,
	DK_POPSECTION,
	DK_TYPE,
	DK_SIZE,
	DK_LOC,
	DK_CFI_START,
	DK_CFI_END,
	DK_CFI_DEF,    /* .cfi_def_cfa, .cfi_def_cfa_register */
	DK_CFI_ESCAPE,
	DK_CFI_REMEMBER,
	DK_CFI_RESTORE,
};

static const struct {
	const char *name;
	uint8_t kind;
} dir_table[] = {
	{".byte", DK_DATA}, {".2byte", DK_DATA}, {".4byte", DK_DATA},
	{".8byte", DK_DATA}, {".short", DK_DATA}, {".word", DK_DATA},
	{".hword", DK_DATA}, {".int", DK_DATA}, {".long", DK_DATA},
	{".quad", DK_DATA}, {".octa", DK_DATA}, {".value", DK_DATA},
	{".ascii", DK_DATA}, {".asciz", DK_DATA}, {".zero", DK_DATA},
	{".skip", DK_DATA}, {".space", DK_DATA}, {".fill", DK_DATA},
	{".float", DK_DATA}, {".single", DK_DATA}, {".double", DK_DATA},
	{".tfloat", DK_DATA}, {".sleb128", DK_DATA}, {".uleb128", DK_DATA},
	{".incbin", DK_DATA}, {".org", DK_DATA}, {".base64", DK_DATA},
	{".else", DK_BARRIER}, {".elseif", DK_BARRIER}, {".endif", DK_BARRIER},
	{".macro", DK_BARRIER}, {".endm", DK_BARRIER}, {".rept", DK_BARRIER},
	{".irp", DK_BARRIER}, {".irpc", DK_BARRIER}, {".endr", DK_BARRIER},
	{".exitm", DK_BARRIER}, {".purgem", DK_BARRIER},
	{".include", DK_BARRIER}, {".err", DK_BARRIER}, {".error", DK_BARRIER},
	{".text", DK_TEXT}, {".data", DK_TEXT}, {".bss", DK_TEXT},
	{".section", DK_SECTION}, {".previous", DK_PREVIOUS},
	{".pushsection", DK_PUSHSECTION}, {".popsection", DK_POPSECTION},
	{".type", DK_TYPE}, {".size", DK_SIZE}, {".loc", DK_LOC},
	{".cfi_startproc", DK_CFI_START}, {".cfi_endproc", DK_CFI_END},
	{".cfi_def_cfa", DK_CFI_DEF}, {".cfi_def_cfa_register", DK_CFI_DEF},
	{".cfi_escape", DK_CFI_ESCAPE},
	{".cfi_remember_state", DK_CFI_REMEMBER},
	{".cfi_restore_state", DK_CFI_RESTORE},
};

static struct smap dir_map; /* dir_table by name, built on first use */

/* A name's length and second and last letters, lowercase, as a bit
 * number: the table's names set theirs in dir_seen, and most directives
 * of compiled code (.cfi_def_cfa_offset, .p2align, .cfi_offset) are
 * found in none of them without the lowercasing and lookup. */
static uint64_t dir_seen[16];

static unsigned dir_key(const char *p, size_t len)
{
	return (unsigned)(len * 61 + (unsigned char)(p[1] | 0x20) * 7 +
	                  (unsigned char)(p[len - 1] | 0x20)) & 1023;
}

static enum dirkind dir_kind(const struct altr_stmt *s)
{
	if (s->kind != STMT_DIRECTIVE)
		return DK_NONE;
	if (!dir_map.m.cap)
		for (size_t i = 0; i < sizeof dir_table / sizeof dir_table[0]; i++) {
			const char *name = dir_table[i].name;
			unsigned k = dir_key(name, strlen(name));
			dir_seen[k / 64] |= 1ull << (k % 64);
			smap_put(&dir_map, (struct altr_str){name, strlen(name)},
			         dir_table[i].kind);
		}
	char low[32];
	struct altr_str n = altr_stmt_name(s);
	if (n.len >= sizeof low)
		return DK_OTHER;
	/* (the names below that only start so: .string, .dc, .ds, .if) */
	if (n.len >= 2) {
		unsigned k = dir_key(n.p, n.len);
		char c1 = (char)(n.p[1] | 0x20);
		if (!(dir_seen[k / 64] & (1ull << (k % 64))) && c1 != 's' &&
		    c1 != 'd' && c1 != 'i')
			return DK_OTHER;
	}
	for (size_t i = 0; i < n.len; i++)
		low[i] = (char)(n.p[i] >= 'A' && n.p[i] <= 'Z' ? n.p[i] + 32
		                                                : n.p[i]);
	struct altr_str l = {low, n.len};
	int k = smap_get(&dir_map, l);
	if (k >= 0)
		return (enum dirkind)k;
#define STARTS(lit) (l.len >= sizeof lit - 1 && !memcmp(low, lit, sizeof lit - 1))
	if (STARTS(".string") || STARTS(".dc") || STARTS(".ds"))
		return DK_DATA;
	if (STARTS(".if"))
		return DK_BARRIER;
	return DK_OTHER;
#undef STARTS
}

/* ------------------------------------------------------------- sections */

/* The current section as gas tracks it, enough to tell "back in the
 * section the function started in" after a jump table in .rodata. */
#define SEC_STACK 32

struct sections {
	struct altr_str cur, prev;
	struct altr_str stack[SEC_STACK][2];
	int depth;
};

/* Updates sec for a directive of kind k; false if it is no section
 * directive. */
static bool section_change(struct sections *sec, const struct altr_stmt *s,
                           uint8_t k)
{
	struct altr_str to;
	switch (k) {
	case DK_TEXT:
		to = altr_stmt_name(s);
		break;
	case DK_SECTION:
		to = first_arg(altr_stmt_args(s));
		break;
	case DK_PREVIOUS:
		to = sec->prev;
		break;
	case DK_PUSHSECTION:
		if (sec->depth < SEC_STACK) {
			sec->stack[sec->depth][0] = sec->cur;
			sec->stack[sec->depth][1] = sec->prev;
		}
		sec->depth++;
		to = first_arg(altr_stmt_args(s));
		break;
	case DK_POPSECTION:
		if (sec->depth > 0 && --sec->depth < SEC_STACK) {
			sec->cur = sec->stack[sec->depth][0];
			sec->prev = sec->stack[sec->depth][1];
		}
		return true;
	default:
		return false;
	}
	sec->prev = sec->cur;
	sec->cur = to;
	return true;
}

static bool str_same(struct altr_str a, struct altr_str b)
{
	return a.len == b.len && memcmp(a.p, b.p, a.len) == 0;
}

/* ------------------------------------------------------------ functions */

/* What the analyses keep per statement, in one array for locality. */
enum {
	AX_EXEC = 1,     /* in an executable section (labels: as what follows) */
	AX_FOLLOWED = 2, /* an instruction follows before data or a section
	                    change: a non-local label here names code */
	AX_START = 4,    /* label: a name its function is entered by */
	AX_ENTRY = 8,    /* label: non-local, inside a function: reachable from
	                    outside in any state */
	AX_QUEUED = 16,  /* on the liveness worklist */
	AX_NUMREF = 32,  /* branch: its target is a numeric Nf/Nb reference */
	AX_EXTERN = 64,  /* branch: to a plain name defined nowhere in the unit */
};

_Static_assert(SF_FUSES_BACK < (1 << 16), "aux.facts holds the SF_* bits");

/* What a label's name is (read once). */
enum { LK_LOCAL, LK_NUMERIC, LK_NONLOCAL };

/* How an instruction passes control on, cached from insndb's attributes
 * so that later walks need not touch the instruction. */
enum {
	CTL_NONE,    /* not an instruction we understand */
	CTL_PLAIN,   /* falls through */
	CTL_NOFALL,  /* ud2, hlt */
	CTL_CALL,
	CTL_RET,
	CTL_JMP,
	CTL_JCC,
};

/* The walks read and write these, not the statements (then 88 bytes
 * each: a walk over them cost what a walk over the unit's input did): what
 * they need of a statement is copied in first, their results go back at
 * the end.  Labels, branch operands and some directive arguments are
 * still looked up in the statement, rarely. */
struct aux {
	int prv, nxt;    /* neighbours within the function */
	union {          /* (a label is no branch: they share the room) */
		int refs;    /* label: first branch of its function to it */
		int nref;    /* branch: the next one to the same label.  Nf
		                references waiting for their label use it too */
	};
	int func, target; /* the statement's results (a branch's target is
	                    its instruction's number till resolve_target:
	                    the statement is not read for it) */
	uint16_t facts;  /* the statement's SF_* (all below 1 << 16), the
	                    analysis bits updated */
	uint8_t kind;    /* the statement's */
	uint8_t live_out; /* the statement's result (its flags live before:
	                    live, for an instruction of a function) */
	uint8_t live;    /* flags live before the statement runs */
	uint8_t dk;      /* enum dirkind */
	uint8_t bits;    /* AX_* */
	uint8_t ctl;     /* CTL_* */
	uint8_t fr, fw;  /* status flags read, written (killed) */
	int8_t tgt;      /* operand index of a direct target, or -1 */
	union {          /* (a label is no instruction) */
		uint8_t lk;  /* label: LK_* */
		uint8_t ib;  /* instruction: its IB_* */
	};
};
/* One per statement, walked several times: its size is memory traffic
 * (the instruction's number is read from the statement, once). */
_Static_assert(sizeof(struct aux) == 32, "an aux is 32 bytes");
/* (the reader's memo block is as big as the statements, for this array
 * of records to reuse: read_unit) */
_Static_assert(sizeof(struct aux) <= sizeof(struct altr_stmt),
               "an aux fits where a statement does");

/* What the walks need of an instruction depends on it alone: the reader
 * works it out (altr_analyze_insn_class) for the first statement of each
 * instruction, while that is in the cache, and keeps it by altr_stmt.iid
 * (the instructions are spread over megabytes: reading them here was a
 * large part of the analysis, docs/perf.md). */
enum {
	IB_FUSABLE = 1,  /* a flag setter the CPU fuses with a jcc (fusable) */
	IB_RESERVED = 2, /* its text names %r12-%r15 */
};

struct an {
	struct altr_unit *u;
	struct aux *x;
	int *tcache;          /* by altr_stmt.iid: its direct target's label,
	                         1 + its statement; -1: a name defined nowhere
	                         (AX_EXTERN); 0: not known (yet, or no name) */
	struct smap labels;   /* non-numeric label name -> first stmt */
	int *lnum;            /* but ".L<n>" (gcc's) by n: first stmt + 1 */
	int nlnum;
	struct smap typed;    /* names given .type @function */
	bool any_typed;
	int *work;            /* liveness worklist */
	int funcs_cap;
};

/* n of a label ".L<n>" (n in canonical decimal, below a->nlnum), or -1:
 * gcc's local labels are most labels, and numbering them spares a hash,
 * a probe and a look at the name's text. */
static int dotl_number(const struct an *a, struct altr_str s)
{
	if (s.len < 3 || s.len > 11 || s.p[0] != '.' || s.p[1] != 'L' ||
	    (s.p[2] == '0' && s.len > 3))
		return -1;
	long v = 0;
	for (size_t i = 2; i < s.len; i++) {
		if (s.p[i] < '0' || s.p[i] > '9')
			return -1;
		v = 10 * v + (s.p[i] - '0');
	}
	return v < a->nlnum ? (int)v : -1;
}

/* The first statement of label name s, or -1. */
static int label_get(const struct an *a, struct altr_str s)
{
	int n = dotl_number(a, s);
	return n >= 0 ? a->lnum[n] - 1 : smap_get(&a->labels, s);
}

static int new_func(struct an *a, struct altr_str name, int first)
{
	struct altr_unit *u = a->u;
	if (u->nfuncs == a->funcs_cap) {
		a->funcs_cap = a->funcs_cap ? 2 * a->funcs_cap : 16;
		u->funcs = altr_xrealloc(u->funcs,
		                         (size_t)a->funcs_cap * sizeof *u->funcs);
	}
	u->funcs[u->nfuncs] = (struct altr_func){name, first, first};
	return u->nfuncs++;
}

/* AX_EXEC and AX_FOLLOWED of x, walking backward (exec and followed are
 * those of the statement after it).  A label takes its section from the
 * next non-label statement (whose context is the label's even when it is
 * a section directive), whatever the reader put on it. */
static void exec_and_followed(struct aux *x, bool *exec, bool *followed)
{
	uint8_t k = x->dk;
	if (x->kind == STMT_LABEL) {
		if (x->facts & SF_EXEC)
			*exec = true;
	} else {
		*exec = x->facts & SF_EXEC;
	}
	if (x->kind == STMT_INSN)
		*followed = true;
	else if (k == DK_DATA || k == DK_BARRIER ||
	         (k >= DK_TEXT && k <= DK_POPSECTION))
		*followed = false;
	x->bits |= (*exec ? AX_EXEC : 0) | (*followed ? AX_FOLLOWED : 0);
}

/* Whether the non-local label at i starts a function; marks it. */
static bool starts_function(struct an *a, int i, bool active, int cur_insns)
{
	struct aux *x = &a->x[i];
	if (active && cur_insns == 0) {
		x->bits |= AX_START; /* another name for the function entered */
		return false;
	}
	bool start;
	if (smap_get(&a->typed, altr_stmt_name(&a->u->stmts[i])) > 0)
		start = true;
	else if (active)
		start = !a->any_typed && (x->bits & AX_FOLLOWED);
	else
		start = x->bits & AX_FOLLOWED;
	x->bits |= start ? AX_START : active ? AX_ENTRY : 0;
	return start;
}

/* --------------------------------------------------------------- labels */

/* The direct target operand of a branch or call, or NULL. */
static const struct altr_operand *direct_target(const struct altr_insn *in)
{
	for (int k = 0; k < in->nops; k++)
		if (in->ops[k].kind == OPK_TARGET && !in->ops[k].star)
			return &in->ops[k];
	return NULL;
}

static bool fusable(const struct altr_stmt *s);

/* altr_analyze_insn_class packs ctl, fr, fw, tgt + 1 and IB_* in a word. */
enum { IC_FR = 8, IC_FW = 16, IC_TGT = 24, IC_IB = 28 };

uint32_t altr_analyze_insn_class(const struct altr_stmt *s)
{
	const struct altr_insn *in = s->insn;
	if (!in || !in->desc || (s->facts & SF_OPAQUE))
		/* unknown: reads all flags, writes none */
		return CTL_NONE | (uint32_t)FL_STATUS << IC_FR;
	unsigned ib = fusable(s) ? IB_FUSABLE : 0;
	/* (from '%' to '%': a text names a register or two) */
	const char *end = s->text_p + s->text_len;
	for (const char *r = s->text_p;
	     (r = memchr(r, '%', (size_t)(end - r))) && r + 3 < end; r++)
		if (r[1] == 'r' && r[2] == '1' && r[3] >= '2' && r[3] <= '5') {
			ib |= IB_RESERVED;
			break;
		}
	uint64_t at = in->info.attrs;
	unsigned fr = in->info.flags_read & FL_STATUS;
	unsigned fw = in->info.flags_written & FL_STATUS;
	unsigned ctl = (at & ATTR_CALL)     ? CTL_CALL
	             : (at & ATTR_RET)      ? CTL_RET
	             : (at & ATTR_JMP)      ? CTL_JMP
	             : (at & ATTR_JCC)      ? CTL_JCC
	             : (at & ATTR_NOFALL)   ? CTL_NOFALL
	                                    : CTL_PLAIN;
	if (ctl == CTL_CALL) {
		fr = 0;          /* nothing is passed into a callee */
		fw = FL_STATUS;  /* nor comes back from it */
	}
	int tgt = -1;
	if (ctl == CTL_CALL || ctl == CTL_JMP || ctl == CTL_JCC) {
		const struct altr_operand *op = direct_target(in);
		if (op)
			tgt = (int)(op - in->ops);
	}
	return ctl | fr << IC_FR | fw << IC_FW | (uint32_t)(tgt + 1) << IC_TGT |
	       ib << IC_IB;
}

/* Fills x->ctl, fr, fw, tgt and ib from the class of its instruction. */
static void classify_insn(struct aux *x, uint32_t c)
{
	x->ctl = (uint8_t)(c & 7);
	x->fr = (uint8_t)(c >> IC_FR);
	x->fw = (uint8_t)(c >> IC_FW);
	x->tgt = (int8_t)(((c >> IC_TGT) & 15) - 1);
	x->ib = (uint8_t)(c >> IC_IB);
}

/* The symbol a target names ("foo" of "foo@PLT"); empty when it is an
 * expression we do not resolve. */
static struct altr_str target_name(const struct altr_operand *op)
{
	struct altr_str t = str_trim(op->disp_len ? altr_op_disp(op) : op->text);
	const char *at = memchr(t.p, '@', t.len);
	if (at)
		t.len = (size_t)(at - t.p);
	for (size_t i = 0; i < t.len; i++) {
		char c = t.p[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$'))
			return (struct altr_str){t.p, 0};
	}
	return t;
}

uint32_t altr_analyze_insn_label(const struct altr_stmt *s, uint32_t c)
{
	int tgt = (int)((c >> IC_TGT) & 15) - 1;
	if (tgt < 0)
		return 0;
	struct altr_str t = target_name(&s->insn->ops[tgt]);
	/* as dotl_number reads it */
	if (t.len < 3 || t.len > 11 || t.p[0] != '.' || t.p[1] != 'L' ||
	    (t.p[2] == '0' && t.len > 3))
		return 0;
	uint32_t v = 0;
	for (size_t i = 2; i < t.len; i++) {
		if (t.p[i] < '0' || t.p[i] > '9')
			return 0;
		v = 10 * v + (uint32_t)(t.p[i] - '0');
	}
	return v + 1;
}

/* Numeric reference "Nb"/"Nf": the digits, and dir 'b' or 'f'. */
static bool numeric_ref(struct altr_str t, struct altr_str *digits, char *dir)
{
	if (t.len < 2 || (t.p[t.len - 1] != 'b' && t.p[t.len - 1] != 'f') ||
	    !all_digits(t.p, t.len - 1))
		return false;
	*digits = (struct altr_str){t.p, t.len - 1};
	*dir = t.p[t.len - 1];
	return true;
}

/* Numeric labels as gas sees them: N -> its latest definition (for Nb)
 * and N -> the first of a chain of Nf references waiting for the next. */
struct numlabels {
	struct smap last, waiting;
};

static void numeric_label(struct an *a, struct numlabels *nl, int i)
{
	struct altr_str n = altr_stmt_name(&a->u->stmts[i]);
	smap_put(&nl->last, n, i);
	int w = smap_get(&nl->waiting, n);
	if (w < 0)
		return;
	for (int j = w, next; j >= 0; j = next) {
		next = a->x[j].nref;
		a->x[j].nref = -1;
		a->x[j].target = i;
	}
	smap_put(&nl->waiting, n, -1);
}

/* Sets the target of the branch or call at i (its x->target holds its
 * instruction's number till then), or -1. */
static void resolve_target(struct an *a, struct numlabels *nl, int i)
{
	struct aux *x = &a->x[i];
	/* gcc's .L<n>, known from the reader (as label_get finds it) */
	uint32_t n1 = a->u->ilabel ? a->u->ilabel[x->target] : 0;
	if (n1 && n1 - 1 < (uint32_t)a->nlnum) {
		x->target = a->lnum[n1 - 1] - 1;
		if (x->target < 0)
			x->bits |= AX_EXTERN;
		return;
	}
	/* a named label's statement is the same wherever it is jumped to */
	int *c = &a->tcache[x->target];
	if (*c) {
		x->target = *c > 0 ? *c - 1 : -1;
		if (*c < 0)
			x->bits |= AX_EXTERN;
		return;
	}
	x->target = -1;
	const struct altr_stmt *s = &a->u->stmts[i];
	struct altr_str t = target_name(&s->insn->ops[x->tgt]), d;
	char dir;
	if (!numeric_ref(t, &d, &dir)) {
		x->target = label_get(a, t);
		if (x->target < 0 && t.len)
			x->bits |= AX_EXTERN;
		*c = (x->bits & AX_EXTERN) ? -1 : x->target + 1;
		return;
	}
	x->bits |= AX_NUMREF;
	if (dir == 'b') {
		x->target = smap_get(&nl->last, d);
	} else {
		a->x[i].nref = smap_get(&nl->waiting, d);
		smap_put(&nl->waiting, d, i);
	}
}

/* Whether s is the k-th instruction of a frame's set-up: push %rbp (0),
 * mov %rsp, %rbp (1). */
static bool frame_setup(const struct altr_stmt *s, int k)
{
	const struct altr_insn *in = s->insn;
	if (!in || in->nops != k + 1 || (s->facts & (SF_IN_APP | SF_OPAQUE)))
		return false;
	if (k == 0)
		return (altr_str_eq(in->mnem, "push") || altr_str_eq(in->mnem, "pushq")) &&
		       altr_str_eq(in->ops[0].text, "%rbp");
	return k == 1 && (altr_str_eq(in->mnem, "mov") || altr_str_eq(in->mnem, "movq")) &&
	       altr_str_eq(in->ops[0].text, "%rsp") && altr_str_eq(in->ops[1].text, "%rbp");
}

/* One forward walk: partitions code into functions (stmt.func, AX_START,
 * AX_ENTRY) and resolves direct targets.  One function is open at a time;
 * it is suspended while another section is current (gcc puts jump tables
 * in .rodata mid-function) and resumes when its own section comes back.
 * It closes at its .size, at .cfi_endproc, or when the next one starts. */
static void functions_and_targets(struct an *a)
{
	struct altr_unit *u = a->u;
	struct sections sec = {0};
	struct numlabels nl = {0};
	int cur = -1, cur_insns = 0, cur_setup = 0;
	bool active = false;
	struct altr_str cur_sec = {0};

	for (int i = 0; i < u->nstmts; i++) {
		struct aux *x = &a->x[i];
		/* (the label's statement or cache misses: loaded ahead) */
		if (i + 8 < u->nstmts && a->x[i + 8].tgt >= 0) {
			uint32_t id = (uint32_t)a->x[i + 8].target;
			uint32_t n1 = u->ilabel ? u->ilabel[id] : 0;
			if (n1 && n1 - 1 < (uint32_t)a->nlnum)
				__builtin_prefetch(&a->lnum[n1 - 1]);
			else
				__builtin_prefetch(&a->tcache[id]);
		}
		if (x->kind == STMT_INSN) {
			if (x->tgt >= 0)
				resolve_target(a, &nl, i);
		} else if (x->kind == STMT_LABEL) {
			const struct altr_stmt *s = &u->stmts[i];
			if (x->lk == LK_NUMERIC) {
				numeric_label(a, &nl, i);
			} else if ((x->bits & AX_EXEC) && !(x->facts & SF_OPAQUE) &&
			           x->lk == LK_NONLOCAL &&
			           starts_function(a, i, active, cur_insns)) {
				cur = new_func(a, altr_stmt_name(s), i);
				cur_sec = sec.cur;
				cur_insns = cur_setup = 0;
				active = true;
			}
		} else if (x->dk >= DK_TEXT && x->dk <= DK_POPSECTION &&
		           section_change(&sec, &u->stmts[i], x->dk)) {
			active = cur >= 0 && str_same(sec.cur, cur_sec);
		}
		if (!active || !(x->bits & AX_EXEC))
			continue;
		x->func = cur;
		/* the function's statements in a chain, for liveness */
		int prev = u->funcs[cur].last;
		if (prev != i) {
			x->prv = prev;
			a->x[prev].nxt = i;
		}
		u->funcs[cur].last = i;
		/* the entry is past a leading push %rbp; mov %rsp, %rbp: gdb
		 * reads those two at a function's start to place breakpoints
		 * after its frame's set-up (no check runs between them) */
		if (x->kind == STMT_INSN) {
			int k = cur_insns++;
			if (k == cur_setup && frame_setup(&u->stmts[i], k))
				cur_setup++;
			else if (k == cur_setup)
				x->facts |= SF_FUNC_ENTRY;
		}
		bool closes = x->dk == DK_CFI_END;
		if (x->dk == DK_SIZE) {
			struct altr_str n = first_arg(altr_stmt_args(&u->stmts[i]));
			int l = label_get(a, n);
			closes = str_same(n, u->funcs[cur].name) ||
			         (l >= 0 && a->x[l].func == cur &&
			          (a->x[l].bits & AX_START));
		}
		if (closes) {
			cur = -1;
			active = false;
		}
	}
	/* Nf references that found no label stay unresolved */
	const struct smap_ent *we = (const struct smap_ent *)nl.waiting.m.e;
	for (size_t k = 0; k < nl.waiting.m.cap; k++)
		for (int j = we[k].p ? we[k].val : -1, next; j >= 0; j = next) {
			next = a->x[j].nref;
			a->x[j].nref = -1;
		}
	smap_free(&nl.last);
	smap_free(&nl.waiting);
}

/* ------------------------------------------------- branches, .loc, CFI */

#define CFI_STACK 64

struct cfi {
	bool loc, in_proc, rsp;
	bool saved[CFI_STACK];
	int depth;
};

/* .loc and CFI state in text order, as gas applies them. */
static void loc_and_cfi(struct cfi *c, struct altr_stmt *s, uint8_t dk)
{
	struct altr_str r;
	switch (dk) {
	case DK_LOC:
		c->loc = true;
		break;
	case DK_CFI_START:
		c->in_proc = c->rsp = true;
		c->depth = 0;
		break;
	case DK_CFI_END:
		c->in_proc = false;
		break;
	case DK_CFI_DEF:
		r = first_arg(altr_stmt_args(s));
		if (r.len && r.p[0] == '%') {
			r.p++;
			r.len--;
		}
		c->rsp = altr_str_eq(r, "rsp") || altr_str_eq(r, "7");
		break;
	case DK_CFI_ESCAPE:
		/* DW_CFA_def_cfa_expression: no longer rsp + offset */
		r = first_arg(altr_stmt_args(s));
		if (altr_str_eq(r, "0xf") || altr_str_eq(r, "0x0f") ||
		    altr_str_eq(r, "15"))
			c->rsp = false;
		break;
	case DK_CFI_REMEMBER:
		if (c->depth < CFI_STACK)
			c->saved[c->depth] = c->rsp;
		c->depth++;
		break;
	case DK_CFI_RESTORE:
		if (c->depth > 0 && --c->depth < CFI_STACK)
			c->rsp = c->saved[c->depth];
		break;
	default:
		break;
	}
}

static void fusion_facts(struct an *a, int i);

/* SF_BACKWARD / SF_FORWARD for jumps within the function, SF_TAIL for
 * jumps anywhere else (code outside any function counts as one region);
 * the lists of branches to each label; SF_HAS_LOC and SF_CFA_RSP. */
static void branch_facts(struct an *a)
{
	struct altr_unit *u = a->u;
	struct cfi c = {0};
	for (int i = 0; i < u->nstmts; i++) {
		struct aux *x = &a->x[i];
		if (x->kind != STMT_INSN) {
			if (x->dk >= DK_LOC)
				loc_and_cfi(&c, &u->stmts[i], x->dk);
			continue;
		}
		if (c.loc)
			x->facts |= SF_HAS_LOC;
		if (c.in_proc && c.rsp)
			x->facts |= SF_CFA_RSP;
		c.loc = false;
		if (x->tgt >= 0) {
			int t = x->target;
			bool same = t >= 0 && a->x[t].func == x->func;
			if (same && x->func >= 0) {
				x->nref = a->x[t].refs;
				a->x[t].refs = i;
			}
			if (x->ctl != CTL_CALL)
				x->facts |= !same ? SF_TAIL
				          : t < i ? SF_BACKWARD : SF_FORWARD;
		}
		if (x->ctl == CTL_JCC)
			fusion_facts(a, i);
	}
}

/* Whether the CPU fuses s with a following conditional jump: cmp, test,
 * add, sub, and, inc, dec (with a size suffix or not). */
static bool fusable(const struct altr_stmt *s)
{
	static const struct {
		char name[5];
		uint8_t len;
	} names[] = {{"cmp", 3}, {"test", 4}, {"add", 3}, {"sub", 3},
	             {"and", 3}, {"inc", 3}, {"dec", 3}};
	struct altr_str m = s->insn->mnem;
	/* every distinct instruction asks: most fail on length or first byte */
	if (m.len < 3 || m.len > 5)
		return false;
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		size_t n = names[k].len;
		if (m.p[0] == names[k].name[0] &&
		    (m.len == n || (m.len == n + 1 && strchr("bwlq", m.p[n]))) &&
		    memcmp(m.p, names[k].name, n) == 0)
			return true;
	}
	return false;
}

/* SF_FUSED on a conditional jump right after the instruction that sets
 * its flags (only .loc between, no label), and SF_FUSES_BACK on that
 * instruction when the jump is backward: code a rule inserts before the
 * jump would undo the CPU's macro-fusion of the two, and flag-free code
 * can go before the setter instead.  Neither when the setter names
 * %r12-%r15, which inserted code may use (rules/trace.rules), nor in
 * #APP. */
static void fusion_facts(struct an *a, int i)
{
	struct aux *x = &a->x[i];
	if (x->kind != STMT_INSN || x->ctl != CTL_JCC || !x->fr ||
	    (x->facts & (SF_IN_APP | SF_OPAQUE)))
		return;
	int p = i - 1;
	while (p >= 0 && a->x[p].dk == DK_LOC)
		p--;
	if (p < 0)
		return;
	/* CTL_NONE: no instruction, or one not in the database */
	struct aux *fx = &a->x[p];
	if (fx->kind != STMT_INSN || fx->func != x->func ||
	    fx->ctl == CTL_NONE || (fx->facts & (SF_IN_APP | SF_OPAQUE)) ||
	    (fx->ib & (IB_FUSABLE | IB_RESERVED)) != IB_FUSABLE)
		return;
	x->facts |= SF_FUSED;
	if (x->facts & SF_BACKWARD)
		fx->facts |= SF_FUSES_BACK;
}

/* ------------------------------------------------------ flag liveness */

/* Flags live on arrival at a jump's target, as seen from statement i. */
static uint8_t target_live(const struct an *a, int i)
{
	const struct aux *x = &a->x[i];
	if (x->tgt < 0)
		return FL_STATUS; /* indirect: jump tables, computed goto */
	int t = x->target;
	if (t >= 0 && a->x[t].func == x->func)
		return a->x[t].live;
	if (t >= 0)
		/* another function: the ABI holds at its entry, not inside */
		return (a->x[t].bits & AX_START) ? 0 : FL_STATUS;
	return (x->bits & AX_EXTERN) ? 0 : FL_STATUS;
}

/* Flags live before statement i, given those live at the next statement
 * of the function; fills in the instruction's in/out sets. */
static uint8_t transfer(struct an *a, int i, uint8_t next)
{
	struct aux *x = &a->x[i];
	uint8_t out;
	switch ((enum altr_stmtkind)x->kind) {
	case STMT_LABEL:
		if (x->facts & SF_OPAQUE)
			return FL_STATUS;
		return (x->bits & AX_ENTRY) ? FL_STATUS : next;
	case STMT_DIRECTIVE:
		if ((x->facts & SF_OPAQUE) || x->dk == DK_DATA ||
		    x->dk == DK_BARRIER)
			return FL_STATUS;
		return next;
	case STMT_OTHER: {
		/* prefixes of the next insn and "sym = expr" are transparent;
		 * anything else may be code */
		const struct altr_stmt *s = &a->u->stmts[i];
		if (!(x->facts & SF_OPAQUE) &&
		    ((x->facts & SF_PREFIX_ONLY) ||
		     memchr(s->text_p, '=', s->text_len)))
			return next;
		return FL_STATUS;
	}
	case STMT_INSN:
		break;
	}
	switch (x->ctl) {
	case CTL_RET:
	case CTL_NOFALL:
		out = 0;
		break;
	case CTL_JMP:
		out = target_live(a, i);
		break;
	case CTL_JCC:
		out = next | target_live(a, i);
		break;
	case CTL_NONE:
		out = (x->facts & SF_OPAQUE) ? FL_STATUS : next;
		break;
	default:
		out = next;
		break;
	}
	x->live_out = out;
	return (uint8_t)((out & ~x->fw) | x->fr); /* liveness keeps it in live */
}

static void push_work(struct an *a, int *n, int i)
{
	if (i >= 0 && !(a->x[i].bits & AX_QUEUED)) {
		a->x[i].bits |= AX_QUEUED;
		a->work[(*n)++] = i;
	}
}

/* Flags live over f to a fixpoint: a sweep backward over its statements
 * first (straight-line code is then done), then a worklist: a statement
 * whose live set grows requeues its fall-through predecessor and, for a
 * label, the jumps to it (in the sweep, those after it only: the others
 * are still to come).  Sets only grow (6 bits), so the work is linear,
 * and the result is the least fixpoint whatever the order. */
static void liveness(struct an *a, int f)
{
	struct altr_unit *u = a->u;
	const struct altr_func *fn = &u->funcs[f];
	int n = 0;
	for (int i = fn->last; i >= 0; i = a->x[i].prv) {
		struct aux *x = &a->x[i];
		uint8_t l = transfer(a, i, x->nxt >= 0 ? a->x[x->nxt].live
		                                       : FL_STATUS);
		if (l == x->live)
			continue;
		x->live = l;
		if (x->kind == STMT_LABEL)
			for (int j = x->refs; j >= 0; j = a->x[j].nref)
				if (j > i)
					push_work(a, &n, j);
	}
	while (n > 0) {
		int i = a->work[--n];
		struct aux *x = &a->x[i];
		x->bits &= (uint8_t)~AX_QUEUED;
		uint8_t l = transfer(a, i, x->nxt >= 0 ? a->x[x->nxt].live
		                                       : FL_STATUS);
		if (l == x->live)
			continue;
		x->live = l;
		push_work(a, &n, x->prv);
		if (x->kind == STMT_LABEL)
			for (int j = x->refs; j >= 0; j = a->x[j].nref)
				push_work(a, &n, j);
	}
}

/* ------------------------------------------------------------------ all */

static void analyze(struct altr_unit *u, int **funcp, int **targetp,
                    size_t nalloc);

void altr_analyze(struct altr_unit *u)
{
	size_t n = ((size_t)u->nstmts + 1) * sizeof(int);
	int *func, *target;
	analyze(u, &func, &target, n);
	altr_cycles(u, func, target);
	altr_big_free(target, n);
	altr_big_free(func, n);
}

void altr_analyze_into(struct altr_unit *u, int *func, int *target)
{
	analyze(u, &func, &target, 0);
}

/* With nalloc, *funcp and *targetp are allocated here (nalloc bytes
 * each), after the record array: that fits in the block the reader's memo
 * table leaves (read_unit), and the two would split it first. */
static void analyze(struct altr_unit *u, int **funcp, int **targetp,
                    size_t nalloc)
{
	struct an a = {.u = u};
	free(u->funcs);
	u->funcs = NULL;
	u->nfuncs = 0;
	/* the per-statement arrays are big: huge pages, fewer faults; these
	 * two are written before they are read (x below, the worklist as
	 * it fills) */
	size_t nx = ((size_t)u->nstmts + 1) * sizeof *a.x;
	size_t nw = ((size_t)u->nstmts + 1) * sizeof *a.work;
	a.x = altr_big_alloc_raw(nx);
	a.work = altr_big_alloc_raw(nw);
	if (nalloc) {
		*funcp = altr_big_alloc(nalloc);
		*targetp = altr_big_alloc(nalloc);
	}
	int *func = *funcp, *target = *targetp;
	a.x[u->nstmts] = (struct aux){0};
	size_t ntc = ((size_t)u->ninsn_ids + 1) * sizeof *a.tcache;
	a.tcache = altr_big_alloc(ntc);
	/* labels other than numeric ones and gcc's .L<n>, by name: listed
	 * first, then put in a map of the right size (the first of a name
	 * wins) */
	int *lab = a.work, nlab = 0;
	a.nlnum = u->nstmts + 1024;
	a.lnum = altr_big_alloc_sparse((size_t)a.nlnum * sizeof *a.lnum);
	const unsigned mine = SF_BACKWARD | SF_FORWARD | SF_TAIL | SF_HAS_LOC |
	                      SF_CFA_RSP | SF_FUSED | SF_FUSES_BACK | SF_FUNC_ENTRY;
	/* Backward, so that exec_and_followed's walk is this one too; what is
	 * kept per name is the first (the last put). */
	bool exec = false, followed = false;
	for (int i = u->nstmts - 1; i >= 0; i--) {
		const struct altr_stmt *s = &u->stmts[i];
		struct aux *x = &a.x[i];
		*x = (struct aux){.prv = -1, .nxt = -1, .refs = -1,
		                  .func = -1, .target = -1,
		                  .facts = (uint16_t)(s->facts & ~mine),
		                  .kind = (uint8_t)s->kind,
		                  .live_out = FL_STATUS, .tgt = -1};
		if (s->kind == STMT_INSN) {
			classify_insn(x, (s->facts & SF_OPAQUE)
			                 ? altr_analyze_insn_class(s) : u->iclass[s->iid]);
			if (x->tgt >= 0) /* for resolve_target */
				x->target = (int)s->iid;
		} else if (s->kind == STMT_LABEL) {
			/* the name is read here, and its kind kept */
			int n = dotl_number(&a, altr_stmt_name(s));
			x->lk = n >= 0 ? LK_LOCAL
			      : is_numeric_label(altr_stmt_name(s)) ? LK_NUMERIC
			      : is_nonlocal_label(altr_stmt_name(s)) ? LK_NONLOCAL : LK_LOCAL;
			if (n >= 0)
				a.lnum[n] = i + 1;
			else if (x->lk != LK_NUMERIC)
				lab[nlab++] = i;
		} else if (s->kind == STMT_DIRECTIVE) {
			x->dk = (uint8_t)dir_kind(s);
			struct altr_str t = x->dk == DK_TYPE
			                  ? rest_args(altr_stmt_args(s))
			                  : (struct altr_str){"", 0};
			if (str_contains(t, "function") || str_contains(t, "STT_FUNC")) {
				smap_put(&a.typed, first_arg(altr_stmt_args(s)), 1);
				a.any_typed = true;
			}
		}
		exec_and_followed(x, &exec, &followed);
	}
	smap_reserve(&a.labels, (size_t)nlab);
	for (int k = nlab - 1; k >= 0; k--) /* in text order */
		smap_set(&a.labels, altr_stmt_name(&u->stmts[lab[k]]), lab[k], true);
	functions_and_targets(&a);
	branch_facts(&a);
	for (int f = 0; f < u->nfuncs; f++)
		liveness(&a, f);
	for (int i = 0; i < u->nstmts; i++) {
		struct altr_stmt *s = &u->stmts[i];
		const struct aux *x = &a.x[i];
		if (func)
			func[i] = x->func;
		if (target)
			target[i] = x->target;
		s->facts = (s->facts & ~mine) | (x->facts & mine);
		/* (liveness has set live, and transfer live_out, for every
		 * instruction of a function) */
		s->flags_live_in = x->kind == STMT_INSN && x->func >= 0 ? x->live
		                                                          : FL_STATUS;
		s->flags_live_out = x->live_out;
	}
	altr_big_free(a.work, nw);
	altr_big_free(a.x, nx);
	altr_big_free(a.tcache, ntc);
	smap_free(&a.labels);
	altr_big_free(a.lnum, (size_t)a.nlnum * sizeof *a.lnum);
	smap_free(&a.typed);
}
