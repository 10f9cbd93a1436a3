/*
 * regs.c: the x86-64 register table.  Every register name GNU as accepts in
 * AT&T syntax that compilers or libc emit, with its class, number within
 * the class and size.  Lookups are linear over a small table but cached by
 * a tiny hash, since the reader looks up every operand.
 */
#include "altr.h"

#include <ctype.h>
#include <string.h>

#define GPR(q, d, w, b, n)                                                   \
	{q, RC_GPR, n, 8, false}, {d, RC_GPR, n, 4, false},                     \
	{w, RC_GPR, n, 2, false}, {b, RC_GPR, n, 1, false},
#define VEC(n)                                                               \
	{"xmm" #n, RC_XMM, n, 16, false}, {"ymm" #n, RC_YMM, n, 32, false},     \
	{"zmm" #n, RC_ZMM, n, 64, false},

const struct altr_reg altr_regs[] = {
	GPR("rax", "eax", "ax", "al", 0)
	GPR("rcx", "ecx", "cx", "cl", 1)
	GPR("rdx", "edx", "dx", "dl", 2)
	GPR("rbx", "ebx", "bx", "bl", 3)
	GPR("rsp", "esp", "sp", "spl", 4)
	GPR("rbp", "ebp", "bp", "bpl", 5)
	GPR("rsi", "esi", "si", "sil", 6)
	GPR("rdi", "edi", "di", "dil", 7)
	GPR("r8", "r8d", "r8w", "r8b", 8)
	GPR("r9", "r9d", "r9w", "r9b", 9)
	GPR("r10", "r10d", "r10w", "r10b", 10)
	GPR("r11", "r11d", "r11w", "r11b", 11)
	GPR("r12", "r12d", "r12w", "r12b", 12)
	GPR("r13", "r13d", "r13w", "r13b", 13)
	GPR("r14", "r14d", "r14w", "r14b", 14)
	GPR("r15", "r15d", "r15w", "r15b", 15)
	{"ah", RC_GPR, 0, 1, true}, {"ch", RC_GPR, 1, 1, true},
	{"dh", RC_GPR, 2, 1, true}, {"bh", RC_GPR, 3, 1, true},
	{"r8l", RC_GPR, 8, 1, false}, {"r9l", RC_GPR, 9, 1, false},
	{"r10l", RC_GPR, 10, 1, false}, {"r11l", RC_GPR, 11, 1, false},
	{"r12l", RC_GPR, 12, 1, false}, {"r13l", RC_GPR, 13, 1, false},
	{"r14l", RC_GPR, 14, 1, false}, {"r15l", RC_GPR, 15, 1, false},
	{"rip", RC_IP, 0, 8, false}, {"eip", RC_IP, 0, 4, false},
	{"es", RC_SEG, 0, 2, false}, {"cs", RC_SEG, 1, 2, false},
	{"ss", RC_SEG, 2, 2, false}, {"ds", RC_SEG, 3, 2, false},
	{"fs", RC_SEG, 4, 2, false}, {"gs", RC_SEG, 5, 2, false},
	{"st", RC_X87, 0, 10, false},
	{"st(0)", RC_X87, 0, 10, false}, {"st(1)", RC_X87, 1, 10, false},
	{"st(2)", RC_X87, 2, 10, false}, {"st(3)", RC_X87, 3, 10, false},
	{"st(4)", RC_X87, 4, 10, false}, {"st(5)", RC_X87, 5, 10, false},
	{"st(6)", RC_X87, 6, 10, false}, {"st(7)", RC_X87, 7, 10, false},
	{"mm0", RC_MMX, 0, 8, false}, {"mm1", RC_MMX, 1, 8, false},
	{"mm2", RC_MMX, 2, 8, false}, {"mm3", RC_MMX, 3, 8, false},
	{"mm4", RC_MMX, 4, 8, false}, {"mm5", RC_MMX, 5, 8, false},
	{"mm6", RC_MMX, 6, 8, false}, {"mm7", RC_MMX, 7, 8, false},
	VEC(0) VEC(1) VEC(2) VEC(3) VEC(4) VEC(5) VEC(6) VEC(7)
	VEC(8) VEC(9) VEC(10) VEC(11) VEC(12) VEC(13) VEC(14) VEC(15)
	VEC(16) VEC(17) VEC(18) VEC(19) VEC(20) VEC(21) VEC(22) VEC(23)
	VEC(24) VEC(25) VEC(26) VEC(27) VEC(28) VEC(29) VEC(30) VEC(31)
	{"k0", RC_MASK, 0, 8, false}, {"k1", RC_MASK, 1, 8, false},
	{"k2", RC_MASK, 2, 8, false}, {"k3", RC_MASK, 3, 8, false},
	{"k4", RC_MASK, 4, 8, false}, {"k5", RC_MASK, 5, 8, false},
	{"k6", RC_MASK, 6, 8, false}, {"k7", RC_MASK, 7, 8, false},
	{"cr0", RC_OTHER, 0, 8, false}, {"cr2", RC_OTHER, 2, 8, false},
	{"cr3", RC_OTHER, 3, 8, false}, {"cr4", RC_OTHER, 4, 8, false},
	{"cr8", RC_OTHER, 8, 8, false},
	{"db0", RC_OTHER, 0, 8, false}, {"db1", RC_OTHER, 1, 8, false},
	{"db2", RC_OTHER, 2, 8, false}, {"db3", RC_OTHER, 3, 8, false},
	{"db6", RC_OTHER, 6, 8, false}, {"db7", RC_OTHER, 7, 8, false},
	{"bnd0", RC_OTHER, 0, 16, false}, {"bnd1", RC_OTHER, 1, 16, false},
	{"bnd2", RC_OTHER, 2, 16, false}, {"bnd3", RC_OTHER, 3, 16, false},
};

const int altr_nregs = (int)(sizeof altr_regs / sizeof altr_regs[0]);

/* Open-addressing hash over lowercase names, built on first use. */
#define HASH_SIZE 1024
static short hash_slot[HASH_SIZE];
static uint8_t reg_len[256]; /* strlen of each name */
static bool hash_built;

static unsigned hash_name(const char *s, size_t len)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)tolower((unsigned char)s[i])) * 16777619u;
	return h;
}

