/*
 * asm.c: reading GNU as (AT&T) assembly into lines and statements.
 *
 * The reader never rejects input: what it does not understand becomes
 * STMT_OTHER and is written back byte for byte.  It tokenizes rather than
 * guessing from columns: strings, character constants, '#' and C comments,
 * ';'-separated statements and labels sharing a line are all split here.
 * It also tracks the context a rule may ask about: inside #APP, inside an
 * executable section, inside a region altr must not touch (.intel_syntax,
 * .code16/.code32, macro and repeat bodies).  Macros and repeats are
 * expanded before reading (macro.c); only those it could not expand reach
 * the reader, which passes them through.
 */
#include "altr.h"

#include <emmintrin.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <strings.h>

/* ---------------------------------------------------------- small helpers */

/* Character classes as <ctype.h> has them in the C locale (altr never
 * calls setlocale), by table: the ctype calls were a tenth of reading. */
enum { C_SPACE = 1, C_DIGIT = 2, C_ALPHA = 4, C_IDENT = 8, C_IDSTART = 16,
       C_SCAN = 32, C_SPLIT = 64, C_MNEM = 128 };
static uint8_t cclass[256];

static void init_cclass(void)
{
	if (cclass['a'])
		return;
	for (int c = 0; c < 256; c++) {
		uint8_t k = 0;
		if (c == ' ' || (c >= '\t' && c <= '\r'))
			k |= C_SPACE;
		if (c >= '0' && c <= '9')
			k |= C_DIGIT | C_IDENT | C_MNEM;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			k |= C_ALPHA | C_IDENT | C_IDSTART | C_MNEM;
		if (c == '_' || c == '.' || c == '$' || c == '@')
			k |= C_IDENT;
		if (c == '_' || c == '.' || c == '$')
			k |= C_IDSTART;
		if (c == '_' || c == '.' || c == '{' || c == '}')
			k |= C_MNEM;
		/* what read_line stops at */
		if (c == '"' || c == '\'' || c == '#' || c == '/' || c == ';')
			k |= C_SCAN;
		/* what split_operands stops at */
		if (c == '"' || c == '\'' || c == '(' || c == ')' || c == '{' ||
		    c == '}' || c == ',')
			k |= C_SPLIT;
		cclass[c] = k;
	}
}

#define IS(c, k) (cclass[(unsigned char)(c)] & (k))

/* The lines, in one pass before reading: the input is classified 64 bytes
 * at a time into bit masks (SSE2 is x86-64's baseline), newlines and the
 * bytes that make a line need the full reader (C_SCAN bytes and ':');
 * each line's start and whether it is plain (holds none of them) are then
 * a few bit operations.  Byte by byte, finding these was a fifth of
 * reading; a scan per line, a sixth. */
#define LINE_PLAIN 0x80000000u /* in altr_line.first until the line is read */

/* Bit i: byte i of the 64 at p is a newline (*nl) or special. */
static void classify64(const char *p, uint64_t *nl, uint64_t *sp)
{
	/* '"' '#' as c|1 == '#'; ':' ';' as c|1 == ';'; '\'' '/' as c|8 == '/' */
	const __m128i kn = _mm_set1_epi8('\n'), k1 = _mm_set1_epi8(1),
	              k8 = _mm_set1_epi8(8), kh = _mm_set1_epi8('#'),
	              ks = _mm_set1_epi8(';'), kl = _mm_set1_epi8('/');
	uint64_t n = 0, s = 0;
	for (int q = 0; q < 4; q++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * q));
		__m128i v1 = _mm_or_si128(v, k1);
		__m128i x = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v1, kh), _mm_cmpeq_epi8(v1, ks)),
			_mm_cmpeq_epi8(_mm_or_si128(v, k8), kl));
		n |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, kn)) << (16 * q);
		s |= (uint64_t)(unsigned)_mm_movemask_epi8(x) << (16 * q);
	}
	*nl = n;
	*sp = s;
}

/* 16 bytes at a time: a memchr per line was a twentieth of reading. */
static size_t count_newlines(const char *p, size_t n)
{
	const __m128i nl = _mm_set1_epi8('\n');
	size_t c = 0, i = 0;
	while (i + 16 <= n) {
		/* per byte lane, up to 255 counts (a match is -1), then summed */
		__m128i acc = _mm_setzero_si128();
		for (int k = 0; k < 255 && i + 16 <= n; k++, i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, nl));
		}
		__m128i sum = _mm_sad_epu8(acc, _mm_setzero_si128());
		c += (size_t)_mm_cvtsi128_si32(sum) +
		     (size_t)_mm_cvtsi128_si32(_mm_srli_si128(sum, 8));
	}
	for (; i < n; i++)
		c += p[i] == '\n';
	return c;
}

/* Fills lines[] (room for every line and one more) with each line's
 * start, and LINE_PLAIN in .first when it holds no special byte; returns
 * how many.  The one more starts where a next line would (one past the
 * end of the input when the last line has no newline): a line ends just
 * before the next one starts. */
static size_t scan_lines(const char *src, size_t len, struct altr_line *lines)
{
	size_t n = 0, start = 0;
	bool dirty = false; /* the line being scanned had a special byte */
	for (size_t base = 0; base < len; base += 64) {
		uint64_t nl, sp;
		if (base + 64 <= len) {
			classify64(src + base, &nl, &sp);
		} else { /* never read past the input */
			char tail[64];
			memset(tail, 0, sizeof tail);
			memcpy(tail, src + base, len - base);
			classify64(tail, &nl, &sp);
		}
		while (nl) {
			uint64_t lb = nl & -nl;
			bool plain = !dirty && !(sp & (lb - 1));
			lines[n].start = (uint32_t)start;
			lines[n].first = plain ? LINE_PLAIN : 0;
			n++;
			start = base + (size_t)__builtin_ctzll(nl) + 1;
			sp &= ~((lb << 1) - 1); /* the bytes after the newline */
			dirty = false;
			nl ^= lb;
		}
		dirty |= sp != 0;
	}
	if (start < len) {
		lines[n].start = (uint32_t)start;
		lines[n].first = dirty ? 0 : LINE_PLAIN;
		n++;
		start = len + 1;
	}
	lines[n].start = (uint32_t)start;
	lines[n].first = 0;
	return n;
}

static struct altr_str mkstr(const char *p, size_t n)
{
	struct altr_str s = {p, n};
	return s;
}

static struct altr_str trim(struct altr_str s)
{
	while (s.len && IS(s.p[0], C_SPACE))
		s.p++, s.len--;
	while (s.len && IS(s.p[s.len - 1], C_SPACE))
		s.len--;
	return s;
}

