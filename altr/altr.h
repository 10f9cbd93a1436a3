/*
 * altr.h: the one private header of altr, the rules-driven x86-64 (AT&T,
 * GNU as) assembly-to-assembly translator.  A section per source file, in
 * pipeline order: util, regs, asm (reading), insndb (what an instruction
 * does), analyze (CFG, flag liveness, branch facts), rules (the rules
 * language), prefilter and regex (a rule's regex test), match (rules
 * against instructions), template, plan, share and cfi (what the rules
 * insert), emit (writing assembly and the instrumentation offset
 * table).  Everything not listed here is static.
 */
#ifndef ALTR_H
#define ALTR_H

#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define ALTR_VERSION "0.1.0"

/* ------------------------------------------------------------------ util.c */

/* A slice of some longer text (usually the input file); not NUL-terminated. */
struct altr_str {
	const char *p;
	size_t len;
};

/* A growable byte buffer; p is always NUL-terminated when len > 0. */
struct altr_buf {
	char *p;
	size_t len, cap;
};

void *altr_xmalloc(size_t n);
void *altr_xcalloc(size_t nmemb, size_t n);
void *altr_xrealloc(void *p, size_t n);
char *altr_xstrndup(const char *s, size_t n);
char *altr_strdup_str(struct altr_str s);
bool altr_str_eq(struct altr_str s, const char *lit);
bool altr_str_starts(struct altr_str s, const char *lit);
/* A character of a symbol name after its first (gas: letters, digits,
 * _ . $). */
static inline bool altr_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '$';
}
/* Makes room for n more bytes and the NUL (the slow path of the puts). */
void altr_buf_grow(struct altr_buf *b, size_t n);
void altr_buf_puts(struct altr_buf *b, const char *s);
void altr_buf_putl(struct altr_buf *b, long v); /* decimal, as "%ld" */
/* The emitter's output is millions of small puts: these are inline. */
static inline void altr_buf_put(struct altr_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap)
		altr_buf_grow(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}
static inline void altr_buf_putc(struct altr_buf *b, char c)
{
	if (b->len + 2 > b->cap)
		altr_buf_grow(b, 1);
	b->p[b->len++] = c;
	b->p[b->len] = 0;
}
/* Writes u in decimal at p (room for 20 bytes), no NUL; returns the end.
 * Two digits at a time, their number from the number of bits and a
 * compare (a division a digit was most of the time of writing numbers);
 * inline, for the emitter writes hundreds of thousands of label numbers
 * straight into room it made. */
static inline char *altr_put_ulong(char *p, unsigned long u)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	static const unsigned long tens[20] = {
		1ul, 10ul, 100ul, 1000ul, 10000ul, 100000ul, 1000000ul,
		10000000ul, 100000000ul, 1000000000ul, 10000000000ul,
		100000000000ul, 1000000000000ul, 10000000000000ul,
		100000000000000ul, 1000000000000000ul, 10000000000000000ul,
		100000000000000000ul, 1000000000000000000ul,
		10000000000000000000ul,
	};
	unsigned bits = 64 - (unsigned)__builtin_clzl(u | 1);
	unsigned t = (bits * 1233) >> 12; /* bits * log10(2): the digits
	                                     after the first, or one more */
	char *end = p + t + 1 - ((u | 1) < tens[t]), *q = end;
	while (u >= 100) {
		unsigned d = (unsigned)(u % 100) * 2;
		u /= 100;
		*--q = pairs[d + 1];
		*--q = pairs[d];
	}
	if (u >= 10) {
		*--q = pairs[u * 2 + 1];
		*--q = pairs[u * 2];
	} else {
		*--q = (char)('0' + u);
	}
	return end;
}
void altr_buf_printf(struct altr_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void altr_buf_free(struct altr_buf *b);
/* Zeroed memory for a large array, its pages faulted in at once (the
 * array is to be filled); _sparse: as used (a hash table, a pool). */
void *altr_big_alloc(size_t n);
void *altr_big_alloc_sparse(size_t n);
/* Loads of 8 and 4 bytes at p, any alignment. */
static inline uint64_t altr_ld8(const char *p)
{
	uint64_t w;
	memcpy(&w, p, 8);
	return w;
}
static inline uint64_t altr_ld4(const char *p)
{
	uint32_t w;
	memcpy(&w, p, 4);
	return w;
}
/* For hash tables (statement texts, jump shapes, names): words read
 * within the text, the last two (or for short texts the first and last)
 * overlapping, no byte loop (most texts are 8 to 24 bytes: a loop for the
 * tail was half the hash); the final multiply brings the last bytes to
 * the low bits (without it texts differing in their ends fell in
 * neighbouring slots). */
static inline uint32_t altr_hash(const char *p, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, a, b;
	if (n >= 8) {
		for (; n > 16; p += 8, n -= 8) {
			h = (h ^ altr_ld8(p)) * 0xff51afd7ed558ccdull;
			h ^= h >> 32;
		}
		a = altr_ld8(p);
		b = altr_ld8(p + n - 8);
	} else if (n >= 4) {
		a = altr_ld4(p);
		b = altr_ld4(p + n - 4);
	} else {
		a = n ? (uint64_t)(unsigned char)p[0] << 16 |
		        (uint64_t)(unsigned char)p[n / 2] << 8 | (unsigned char)p[n - 1]
		      : 0;
		b = 0;
	}
	h = (h ^ a) * 0xff51afd7ed558ccdull;
	h ^= h >> 32;
	h = (h ^ b) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	h *= 0x9e3779b97f4a7c15ull;
	return (uint32_t)(h >> 32);
}
void *altr_big_realloc(void *p, size_t old, size_t n);
/* The same, but what the caller has not written yet (all of a new block,
 * [old, n) of a grown one) is undefined, not zeroed: for an array written
 * before it is read.  A block freed earlier is then reused as it is
 * (clearing those cost as much as the kernel's clearing of new pages). */
void *altr_big_alloc_raw(size_t n);
void *altr_big_realloc_raw(void *p, size_t old, size_t n);
void altr_big_free(void *p, size_t n);
/* Arrays that grow in big-block memory (altr_big_free them with cap *
 * size): *cap doubles (from first) when n items fill it, and freed blocks
 * of the earlier stages are reused.  The new room is zeroed, or with _raw
 * left as it is (an array written before it is read: zeroing the plans'
 * room alone is megabytes of stores on a large input, docs/perf.md). */
static inline void *altr_big_grow_as(void *p, size_t *cap, size_t n,
                                     size_t size, size_t first, bool raw)
{
	if (n < *cap)
		return p;
	size_t old = *cap;
	*cap = *cap ? 2 * *cap : first;
	return raw ? altr_big_realloc_raw(p, old * size, *cap * size)
	           : altr_big_realloc(p, old * size, *cap * size);
}
static inline void *altr_big_grow(void *p, size_t *cap, size_t n,
                                  size_t size, size_t first)
{
	return altr_big_grow_as(p, cap, n, size, first, false);
}
static inline void *altr_big_grow_raw(void *p, size_t *cap, size_t n,
                                      size_t size, size_t first)
{
	return altr_big_grow_as(p, cap, n, size, first, true);
}
/* The one hash table of altr (names, statement texts, jump shapes,
 * templates, plan codes, plan shapes, %rsp deltas, regex results): open
 * addressing with linear probing over a power of two of the caller's
 * entries, size bytes each.  The caller's entry type says which entries
 * are in use (an all-zero entry is not) and holds each one's hash;
 * altr_table_slot is inline, so that its tests are inlined where it is
 * used.  The caller fills an empty slot and counts it in n. */
enum altr_table_mem {
	ALTR_TABLE_HEAP,           /* calloc'ed */
	ALTR_TABLE_BIG,            /* altr_big_alloc: its pages faulted in */
	ALTR_TABLE_SPARSE,         /* altr_big_alloc_sparse: as used */
};
struct altr_table {
	char *e;
	size_t cap, n;           /* cap a power of two, or 0 */
	size_t bytes;            /* allocated */
	size_t first;            /* entries of the first table */
	size_t room;             /* bytes of the first allocation, at least */
	uint32_t size;           /* of an entry */
	uint8_t load;            /* in quarters: grown past load/4 full */
	uint8_t mem;             /* enum altr_table_mem */
};
/* The slot for a key of hash h: the first from h on for which stop (an
 * empty entry, or one holding the key) holds.  The map must have room. */
static inline __attribute__((always_inline)) void *
altr_table_slot(const struct altr_table *m, size_t size,
              uint32_t h, const void *key,
              bool (*stop)(const void *ent, const void *key))
{
	for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		void *e = m->e + i * size;
		if (stop(e, key))
			return e;
	}
}
/* Makes room for more new entries (grows the table, moving the used
 * entries, used(e), to the slots hash(e) gives); on the first call,
 * makes the table. */
