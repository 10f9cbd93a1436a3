/* memaccess.c: what memory a program instruction reads and writes, for
 * rdb's gdb server watching the stack without debug registers
 * (target.c, docs/gdb.md "On the stack").  A read or access watch on
 * the stack makes the program's own pages inaccessible: every access to
 * them faults, and rdb must tell whether the faulting instruction
 * touches the watched bytes (then it stops after it) or not (then it
 * goes on, doing a plain load itself when it can).  Capstone decodes the
 * instruction; the accesses capstone leaves implicit (push, pop, call,
 * ret, leave, enter, xlat, maskmov) are added here, and the access
 * flags capstone 4 gets wrong are mended (many stores are marked reads:
 * vmovdqu, movq, movnti to memory; cmpxchg is marked a read; test
 * a write; fxsave's size is 8). */
#include <capstone/capstone.h>
#include <stddef.h>
#include <string.h>

#include "gdbserver.h"

/* Capstone's handle, opened once (0: it failed). */
static csh handle(int *ok)
{
	static csh h;
	static int state;
	if (!state) {
		state = cs_open(CS_ARCH_X86, CS_MODE_64, &h) == CS_ERR_OK ? 1 : -1;
		if (state > 0 && cs_option(h, CS_OPT_DETAIL, CS_OPT_ON) != CS_ERR_OK)
			state = -1;
	}
	*ok = state > 0;
	return h;
}

/* user_regs_struct's general registers in the ModRM numbering */
static unsigned long long *gp(struct user_regs_struct *r, int i)
{
	unsigned long long *g[16] = {&r->rax, &r->rcx, &r->rdx, &r->rbx, &r->rsp, &r->rbp,
	                             &r->rsi, &r->rdi, &r->r8,  &r->r9,  &r->r10, &r->r11,
	                             &r->r12, &r->r13, &r->r14, &r->r15};
	return g[i];
}

/* A general register of capstone's: its number (ModRM), bytes and
 * whether it is a high byte (%ah...); -1 if it is none. */
static int gpr(unsigned reg, unsigned *size, int *high)
{
	static const unsigned short legacy[][5] = {
		/* 8, 4, 2, 1 bytes, the high byte */
		{X86_REG_RAX, X86_REG_EAX, X86_REG_AX, X86_REG_AL, X86_REG_AH},
		{X86_REG_RCX, X86_REG_ECX, X86_REG_CX, X86_REG_CL, X86_REG_CH},
		{X86_REG_RDX, X86_REG_EDX, X86_REG_DX, X86_REG_DL, X86_REG_DH},
		{X86_REG_RBX, X86_REG_EBX, X86_REG_BX, X86_REG_BL, X86_REG_BH},
		{X86_REG_RSP, X86_REG_ESP, X86_REG_SP, X86_REG_SPL, 0},
		{X86_REG_RBP, X86_REG_EBP, X86_REG_BP, X86_REG_BPL, 0},
		{X86_REG_RSI, X86_REG_ESI, X86_REG_SI, X86_REG_SIL, 0},
		{X86_REG_RDI, X86_REG_EDI, X86_REG_DI, X86_REG_DIL, 0},
	};
	static const unsigned sizes[5] = {8, 4, 2, 1, 1};
	*high = 0;
	if (!reg)
		return -1;
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < 5; k++)
			if (legacy[i][k] == reg) {
				*size = sizes[k];
				*high = k == 4;
				return i;
			}
	if (reg >= X86_REG_R8 && reg <= X86_REG_R15)
		return *size = 8, 8 + (int)(reg - X86_REG_R8);
	if (reg >= X86_REG_R8D && reg <= X86_REG_R15D)
		return *size = 4, 8 + (int)(reg - X86_REG_R8D);
	if (reg >= X86_REG_R8W && reg <= X86_REG_R15W)
		return *size = 2, 8 + (int)(reg - X86_REG_R8W);
	if (reg >= X86_REG_R8B && reg <= X86_REG_R15B)
		return *size = 1, 8 + (int)(reg - X86_REG_R8B);
	return -1;
}