/* Whether a[0..n) and b[0..n) are equal, for the memos' short texts:
 * words (the last overlapping the ones before) read within them, not a
 * call (memcmp was a tenth of a lookup). */
static inline bool text_eq(const char *a, const char *b, size_t n)
{
	if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8)
			if (altr_ld8(a + i) != altr_ld8(b + i))
				return false;
		return altr_ld8(a + n - 8) == altr_ld8(b + n - 8);
	}
	if (n >= 4)
		return altr_ld4(a) == altr_ld4(b) && altr_ld4(a + n - 4) == altr_ld4(b + n - 4);
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* Skips a string literal starting at p[i] == '"'; returns index after it. */
static size_t skip_string(const char *p, size_t i, size_t end)
{
	for (i++; i < end; i++) {
		if (p[i] == '\\' && i + 1 < end)
			i++;
		else if (p[i] == '"')
			return i + 1;
	}
	return end;
}

/* ------------------------------------------------------------- prefixes */

static const struct {
	const char *name;
	unsigned bit;
} prefix_words[] = {
	{"lock", PFX_LOCK},     {"rep", PFX_REP},         {"repe", PFX_REP},
	{"repz", PFX_REP},      {"repne", PFX_REPNE},     {"repnz", PFX_REPNE},
	{"data16", PFX_DATA16}, {"data32", PFX_OTHER},    {"addr32", PFX_ADDR32},
	{"addr16", PFX_OTHER},  {"notrack", PFX_NOTRACK}, {"rex", PFX_REX},
	{"rex64", PFX_REX},     {"rex.w", PFX_REX},       {"rex.b", PFX_REX},
	{"rex.x", PFX_REX},     {"rex.r", PFX_REX},       {"rex.wb", PFX_REX},
	{"rex.wx", PFX_REX},    {"rex.wr", PFX_REX},      {"rex.wxb", PFX_REX},
	{"cs", PFX_SEG},        {"ds", PFX_SEG},          {"es", PFX_SEG},
	{"fs", PFX_SEG},        {"gs", PFX_SEG},          {"ss", PFX_SEG},
	{"xacquire", PFX_OTHER}, {"xrelease", PFX_OTHER}, {"bnd", PFX_OTHER},
	{"{vex}", PFX_OTHER},   {"{vex2}", PFX_OTHER},    {"{vex3}", PFX_OTHER},
	{"{evex}", PFX_OTHER},  {"{load}", PFX_OTHER},    {"{store}", PFX_OTHER},
	{"{disp8}", PFX_OTHER}, {"{disp32}", PFX_OTHER},  {"{nooptimize}", PFX_OTHER},
};

/* Called for the first word of every statement: reject most words by
 * length and first letter before comparing names. */
static unsigned prefix_bit(struct altr_str w)
{
	static uint8_t first[256]; /* 1 + index of the first row with that
	                              lowercase initial, or 0 */
	static uint16_t lens[256]; /* by initial: bit n set if a row is n
	                              bytes long (mnemonics mostly are not) */
	if (!first['l'])
		for (size_t i = sizeof prefix_words / sizeof prefix_words[0]; i-- > 0;) {
			unsigned char c = (unsigned char)prefix_words[i].name[0];
			first[c] = (uint8_t)(i + 1);
			lens[c] |= (uint16_t)(1u << strlen(prefix_words[i].name));
		}
	if (w.len < 2 || w.len > 12)
		return 0;
	unsigned char c0 = (unsigned char)w.p[0];
	if (c0 >= 'A' && c0 <= 'Z')
		c0 += 'a' - 'A';
	if (!(lens[c0] & (1u << w.len)))
		return 0;
	for (size_t i = first[c0] - 1u; i < sizeof prefix_words / sizeof prefix_words[0]; i++) {
		const char *n = prefix_words[i].name;
		if (n[0] == c0 && strlen(n) == w.len && strncasecmp(w.p, n, w.len) == 0)
			return prefix_words[i].bit;
	}
	return 0;
}

/* Next whitespace-delimited word of s starting at *i. */
static struct altr_str next_word(struct altr_str s, size_t *i)
{
	/* ';' separates too: "lock ; cmpxchg" arrives as one statement. */
	size_t k = *i;
	while (k < s.len && (IS(s.p[k], C_SPACE) || s.p[k] == ';'))
		k++;
	size_t b = k;
	while (k < s.len && !IS(s.p[k], C_SPACE) && s.p[k] != ';')
		k++;
	*i = k;
	return mkstr(s.p + b, k - b);
}

/* True if the statement text consists only of prefix words (any: some
 * came before s). */
static bool only_prefixes(struct altr_str s, bool any)
{
	size_t i = 0;
	for (;;) {
		struct altr_str w = next_word(s, &i);
		if (!w.len)
			return any;
		if (!prefix_bit(w))
			return false;
		any = true;
	}
}

/* -------------------------------------------------------------- operands */

/* Splits s at top-level commas (outside (), {} and strings). */
static int split_operands(struct altr_str s, struct altr_str *out, int max)
{
	int n = 0, depth = 0;
	size_t b = 0;
	for (size_t i = 0; i <= s.len; i++) {
		char c = ',';
		if (i < s.len) {
			c = s.p[i];
			if (!IS(c, C_SPLIT))
				continue;
			if (c == '"') {
				i = skip_string(s.p, i, s.len) - 1;
				continue;
			}
			if (c == '\'' && i + 1 < s.len) {
				i++;
				continue;
			}
		}
		if (c == '(' || c == '{')
			depth++;
		else if ((c == ')' || c == '}') && depth > 0)
			depth--;
		else if (c == ',' && (depth == 0 || i == s.len)) {
			if (n == max)
				return -1;
			out[n++] = trim(mkstr(s.p + b, i - b));
			b = i + 1;
		}
	}
	return n;
}

/* Register operand "%name" (whole string); -1 if it is not one. */
static int parse_reg(struct altr_str s)
{
	s = trim(s);
	if (s.len < 2 || s.p[0] != '%')
		return -1;
	return altr_reg_lookup(s.p + 1, s.len - 1);
}

/* Parses "(base,index,scale)" contents; false if not register syntax. */
static bool parse_bis(struct altr_str in, struct altr_operand *op)
{
	struct altr_str part[3];
	int n = split_operands(in, part, 3);
	if (n < 1)
		return false;
	if (part[0].len) {
		if ((op->base = parse_reg(part[0])) < 0)
			return false;
	}
	if (n >= 2 && part[1].len && (op->index = parse_reg(part[1])) < 0)
		return false;
	if (n == 3 && part[2].len == 1 && (part[2].p[0] == '1' ||
	    part[2].p[0] == '2' || part[2].p[0] == '4' || part[2].p[0] == '8')) {
		op->scale = (uint8_t)(part[2].p[0] - '0');
	} else if (n == 3 && part[2].len) {
		char buf[8];
		if (part[2].len >= sizeof buf)
			return false;
		memcpy(buf, part[2].p, part[2].len);
		buf[part[2].len] = 0;
		char *end;
		long sc = strtol(buf, &end, 0);
		if (*end || (sc != 1 && sc != 2 && sc != 4 && sc != 8))
			return false;
		op->scale = (uint8_t)sc;
	}
	return n == 1 ? part[0].len > 0 : true;
}