void altr_table_grow(struct altr_table *m, size_t more,
                     uint32_t (*hash)(const void *ent),
                     bool (*used)(const void *ent));
/* (the test inline: it is made before most lookups) */
static inline void altr_table_reserve(struct altr_table *m, size_t more,
                                      uint32_t (*hash)(const void *ent),
                                      bool (*used)(const void *ent))
{
	if (4 * (m->n + more) > (size_t)m->load * m->cap)
		altr_table_grow(m, more, hash, used);
}
void altr_table_free(struct altr_table *m);
/* A map from byte strings, copied into a buffer of its own (the texts
 * looked up need not outlive the lookup), to a number: the %rsp deltas of
 * inserted lines (cfi.c), the plans of codes (share.c). */
struct altr_kept {
	uint32_t hash, len;      /* len 0: a free slot (no key is empty) */
	size_t off;              /* the key, in the map's keys */
	long val;
};
struct altr_kept_table {
	struct altr_table m;       /* of struct altr_kept; zeroed: empty */
	struct altr_buf keys;
};
/* The entry for p[0..n) (n > 0, hash h), or the free one (len 0) where
 * altr_kept_add may put it before any other lookup. */
struct altr_kept *altr_kept_find(struct altr_kept_table *km, const char *p,
                                 size_t n, uint32_t h);
void altr_kept_add(struct altr_kept_table *km, struct altr_kept *e,
                   const char *p, size_t n, uint32_t h, long val);
void altr_kept_free(struct altr_kept_table *km);
/* Reads a whole file ("-" is stdin); NULL with errno set on failure. */
char *altr_read_file(const char *path, size_t *len);
/* The same, but a large regular file is mapped read-only, followed by a
 * zero byte, in *mapped bytes to munmap (else *mapped is 0 and the buffer
 * is malloc'ed).  The file must not shrink while it is mapped. */
char *altr_map_file(const char *path, size_t *len, size_t *mapped);

/* Diagnostics go to stderr as "altr:FILE:LINE[:COL]: message". */
extern const char *altr_progname;
extern unsigned long altr_nwarnings;
extern bool altr_quiet_warnings;
/* The speed shortcuts (the regex prefilter, the memos and caches of
 * results, plans shared between statements) are on; off (altr
 * --no-shortcuts, or ALTR_NO_SHORTCUTS=1 in the environment) every result
 * is worked out the long way, which must give the same output. */