/* A general register's value (its low bytes, or the high byte), or -1
 * in *ok when reg is none (a vector index: a gather's). */
static uint64_t value(const struct user_regs_struct *r, unsigned reg, int *ok)
{
	unsigned size;
	int high, i = gpr(reg, &size, &high);
	if (i < 0) {
		*ok = 0;
		return 0;
	}
	uint64_t v = *gp((struct user_regs_struct *)r, i);
	if (high)
		return v >> 8 & 0xff;
	return size == 8 ? v : v & ((1ull << (size * 8)) - 1);
}

/* A memory operand's effective address (its segment's base added). */
static uint64_t address(const cs_x86 *x, const x86_op_mem *m, uint64_t next,
                        const struct user_regs_struct *r, int *ok)
{
	uint64_t ea = (uint64_t)m->disp;
	if (m->base == X86_REG_RIP || m->base == X86_REG_EIP)
		ea += next;
	else if (m->base)
		ea += value(r, m->base, ok);
	if (m->index)
		ea += value(r, m->index, ok) * (uint64_t)m->scale;
	if (x->addr_size == 4)
		ea &= 0xffffffffull;
	if (m->segment == X86_REG_FS)
		ea += r->fs_base;
	else if (m->segment == X86_REG_GS)
		ea += r->gs_base;
	return ea;
}

static void add(struct rdb_ma *o, uint64_t addr, uint32_t size, int rw, int *ok)
{
	if (o->n >= RDB_MA_MAX) {
		*ok = 0;
		return;
	}
	o->a[o->n].addr = addr;
	o->a[o->n].size = size;
	o->a[o->n].rw = rw;
	o->n++;
}

/* The string instructions (their opcodes: movs, cmps, stos, lods, scas). */
static int string_op(const cs_x86 *x)
{
	unsigned op = x->opcode[0];
	return x->opcode[1] == 0 && ((op >= 0xa4 && op <= 0xa7) || (op >= 0xaa && op <= 0xaf));
}