/* d lies in op->text (altr_op_disp). */
static void set_disp(struct altr_operand *op, struct altr_str d)
{
	op->disp_off = (uint32_t)(d.p - op->text.p);
	op->disp_len = (uint32_t)d.len;
}

static void parse_operand(struct altr_str s, struct altr_operand *op)
{
	*op = (struct altr_operand){.reg = -1, .seg = -1, .base = -1,
	                            .index = -1, .scale = 1};
	s = trim(s);
	if (s.len && s.p[0] == '*') {
		op->star = true;
		s = trim(mkstr(s.p + 1, s.len - 1));
	}
	/* AVX-512 decorations trail the operand: %zmm0{%k1}{z}. */
	if (s.len && s.p[s.len - 1] == '}' && s.p[0] != '{') {
		size_t b = s.len, first = s.len;
		while (b > 0 && s.p[b - 1] == '}') {
			size_t j = b - 1;
			while (j > 0 && s.p[j] != '{')
				j--;
			if (s.p[j] != '{')
				break;
			b = first = j;
			/* clang writes "%ymm1 {%k1} {z}" with blanks between */
			while (b > 0 && IS(s.p[b - 1], C_SPACE))
				b--;
		}
		const char *deco = s.p + first;
		op->deco_len = (uint32_t)(s.len - first);
		s = trim(mkstr(s.p, b));
		op->deco_off = (uint32_t)(deco - s.p);
	}
	op->text = s;
	if (s.len && s.p[0] == '$') {
		op->kind = OPK_IMM;
		return;
	}
	if (s.len && s.p[0] == '{') { /* {rn-sae} and friends */
		op->kind = OPK_IMM;
		return;
	}
	int r = parse_reg(s);
	if (r >= 0) {
		op->kind = OPK_REG;
		op->reg = (int16_t)r;
		return;
	}
	op->kind = OPK_MEM;
	/* Segment override: %fs:... */
	if (s.len > 4 && s.p[0] == '%' && s.p[3] == ':') {
		int sr = altr_reg_lookup(s.p + 1, 2);
		if (sr >= 0 && altr_regs[sr].cls == RC_SEG) {
			op->seg = (int16_t)sr;
			s = trim(mkstr(s.p + 4, s.len - 4));
		}
	}
	/* A trailing "(...)" holding registers is base/index/scale; any other
	 * parenthesis belongs to the displacement expression. */
	if (s.len && s.p[s.len - 1] == ')') {
		size_t depth = 0, j = s.len;
		while (j-- > 0) {
			if (s.p[j] == ')')
				depth++;
			else if (s.p[j] == '(' && --depth == 0)
				break;
		}
		if (depth == 0) {
			struct altr_str inner = trim(mkstr(s.p + j + 1, s.len - j - 2));
			if (!inner.len || inner.p[0] == '%' || inner.p[0] == ',') {
				struct altr_operand tmp = *op;
				if (parse_bis(inner, &tmp)) {
					*op = tmp;
					set_disp(op, trim(mkstr(s.p, j)));
					return;
				}
			}
		}
	}
	set_disp(op, s);
}

/* altr_asm_parse_insn after its first word: w, ending at text[i], with
 * prefix bit `bit` (0: w is the mnemonic); text is trimmed. */
static bool parse_insn_from(struct altr_str text, size_t i, struct altr_str w,
                            unsigned bit, struct altr_insn *in,
                            struct altr_operand ops[ALTR_MAXOPS])
{
	*in = (struct altr_insn){.ops = ops};
	while (bit) {
		in->prefixes |= (uint16_t)bit;
		w = next_word(text, &i);
		if (!w.len)
			return false;
		bit = prefix_bit(w);
	}
	if (!w.len || !(IS(w.p[0], C_ALPHA) || w.p[0] == '{'))
		return false;
	for (size_t k = 0; k < w.len; k++)
		if (!IS(w.p[k], C_MNEM))
			return false;
	in->mnem = w;
	struct altr_str rest = trim(mkstr(text.p + i, text.len - i));
	if (rest.len) {
		struct altr_str parts[ALTR_MAXOPS];
		int n = split_operands(rest, parts, ALTR_MAXOPS);
		if (n < 0)
			return false;
		for (int k = 0; k < n; k++) {
			if (!parts[k].len)
				return false;
			parse_operand(parts[k], &ops[k]);
		}
		in->nops = n;
	}
	altr_insn_decode(in);
	return true;
}

bool altr_asm_parse_insn(struct altr_str text, struct altr_insn *in,
                         struct altr_operand ops[ALTR_MAXOPS])
{
	init_cclass();
	text = trim(text);
	size_t i = 0;
	struct altr_str w = next_word(text, &i);
	if (!w.len) {
		*in = (struct altr_insn){.ops = ops};
		return false;
	}
	return parse_insn_from(text, i, w, prefix_bit(w), in, ops);
}

/* ------------------------------------------------------- reading context */

/* Compilers repeat instructions: most statements of a compiler's output
 * were read before with the same text (docs/perf.md).  Reading depends on
 * the text alone, so the reader remembers what each text was, and
 * statements of the same text share one instruction, whose slices lie in
 * the first one's text (equal bytes).  A shared instruction is never
 * changed: one that takes a prefix statement's prefixes gets its own copy.
 * The emitter relies on this: one instruction, one text. */
enum { M_NONE, M_PREFIXES, M_OTHER, M_INSN,
       M_DIR /* a directive that leaves the context alone; iid: its
                name_len (directive texts never reach the insn path) */ };
enum { PF_AHEAD = 4, PF_RING = 8 }; /* lines read ahead; the ring of their
                                        hints (a power of two, above it) */
#define MEMO_INLINE 20
struct memo {
	uint32_t hash;
	uint16_t len;             /* 0: a free slot (no text is empty); longer
	                             texts are not remembered */
	uint8_t what;             /* M_* */
	bool unknown;             /* M_INSN: insn->desc is NULL */
	char text[MEMO_INLINE];   /* the text, if it is this short: looking
	                             at the first occurrence was a cache miss */
	uint32_t iid;             /* M_INSN: the instruction's number;
	                             M_DIR: the directive's name_len */
	const char *p;            /* the text it was read from */
	struct altr_insn *insn;
};
_Static_assert(sizeof(struct memo) == 48, "a memo entry is 48 bytes");