extern bool altr_shortcuts;
void altr_warn(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void altr_error_at(const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A warning naming a column too (col 0: none). */
void altr_warn_at(const char *file, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
_Noreturn void altr_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* Broken invariant: abort with file and line, on in release builds too. */
#define ALTR_ASSERT(c)                                                       \
	((c) ? (void)0 : altr_assert_fail(__FILE__, __LINE__, #c))
_Noreturn void altr_assert_fail(const char *file, int line, const char *what);

/* ------------------------------------------------------------------ regs.c */

enum altr_regclass {
	RC_GPR,   /* rax..r15 and all their sub-registers */
	RC_IP,    /* rip, eip */
	RC_SEG,   /* es cs ss ds fs gs */
	RC_X87,   /* st, st(0)..st(7) */
	RC_MMX,   /* mm0..mm7 */
	RC_XMM,   /* xmm0..xmm31 */
	RC_YMM,   /* ymm0..ymm31 */
	RC_ZMM,   /* zmm0..zmm31 */
	RC_MASK,  /* k0..k7 */
	RC_OTHER, /* control, debug, bound registers */
};

struct altr_reg {
	const char *name;        /* without '%' */
	enum altr_regclass cls;
	uint8_t num;             /* GPR: 0=rax 1=rcx 2=rdx 3=rbx 4=rsp 5=rbp
	                            6=rsi 7=rdi 8..15=r8..r15; XMM/YMM/ZMM/K/MM/ST:
	                            index; SEG: 0=es 1=cs 2=ss 3=ds 4=fs 5=gs */
	uint8_t size;            /* bytes: 1 2 4 8 10 16 32 64 */
	bool high8;              /* ah ch dh bh */
};

enum { ALTR_GPR_RSP = 4, ALTR_SEG_FS = 4, ALTR_SEG_GS = 5 };

extern const struct altr_reg altr_regs[];
extern const int altr_nregs;
/* Index into altr_regs of the register named s (no '%', case-insensitive,
 * "st(3)" form accepted), or -1. */
int altr_reg_lookup(const char *s, size_t len);

/* ------------------------------------------------------------------- asm.c */

#define ALTR_MAXOPS 5

enum altr_opkind {
	OPK_REG,    /* %rax */
	OPK_IMM,    /* $expr */
	OPK_MEM,    /* disp(base,index,scale), seg:..., or a bare expression
	               that names memory (movl x, %eax) */
	OPK_TARGET, /* bare expression naming a branch/call target; insndb
	               turns OPK_MEM into this for direct jumps and calls */
};

/* 48 bytes: the decorations and displacement are places in the text
 * that holds the operand (altr_op_deco, altr_op_disp), for a unit holds
 * one per operand of each instruction. */
struct altr_operand {
	struct altr_str text;   /* as written, trimmed, without '*' and deco */
	uint32_t deco_off, deco_len; /* AVX-512 decorations "{%k1}{z}", from
	                            text.p + deco_off (past the text), or 0 */
	/* OPK_MEM (and OPK_TARGET: only disp is set) */
	uint32_t disp_off, disp_len; /* displacement expression, within the
	                            text from disp_off; may be empty */
	uint8_t kind;           /* enum altr_opkind */
	bool star;              /* written with a leading '*' (indirect) */
	uint8_t scale;          /* 1, 2, 4, 8; 1 when absent */
	int16_t reg;            /* OPK_REG: index into altr_regs */
	int16_t seg;            /* index into altr_regs, or -1 */
	int16_t base, index;    /* indices into altr_regs, or -1 */
};

_Static_assert(sizeof(struct altr_operand) == 48, "an operand is 48 bytes");

static inline struct altr_str altr_op_deco(const struct altr_operand *op)
{
	if (!op->text.p) /* a zeroed operand */
		return op->text;
	return (struct altr_str){op->text.p + op->deco_off, op->deco_len};
}
static inline struct altr_str altr_op_disp(const struct altr_operand *op)
{
	if (!op->text.p)
		return op->text;
	return (struct altr_str){op->text.p + op->disp_off, op->disp_len};
}

/* Prefixes as separate words before the mnemonic ("lock", "rep", ...). */
enum {
	PFX_LOCK = 1 << 0,
	PFX_REP = 1 << 1,      /* rep, repe, repz */
	PFX_REPNE = 1 << 2,    /* repne, repnz */
	PFX_DATA16 = 1 << 3,
	PFX_ADDR32 = 1 << 4,
	PFX_NOTRACK = 1 << 5,
	PFX_REX = 1 << 6,      /* rex, rex64, rex.W ... */
	PFX_SEG = 1 << 7,      /* cs ds es ss fs gs written as a prefix word */
	PFX_OTHER = 1 << 8,    /* xacquire, xrelease, bnd, {vex3}, {evex} ... */
};

/* Memory access directions. */
enum { ACC_READ = 1, ACC_WRITE = 2 };

/* Status flags; DF kept apart since hooks never touch it. */
enum {
	FL_CF = 1 << 0,
	FL_PF = 1 << 1,
	FL_AF = 1 << 2,
	FL_ZF = 1 << 3,
	FL_SF = 1 << 4,
	FL_OF = 1 << 5,
	FL_DF = 1 << 6,
	FL_STATUS = 0x3f,
};

/* Instruction attributes (insndb fills them; rules match them by name). */
enum {
	ATTR_LOAD = 1ull << 0,      /* reads memory (explicitly or implicitly) */
	ATTR_STORE = 1ull << 1,     /* writes memory */
	ATTR_RMW = 1ull << 2,       /* reads and writes the same memory */
	ATTR_ATOMIC = 1ull << 3,    /* lock prefix, xchg with memory, and
	                               cmpxchg/xadd with lock */
	ATTR_STRING = 1ull << 4,    /* movs stos lods cmps scas ins outs */
	ATTR_PUSH = 1ull << 5,      /* push pushf (implicit stack store) */
	ATTR_POP = 1ull << 6,       /* pop popf (implicit stack load) */
	ATTR_CALL = 1ull << 7,
	ATTR_RET = 1ull << 8,
	ATTR_LEAVE = 1ull << 9,     /* leave, enter */
	ATTR_JMP = 1ull << 10,      /* unconditional jump */
	ATTR_JCC = 1ull << 11,      /* conditional jump, loop*, jrcxz */
	ATTR_SYSCALL = 1ull << 12,  /* syscall, sysenter, int $0x80 */
	ATTR_NONDET = 1ull << 13,   /* rdtsc rdtscp rdrand rdseed cpuid rdpid
	                               xgetbv rdpmc */
	ATTR_NOP = 1ull << 14,      /* nop, including nopw with a memory operand */
	ATTR_ADDR_ONLY = 1ull << 15, /* lea, prefetch*, clflush...: has a memory
	                               operand it does not access */
	ATTR_X87 = 1ull << 16,
	ATTR_SSE = 1ull << 17,      /* SSE..SSE4.2, incl. MMX */
	ATTR_AVX = 1ull << 18,      /* VEX-encoded */
	ATTR_AVX512 = 1ull << 19,   /* EVEX-encoded */
	ATTR_BMI = 1ull << 20,
	ATTR_TRAP = 1ull << 21,     /* ud2, int3, int $n, hlt: no fall-through
	                               is assumed for ud2 and hlt only */
	ATTR_NOFALL = 1ull << 22,   /* control never falls through (jmp, ret,
	                               ud2, hlt) */
	ATTR_STACK = 1ull << 23,    /* any implicit stack memory access */
	ATTR_SETS_RSP = 1ull << 24, /* changes %rsp (explicitly or implicitly) */
	ATTR_PRIV = 1ull << 25,     /* system instruction (in/out, cli, ...) */
};

struct altr_iinfo {
	uint64_t attrs;
	int8_t mem;              /* index of the explicit memory operand, or -1 */
	uint8_t mem_acc;         /* ACC_* through it; 0: address only (lea) */
	uint16_t mem_size;       /* bytes accessed through it; 0 if unknown */
	uint8_t op_acc[ALTR_MAXOPS]; /* ACC_* per operand (registers too) */
	uint16_t impl_size;      /* bytes per implicit access (push: 8, pushw:
	                            2, movsb: 1, ret: 8); 0 if none */
	uint8_t flags_read;      /* FL_* read */
	uint8_t flags_written;   /* FL_* always written or left undefined:
	                            these kill liveness */
	uint8_t flags_maybe;     /* FL_* written only sometimes (shift by %cl
	                            may leave flags untouched): no kill */
};

struct altr_idesc; /* an instruction database row; opaque outside insndb.c */

/* 64 bytes plus the operands: a unit holds one per instruction, and
 * their size was most of altr's page faults. */
struct altr_insn {
	struct altr_str mnem;       /* as written, e.g. "movl", "vmovdqu" */
	const struct altr_idesc *desc;        /* NULL: not in the database */
	struct altr_operand *ops;   /* nops of them, AT&T order: sources
	                               first; in a unit they follow the insn */
	struct altr_iinfo info;               /* filled by altr_insn_decode */
	uint16_t prefixes;          /* PFX_* */
	int nops;
};

enum altr_stmtkind {
	STMT_LABEL,     /* name: */
	STMT_DIRECTIVE, /* .name args */
	STMT_INSN,      /* [prefixes] mnemonic operands */
	STMT_OTHER,     /* anything else (symbol = expr, lines altr passes
	                   through without understanding) */
};

/* Statement facts computed by asm.c (context) and analyze.c. */
enum {
	SF_IN_APP = 1 << 0,      /* between #APP and #NO_APP */
	SF_EXEC = 1 << 1,        /* in a section that holds code */
	SF_OPAQUE = 1 << 2,      /* .intel_syntax, .code16/32, or a .macro or
	                            .rept body macro.c did not expand: passed
	                            through, never instrumented */
	SF_BACKWARD = 1 << 3,    /* branch to a label earlier in the function */
	SF_FORWARD = 1 << 4,     /* branch to a label later in the function */
	SF_TAIL = 1 << 5,        /* jump (jmp or jcc) to a target outside the
	                            function: another function */
	SF_HAS_LOC = 1 << 6,     /* a .loc directive precedes this insn */
	SF_CFA_RSP = 1 << 7,     /* CFA is %rsp-based at this insn (inside a
	                            .cfi_startproc region): inserted pushes
	                            need .cfi_adjust_cfa_offset */
	SF_PREFIX_ONLY = 1 << 8, /* STMT_OTHER holding only prefixes ("rep" on
	                            its own line): they belong to the next
	                            insn, and code inserted before that insn
	                            goes before this statement */
	SF_FUSED = 1 << 9,       /* conditional jump the CPU fuses with the
	                            flag setter just before it */
	SF_FUSES_BACK = 1 << 10, /* that flag setter, of a backward jump */
	SF_LOOP_BACK = 1 << 11,  /* backward branch that closes a cycle of the
	                            function's control-flow graph (cycles.c) */
	SF_FUSES_LOOP = 1 << 12, /* the flag setter of such a fused branch */
	SF_FUNC_ENTRY = 1 << 13, /* a function's first instruction (analyze.c) */
};

/* 32 bytes (a larger statement costs a run measurably, docs/perf.md: the
 * statements are walked several times, and their pages faulted in): the
 * text is a pointer and a 32-bit length (an input is below 4 GB;
 * altr_stmt_text), a label's or directive's name length shares its room
 * with an instruction's number (a statement has one or the other), its
 * arguments are found again after the name (altr_stmt_args), and the small
 * fields are bit-fields. */
struct altr_stmt {
	const char *text_p;      /* the statement, trimmed, without comment */
	struct altr_insn *insn;  /* STMT_INSN only, else NULL */
	uint32_t text_len;
	int line;                /* 1-based input line */
	union {
		uint32_t iid;        /* STMT_INSN: the instruction's number, below
		                        unit->ninsn_ids: statements share one when
		                        they share the instruction, so what depends
		                        on it alone is kept in small arrays by it */
		uint32_t name_len;   /* else: a label's name (no ':') or a
		                        directive's (".loc"): the text's first
		                        name_len bytes; or 0 */
	};
	uint16_t facts;          /* SF_* */
	unsigned kind : 4;       /* enum altr_stmtkind */
	unsigned flags_live_in : 6;  /* FL_STATUS bits live just before the
	                            insn */
	unsigned flags_live_out : 6; /* ... just after it */
};

_Static_assert(sizeof(struct altr_stmt) == 32, "a statement is 32 bytes");
_Static_assert(FL_STATUS < (1 << 6), "flags_live_* hold the status flags");

static inline struct altr_str altr_stmt_text(const struct altr_stmt *s)
{
	return (struct altr_str){s->text_p, s->text_len};
}
static inline struct altr_str altr_stmt_name(const struct altr_stmt *s)
{
	return (struct altr_str){s->text_p,
	                         s->kind == STMT_INSN ? 0 : s->name_len};
}
/* A directive's arguments: the text after its name and the blanks after
 * that (the text is trimmed: they end it); else an empty slice at the
 * end of the text. */
static inline struct altr_str altr_stmt_args(const struct altr_stmt *s)
{
	size_t i = s->kind == STMT_DIRECTIVE ? s->name_len : s->text_len;
	while (i < s->text_len && (s->text_p[i] == ' ' ||
	                           (s->text_p[i] >= '\t' && s->text_p[i] <= '\r')))
		i++;
	return (struct altr_str){s->text_p + i, s->text_len - i};
}

/* An input line and the statements on it (';'-separated, labels split).
 * 8 bytes: its text ends where the next line starts, its statements where
 * the next line's do, and the few trailing comments are listed apart
 * (the altr_line_* functions below).  There is one per input line, and
 * a record of slices was 48 bytes, pages faulted in for a few uses. */
struct altr_line {
	uint32_t start;          /* offset of the line in unit->src */
	uint32_t first;          /* its statements: stmts[first ..
	                            first + altr_line_n) */
};

/* A line's trailing '#' or '/ * * /' comment (it ends the line). */
struct altr_comment {
	uint32_t line;           /* index into unit->lines */
	uint32_t len;
};

/* A function: a region of code between a non-local label that starts it
 * (or .type @function) and its .size or the next function. */
struct altr_func {
	struct altr_str name;
	int first, last;         /* statement range [first, last] */
};

struct altr_unit {
	const char *path;        /* for messages */
	char *src;
	size_t len;
	struct altr_line *lines;
	int nlines;
	struct altr_comment *comments; /* by line, ascending */
	size_t ncomments, cap_comments;
	struct altr_stmt *stmts;
	int nstmts;
	struct altr_func *funcs;
	int nfuncs;
	unsigned long ninsns, nunknown;
	uint32_t ninsn_ids;      /* distinct instructions (altr_stmt.iid) */
	uint32_t *iclass;        /* by iid: altr_analyze_insn_class of the first
	                            statement of each */
	uint32_t *ilabel;        /* by iid: 1 + n when its direct target is
	                            gcc's label .L<n> (altr_analyze_insn_label), or 0 */
	size_t cap_iclass;       /* of both */
	struct insn_chunk *arena; /* where the insns live (asm.c) */
	size_t src_mapped;       /* nonzero: src is a mapping of this size
	                            (altr_map_file), not malloc'ed */
	size_t cap_lines, cap_stmts; /* allocated sizes of lines, stmts */
	char *unexpanded;        /* when src is macro.c's expansion: the input
	                            as given (freed as src would be), else NULL */
	int *src_lines;          /* then: by line of src, the input's line */
	size_t nsrc_lines;
};

/* Reads src (takes ownership) into lines and statements; decodes every
 * instruction with insndb.  Never fails: what it cannot parse becomes
 * STMT_OTHER and passes through. */
void altr_asm_read(struct altr_unit *u, const char *path, char *src,
                   size_t len);
/* Parses one statement's text (no ';', no comment) as an instruction into
 * *in, its operands into ops (room for ALTR_MAXOPS; in->ops points there);
 * false if it is not one.  Used for rule templates too. */
bool altr_asm_parse_insn(struct altr_str text, struct altr_insn *in,
                         struct altr_operand ops[ALTR_MAXOPS]);
void altr_asm_free(struct altr_unit *u);
/* Line l's text without its '\n'; whether it has one (only a last line
 * may lack it); how many statements it holds; its trailing comment, or
 * an empty slice. */
static inline bool altr_line_has_newline(const struct altr_unit *u, int l)
{
	if (l + 1 < u->nlines)
		return true;
	return u->len > u->lines[l].start && u->src[u->len - 1] == '\n';
}
static inline struct altr_str altr_line_text(const struct altr_unit *u, int l)
{
	size_t start = u->lines[l].start;
	size_t end = l + 1 < u->nlines ? u->lines[l + 1].start : u->len;
	end -= altr_line_has_newline(u, l);
	return (struct altr_str){u->src + start, end - start};
}
static inline int altr_line_n(const struct altr_unit *u, int l)
{
	uint32_t end = l + 1 < u->nlines ? u->lines[l + 1].first
	                                 : (uint32_t)u->nstmts;
	return (int)(end - u->lines[l].first);
}
struct altr_str altr_line_comment(const struct altr_unit *u, int l);

/* ----------------------------------------------------------------- macro.c */

/* Expands src's GNU as macros (.macro and its invocations, .rept, .irp,
 * .irpc) as gas would; returns the text (malloc'ed, *outlen bytes) with,
 * in *lines (malloc'ed, *nlines), the line of src each of its lines comes
 * from.  NULL when src has none, or holds what macro.c cannot expand (it
 * warns then): src is to be read as it is. */
char *altr_macro_expand(const char *path, const char *src, size_t len,
                        size_t *outlen, int **lines, size_t *nlines);

/* ---------------------------------------------------------------- insndb.c */

/* Looks the instruction up in the database and fills in->desc and
 * in->info; turns direct branch/call operands into OPK_TARGET.  Returns
 * false (desc NULL, info conservative: unknown access) when the mnemonic
 * or its operand form is not known. */
bool altr_insn_decode(struct altr_insn *in);
/* The names of the rows that push or pop (their spellings are these
 * names and a suffix, in any case), at most max; how many. */
int altr_insndb_push_pop_names(const char *names[], int max);
/* Canonical name of the database row (for --stats and the oracle). */
const char *altr_idesc_name(const struct altr_idesc *d);
/* Number of rows, and the row's name by index (for tests). */
int altr_insndb_size(void);

/* --------------------------------------------------------------- analyze.c */

/* Finds functions, resolves direct branch targets (including 1f/1b),
 * sets SF_BACKWARD/SF_FORWARD/SF_TAIL/SF_HAS_LOC/SF_CFA_RSP, computes
 * flag liveness over each function's control-flow graph, and which
 * backward branches close a cycle (altr_cycles). */
void altr_analyze(struct altr_unit *u);
/* The same, and when func or target is not NULL (room for u->nstmts),
 * each statement's function there (index into u->funcs, or -1) and its
 * direct branch target (index of the label statement, or -1).  No stage
 * after the analysis needs them: they are not kept in the statements. */
void altr_analyze_into(struct altr_unit *u, int *func, int *target);
/* SF_LOOP_BACK and SF_FUSES_LOOP (cycles.c), from altr_analyze_into's
 * func and target; altr_analyze runs it, altr_analyze_into does not. */
void altr_cycles(struct altr_unit *u, const int *func, const int *target);
/* What the analyses need of statement s's instruction (the same for every
 * statement of its iid), as a word; the reader keeps it in unit->iclass. */
uint32_t altr_analyze_insn_class(const struct altr_stmt *s);
/* 1 + n when the direct target of s's instruction, of class c, is .L<n>,
 * else 0; the reader keeps it in unit->ilabel (the analysis then reads
 * neither instruction nor text for it). */
uint32_t altr_analyze_insn_label(const struct altr_stmt *s, uint32_t c);

/* ----------------------------------------------------------------- rules.c
 * (rules.l and rules.y build this; rules.c holds the tables and helpers) */

/* Named predicates rules may use; declared once in preds.def. */
enum altr_pred {
#define PRED(id, name, doc) PRED_##id,
#include "preds.def"
#undef PRED
	PRED_COUNT
};
extern const char *const altr_pred_names[];
extern const char *const altr_pred_docs[];
int altr_pred_lookup(const char *name);   /* enum value or -1 */

/* Comparable fields: field OP value. */
enum altr_field {
	FIELD_SIZE,     /* memory access size in bytes (explicit or implicit) */
	FIELD_BASE,     /* base register of the memory operand */
	FIELD_INDEX,    /* index register */
	FIELD_SEG,      /* segment register */
	FIELD_SCALE,
	FIELD_NOPS,     /* number of operands */
	FIELD_PRIORITY, /* unused in expressions; keeps the enum open */
};

/* Regex subjects: mnemonic =~ /re/, op1 =~ /re/, insn =~ /re/, mem =~ /re/ */
enum altr_subject { SUBJ_MNEM, SUBJ_INSN, SUBJ_MEM, SUBJ_OP /* + n */ };

enum altr_exprop {
	EX_TRUE,
	EX_NOT,
	EX_AND,
	EX_OR,
	EX_PRED,   /* pred */
	EX_CMP,    /* field cmp (num | reg); reg -1 means "none" */
	EX_MATCH,  /* subject [opnd] =~ re (negate: !~) */
};

enum altr_cmp { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE };

struct altr_expr {
	enum altr_exprop op;
	struct altr_expr *l, *r;
	int pred;
	enum altr_field field;
	enum altr_cmp cmp;
	long num;
	int reg;                 /* for register-valued fields; -1 = none */
	bool is_reg;             /* value is a register (or none) not a number */
	enum altr_subject subj;
	int opnd;                /* SUBJ_OP: 1-based operand number */
	bool negate;             /* !~ */
	regex_t re;              /* POSIX extended, compiled at parse time */
	char *re_src;
	int nsub;                /* capture groups in re */
	struct altr_refilter *filter; /* what a subject must hold for re to
	                            match (altr_prefilter_make), or NULL */
};

enum altr_place { PLACE_BEFORE, PLACE_AFTER, PLACE_REPLACE };

/* An assembly template: raw text with ${...} substitutions, validated at
 * parse time (unknown names are errors there). */
struct altr_action {
	enum altr_place place;
	char *tmpl;
	const char *file;        /* where the template starts, for messages */
	int line;
	struct altr_action *next;
};

/* One alternative: when (NULL: always / "else") -> actions. */
struct altr_case {
	struct altr_expr *when;
	struct altr_action *actions;
	struct altr_case *next;
};

struct altr_rule {
	char *name;
	int priority;            /* higher first; default 0 */
	int order;               /* position in load order, ties by order */
	bool final;              /* when it applies, later rules do not */
	char *list;              /* section listing its before/after code */
	struct altr_expr *match;
	struct altr_case *cases; /* the first whose when holds is applied */
	const char *file;
	int line;
	unsigned long nmatched;  /* for --stats */
	struct altr_rule *next;
};

struct altr_var {
	char *name, *value;
	bool from_cmdline;       /* -D wins over the file's var */
	struct altr_var *next;
};

struct altr_ruleset {
	struct altr_rule *rules; /* sorted by (priority desc, order) after
	                            altr_rules_finish */
	int nrules;
	struct altr_var *vars;
};

/* Defines a variable from the command line (-D NAME=VALUE). */
void altr_rules_define(struct altr_ruleset *rs, const char *name,
                       const char *value);
/* Parses path (and what it includes) into rs; on error prints
 * "altr:FILE:LINE:COL: message" and returns -1. */
int altr_rules_load(struct altr_ruleset *rs, const char *path);
/* Sorts the rules; call once after the last load. */
void altr_rules_finish(struct altr_ruleset *rs);
const char *altr_rules_var(const struct altr_ruleset *rs, const char *name);
void altr_rules_free(struct altr_ruleset *rs);
/* Names a template may use besides variables and numbers; for validation
 * and docs: "0", "mem", "addr", "size", "base", "index", "scale", "disp",
 * "seg", "mnemonic", "label", "label1".."label9", "c1".."c9". */
bool altr_tmpl_name_ok(const struct altr_ruleset *rs, const char *name);

/* ------------------------------------------------------------- prefilter.c */

/* Works out e->filter for the EX_MATCH node e from its source: literals
 * one of which any match holds (regexec is then called only on subjects
 * holding one); leaves it NULL for a regular expression it does not fully
 * understand, or when the shortcuts are off (altr_shortcuts).  One
 * allocation: free() frees it. */
void altr_prefilter_make(struct altr_expr *e);
#define ALTR_LIT_MAX 16 /* strings in a set */
#define ALTR_LIT_LEN 16 /* bytes in a string; longer ones are cut (still needed) */

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
	uint8_t len[ALTR_LIT_MAX];
	uint32_t pre[ALTR_LIT_MAX], mask[ALTR_LIT_MAX]; /* first 4 bytes, as loaded */
	char str[ALTR_LIT_MAX][ALTR_LIT_LEN];
	int ntail;               /* not whole: the regex is "R$" and any match
	                            ends with one of these strings, or 0 */
	uint64_t tlast[4];       /* bit c set if one ends with c */
	uint8_t tlen[ALTR_LIT_MAX];
	char tstr[ALTR_LIT_MAX][ALTR_LIT_LEN];
};
/* Whether subj holds one of f's literals (f->exact: the leftmost, then
 * longest, at *at, its index in *k; either may be NULL). */
bool altr_prefilter_find(const struct altr_refilter *f, struct altr_str subj,
                         size_t *at, int *k);
/* f->whole: the index of the string subj is, or -1. */
int altr_prefilter_whole(const struct altr_refilter *f, struct altr_str subj);
/* False if e cannot match subj (true when e has no filter). */
bool altr_prefilter_may_match(const struct altr_expr *e, struct altr_str subj);

/* ----------------------------------------------------------------- regex.c */

/* A regex leaf's cache of results on short subjects (opaque; free()
 * frees it). */
struct altr_regex_cache;
/* (NULL when the shortcuts are off) */
struct altr_regex_cache *altr_regex_cache_new(void);
/* Regex test e (with its negation) on subj; on a match caps gets the
 * captures (10 slices, [0] the whole match) unless caps is NULL.  cache
 * may be NULL. */
bool altr_regex_test(const struct altr_expr *e, struct altr_str subj,
                     struct altr_str caps[10], struct altr_regex_cache *cache);
/* Between these, regex results are remembered by subject text; the
 * rules evaluated must stay alive and unchanged until the end. */
void altr_regex_memo_begin(void);
void altr_regex_memo_end(void);
/* t (at most 16 bytes) packed into *a and *b, an exact key, and its slot
 * in a direct-mapped table of size entries (a power of two). */
size_t altr_regex_short_key(struct altr_str t, uint64_t *a, uint64_t *b, size_t size);

/* ----------------------------------------------------------------- match.c */

/* The explicit memory operand the database found, or NULL. */
const struct altr_operand *altr_match_mem_operand(const struct altr_insn *in);
/* Bytes the instruction accesses: its explicit operand's, else the
 * implicit access's (push, string element); 0 if unknown. */
unsigned altr_match_access_size(const struct altr_insn *in);

/* What of statement s besides its instruction and text evaluation may
 * read, as a number: statements alike in all three evaluate alike. */
unsigned altr_match_ctx(const struct altr_stmt *s);
/* The bytes of a plain label a branch or call may name ("jne .L5"):
 * their plans are shared when no rule can see which label it is. */
static inline bool altr_label_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$';
}
/* s's instruction has one operand, a label that is the end of its text,
 * after its first plen bytes.  Whether every regex test in e on a subject
 * holding the label fails whatever label is there (their filters show
 * it): e then evaluates alike for all of them. */
bool altr_match_label_blind(const struct altr_expr *e,
                           const struct altr_stmt *s, size_t plen);
/* Rule expressions compiled for evaluation: altr_matcher_add compiles e
 * (NULL: always true) and returns its entry; altr_matcher_run evaluates
 * it for a statement, leaves left to right with short cuts as C has them.
 * A statement's evaluations share an altr_eval: s set and the rest zeroed
 * before the first; caps are the captures of the last successful regex
 * (10 slices, [0] the whole match). */
struct altr_matcher;
struct altr_eval {
	const struct altr_stmt *s;
	struct altr_str caps[10];
	uint64_t known, value;   /* predicates worked out for s, by bit */
};
struct altr_matcher *altr_matcher_new(void);
int altr_matcher_add(struct altr_matcher *m, const struct altr_expr *e);
/* The same, but the entry first tests e's cheap conjuncts (predicates,
 * comparisons, whole-set regexes) and fails at once if one fails: the
 * other leaves are not evaluated, so the captures may not be those a
 * full evaluation leaves.  For when no later use can see the difference. */
int altr_matcher_add_gated(struct altr_matcher *m, const struct altr_expr *e);
bool altr_matcher_run(const struct altr_matcher *m, int entry,
                      struct altr_eval *ev);
/* The first i in [from, n) whose entries[i] holds (evaluated in order,
 * as by altr_matcher_run each), or n. */
int altr_matcher_first(const struct altr_matcher *m, const int *entries,
                       int n, int from, struct altr_eval *ev);
void altr_matcher_free(struct altr_matcher *m);

/* ------------------------------------------------------------------ emit.c */

struct altr_opts {
	bool strict;             /* unknown instructions are errors */
	bool stats;
	bool iot;                /* emit .rdb_iot (default true) */
};

struct altr_stats {
	unsigned long insns, matched_insns, flags_live_sites, groups;
	unsigned long unknown, opaque;
};

/* Applies rs to u and writes the result to out.  Returns 0, or -1 after
 * reporting an error (strict mode, bad template expansion). */
int altr_emit(struct altr_unit *u, struct altr_ruleset *rs,
              const struct altr_opts *o, FILE *out, struct altr_stats *st);

/* ---------------------------------------------------- the emitter's state
 * (emit.c writes the output; template.c, plan.c, share.c and cfi.c work
 * out what it inserts: a section each below) */

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
 * that name them: they were a large share of a trace run's output
 * (docs/perf.md), and the output's size is the time to write it and to
 * assemble it. */
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
 * by the others when no rule can see which label it is: compiled code has
 * many such texts and few shapes (docs/perf.md). */
struct shape {
	const char *p;           /* the text before the label; NULL: free */
	uint32_t plen, ctx, hash;
	int plan;                /* or -1: not to be shared */
	const struct altr_insn *insn; /* the first instruction's */
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
	struct altr_table tm;      /* of struct tmpl: compiled templates, by
	                            action */
	struct altr_kept_table deltas; /* inserted line -> %rsp delta (its
	                            text parsed once: that was a tenth of the
	                            emitter's time, and the lines repeat) */
	struct altr_str *gonames; /* label_used: the names statements that may
	                            go to a label mention, sorted; NULL: not
	                            made yet (most units never need them) */
	size_t ngonames;
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
	struct altr_kept_table codes; /* plans by that key, their code */
	struct altr_table shapes;  /* of struct shape: branches to labels, by
	                            shape */
	int errors;
	/* unknown mnemonics already warned about (once each per file) */
	char **warned;
	int nwarned, capwarned;
};


/* A rule that applied to the statement a plan is made for: its case
 * (NULL: it has none) and the captures its code may show, as they were
 * when it matched (later rules' regexes overwrite them). */
struct applied {
	const struct altr_rule *r;
	const struct altr_case *c;
	struct altr_str caps[10];
};

/* -------------------------------------------------------- template.c */

/* The compiled template of action a (compiled on first use). */
const struct tmpl *altr_tmpl_of(struct emitter *em,
                                      const struct altr_action *a);
/* Its pieces, ended by T_END. */
const struct tpiece *altr_tmpl_pieces(struct emitter *em,
                                     const struct altr_action *a);
/* A CFI hole at the end of b (the line just put there moves %rsp by d). */
void altr_tmpl_add_cfi_hole(struct holes *hs, const struct altr_buf *b, long d);
/* Writes a number of the given H_* kind as a hole: n + delta, delta
 * the statement's own. */
void altr_tmpl_put_hole(struct altr_buf *b, struct holes *hs, uint8_t kind,
                     unsigned long v, unsigned long delta);
/* Expands action a for statement s into dst, its holes into hs; false
 * (reported) on a bad substitution. */
bool altr_tmpl_expand(struct emitter *em, const struct altr_action *a,
                   const struct altr_stmt *s, unsigned long app,
                   unsigned long napp, const struct altr_str caps[10],
                   struct altr_buf *out, struct holes *ohs);

/* ------------------------------------------------------------ plan.c */

/* The rules' expressions compiled for the matcher (em->m). */
void altr_plan_compile_rules(struct emitter *em);
/* A new plan for statement s of context ctx; its index. */
int altr_plan_make(struct emitter *em, const struct altr_stmt *s,
                     unsigned ctx);
/* Applies the rules to statement si; its expansion's index into
 * em->xs, or -1 when nothing is inserted. */
int altr_plan_apply(struct emitter *em, int si);
/* The rules' match counts and the listed code's sections, from the
 * plans applied. */
void altr_plan_tally(struct emitter *em);
/* Warns once per mnemonic about an unknown instruction (an error in
 * strict mode). */
void altr_plan_warn_unknown(struct emitter *em, const struct altr_stmt *s);

/* ----------------------------------------------------------- share.c */

/* The plan kept earlier whose code is that of the key in em->xkey
 * (hash h); else -1, with *slot the free entry where a new one goes. */
int altr_share_code_find(struct emitter *em, uint32_t h, struct altr_kept **slot);
/* The plan for s (of context ctx) not kept for its instruction: that of
 * its shape, or a new one. */
int altr_share_shaped_plan(struct emitter *em, const struct altr_stmt *s,
                       unsigned ctx);

/* ------------------------------------------------------------- cfi.c */

/* How far inserted line p[0..n) moves %rsp. */
long altr_cfi_line_delta(struct emitter *em, const char *p, size_t n);

#endif