int rdb_ma_decode(const uint8_t *p, size_t n, const struct user_regs_struct *r, struct rdb_ma *o)
{
	int ok;
	memset(o, 0, sizeof *o);
	csh h = handle(&ok);
	cs_insn *in;
	if (!ok || cs_disasm(h, p, n, r->rip, 1, &in) != 1)
		return 0;
	const cs_x86 *x = &in->detail->x86;
	unsigned id = in->id;
	uint64_t next = r->rip + in->size, sp = r->rsp;
	o->len = in->size;
	int rep = x->prefix[0] == X86_PREFIX_REP || x->prefix[0] == X86_PREFIX_REPNE;
	switch (id) {
	case X86_INS_NOP: case X86_INS_LEA: case X86_INS_PREFETCH: case X86_INS_PREFETCHNTA:
	case X86_INS_PREFETCHT0: case X86_INS_PREFETCHT1: case X86_INS_PREFETCHT2:
	case X86_INS_PREFETCHW: case X86_INS_CLFLUSH: case X86_INS_CLFLUSHOPT: case X86_INS_CLWB:
		goto out; /* no access (a prefetch does not fault) */
	case X86_INS_XSAVE: case X86_INS_XSAVE64: case X86_INS_XSAVEC: case X86_INS_XSAVEC64:
	case X86_INS_XSAVEOPT: case X86_INS_XSAVEOPT64: case X86_INS_XSAVES: case X86_INS_XSAVES64:
	case X86_INS_XRSTOR: case X86_INS_XRSTOR64: case X86_INS_XRSTORS: case X86_INS_XRSTORS64:
		ok = 0; /* (their size is the processor's state's) */
		goto out;
	default:
		break;
	}
	if (rep && string_op(x) && (x->addr_size == 4 ? (uint32_t)r->rcx : r->rcx) == 0)
		goto out; /* a rep with no iteration left: no access */
	int reads_only = id == X86_INS_TEST || id == X86_INS_CMP || id == X86_INS_BT ||
	                 id == X86_INS_CMPSB || id == X86_INS_CMPSW || id == X86_INS_CMPSD ||
	                 id == X86_INS_CMPSQ;
	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		if (op->type != X86_OP_MEM)
			continue;
		uint64_t ea = address(x, &op->mem, next, r, &ok);
		uint32_t size = op->size;
		int rw = op->access & (CS_AC_READ | CS_AC_WRITE);
		if (reads_only)
			rw = RDB_MA_READ;
		else if (id == X86_INS_CMPXCHG || id == X86_INS_CMPXCHG8B || id == X86_INS_CMPXCHG16B)
			rw = RDB_MA_READ | RDB_MA_WRITE; /* (a failed one writes back the old value) */
		else if (i == 0 && x->op_count >= 2 && !(rw & RDB_MA_WRITE))
			rw = RDB_MA_WRITE; /* a destination capstone marks a read (a store) */
		if (id == X86_INS_FXSAVE || id == X86_INS_FXSAVE64 || id == X86_INS_FXRSTOR ||
		    id == X86_INS_FXRSTOR64)
			size = 512;
		else if (id == X86_INS_FNSAVE || id == X86_INS_FRSTOR)
			size = 108;
		if ((id == X86_INS_BT || id == X86_INS_BTS || id == X86_INS_BTR || id == X86_INS_BTC) &&
		    x->op_count == 2 && x->operands[1].type == X86_OP_REG && size) {
			/* a register's bit offset reaches beyond the operand */
			int64_t bit = (int64_t)value(r, x->operands[1].reg, &ok);
			if (size == 2)
				bit = (int16_t)bit;
			else if (size == 4)
				bit = (int32_t)bit;
			ea += (uint64_t)((bit >> (size == 2 ? 4 : size == 4 ? 5 : 6)) * (int64_t)size);
		}
		if (id == X86_INS_POP && op->mem.base == X86_REG_RSP)
			ea += size; /* (its address is computed after the pop) */
		if (!rw || !size)
			rw = RDB_MA_READ | RDB_MA_WRITE, size = size ? size : 1;
		add(o, ea, size, rw, &ok);
	}
	/* the implicit accesses */
	uint32_t size = x->op_count && x->operands[0].size ? x->operands[0].size : 8;
	if (x->op_count && x->operands[0].type == X86_OP_IMM)
		size = x->prefix[2] == X86_PREFIX_OPSIZE ? 2 : 8;
	switch (id) {
	case X86_INS_PUSH:
		add(o, sp - size, size, RDB_MA_WRITE, &ok);
		break;
	case X86_INS_PUSHF:
		add(o, sp - 2, 2, RDB_MA_WRITE, &ok);
		break;
	case X86_INS_PUSHFQ:
		add(o, sp - 8, 8, RDB_MA_WRITE, &ok);
		break;
	case X86_INS_POP:
		add(o, sp, size, RDB_MA_READ, &ok);
		break;
	case X86_INS_POPF:
		add(o, sp, 2, RDB_MA_READ, &ok);
		break;
	case X86_INS_POPFQ:
		add(o, sp, 8, RDB_MA_READ, &ok);
		break;
	case X86_INS_CALL:
		add(o, sp - 8, 8, RDB_MA_WRITE, &ok);
		break;
	case X86_INS_RET:
		add(o, sp, 8, RDB_MA_READ, &ok);
		o->pop = x->op_count && x->operands[0].type == X86_OP_IMM ? (uint64_t)x->operands[0].imm : 0;
		break;
	case X86_INS_LEAVE:
		add(o, r->rbp, 8, RDB_MA_READ, &ok);
		break;
	case X86_INS_ENTER:
		if (x->op_count != 2 || x->operands[1].type != X86_OP_IMM || x->operands[1].imm & 0x1f)
			ok = 0; /* (nesting copies frame pointers: not done) */
		else
			add(o, sp - 8, 8, RDB_MA_WRITE, &ok);
		break;
	case X86_INS_XLATB:
		add(o, r->rbx + (r->rax & 0xff), 1, RDB_MA_READ, &ok);
		break;
	case X86_INS_MASKMOVDQU: case X86_INS_VMASKMOVDQU:
		add(o, r->rdi, 16, RDB_MA_WRITE, &ok);
		break;
	case X86_INS_MASKMOVQ:
		add(o, r->rdi, 8, RDB_MA_WRITE, &ok);
		break;
	default:
		break;
	}
	/* a plain load: mov, movzx, movsx(d) into a general register; pop
	 * of one; ret */
	unsigned dsize;
	int high, dst;
	if (ok && o->n == 1 && x->op_count == 2 && x->operands[0].type == X86_OP_REG &&
	    x->operands[1].type == X86_OP_MEM && !x->prefix[0] &&
	    (id == X86_INS_MOV || id == X86_INS_MOVZX || id == X86_INS_MOVSX ||
	     id == X86_INS_MOVSXD) &&
	    (dst = gpr(x->operands[0].reg, &dsize, &high)) >= 0 && o->a[0].size <= 8) {
		o->load = RDB_MA_MOV;
		o->dst = dst, o->dsize = dsize, o->dhigh = high;
		o->sx = id == X86_INS_MOVSX || id == X86_INS_MOVSXD;
	} else if (ok && id == X86_INS_POP && o->n == 1 && x->op_count == 1 &&
	           x->operands[0].type == X86_OP_REG &&
	           (dst = gpr(x->operands[0].reg, &dsize, &high)) >= 0 && dsize == 8) {
		o->load = RDB_MA_POP;
		o->dst = dst, o->dsize = 8;
	} else if (ok && id == X86_INS_RET && o->n == 1) {
		o->load = RDB_MA_RET;
	} else if (ok && id == X86_INS_CMP && o->n == 1 && x->op_count == 2 && o->a[0].size <= 8 &&
	           !x->prefix[0]) {
		/* cmp mem, imm; cmp mem, reg; cmp reg, mem (-O0's loop tests) */
		const cs_x86_op *other = &x->operands[x->operands[0].type == X86_OP_MEM ? 1 : 0];
		if (other->type == X86_OP_IMM) {
			o->load = RDB_MA_CMP;
			o->cmp = (uint64_t)other->imm;
		} else if (other->type == X86_OP_REG && gpr(other->reg, &dsize, &high) >= 0) {
			o->load = RDB_MA_CMP;
			o->cmp = value(r, other->reg, &ok);
			o->cmprev = x->operands[0].type == X86_OP_REG;
		}
	}