/* A branch or call to gcc's label .L<n> ("jne\t.L5"; a large share of the
 * instruction texts, docs/perf.md) reads as another of the same text
 * before the label did: its instruction is that one's, but for the label
 * (reading it depends on "." "L" and digits alone), so it is copied, not
 * parsed. */
struct jshape {
	const char *p;            /* the text before the label; NULL: free */
	uint32_t len, hash;
	const struct altr_insn *insn; /* read from p's statement, whose label
	                             is its one operand */
};

struct reader {
	struct altr_unit *u;
	int cap_lines, cap_stmts;
	bool in_app;
	bool in_comment;          /* inside a C comment spanning lines */
	int opaque_depth;         /* .macro/.rept nesting */
	bool intel, code32;       /* .intel_syntax / .code16/.code32 in force */
	bool warned_intel, warned_code32;
	int macro_line;           /* of the first .macro/.rept/.irp/.irpc */
	bool exec;                /* current section holds code */
	bool prev_exec, stack_exec[64];
	int stack_n;
	struct altr_table memo;     /* of struct memo: statement text -> what
	                             it was.  Its first size: about what one
	                             instruction text in four lines needs
	                             (each doubling faulted in a new table);
	                             its first room: the statements' bytes
	                             (see read_unit) */
	struct memo scratch;      /* for a text too long for the memo */
	struct altr_table jshapes;  /* of struct jshape: branches to .L<n> by
	                             the text before */
	bool colon;               /* the line being read may hold a label */
	bool plain;               /* it holds no special byte (LINE_PLAIN) */
	bool fast;                /* plain lines may take read_unit's fast
	                             path: no C comment open, not opaque */
	uint16_t ctx;             /* SF_IN_APP, SF_EXEC, SF_OPAQUE in force */
	int lineno;               /* the line being read (of src, 1-based) */
	struct {
		const char *p;
		size_t len;
		uint32_t hash;
	} pf[PF_RING];           /* this and the next plain lines' trimmed
	                             texts, by line number */
};

/* The key of a memo or jshape lookup. */
struct text_key {
	struct altr_str t;
	uint32_t hash;
};

static bool memo_stop(const void *ent, const void *key)
{
	const struct memo *e = ent;
	const struct text_key *k = key;
	return !e->len ||
	       (e->hash == k->hash && e->len == k->t.len &&
	        text_eq(k->t.len <= MEMO_INLINE ? e->text : e->p, k->t.p, k->t.len));
}

static uint32_t memo_hash(const void *ent)
{
	return ((const struct memo *)ent)->hash;
}

static bool memo_used(const void *ent)
{
	return ((const struct memo *)ent)->len != 0;
}

static struct memo *memo_slot(const struct reader *r, uint32_t h,
                              struct altr_str t)
{
	struct text_key key = {t, h};
	return altr_table_slot(&r->memo, sizeof(struct memo), h, &key, memo_stop);
}

/* Makes the table (bigger) if it has no room for one more entry. */
static void memo_reserve(struct reader *r)
{
	altr_table_reserve(&r->memo, 1, memo_hash, memo_used);
}

/* The entry for t (what == M_NONE if new), with room to fill it in. */
static struct memo *memo_find(struct reader *r, struct altr_str t)
{
	memo_reserve(r);
	uint32_t h;
	const int k = r->lineno & (PF_RING - 1);
	if (t.p == r->pf[k].p && t.len == r->pf[k].len)
		h = r->pf[k].hash;
	else
		h = altr_hash(t.p, t.len);
	struct memo *e = memo_slot(r, h, t);
	if (!e->len) {
		*e = (struct memo){.hash = h, .len = (uint16_t)t.len, .p = t.p};
		if (t.len <= MEMO_INLINE)
			memcpy(e->text, t.p, t.len);
	}
	return e;
}

/* Gives s's instruction (new, decoded) the next number (altr_stmt.iid)
 * and its class. */
static void new_iid(struct altr_unit *u, struct altr_stmt *s)
{
	ALTR_ASSERT(u->ninsn_ids < UINT32_MAX);
	if (u->ninsn_ids == u->cap_iclass) {
		size_t n = u->cap_iclass ? 2 * u->cap_iclass : 4096;
		u->iclass = altr_big_realloc(u->iclass, u->cap_iclass * sizeof *u->iclass,
		                             n * sizeof *u->iclass);
		u->ilabel = altr_big_realloc(u->ilabel, u->cap_iclass * sizeof *u->ilabel,
		                             n * sizeof *u->ilabel);
		u->cap_iclass = n;
	}
	s->iid = u->ninsn_ids++;
	u->iclass[s->iid] = altr_analyze_insn_class(s);
	u->ilabel[s->iid] = altr_analyze_insn_label(s, u->iclass[s->iid]);
}

static void memo_set(struct reader *r, struct memo *e, int what,
                     struct altr_insn *in)
{
	e->what = (uint8_t)what;
	e->insn = in;
	e->unknown = in && !in->desc;
	r->memo.n++;
}

static bool section_is_exec(struct altr_str args)
{
	struct altr_str parts[4];
	int n = split_operands(args, parts, 4);
	if (n < 1)
		return false;
	struct altr_str name = parts[0];
	if (name.len && name.p[0] == '"' && name.len >= 2)
		name = mkstr(name.p + 1, name.len - 2);
	if (n >= 2 && parts[1].len && parts[1].p[0] == '"')
		return memchr(parts[1].p, 'x', parts[1].len) != NULL;
	return altr_str_starts(name, ".text") || altr_str_eq(name, ".init") ||
	       altr_str_eq(name, ".fini") || altr_str_starts(name, ".gnu.linkonce.t");
}

static void set_section(struct reader *r, bool exec)
{
	r->prev_exec = r->exec;
	r->exec = exec;
}

/* Updates the context for a directive; whether it is one that may
 * change it (the others read alike anywhere: the memo keeps them). */
/* d is the directive lit (any case); the length and the letter after the
 * dot are compared first (lit is lowercase). */
#define DIR_IS(d, lit)                                                       \
	((d).len == sizeof(lit) - 1 && ((d).p[1] | 0x20) == (lit)[1] &&         \
	 strncasecmp((d).p, lit, sizeof(lit) - 1) == 0)