static void build_hash(void)
{
	for (int i = 0; i < HASH_SIZE; i++)
		hash_slot[i] = -1;
	ALTR_ASSERT(altr_nregs <= 256);
	for (int r = 0; r < altr_nregs; r++) {
		reg_len[r] = (uint8_t)strlen(altr_regs[r].name);
		unsigned h = hash_name(altr_regs[r].name, strlen(altr_regs[r].name));
		while (hash_slot[h % HASH_SIZE] >= 0)
			h++;
		hash_slot[h % HASH_SIZE] = (short)r;
	}
	hash_built = true;
}

int altr_reg_lookup(const char *s, size_t len)
{
	char tmp[16];
	size_t n = 0;
	unsigned h = 2166136261u; /* hash_name of tmp, as it grows */
	bool nul = false;
	/* "st (3)" and "st(3)" are the same register; drop blanks. */
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == ' ' || c == '\t')
			continue;
		if (n + 1 >= sizeof tmp)
			return -1;
		if (c >= 'A' && c <= 'Z')
			c += 'a' - 'A';
		nul |= c == 0;
		tmp[n++] = (char)c;
		h = (h ^ c) * 16777619u;
	}
	tmp[n] = 0;
	if (!hash_built)
		build_hash();
	for (;; h++) {
		int r = hash_slot[h % HASH_SIZE];
		if (r < 0)
			return -1;
		/* names hold no NUL: compared as C strings, as tmp may */
		if (nul ? strcmp(altr_regs[r].name, tmp) == 0
		        : reg_len[r] == n && memcmp(altr_regs[r].name, tmp, n) == 0)
			return r;
	}
}
