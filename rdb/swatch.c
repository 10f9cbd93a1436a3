/* swatch.c: the instructions rdb's gdb server meets when it watches
 * writes through the shadow pages (target.c, docs/gdb.md "Watchpoints
 * without debug registers").  Every hooked store of the program writes
 * the S plane first (docs/hooks.md): `mov{b,w,l,q} %r13, DISP(BASE,%r14,2)`
 * (an `or` is read too, as runtime/watch.c does).  With the S plane pages
 * under the watched bytes read-only, that store faults; rdb decodes it
 * here, does it itself and tells whether it marks watched bytes. */
#include <stddef.h>
#include <string.h>

#include "gdbserver.h"

/* user_regs_struct's general registers in the ModRM numbering */
static uint64_t gpr(const struct user_regs_struct *r, unsigned i)
{
	switch (i) {
	case 0: return r->rax;
	case 1: return r->rcx;
	case 2: return r->rdx;
	case 3: return r->rbx;
	case 4: return r->rsp;
	case 5: return r->rbp;
	case 6: return r->rsi;
	case 7: return r->rdi;
	case 8: return r->r8;
	case 9: return r->r9;
	case 10: return r->r10;
	case 11: return r->r11;
	case 12: return r->r12;
	case 13: return r->r13;
	case 14: return r->r14;
	default: return r->r15;
	}
}

static int32_t disp32(const uint8_t *p)
{
	int32_t d;
	memcpy(&d, p, 4);
	return d;
}

int rdb_sw_decode(const uint8_t p[16], const struct user_regs_struct *r, struct rdb_sw_store *st)
{
	unsigned i = 0, size = 4, rex = 0;
	while (i < 4 && p[i] == 0x66)
		size = 2, i++;
	if ((p[i] & 0xf0) == 0x40)
		rex = p[i++];
	if (p[i] != 0x08 && p[i] != 0x09 && p[i] != 0x88 && p[i] != 0x89)
		return 0;
	st->is_or = p[i] < 0x88;
	if (p[i] == 0x08 || p[i] == 0x88)
		size = 1;
	else if (rex & 8)
		size = 8;
	i++;
	unsigned modrm = p[i++], mod = modrm >> 6, reg = (modrm >> 3 & 7) | (rex & 4 ? 8 : 0);
	if (mod == 3 || (modrm & 7) != 4)
		return 0; /* no SIB: not the plane's form */
	unsigned sib = p[i++], base = (sib & 7) | (rex & 1 ? 8 : 0);
	unsigned index = (sib >> 3 & 7) | (rex & 2 ? 8 : 0);
	if (index != 14 || sib >> 6 != 1)
		return 0;
	uint64_t ea = gpr(r, index) << 1;
	if (mod == 0 && (base & 7) == 5) {
		ea += (uint64_t)(int64_t)disp32(p + i);
		i += 4;
	} else
		ea += gpr(r, base);
	if (mod == 1)
		ea += (uint64_t)(int64_t)(int8_t)p[i++];
	else if (mod == 2) {
		ea += (uint64_t)(int64_t)disp32(p + i);
		i += 4;
	}
	uint64_t v = gpr(r, reg);
	if (size == 1 && !rex && reg >= 4 && reg < 8) /* %ah %ch %dh %bh */
		v = gpr(r, reg - 4) >> 8;
	st->len = i;
	st->size = size;
	st->src = size == 8 ? v : v & ((1ull << (size * 8)) - 1);
	st->ea = ea;
	return 1;
}

uint64_t rdb_sw_or_flags(uint64_t efl, uint64_t res, unsigned size)
{
	const uint64_t cf = 1, pf = 4, zf = 0x40, sf = 0x80, of = 0x800;
	efl &= ~(cf | pf | zf | sf | of);
	if (!res)
		efl |= zf;
	if (res >> (size * 8 - 1) & 1)
		efl |= sf;
	if (!(__builtin_popcount((unsigned)(res & 0xff)) & 1))
		efl |= pf;
	return efl;
}

int rdb_sw_is_hook(const uint8_t b[8])
{
	size_t i = b[0] == 0x66 ? 1 : 0;
	if (b[0] == 0x90 || (b[i] == 0x0f && b[i + 1] == 0x1f))
		return 1; /* a hook a replay made a no-op */
	unsigned rex = (b[i] & 0xf0) == 0x40 ? b[i++] : 0;
	unsigned op = b[i], modrm = b[i + 1], sib = b[i + 2];
	if (op == 0x8d) /* lea ..., %r12 */
		return (rex & 0x4) && (modrm >> 3 & 7) == 4 && (modrm >> 6) != 3;
	/* a store of %r13 to the S plane */
	return (op == 0x88 || op == 0x89) && (rex & 0x4) && (modrm >> 3 & 7) == 5 &&
	       (modrm & 7) == 4 && (modrm >> 6) != 3 && (rex & 0x2) && (sib >> 3 & 7) == 6 &&
	       (sib >> 6) == 1;
}