static bool directive_context(struct reader *r, struct altr_stmt *s)
{
	struct altr_str d = altr_stmt_name(s);
	const char *path = r->u->path;
	if (d.len < 4 || d.len > 13) /* none of the names below */
		return false;
	if (DIR_IS(d, ".text")) {
		set_section(r, true);
	} else if (DIR_IS(d, ".data") || DIR_IS(d, ".bss")) {
		set_section(r, false);
	} else if (DIR_IS(d, ".section")) {
		set_section(r, section_is_exec(altr_stmt_args(s)));
	} else if (DIR_IS(d, ".pushsection")) {
		if (r->stack_n < 64)
			r->stack_exec[r->stack_n++] = r->exec;
		set_section(r, section_is_exec(altr_stmt_args(s)));
	} else if (DIR_IS(d, ".popsection")) {
		if (r->stack_n > 0)
			set_section(r, r->stack_exec[--r->stack_n]);
	} else if (DIR_IS(d, ".previous")) {
		bool t = r->prev_exec;
		r->prev_exec = r->exec;
		r->exec = t;
	} else if (DIR_IS(d, ".intel_syntax")) {
		r->intel = true;
		if (!r->warned_intel)
			altr_warn(path, s->line, ".intel_syntax region passed through "
			                         "uninstrumented");
		r->warned_intel = true;
	} else if (DIR_IS(d, ".att_syntax")) {
		r->intel = false;
	} else if (DIR_IS(d, ".code16") || DIR_IS(d, ".code32")) {
		r->code32 = true;
		if (!r->warned_code32)
			altr_warn(path, s->line, "%.*s region passed through "
			          "uninstrumented", (int)d.len, d.p);
		r->warned_code32 = true;
	} else if (DIR_IS(d, ".code64")) {
		r->code32 = false;
	} else if (DIR_IS(d, ".macro") || DIR_IS(d, ".rept") ||
	           DIR_IS(d, ".irp") || DIR_IS(d, ".irpc")) {
		/* altr_asm_read expands them and reads again, or warns */
		r->opaque_depth++;
		if (!r->macro_line)
			r->macro_line = s->line;
	} else if (DIR_IS(d, ".endm") || DIR_IS(d, ".endr")) {
		if (r->opaque_depth > 0)
			r->opaque_depth--;
		s->facts |= SF_OPAQUE;
	} else {
		return false;
	}
	return true;
}

/* Instructions live in chunks freed together, each followed by its own
 * operands only: one malloc per instruction was a fifth of the reading
 * time, and room for five operands each most of the page faults. */
#define CHUNK_BYTES (2u << 20) /* one huge page */
struct insn_chunk {
	struct insn_chunk *next;
	size_t used;
	_Alignas(16) char mem[];
};

static struct altr_insn *new_insn(struct altr_unit *u, const struct altr_insn *in)
{
	size_t n = sizeof *in + (size_t)in->nops * sizeof *in->ops;
	n = (n + 15) & ~(size_t)15;
	struct insn_chunk *c = u->arena;
	if (!c || c->used + n > CHUNK_BYTES - sizeof *c) {
		c = altr_big_alloc_sparse(CHUNK_BYTES);
		c->next = u->arena;
		c->used = 0;
		u->arena = c;
	}
	struct altr_insn *x = (struct altr_insn *)(void *)(c->mem + c->used);
	c->used += n;
	*x = *in;
	x->ops = (struct altr_operand *)(x + 1);
	memcpy(x->ops, in->ops, (size_t)in->nops * sizeof *in->ops);
	return x;
}

static struct altr_stmt *new_stmt(struct reader *r)
{
	struct altr_unit *u = r->u;
	if ((size_t)u->nstmts == u->cap_stmts) {
		size_t n = u->cap_stmts ? 2 * u->cap_stmts : 4096;
		u->stmts = altr_big_realloc(u->stmts, u->cap_stmts * sizeof *u->stmts,
		                            n * sizeof *u->stmts);
		u->cap_stmts = n;
	}
	struct altr_stmt *s = &u->stmts[u->nstmts++];
	/* field by field: the compound literal became a slow "rep stos" */
	s->text_p = NULL;
	s->insn = NULL;
	s->text_len = 0;
	s->line = 0;
	s->iid = 0; /* and name_len */
	s->facts = 0;
	s->kind = STMT_LABEL;
	s->flags_live_in = s->flags_live_out = 0;
	return s;
}

/* Splits off a leading "label:" (identifier, numeric, or quoted); returns
 * its length including ':' or 0. */
static size_t label_len(struct altr_str t)
{
	size_t i = 0;
	if (!t.len)
		return 0;
	if (t.p[0] == '"') {
		i = skip_string(t.p, 0, t.len);
	} else if (IS(t.p[0], C_DIGIT)) {
		while (i < t.len && IS(t.p[i], C_DIGIT))
			i++;
	} else if (IS(t.p[0], C_IDSTART)) {
		while (i < t.len && IS(t.p[i], C_IDENT))
			i++;
	} else {
		return 0;
	}
	if (i < t.len && t.p[i] == ':' && !(i + 1 < t.len && t.p[i + 1] == ':'))
		return i + 1;
	return 0;
}

/* Moves the slices of a copied instruction by d bytes, to its own text. */
static void rebase(struct altr_insn *in, ptrdiff_t d)
{
	in->mnem.p += d;
	for (int k = 0; k < in->nops; k++) {
		struct altr_operand *op = &in->ops[k];
		if (op->text.p)
			op->text.p += d;
	}
}

/* Reads statement text t (trimmed, not a directive, not opaque) into s;
 * returns M_PREFIXES, M_OTHER or M_INSN (then s->insn is set). */
static int read_insn(struct reader *r, struct altr_stmt *s, struct altr_str t)
{
	/* The first word: a prefix, an assignment's symbol or the mnemonic. */
	size_t i = 0;
	struct altr_str w = next_word(t, &i);
	unsigned bit = w.len ? prefix_bit(w) : 0;
	if (bit && only_prefixes(mkstr(t.p + i, t.len - i), true)) {
		s->kind = STMT_OTHER;
		s->facts |= SF_PREFIX_ONLY;
		return M_PREFIXES;
	}
	/* "sym = expr" assignments. */
	struct altr_str rest = trim(mkstr(t.p + i, t.len - i));
	if (rest.len && rest.p[0] == '=' && !(rest.len > 1 && rest.p[1] == '=')) {
		s->kind = STMT_OTHER;
		return M_OTHER;
	}
	struct altr_insn in;
	struct altr_operand ops[ALTR_MAXOPS];
	if (!w.len || !parse_insn_from(t, i, w, bit, &in, ops)) {
		s->kind = STMT_OTHER;
		return M_OTHER;
	}
	s->kind = STMT_INSN;
	s->insn = new_insn(r->u, &in);
	return M_INSN;
}

