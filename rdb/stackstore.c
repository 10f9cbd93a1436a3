/* stackstore.c: the program's stores rdb's gdb server does itself on a
 * watched stack page (target.c, docs/gdb.md "Watchpoints without debug
 * registers", "Cost on the stack").  A write watch on the stack makes the
 * program's own page read-only: every store to it faults.  Most of those
 * stores are not to the watched bytes (a loop's counter beside them);
 * running one means two injected mprotects and a step.  The plainest
 * forms are done instead through ptrace (which writes read-only pages):
 * mov of a register or an immediate to memory, add or sub of one (all
 * their flags defined), with no prefix but 66 and REX; and push of a
 * register or an immediate, call rel32 (a frame's return address and
 * saved registers, at -O1 and up the most of a stack's writes). */
#include "gdbserver.h"
#include "planeop.h"

/* (a sign-extended 32-bit field: displacement, imm32, rel32) */
static uint64_t disp32(const uint8_t *p) { return (uint64_t)rdb_planeop_disp32(p); }

int rdb_ss_decode(const uint8_t p[16], const struct user_regs_struct *r, struct rdb_ss *o)
{
	const uint64_t g[16] = {r->rax, r->rcx, r->rdx, r->rbx, r->rsp, r->rbp, r->rsi, r->rdi,
	                        r->r8,  r->r9,  r->r10, r->r11, r->r12, r->r13, r->r14, r->r15};
	unsigned i = 0, size = 4, rex = 0;
	if (p[i] == 0x66)
		size = 2, i++;
	if ((p[i] & 0xf0) == 0x40)
		rex = p[i++];
	unsigned opc = p[i++], imm = 0, ext = 0;
	o->rsp = 0;
	o->jump = 0;
	if ((opc >= 0x50 && opc < 0x58) || opc == 0x68 || opc == 0x6a || opc == 0xe8) {
		if (size == 2)
			return 0; /* (a 2-byte push) */
		uint64_t v;
		if (opc < 0x58)
			v = g[(opc & 7) | (rex & 1 ? 8 : 0)];
		else if (opc == 0x6a)
			v = (uint64_t)(int64_t)(int8_t)p[i++];
		else {
			v = disp32(p + i); /* (imm32 or rel32) */
			i += 4;
		}
		if (opc == 0xe8) {
			o->jump = r->rip + i + v;
			v = r->rip + i; /* the return address */
		}
		o->op = RDB_SS_MOV;
		o->len = i;
		o->size = 8;
		o->ea = r->rsp - 8;
		o->src = v;
		o->rsp = -8;
		return 1;
	}
	switch (opc) {
	case 0x88: case 0x89: o->op = RDB_SS_MOV; break;
	case 0x00: case 0x01: o->op = RDB_SS_ADD; break;
	case 0x28: case 0x29: o->op = RDB_SS_SUB; break;
	case 0xc6: case 0xc7: o->op = RDB_SS_MOV, imm = opc == 0xc6 ? 1 : 4, ext = 1; break;
	case 0x80: imm = 1, ext = 1; break;
	case 0x81: imm = 4, ext = 1; break;
	case 0x83: imm = 1, ext = 1; break; /* (a byte, sign-extended) */
	default: return 0;
	}
	if (!(opc & 1))
		size = 1;
	else if (rex & 8)
		size = 8;
	if (imm == 4 && size == 2)
		imm = 2;
	unsigned modrm = p[i++], mod = modrm >> 6, reg = (modrm >> 3 & 7) | (rex & 4 ? 8 : 0);
	if (mod == 3)
		return 0; /* no memory operand */
	if (ext) {
		unsigned n = modrm >> 3 & 7;
		if (opc >= 0xc6 ? n != 0 : n != 0 && n != 5)
			return 0; /* (or, and, xor, adc, sbb: not done here; cmp writes nothing) */
		if (opc < 0xc6)
			o->op = n ? RDB_SS_SUB : RDB_SS_ADD;
	}
	uint64_t ea = 0;
	int riprel = 0;
	if ((modrm & 7) == 4) {
		unsigned sib = p[i++], base = (sib & 7) | (rex & 1 ? 8 : 0);
		unsigned index = (sib >> 3 & 7) | (rex & 2 ? 8 : 0);
		if (index != 4)
			ea = g[index] << (sib >> 6);
		if (mod == 0 && (base & 7) == 5) {
			ea += disp32(p + i);
			i += 4;
		} else
			ea += g[base];
	} else if (mod == 0 && (modrm & 7) == 5) {
		riprel = 1; /* (the next instruction's address, known at the end) */
		ea = disp32(p + i);
		i += 4;
	} else
		ea = g[(modrm & 7) | (rex & 1 ? 8 : 0)];
	if (mod == 1)
		ea += (uint64_t)(int64_t)(int8_t)p[i++];
	else if (mod == 2) {
		ea += disp32(p + i);
		i += 4;
	}
	uint64_t v;
	if (imm == 1)
		v = (uint64_t)(int64_t)(int8_t)p[i];
	else if (imm == 2)
		v = (uint64_t)p[i] | (uint64_t)p[i + 1] << 8;
	else if (imm == 4)
		v = disp32(p + i);
	else if (size == 1 && !rex && reg >= 4 && reg < 8)
		v = g[reg - 4] >> 8; /* %ah %ch %dh %bh */
	else
		v = g[reg];
	i += imm;
	if (riprel)
		ea += r->rip + i;
	o->len = i;
	o->size = size;
	o->ea = ea;
	o->src = size == 8 ? v : v & ((1ull << (size * 8)) - 1);
	return 1;
}

uint64_t rdb_ss_apply(const struct rdb_ss *o, uint64_t old, uint64_t *efl)
{
	if (o->op == RDB_SS_MOV)
		return o->src;
	unsigned bits = o->size * 8;
	uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1, a = old & mask, b = o->src;
	uint64_t res = (o->op == RDB_SS_ADD ? a + b : a - b) & mask, top = 1ull << (bits - 1);
	const uint64_t cf = 1, pf = 4, af = 0x10, zf = 0x40, sf = 0x80, of = 0x800;
	uint64_t f = *efl & ~(cf | pf | af | zf | sf | of);
	if (o->op == RDB_SS_ADD ? res < a : a < b)
		f |= cf;
	if (!(__builtin_popcount((unsigned)(res & 0xff)) & 1))
		f |= pf;
	if ((a ^ b ^ res) & 0x10)
		f |= af;
	if (!res)
		f |= zf;
	if (res & top)
		f |= sf;
	if ((o->op == RDB_SS_ADD ? (a ^ res) & (b ^ res) : (a ^ b) & (a ^ res)) & top)
		f |= of;
	*efl = f;
	return res;
}
