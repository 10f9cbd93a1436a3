/* planeop.h: the one decoder of a hook's access to a shadow plane
 * (docs/hooks.md), for the runtime's shadow-page watch (watch.c) and rdb's
 * gdb server (rdb/swatch.c).  The runtime is freestanding and never links
 * rdb's code, so it is a static inline function here, on the instruction's
 * bytes and the 16 general registers in the ModRM numbering (rax, rcx,
 * rdx, rbx, rsp, rbp, rsi, rdi, r8 ... r15).
 *
 * The forms: a write hook's `mov{b,w,l,q} REG, DISP(BASE,%r14,2)` (S
 * plane; an `or` is taken too), a read hook's `mov REG, DISP(BASE,%r14)`
 * (R plane) and a checked read hook's `cmp REG, DISP(BASE,%r14)` (R
 * plane, opcodes 38/39: the flags of `cmp r/m, REG`). */
#ifndef RDB_PLANEOP_H
#define RDB_PLANEOP_H

#include <stdint.h>

enum { RDB_PLANEOP_MOV, RDB_PLANEOP_OR, RDB_PLANEOP_CMP };

struct rdb_planeop {
	unsigned len, size; /* bytes of the instruction; of the access */
	int op;             /* RDB_PLANEOP_* */
	int plane;          /* 'R' ((..,%r14)) or 'S' ((..,%r14,2)) */
	uint64_t src;       /* the register operand's value, size bytes of it */
	uint64_t ea;        /* the plane address it accesses */
};

static inline int64_t rdb_planeop_disp32(const uint8_t *p)
{
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	                 (uint32_t)p[3] << 24);
}

/* 1 and *o if the bytes at p are one of the forms above, else 0.  si_addr
 * cannot stand for the operand: for an access across a page boundary it
 * is the first byte on the protected page. */
static inline int rdb_planeop_decode(const uint8_t *p, const uint64_t g[16], struct rdb_planeop *o)
{
	unsigned i = 0, size = 4, rex = 0;
	while (i < 4 && p[i] == 0x66)
		size = 2, i++;
	if ((p[i] & 0xf0) == 0x40)
		rex = p[i++];
	unsigned opc = p[i++];
	if (opc == 0x08 || opc == 0x09)
		o->op = RDB_PLANEOP_OR;
	else if (opc == 0x88 || opc == 0x89)
		o->op = RDB_PLANEOP_MOV;
	else if (opc == 0x38 || opc == 0x39)
		o->op = RDB_PLANEOP_CMP;
	else
		return 0;
	if (!(opc & 1))
		size = 1;
	else if (rex & 8)
		size = 8;
	unsigned modrm = p[i++], mod = modrm >> 6, reg = (modrm >> 3 & 7) | (rex & 4 ? 8 : 0);
	if (mod == 3 || (modrm & 7) != 4)
		return 0; /* no SIB: not a plane's form */
	unsigned sib = p[i++], base = (sib & 7) | (rex & 1 ? 8 : 0);
	unsigned index = (sib >> 3 & 7) | (rex & 2 ? 8 : 0), scale = sib >> 6;
	if (index != 14 || scale > 1)
		return 0;
	o->plane = scale ? 'S' : 'R';
	if (o->plane == 'R' && o->op == RDB_PLANEOP_OR)
		return 0; /* no hook's */
	uint64_t ea = g[index] << scale;
	if (mod == 0 && (base & 7) == 5) {
		ea += (uint64_t)rdb_planeop_disp32(p + i);
		i += 4;
	} else
		ea += g[base];
	if (mod == 1)
		ea += (uint64_t)(int64_t)(int8_t)p[i++];
	else if (mod == 2) {
		ea += (uint64_t)rdb_planeop_disp32(p + i);
		i += 4;
	}
	uint64_t v = g[reg];
	if (size == 1 && !rex && reg >= 4 && reg < 8) /* %ah %ch %dh %bh */
		v = g[reg - 4] >> 8;
	o->len = i;
	o->size = size;
	o->src = size == 8 ? v : v & ((1ull << (size * 8)) - 1);
	o->ea = ea;
	return 1;
}

/* The status flags after `or` left res (size bytes): CF, OF clear, ZF,
 * SF, PF of the result (AF undefined: kept). */
static inline uint64_t rdb_planeop_or_flags(uint64_t efl, uint64_t res, unsigned size)
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

/* The status flags of `cmp` on equal operands (the check's, whatever the
 * plane held: docs/hooks.md): ZF and PF set, CF, AF, SF, OF clear. */
static inline uint64_t rdb_planeop_equal_flags(uint64_t efl)
{
	return (efl & ~(uint64_t)(1 | 4 | 0x10 | 0x40 | 0x80 | 0x800)) | 4 | 0x40;
}

#endif