/* The length of t before a last word .L<digits> after a blank, or 0. */
static size_t dotl_shape(struct altr_str t)
{
	size_t i = t.len;
	while (i > 0 && t.p[i - 1] >= '0' && t.p[i - 1] <= '9')
		i--;
	if (i == t.len || i < 4 || t.p[i - 1] != 'L' || t.p[i - 2] != '.' ||
	    (t.p[i - 3] != ' ' && t.p[i - 3] != '\t'))
		return 0;
	return i - 2;
}

static bool jshape_stop(const void *ent, const void *key)
{
	const struct jshape *e = ent;
	const struct text_key *k = key;
	return !e->p || (e->hash == k->hash && e->len == k->t.len &&
	                 text_eq(e->p, k->t.p, k->t.len));
}

static uint32_t jshape_hash(const void *ent)
{
	return ((const struct jshape *)ent)->hash;
}

static bool jshape_used(const void *ent)
{
	return ((const struct jshape *)ent)->p != NULL;
}

static struct jshape *jshape_slot(const struct reader *r, const char *p,
                                  size_t len, uint32_t h)
{
	struct text_key key = {{p, len}, h};
	return altr_table_slot(&r->jshapes, sizeof(struct jshape), h, &key,
	                     jshape_stop);
}

/* The instruction of text t (new to the memo), copied from one read
 * before whose text differs only in its .L label, or NULL. */
static struct altr_insn *jshape_insn(struct reader *r, struct altr_str t)
{
	size_t n = dotl_shape(t);
	if (!n || !r->jshapes.cap)
		return NULL;
	struct jshape *e = jshape_slot(r, t.p, n, altr_hash(t.p, n));
	if (!e->p)
		return NULL;
	struct altr_insn *in = new_insn(r->u, e->insn);
	rebase(in, t.p - e->p);
	in->ops[0].text.len = t.len - n;
	in->ops[0].disp_len = (uint32_t)(t.len - n);
	return in;
}

/* Keeps in, just read from text t, for the texts that differ from t
 * only in its .L label, if in is a branch or call to it. */
static void jshape_keep(struct reader *r, struct altr_str t,
                        const struct altr_insn *in)
{
	size_t n = dotl_shape(t);
	const struct altr_operand *op = &in->ops[0];
	if (!n || in->nops != 1 || op->kind != OPK_TARGET || op->star ||
	    op->deco_len || op->text.p != t.p + n ||
	    op->text.len != t.len - n || op->disp_off ||
	    op->disp_len != t.len - n)
		return;
	altr_table_reserve(&r->jshapes, 1, jshape_hash, jshape_used);
	uint32_t h = altr_hash(t.p, n);
	struct jshape *e = jshape_slot(r, t.p, n, h);
	if (!e->p) {
		*e = (struct jshape){t.p, (uint32_t)n, h, in};
		r->jshapes.n++;
	}
}

static void add_piece(struct reader *r, struct altr_str t, int line)
{
	for (;;) {
		t = trim(t);
		if (!t.len)
			return;
		size_t ll = r->colon ? label_len(t) : 0;
		if (!ll)
			break;
		struct altr_stmt *s = new_stmt(r);
		s->kind = STMT_LABEL;
		s->line = line;
		s->text_p = t.p;
		s->text_len = (uint32_t)ll;
		s->name_len = (uint32_t)(ll - 1);
		s->facts = (r->in_app ? SF_IN_APP : 0) | (r->exec ? SF_EXEC : 0) |
		           ((r->intel || r->code32 || r->opaque_depth) ? SF_OPAQUE : 0);
		t = mkstr(t.p + ll, t.len - ll);
	}
	struct altr_stmt *s = new_stmt(r);
	s->line = line;
	s->text_p = t.p;
	s->text_len = (uint32_t)t.len;
	unsigned ctx = (r->in_app ? SF_IN_APP : 0) | (r->exec ? SF_EXEC : 0) |
	               ((r->intel || r->code32 || r->opaque_depth) ? SF_OPAQUE : 0);
	s->facts = ctx;
	if (t.p[0] == '.' && !(t.len > 1 && IS(t.p[1], C_DIGIT))) {
		size_t i = 0;
		s->kind = STMT_DIRECTIVE;
		struct altr_str name = next_word(t, &i);
		ALTR_ASSERT(name.p == t.p); /* altr_stmt_name */
		s->name_len = (uint32_t)name.len;
		/* ".set x, 1" is a directive; ".x = 1" an assignment. */
		struct altr_str rest = trim(mkstr(t.p + i, t.len - i));
		if (rest.len && rest.p[0] == '=') {
			s->kind = STMT_OTHER;
			return;
		}
		/* (t is trimmed: rest ends where it does; altr_stmt_args finds
		 * it again after the name) */
		if (directive_context(r, s)) {
			s->facts |= (r->intel || r->code32 || r->opaque_depth) ? SF_OPAQUE : 0;
		} else if (r->plain && t.len <= UINT16_MAX) {
			struct memo *e = memo_find(r, t);
			if (e->what == M_NONE) {
				memo_set(r, e, M_DIR, NULL);
				e->iid = s->name_len;
			}
		}
		return;
	}
	if (ctx & SF_OPAQUE) {
		s->kind = STMT_OTHER;
		return;
	}
	struct memo *e = &r->scratch;
	if (t.len <= UINT16_MAX)
		e = memo_find(r, t);
	else
		*e = (struct memo){0};
	if (e->what == M_PREFIXES) {
		s->kind = STMT_OTHER;
		s->facts |= SF_PREFIX_ONLY;
		return;
	}
	if (e->what == M_OTHER) {
		s->kind = STMT_OTHER;
		return;
	}
	if (e->what == M_INSN) {
		s->kind = STMT_INSN;
		s->insn = e->insn;
	} else {
		struct altr_insn *in = jshape_insn(r, t);
		int what = M_INSN;
		if (in) {
			s->kind = STMT_INSN;
			s->insn = in;
		} else {
			what = read_insn(r, s, t);
			if (what == M_INSN && s->insn)
				jshape_keep(r, t, s->insn);
		}
		if (what != M_INSN || !s->insn) {
			memo_set(r, e, what, NULL);
			return;
		}
		memo_set(r, e, M_INSN, s->insn);
		new_iid(r->u, s);
		e->iid = s->iid;
	}
	s->iid = e->iid;
	/* Prefixes written as a statement of their own belong to this insn. */
	bool unknown = e->unknown;
	if (r->u->nstmts >= 2) {
		struct altr_stmt *p = &r->u->stmts[r->u->nstmts - 2];
		if (p->facts & SF_PREFIX_ONLY) {
			if (e->insn == s->insn) { /* keep the memo's insn as read */
				s->insn = new_insn(r->u, e->insn);
				rebase(s->insn, t.p - e->p);
			}
			size_t k = 0;
			for (struct altr_str w;
			     (w = next_word(altr_stmt_text(p), &k)).len;)
				s->insn->prefixes |= (uint16_t)prefix_bit(w);
			altr_insn_decode(s->insn);
			new_iid(r->u, s);
			unknown = !s->insn->desc;
		}
	}
	r->u->ninsns++;
	if (unknown)
		r->u->nunknown++;
}