out:
	cs_free(in, 1);
	return ok;
}

void rdb_ma_load(const struct rdb_ma *o, uint64_t val, struct user_regs_struct *r)
{
	if (o->load == RDB_MA_RET) {
		r->rsp += 8 + o->pop;
		r->rip = val;
		return;
	}
	r->rip += o->len;
	if (o->load == RDB_MA_CMP) {
		struct rdb_ss sub = {.op = RDB_SS_SUB, .size = o->a[0].size};
		uint64_t mask = sub.size == 8 ? ~0ull : (1ull << (8 * sub.size)) - 1;
		uint64_t efl = r->eflags;
		sub.src = (o->cmprev ? val : o->cmp) & mask;
		rdb_ss_apply(&sub, (o->cmprev ? o->cmp : val) & mask, &efl);
		r->eflags = efl;
		return;
	}
	if (o->load == RDB_MA_POP)
		r->rsp += 8; /* (first: a pop of %rsp loads it) */
	unsigned s = o->a[0].size;
	uint64_t v = val;
	if (s < 8) {
		v &= (1ull << (8 * s)) - 1;
		if (o->sx && (v >> (8 * s - 1) & 1))
			v |= ~0ull << (8 * s);
	}
	unsigned long long *d = gp(r, o->dst);
	switch (o->dsize) {
	case 8: *d = v; break;
	case 4: *d = v & 0xffffffffull; break;
	case 2: *d = (*d & ~0xffffull) | (v & 0xffff); break;
	default:
		if (o->dhigh)
			*d = (*d & ~0xff00ull) | (v & 0xff) << 8;
		else
			*d = (*d & ~0xffull) | (v & 0xff);
	}
}