/* Handles "#APP"/"#NO_APP" markers, which gcc and clang emit as comments. */
static void app_marker(struct reader *r, struct altr_str comment)
{
	struct altr_str c = trim(comment);
	if (altr_str_eq(c, "#APP"))
		r->in_app = true;
	else if (altr_str_eq(c, "#NO_APP"))
		r->in_app = false;
}

/* The memo lookup missed the cache most times: that of the line
 * PF_AHEAD lines on is started while this one is read (one line on was
 * too late: a line takes less than a miss to memory).  For plain lines,
 * whose text (trimmed as add_piece trims it) is then the statement's;
 * its hash is kept for the lookup. */
static inline __attribute__((always_inline)) void
hint_line(struct reader *r, const char *p, const char *q, int lineno)
{
	while (p < q && IS(*p, C_SPACE))
		p++;
	while (q > p && IS(q[-1], C_SPACE))
		q--;
	int k = lineno & (PF_RING - 1);
	r->pf[k].p = p;
	r->pf[k].len = (size_t)(q - p);
	uint32_t h = altr_hash(p, (size_t)(q - p));
	r->pf[k].hash = h;
	__builtin_prefetch(r->memo.e + (h & (r->memo.cap - 1)) * sizeof(struct memo));
}

/* A plain line (one statement: no label, no comment, no ';') whose text
 * the memo knows: its statement made as add_piece would, without reading
 * it again; false when add_piece must (the memo does not know it, or
 * prefixes on the statement before belong to it). */
static bool read_known(struct reader *r, int lineno, int at)
{
	int k = lineno & (PF_RING - 1);
	struct altr_str t = mkstr(r->pf[k].p, r->pf[k].len);
	if (!t.len)
		return true; /* blank */
	if (t.len > UINT16_MAX)
		return false;
	const struct memo *e = memo_slot(r, r->pf[k].hash, t);
	struct altr_unit *u = r->u;
	int what = e->what;
	if (what == M_NONE || (size_t)u->nstmts == u->cap_stmts)
		return false;
	/* made whole, then stored: storing a bit-field first read the fresh
	 * statement's memory, a cache miss the store buffer did not hide */
	struct altr_stmt v = {.text_p = t.p, .text_len = (uint32_t)t.len,
	                      .line = at, .facts = r->ctx};
	if (what == M_INSN) {
		if (u->nstmts && (u->stmts[u->nstmts - 1].facts & SF_PREFIX_ONLY))
			return false;
		v.kind = STMT_INSN;
		v.insn = e->insn;
		v.iid = e->iid;
		u->ninsns++;
		u->nunknown += e->unknown;
	} else if (what == M_DIR) {
		v.kind = STMT_DIRECTIVE;
		v.name_len = e->iid;
	} else {
		v.kind = STMT_OTHER;
		if (what == M_PREFIXES)
			v.facts |= SF_PREFIX_ONLY;
	}
	u->stmts[u->nstmts++] = v;
	return true;
}

static void add_comment(struct altr_unit *u, const struct altr_line *L,
                        size_t len)
{
	if (u->ncomments == u->cap_comments) {
		u->cap_comments = u->cap_comments ? 2 * u->cap_comments : 64;
		u->comments = altr_xrealloc(u->comments,
		                            u->cap_comments * sizeof *u->comments);
	}
	u->comments[u->ncomments++] = (struct altr_comment){
		(uint32_t)(L - u->lines), (uint32_t)len};
}

struct altr_str altr_line_comment(const struct altr_unit *u, int l)
{
	struct altr_str t = altr_line_text(u, l);
	size_t lo = 0, hi = u->ncomments;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (u->comments[mid].line < (uint32_t)l)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t n = lo < u->ncomments && u->comments[lo].line == (uint32_t)l
	         ? u->comments[lo].len : 0;
	return (struct altr_str){t.p + t.len - n, n};
}

/* Reads line L, text p[0..n); its first C_SCAN byte is at special. */
static void read_line(struct reader *r, struct altr_line *L, const char *p,
                      size_t n, int lineno, size_t special)
{
	size_t b = 0, i = special;
	L->first = (uint32_t)r->u->nstmts;
	/* A C comment opened on an earlier line. */
	if (r->in_comment) {
		const char *e = NULL;
		for (size_t k = 0; k + 1 < n; k++)
			if (p[k] == '*' && p[k + 1] == '/') {
				e = p + k;
				break;
			}
		if (!e)
			return;
		r->in_comment = false;
		b = i = (size_t)(e - p) + 2;
	}
	while (i < n) {
		char c = p[i];
		if (!IS(c, C_SCAN)) {
			i++;
		} else if (c == '"') {
			i = skip_string(p, i, n);
		} else if (c == '\'' && i + 1 < n) {
			i += 2;
		} else if (c == '#') {
			add_piece(r, mkstr(p + b, i - b), lineno);
			add_comment(r->u, L, n - i);
			app_marker(r, mkstr(p + i, n - i));
			b = i = n;
			break;
		} else if (c == '/' && i + 1 < n && p[i + 1] == '*') {
			add_piece(r, mkstr(p + b, i - b), lineno);
			size_t k = i + 2;
			while (k + 1 < n && !(p[k] == '*' && p[k + 1] == '/'))
				k++;
			if (k + 1 >= n) {
				r->in_comment = true;
				add_comment(r->u, L, n - i);
				b = i = n;
				break;
			}
			b = i = k + 2;
		} else if (c == ';') {
			/* "lock ; cmpxchg": a prefix statement joins the next one. */
			struct altr_str piece = trim(mkstr(p + b, i - b));
			if (piece.len && only_prefixes(piece, false) && !label_len(piece)) {
				i++;
				continue;
			}
			add_piece(r, mkstr(p + b, i - b), lineno);
			b = ++i;
		} else {
			i++;
		}
	}
	if (b < n)
		add_piece(r, mkstr(p + b, n - b), lineno);
}

/* A line [p, q) that is one label and nothing else (".L5:", gcc's
 * labels are a tenth of its lines) made a statement as read_line and
 * add_piece would; false if it is not one.  (label_len takes the whole
 * text only if it is a name, a number or a string and the ':'.) */
static bool read_label(struct reader *r, const char *p, const char *q, int at)
{
	while (p < q && IS(*p, C_SPACE))
		p++;
	while (q > p && IS(q[-1], C_SPACE))
		q--;
	struct altr_str t = mkstr(p, (size_t)(q - p));
	struct altr_unit *u = r->u;
	if (!t.len || q[-1] != ':' || t.len > UINT32_MAX / 2 ||
	    label_len(t) != t.len || (size_t)u->nstmts == u->cap_stmts)
		return false;
	struct altr_stmt v = {.text_p = t.p, .text_len = (uint32_t)t.len,
	                      .line = at, .facts = r->ctx, .kind = STMT_LABEL};
	v.name_len = (uint32_t)t.len - 1;
	u->stmts[u->nstmts++] = v;
	return true;
}

/* The context facts in force, and whether plain lines may take the fast
 * path (read_known). */
static void set_ctx(struct reader *r)
{
	bool opaque = r->intel || r->code32 || r->opaque_depth;
	r->ctx = (uint16_t)((r->in_app ? SF_IN_APP : 0) | (r->exec ? SF_EXEC : 0) |
	                    (opaque ? SF_OPAQUE : 0));
	r->fast = !opaque && !r->in_comment;
}

/* Reads src into u (already cleared); the line of the first macro or
 * repeat directive, or 0.  stop: there, for that is read again. */
static int read_unit(struct altr_unit *u, const char *path, char *src,
                     size_t len, bool stop)
{
	u->path = path;
	u->src = src;
	u->len = len;
	init_cclass();
	/* gas starts in .text: hand-written files often never say so. */
	struct reader r = {.u = u, .exec = true};
	set_ctx(&r);
	/* lines hold 32-bit offsets (and one past the end) */
	if (len >= UINT32_MAX)
		altr_die("%s: input larger than 4 GB", path);
	/* Room for every line (and scan_lines's one more), and for as many
	 * statements, up front. */
	size_t nl = 1 + count_newlines(src, len);
	u->cap_lines = nl + 1;
	u->lines = altr_big_alloc(u->cap_lines * sizeof *u->lines);
	u->cap_stmts = nl + 64;
	u->stmts = altr_big_alloc(u->cap_stmts * sizeof *u->stmts);
	r.memo = (struct altr_table){.size = sizeof(struct memo), .load = 3,
	                           .first = 4096, .mem = ALTR_TABLE_SPARSE};
	r.jshapes = (struct altr_table){.size = sizeof(struct jshape), .load = 2,
	                              .first = 64, .mem = ALTR_TABLE_HEAP};
	while (3 * r.memo.first < 4 * (nl / 4))
		r.memo.first *= 2;
	/* The table's block is freed after reading, for the analysis's record
	 * per statement (as big as a statement, altr_analyze_into) to reuse:
	 * as big as the statements, it needs few new pages (most of its pages
	 * are the table's, faulted in already: docs/perf.md). */
	r.memo.room = u->cap_stmts * sizeof *u->stmts;
	memo_reserve(&r); /* the table, for hint_line and read_known */
	size_t n = scan_lines(src, len, u->lines);
	struct altr_line *lines = u->lines;
	for (size_t l = 0; l < n && l < PF_AHEAD; l++)
		if (lines[l].first & LINE_PLAIN)
			hint_line(&r, src + lines[l].start,
			          src + lines[l + 1].start - 1, (int)l + 1);
	for (size_t l = 0; l < n; l++) {
		size_t a = l + PF_AHEAD;
		if (a < n && (lines[a].first & LINE_PLAIN))
			hint_line(&r, src + lines[a].start,
			          src + lines[a + 1].start - 1, (int)a + 1);
		struct altr_line *L = &lines[l];
		bool plain = L->first & LINE_PLAIN;
		L->first = (uint32_t)u->nstmts;
		int lineno = (int)l + 1, at = lineno;
		if (u->src_lines)
			at = u->src_lines[(size_t)lineno <= u->nsrc_lines ? lineno - 1
			                  : (int)u->nsrc_lines - 1];
		if (r.fast && (plain ? read_known(&r, lineno, at)
		                     : read_label(&r, src + L->start,
		                                  src + lines[l + 1].start - 1, at)))
			continue;
		size_t pos = L->start, end = lines[l + 1].start - 1, special = pos;
		if (plain)
			special = end;
		else
			while (special < end && !IS(src[special], C_SCAN))
				special++;
		r.colon = !plain;
		r.plain = plain;
		r.lineno = lineno;
		read_line(&r, L, src + pos, end - pos, at, special - pos);
		set_ctx(&r);
		if (stop && r.macro_line) {
			n = l + 1;
			break;
		}
	}
	u->nlines = (int)n;
	altr_table_free(&r.memo);
	altr_table_free(&r.jshapes);
	return r.macro_line;
}

void altr_asm_read(struct altr_unit *u, const char *path, char *src,
                   size_t len)
{
	memset(u, 0, sizeof *u);
	int macro_line = read_unit(u, path, src, len, true);
	if (!macro_line)
		return;
	/* What .macro, .rept, .irp and .irpc make is read like the rest, on
	 * the line of the invocation (macro.c): the reader, having met one,
	 * starts again on the expansion (macro-free input costs nothing). */
	size_t xlen, nx;
	int *xl;
	char *x = altr_macro_expand(path, src, len, &xlen, &xl, &nx);
	u->src = NULL; /* not freed with the rest */
	altr_asm_free(u);
	if (!x) {
		altr_warn(path, macro_line, "macro/repeat body passed through "
		                            "uninstrumented");
		read_unit(u, path, src, len, false);
		return;
	}
	u->src_lines = xl;
	u->nsrc_lines = nx;
	read_unit(u, path, x, xlen, false);
	u->unexpanded = src;
}

void altr_asm_free(struct altr_unit *u)
{
	while (u->arena) {
		struct insn_chunk *c = u->arena;
		u->arena = c->next;
		altr_big_free(c, CHUNK_BYTES);
	}
	altr_big_free(u->stmts, u->cap_stmts * sizeof *u->stmts);
	altr_big_free(u->lines, u->cap_lines * sizeof *u->lines);
	free(u->comments);
	altr_big_free(u->iclass, u->cap_iclass * sizeof *u->iclass);
	altr_big_free(u->ilabel, u->cap_iclass * sizeof *u->ilabel);
	free(u->funcs);
	if (u->unexpanded) {
		free(u->src);
		free(u->src_lines);
		u->src = u->unexpanded;
	}
	if (u->src_mapped)
		munmap(u->src, u->src_mapped);
	else
		free(u->src);
	memset(u, 0, sizeof *u);
}
