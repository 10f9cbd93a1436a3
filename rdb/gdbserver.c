/* gdbserver.c: gdb's remote protocol commands, answered from a replay
 * (target.c) and its timeline (timeline.c).  All-stop, no writes: a
 * replay is the recorded run, so memory and register writes are refused
 * (gdb shows the error), and going back (bc, bs) replays again.  Threads
 * (docs/threads.md): gdb sees every live thread of the replay, each named
 * by its slot and birth (the same id at any position, in any replay);
 * the one that stopped runs, the others' registers are where they wait.
 * The register layout is the target description below, regnum by regnum. */
#include <errno.h>
#include <stdarg.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gdbserver.h"
#include "layout.h"

/* ---- registers ---------------------------------------------------------------- */

enum { GPR, FX16, FX32, FTAG, FOP, XMM, YMMH, ST };
#define UR(f) offsetof(struct user_regs_struct, f)
/* name, bits, type, group (NULL: none), where, offset or index */
#define REGS(X)                                                                         \
	X(rax, 64, "int64", 0, GPR, UR(rax)) X(rbx, 64, "int64", 0, GPR, UR(rbx))              \
	X(rcx, 64, "int64", 0, GPR, UR(rcx)) X(rdx, 64, "int64", 0, GPR, UR(rdx))              \
	X(rsi, 64, "int64", 0, GPR, UR(rsi)) X(rdi, 64, "int64", 0, GPR, UR(rdi))              \
	X(rbp, 64, "data_ptr", 0, GPR, UR(rbp)) X(rsp, 64, "data_ptr", 0, GPR, UR(rsp))        \
	X(r8, 64, "int64", 0, GPR, UR(r8)) X(r9, 64, "int64", 0, GPR, UR(r9))                  \
	X(r10, 64, "int64", 0, GPR, UR(r10)) X(r11, 64, "int64", 0, GPR, UR(r11))              \
	X(r12, 64, "int64", 0, GPR, UR(r12)) X(r13, 64, "int64", 0, GPR, UR(r13))              \
	X(r14, 64, "int64", 0, GPR, UR(r14)) X(r15, 64, "int64", 0, GPR, UR(r15))              \
	X(rip, 64, "code_ptr", 0, GPR, UR(rip)) X(eflags, 32, "i386_eflags", 0, GPR, UR(eflags)) \
	X(cs, 32, "int32", 0, GPR, UR(cs)) X(ss, 32, "int32", 0, GPR, UR(ss))                  \
	X(ds, 32, "int32", 0, GPR, UR(ds)) X(es, 32, "int32", 0, GPR, UR(es))                  \
	X(fs, 32, "int32", 0, GPR, UR(fs)) X(gs, 32, "int32", 0, GPR, UR(gs))                  \
	X(st0, 80, "i387_ext", 0, ST, 0) X(st1, 80, "i387_ext", 0, ST, 1)                      \
	X(st2, 80, "i387_ext", 0, ST, 2) X(st3, 80, "i387_ext", 0, ST, 3)                      \
	X(st4, 80, "i387_ext", 0, ST, 4) X(st5, 80, "i387_ext", 0, ST, 5)                      \
	X(st6, 80, "i387_ext", 0, ST, 6) X(st7, 80, "i387_ext", 0, ST, 7)                      \
	X(fctrl, 32, "int", "float", FX16, 0) X(fstat, 32, "int", "float", FX16, 2)            \
	X(ftag, 32, "int", "float", FTAG, 0) X(fiseg, 32, "int", "float", FX32, 12)            \
	X(fioff, 32, "int", "float", FX32, 8) X(foseg, 32, "int", "float", FX32, 20)           \
	X(fooff, 32, "int", "float", FX32, 16) X(fop, 32, "int", "float", FOP, 6)              \
	X(xmm0, 128, "vec128", 0, XMM, 0) X(xmm1, 128, "vec128", 0, XMM, 1)                    \
	X(xmm2, 128, "vec128", 0, XMM, 2) X(xmm3, 128, "vec128", 0, XMM, 3)                    \
	X(xmm4, 128, "vec128", 0, XMM, 4) X(xmm5, 128, "vec128", 0, XMM, 5)                    \
	X(xmm6, 128, "vec128", 0, XMM, 6) X(xmm7, 128, "vec128", 0, XMM, 7)                    \
	X(xmm8, 128, "vec128", 0, XMM, 8) X(xmm9, 128, "vec128", 0, XMM, 9)                    \
	X(xmm10, 128, "vec128", 0, XMM, 10) X(xmm11, 128, "vec128", 0, XMM, 11)                \
	X(xmm12, 128, "vec128", 0, XMM, 12) X(xmm13, 128, "vec128", 0, XMM, 13)                \
	X(xmm14, 128, "vec128", 0, XMM, 14) X(xmm15, 128, "vec128", 0, XMM, 15)                \
	X(mxcsr, 32, "i386_mxcsr", "vector", FX32, 24)                                         \
	X(orig_rax, 64, "int", 0, GPR, UR(orig_rax))                                           \
	X(fs_base, 64, "int", 0, GPR, UR(fs_base)) X(gs_base, 64, "int", 0, GPR, UR(gs_base))  \
	X(ymm0h, 128, "uint128", 0, YMMH, 0) X(ymm1h, 128, "uint128", 0, YMMH, 1)              \
	X(ymm2h, 128, "uint128", 0, YMMH, 2) X(ymm3h, 128, "uint128", 0, YMMH, 3)              \
	X(ymm4h, 128, "uint128", 0, YMMH, 4) X(ymm5h, 128, "uint128", 0, YMMH, 5)              \
	X(ymm6h, 128, "uint128", 0, YMMH, 6) X(ymm7h, 128, "uint128", 0, YMMH, 7)              \
	X(ymm8h, 128, "uint128", 0, YMMH, 8) X(ymm9h, 128, "uint128", 0, YMMH, 9)              \
	X(ymm10h, 128, "uint128", 0, YMMH, 10) X(ymm11h, 128, "uint128", 0, YMMH, 11)          \
	X(ymm12h, 128, "uint128", 0, YMMH, 12) X(ymm13h, 128, "uint128", 0, YMMH, 13)          \
	X(ymm14h, 128, "uint128", 0, YMMH, 14) X(ymm15h, 128, "uint128", 0, YMMH, 15)

static const struct reg {
	const char *name;
	int bits;
	const char *type, *group;
	int where;
	size_t off;
} regs[] = {
#define R(n, b, t, g, w, o) {#n, b, t, g, w, o},
	REGS(R)
#undef R
};
enum { NREGS = sizeof regs / sizeof regs[0] };
/* where each feature's registers begin */
enum { FIRST_SSE = 40, FIRST_LINUX = 57, FIRST_SEG = 58, FIRST_AVX = 60 };

static char *tdesc;

/* The target description: gdb's amd64 GNU/Linux features, with AVX. */
static const char *target_xml(void)
{
	if (tdesc)
		return tdesc;
	size_t cap = 32768, n = 0;
	tdesc = rdb_xmalloc(cap);
#define ADD(...) (n += (size_t)snprintf(tdesc + n, cap - n, __VA_ARGS__))
	ADD("<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
	    "<target version=\"1.0\">\n<architecture>i386:x86-64</architecture>\n"
	    "<osabi>GNU/Linux</osabi>\n<feature name=\"org.gnu.gdb.i386.core\">\n"
	    "<flags id=\"i386_eflags\" size=\"4\">\n");
	static const char *const ef[] = {"CF", "", "PF", "AF", "ZF", "SF", "TF", "IF", "DF",
	                                 "OF", "NT", "RF", "VM", "AC", "VIF", "VIP", "ID"};
	static const int efbit[] = {0, 1, 2, 4, 6, 7, 8, 9, 10, 11, 14, 16, 17, 18, 19, 20, 21};
	for (size_t i = 0; i < sizeof ef / sizeof *ef; i++)
		ADD("<field name=\"%s\" start=\"%d\" end=\"%d\"/>\n", ef[i], efbit[i], efbit[i]);
	ADD("</flags>\n");
	for (int r = 0; r < NREGS; r++) {
		if (r == FIRST_SSE) {
			ADD("</feature>\n<feature name=\"org.gnu.gdb.i386.sse\">\n"
			    "<vector id=\"v4f\" type=\"ieee_single\" count=\"4\"/>\n"
			    "<vector id=\"v2d\" type=\"ieee_double\" count=\"2\"/>\n"
			    "<vector id=\"v16i8\" type=\"int8\" count=\"16\"/>\n"
			    "<vector id=\"v8i16\" type=\"int16\" count=\"8\"/>\n"
			    "<vector id=\"v4i32\" type=\"int32\" count=\"4\"/>\n"
			    "<vector id=\"v2i64\" type=\"int64\" count=\"2\"/>\n"
			    "<union id=\"vec128\"><field name=\"v4_float\" type=\"v4f\"/>"
			    "<field name=\"v2_double\" type=\"v2d\"/><field name=\"v16_int8\" type=\"v16i8\"/>"
			    "<field name=\"v8_int16\" type=\"v8i16\"/><field name=\"v4_int32\" type=\"v4i32\"/>"
			    "<field name=\"v2_int64\" type=\"v2i64\"/><field name=\"uint128\" type=\"uint128\"/>"
			    "</union>\n<flags id=\"i386_mxcsr\" size=\"4\">\n");
			static const char *const mx[] = {"IE", "DE", "ZE", "OE", "UE", "PE", "DAZ",
			                                 "IM", "DM", "ZM", "OM", "UM", "PM", "FZ"};
			for (int i = 0; i < 14; i++)
				ADD("<field name=\"%s\" start=\"%d\" end=\"%d\"/>\n", mx[i], i + (i == 13 ? 1 : 0),
				    i + (i == 13 ? 1 : 0));
			ADD("</flags>\n");
		}
		if (r == FIRST_LINUX)
			ADD("</feature>\n<feature name=\"org.gnu.gdb.i386.linux\">\n");
		if (r == FIRST_SEG)
			ADD("</feature>\n<feature name=\"org.gnu.gdb.i386.segments\">\n");
		if (r == FIRST_AVX)
			ADD("</feature>\n<feature name=\"org.gnu.gdb.i386.avx\">\n");
		ADD("<reg name=\"%s\" bitsize=\"%d\" type=\"%s\" regnum=\"%d\"%s%s%s/>\n", regs[r].name,
		    regs[r].bits, regs[r].type, r, regs[r].group ? " group=\"" : "",
		    regs[r].group ? regs[r].group : "", regs[r].group ? "\"" : "");
	}
	ADD("</feature>\n</target>\n");
#undef ADD
	return tdesc;
}

/* Byte offsets in the fxsave image: the x87 status word (16 bits), the
 * abridged tag word (8 bits, one per register), the last opcode (11 bits
 * of 16), then the eight 16-byte x87 registers (ST) and the XMM ones. */
enum { FXS_FSW = 2, FXS_FTW = 4, FXS_FOP = 6, FXS_ST = 32, FXS_XMM = 160 };

/* The full x87 tag word from fxsave's abridged one. */
static uint32_t full_ftag(const uint8_t *fx)
{
	unsigned fsw = fx[FXS_FSW] | fx[FXS_FSW + 1] << 8, top = (fsw >> 11) & 7, tag = 0;
	for (unsigned phys = 0; phys < 8; phys++) {
		unsigned t = 3;
		if (fx[FXS_FTW] & (1u << phys)) {
			const uint8_t *v = fx + FXS_ST + 16 * ((phys - top) & 7);
			unsigned exp = (v[8] | v[9] << 8) & 0x7fff;
			uint64_t mant;
			memcpy(&mant, v, 8);
			if (exp == 0x7fff)
				t = 2;
			else if (exp == 0)
				t = mant ? 2 : 1;
			else
				t = (mant >> 63) ? 0 : 2;
		}
		tag |= t << (2 * phys);
	}
	return tag;
}

/* Register r's bytes (little-endian) into out: its size.  other: a
 * thread that waits (its general registers only: rdb does not read the
 * FPU state the runtime keeps for it, shown as zeros), else the one
 * stopped. */
static size_t reg_bytes(struct rdb_tg *t, const struct user_regs_struct *other, int r,
                        uint8_t *out)
{
	const struct reg *g = &regs[r];
	size_t n = (size_t)g->bits / 8;
	memset(out, 0, n);
	const struct user_regs_struct *u = other ? other : rdb_tg_regs(t);
	if (!u || (other && g->where != GPR))
		return n;
	static uint8_t fx[512], ymmh[256];
	if (g->where != GPR && rdb_tg_fpregs(t, fx, ymmh))
		return n;
	uint32_t v32;
	switch (g->where) {
	case GPR:
		memcpy(out, (const char *)u + g->off, n);
		break;
	case ST:
		memcpy(out, fx + FXS_ST + 16 * g->off, 10);
		break;
	case FX16:
		memcpy(out, fx + g->off, 2);
		break;
	case FX32:
		memcpy(out, fx + g->off, 4);
		break;
	case FOP:
		v32 = (uint32_t)(fx[FXS_FOP] | fx[FXS_FOP + 1] << 8) & 0x7ff;
		memcpy(out, &v32, 4);
		break;
	case FTAG:
		v32 = full_ftag(fx);
		memcpy(out, &v32, 4);
		break;
	case XMM:
		memcpy(out, fx + FXS_XMM + 16 * g->off, 16);
		break;
	case YMMH:
		memcpy(out, ymmh + 16 * g->off, 16);
		break;
	}
	return n;
}

/* ---- helpers ------------------------------------------------------------------- */

struct srv {
	struct rdb_rsp *c;
	struct rdb_tg *t;
	struct rdb_tl *l;
	struct rdb_gm *mem; /* what gdb may read (gdbmem.c) */
	uint64_t from;
	unsigned long tid; /* the main thread's id for gdb: the first replay's pid, for good */
	unsigned long sel; /* the thread gdb's Hg chose (0: the one stopped) */
	struct user_regs_struct sel_regs; /* ... its registers, when it waits */
	int sel_waits;
	int killed, detached;
	char *out;
	size_t cap;
};

static const char hx[] = "0123456789abcdef";

static void put_hex(char *o, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		o[2 * i] = hx[b[i] >> 4];
		o[2 * i + 1] = hx[b[i] & 15];
	}
	o[2 * n] = 0;
}

static int unhex(const char *s, size_t n, uint8_t *out)
{
	for (size_t i = 0; i < n; i++) {
		int a = s[2 * i], b = s[2 * i + 1];
		int va = a >= '0' && a <= '9' ? a - '0' : a >= 'a' && a <= 'f' ? a - 'a' + 10 : -1;
		int vb = b >= '0' && b <= '9' ? b - '0' : b >= 'a' && b <= 'f' ? b - 'a' + 10 : -1;
		if (va < 0 || vb < 0)
			return -1;
		out[i] = (uint8_t)(va * 16 + vb);
	}
	return 0;
}

static char *scratch(struct srv *s, size_t n)
{
	if (n > s->cap) {
		s->cap = n;
		s->out = rdb_xrealloc(s->out, n);
	}
	return s->out;
}

/* Linux's signal numbers as gdb's (include/gdb/signals.def). */
static int gdb_signal(int sig)
{
	static const int map[32] = {0,  1,  2,  3,  4,  5,  6,  10, 8,  9,  30, 11, 31, 13, 14, 15,
	                            36, 20, 19, 17, 18, 21, 22, 16, 24, 25, 26, 27, 28, 23, 32, 12};
	if (sig > 0 && sig < 32)
		return map[sig];
	if (sig == 32)
		return 77;
	if (sig >= 33 && sig <= 63)
		return sig + 12;
	return 143; /* GDB_SIGNAL_UNKNOWN */
}

static int reply(struct srv *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int reply(struct srv *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = rdb_rsp_vputf(s->c, fmt, ap);
	va_end(ap);
	return r;
}

/* "": a packet rdb does not support. */
static int empty(struct srv *s) { return rdb_rsp_put(s->c, "", 0); }

/* ---- threads ------------------------------------------------------------ */

/* A thread's id for gdb: the main thread's is the pid gdb saw first; any
 * other's says its birth and slot in decimal (gdb prints it so), never a
 * pid (above 4194304): born at syscall 57 in slot 3 is 1000570003. */
static unsigned long thread_id(const struct srv *s, uint32_t slot, uint64_t born)
{
	if (!slot)
		return s->tid;
	return 1000000000ul + (unsigned long)born * 10000ul + slot;
}

/* The live threads where the replay is stopped (*v: rdb_free it). */
static int threads(struct srv *s, struct rdb_tg_thread **v)
{
	*v = NULL;
	if (!rdb_tg_threaded(s->t))
		return 0;
	return rdb_tg_threads(s->t, v);
}

/* The id of the thread that stopped. */
static unsigned long cur_id(struct srv *s)
{
	struct rdb_tg_thread *v;
	int n = threads(s, &v);
	unsigned long id = s->tid;
	for (int i = 0; i < n; i++)
		if (v[i].how == 0)
			id = thread_id(s, v[i].slot, v[i].born);
	rdb_free(v);
	return id;
}

/* Thread `id` among the live ones: 0 and *out, or -1. */
static int find_thread(struct srv *s, unsigned long id, struct rdb_tg_thread *out)
{
	struct rdb_tg_thread *v;
	int n = threads(s, &v), r = -1;
	for (int i = 0; i < n && r; i++)
		if (thread_id(s, v[i].slot, v[i].born) == id) {
			*out = v[i];
			r = 0;
		}
	rdb_free(v);
	return r;
}

static const char *park_what(uint32_t how)
{
	switch (how) {
	case 0:
		return "running";
	case RDB_TF_PARK_SLICE:
		return "waiting for its turn (after a time slice)";
	case RDB_TF_PARK_BLOCKED:
		return "blocked in a call";
	case RDB_TF_PARK_NEW:
		return "made, not started";
	default:
		return "waiting (registers not known)";
	}
}

/* A stop as gdb wants it; kind 0: the start of history. */
static int stop_reply(struct srv *s, const struct rdb_tg_stop *st)
{
	/* the thread that stopped: gdb selects it */
	s->sel = 0;
	s->sel_waits = 0;
	unsigned long id = st->kind == TG_EXITED ? s->tid : cur_id(s);
	switch (st->kind) {
	case 0:
		return reply(s, "T05replaylog:begin;thread:%lx;", id);
	case TG_STEPPED:
	case TG_BREAK: {
		/* While a write watchpoint is set, gdb checks its value at every
		 * stop, silent while it stays, as it does a software
		 * watchpoint's (record full's transcripts list it at each stop).
		 * The pc is a breakpoint's already: no swbreak needed. */
		int kind;
		uint64_t a, len;
		for (int i = 0; rdb_tg_watch_get(s->t, i, &kind, &a, &len); i++)
			if (kind == 2)
				return reply(s, "T05watch:%llx;thread:%lx;", (unsigned long long)a, id);
		if (st->kind == TG_BREAK)
			return reply(s, "T05swbreak:;thread:%lx;", id);
		return reply(s, "T05thread:%lx;", id);
	}
	case TG_COUNT:
		return reply(s, "T05thread:%lx;", id);
	case TG_WATCH:
		return reply(s, "T05%swatch:%llx;thread:%lx;",
		             st->value == 3 ? "r" : st->value == 4 ? "a" : "",
		             (unsigned long long)st->addr, id);
	case TG_SIGNAL:
		return reply(s, "T%02xthread:%lx;", gdb_signal(st->sig), id);
	case TG_INTR:
		return reply(s, "T02thread:%lx;", id);
	case TG_EXITED:
		if (st->sig)
			return reply(s, "X%02x", gdb_signal(st->sig));
		return reply(s, "W%02x", st->value & 0xff);
	default:
		return reply(s, "E01");
	}
}

static int poll_intr(void *ctx)
{
	int r = rdb_rsp_poll_interrupt(((struct srv *)ctx)->c);
	return r != 0; /* the end of the connection stops the program too */
}

/* qXfer's answer: the part [off, off+len) of data, binary-escaped. */
static int xfer(struct srv *s, const uint8_t *data, size_t size, const char *range)
{
	unsigned long long off, len;
	if (sscanf(range, "%llx,%llx", &off, &len) != 2)
		return reply(s, "E01");
	if (off >= size)
		return reply(s, "l");
	size_t n = size - off < len ? size - off : len;
	char *o = scratch(s, 2 * n + 2);
	size_t k = 0;
	o[k++] = n < size - off ? 'm' : 'l';
	for (size_t i = 0; i < n; i++) {
		uint8_t b = data[off + i];
		if (b == '$' || b == '#' || b == '}' || b == '*') {
			o[k++] = '}';
			b ^= 0x20;
		}
		o[k++] = (char)b;
	}
	return rdb_rsp_put(s->c, o, k);
}

/* gdb's monitor command: its output as O packets, then OK. */
static int monitor_out(struct srv *s, const char *text)
{
	size_t n = strlen(text);
	char *o = scratch(s, 2 * n + 2);
	o[0] = 'O';
	put_hex(o + 1, (const uint8_t *)text, n);
	return rdb_rsp_put(s->c, o, 2 * n + 1);
}

/* monitor flowback: where a write the replay of the current interval
 * reports lies against here (the current count's positions walked). */
struct fb_here {
	const struct rdb_pos *seg;
	size_t n;
	uint64_t bias;
};

static int fb_before(void *ctx, const struct rdb_tf_watch_hit *h)
{
	const struct fb_here *f = ctx;
	const struct rdb_pos *cur = &f->seg[f->n - 1];
	if (h->sic < f->seg[0].count)
		return 1;
	if (h->sic > cur->count)
		return 0;
	if (h->kind != RDB_TF_WH_PROGRAM) {
		/* a syscall's (or the runtime's) writes: in the call that began
		 * count h->sic, after its check */
		int first = 1;
		for (size_t i = 0; i + 1 < f->n; i++)
			first &= f->seg[i].count != cur->count;
		return h->sic < cur->count || !first;
	}
	/* the writer's pc as the runtime saw it may be past the instruction's
	 * start (a rep instruction's): the closest position at or below it,
	 * unless here is closer (the write is yet to come) */
	uint64_t hp = h->pc + f->bias, best = 0;
	int found = 0;
	for (size_t i = 0; i + 1 < f->n; i++) {
		uint64_t pc = f->seg[i].pc;
		if (f->seg[i].count == h->sic && pc <= hp && hp - pc < 16 && (!found || pc > best)) {
			best = pc;
			found = 1;
		}
	}
	return found && !(cur->count == h->sic && cur->pc <= hp && cur->pc > best);
}

/* rdb flowback WHAT [SIZE] from here, in a child process (bad input ends
 * it, not the session): its output, to free. */
static char *flowback(struct srv *s, const char *args)
{
	char what[256] = "";
	unsigned long long size = 0;
	if (sscanf(args, "%255s %llu", what, &size) < 1)
		return rdb_xstrdup("usage: monitor flowback ADDRESS|SYMBOL[+OFFSET] [SIZE]\n"
		                   "(an expression: eval \"monitor flowback %p %d\", &x, sizeof x)\n");
	struct fb_here f;
	if (rdb_tl_here(s->l, &f.seg, &f.n) || !f.n)
		return rdb_xstrdup("flowback: the current position cannot be found again\n");
	f.bias = rdb_tg_bias(s->t);
	const struct rdb_pos *cur = &f.seg[f.n - 1];
	char here[128];
	snprintf(here, sizeof here, "interval %llu count %llu pc %#llx",
	         (unsigned long long)cur->interval, (unsigned long long)cur->count,
	         (unsigned long long)cur->pc);
	int pfd[2];
	if (pipe(pfd))
		return rdb_xstrdup("flowback: pipe failed\n");
	fflush(NULL);
	pid_t c = fork();
	if (c == 0) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		close(pfd[1]);
		int r = rdb_flowback_here(rdb_tg_dir(s->t), what, size, cur->interval, here, fb_before,
		                          &f);
		fflush(NULL);
		_exit(r);
	}
	close(pfd[1]);
	size_t n = 0, cap = 4096;
	char *out = rdb_xmalloc(cap);
	ssize_t r;
	while (c > 0 && (r = read(pfd[0], out + n, cap - n - 1)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		n += (size_t)r;
		if (cap - n < 2)
			out = rdb_xrealloc(out, cap *= 2);
	}
	out[n] = 0;
	close(pfd[0]);
	int st;
	if (c > 0)
		while (waitpid(c, &st, 0) < 0 && errno == EINTR)
			;
	return out;
}

static int monitor(struct srv *s, const char *hexcmd)
{
	size_t n = strlen(hexcmd) / 2;
	char cmd[512], msg[2048];
	if (n >= sizeof cmd || unhex(hexcmd, n, (uint8_t *)cmd))
		return reply(s, "E01");
	cmd[n] = 0;
	struct rdb_pos p;
	unsigned long long iv, count = 0;
	if (!strcmp(cmd, "where")) {
		if (rdb_tg_pos(s->t, &p))
			snprintf(msg, sizeof msg, "the program is not running\n");
		else
			snprintf(msg, sizeof msg, "interval %llu count %llu pc %#llx\n",
			         (unsigned long long)p.interval, (unsigned long long)p.count,
			         (unsigned long long)p.pc);
	} else if (!strcmp(cmd, "info")) {
		/* also gdb's `info record` for the replay: gdb asks only a
		 * record target of its own, never a remote one */
		const struct rdb_header *h = rdb_tg_header(s->t);
		int k = snprintf(msg, sizeof msg,
		                 "trace: %s\nexecutable: %s\nintervals: %llu complete\n"
		                 "history: from interval 1's first instruction to the end of the run\n",
		                 rdb_tg_dir(s->t), h->exe,
		                 (unsigned long long)rdb_tg_last_interval(s->t));
		if (rdb_tg_pos(s->t, &p) == 0)
			k += snprintf(msg + k, sizeof msg - (size_t)k,
			              "now: interval %llu count %llu pc %#llx\n",
			              (unsigned long long)p.interval, (unsigned long long)p.count,
			              (unsigned long long)p.pc);
		uint64_t rep, skip;
		unsigned long sf, sd, su;
		rdb_tl_rc_counts(s->l, &rep, &skip);
		rdb_tg_stack_faults(s->t, &sf, &sd, &su);
		snprintf(msg + k, sizeof msg - (size_t)k,
		         "checkpoints: %d\nlast reverse-continue: %llu intervals replayed, %llu "
		         "left out\nwatched stack pages: %lu faults of the program's, %lu done by rdb, "
		         "%lu not decoded\n",
		         rdb_tl_checkpoints(s->l), (unsigned long long)rep, (unsigned long long)skip,
		         sf, sd, su);
	} else if (!strncmp(cmd, "flowback", 8) && (!cmd[8] || cmd[8] == ' ')) {
		char *out = flowback(s, cmd + 8);
		int r = monitor_out(s, out);
		rdb_free(out);
		return r ? -1 : reply(s, "OK");
	} else if (sscanf(cmd, "goto %llu %llu", &iv, &count) >= 1) {
		if (!iv || iv > rdb_tg_last_interval(s->t))
			snprintf(msg, sizeof msg, "goto: no interval %llu (1 to %llu)\n", iv,
			         (unsigned long long)rdb_tg_last_interval(s->t));
		else if (rdb_tl_goto_count(s->l, iv, count))
			snprintf(msg, sizeof msg, "goto: interval %llu has no count %llu\n", iv, count);
		else
			snprintf(msg, sizeof msg, "at interval %llu count %llu (gdb: run `flushregs`)\n",
			         iv, count);
	} else {
		snprintf(msg, sizeof msg, "rdb monitor commands: where, info, goto INTERVAL [COUNT], "
		                          "flowback ADDRESS [SIZE]\n");
	}
	if (monitor_out(s, msg))
		return -1;
	return reply(s, "OK");
}

/* ---- resuming ----------------------------------------------------------------------- */

static int resume(struct srv *s, int step)
{
	struct rdb_tg_stop st;
	rdb_tg_on_interrupt(s->t, poll_intr, s);
	if (step)
		rdb_tg_step(s->t, &st);
	else
		rdb_tl_cont(s->l, &st);
	rdb_tg_on_interrupt(s->t, NULL, NULL);
	return stop_reply(s, &st);
}

static int reverse(struct srv *s, int step)
{
	struct rdb_tg_stop st;
	if (!rdb_tg_alive(s->t))
		return reply(s, "E01");
	if (step)
		rdb_tl_reverse_step(s->l, &st);
	else
		rdb_tl_reverse_cont(s->l, &st);
	return stop_reply(s, &st);
}

/* vCont;ACTION[:thread][;ACTION...]: the first action is ours (one thread). */
static int vcont(struct srv *s, const char *a)
{
	if (*a != ';')
		return reply(s, "E01");
	a++;
	if (*a == 'c' || *a == 'C')
		return resume(s, 0);
	if (*a == 's' || *a == 'S')
		return resume(s, 1);
	return empty(s);
}

static int refuse_write(struct srv *s, const char *what)
{
	rdb_warn("gdb server: gdb asked to write %s: refused (a replay is the recorded run; "
	         "its memory and registers cannot change)", what);
	return reply(s, "E01");
}

/* ---- threads' packets ---------------------------------------------------------------- */

/* qfThreadInfo: every live thread (the main thread alone without threads). */
static int thread_list(struct srv *s)
{
	if (!rdb_tg_alive(s->t))
		return reply(s, "l");
	struct rdb_tg_thread *v;
	int n = threads(s, &v);
	if (!n)
		return reply(s, "m%lx", s->tid);
	char *o = scratch(s, (size_t)n * 24 + 2);
	size_t k = 0;
	o[k++] = 'm';
	for (int i = 0; i < n; i++)
		k += (size_t)sprintf(o + k, "%s%lx", i ? "," : "", thread_id(s, v[i].slot, v[i].born));
	rdb_free(v);
	return rdb_rsp_put(s->c, o, k);
}

/* qThreadExtraInfo,ID: what `info threads` shows beside it. */
static int thread_extra(struct srv *s, const char *arg)
{
	unsigned long id = strtoul(arg, NULL, 16);
	char text[160];
	struct rdb_tg_thread h;
	if (!rdb_tg_threaded(s->t) || find_thread(s, id, &h))
		return empty(s); /* (no threads: nothing to add, as before) */
	if (!h.slot) {
		snprintf(text, sizeof text, "slot 0, the main thread, %s", park_what(h.how));
	} else if (!h.born) {
		/* made before the trace began: a fork child's trace, whose
		 * forking thread lives on in its slot (docs/threads.md) */
		if (h.how == RDB_TF_PARK_BLOCKED)
			snprintf(text, sizeof text, "slot %u, the thread that forked, blocked in syscall %ld",
			         h.slot, h.nr);
		else
			snprintf(text, sizeof text, "slot %u, the thread that forked, %s", h.slot,
			         park_what(h.how));
	} else if (h.how == RDB_TF_PARK_BLOCKED) {
		snprintf(text, sizeof text, "slot %u, born at syscall %llu, blocked in syscall %ld",
		         h.slot, (unsigned long long)h.born, h.nr);
	} else {
		snprintf(text, sizeof text, "slot %u, born at syscall %llu, %s", h.slot,
		         (unsigned long long)h.born, park_what(h.how));
	}
	size_t n = strlen(text);
	char o[2 * sizeof text + 1];
	put_hex(o, (const uint8_t *)text, n);
	return reply(s, "%s", o);
}

/* Hg ID: the thread whose registers g and p read; Hc: resuming always
 * runs the thread that holds the runtime's token (the one stopped), so
 * it is taken as it is. */
static int select_thread(struct srv *s, const char *a)
{
	if (*a != 'g')
		return reply(s, "OK");
	long long id = strtoll(a + 1, NULL, 16);
	s->sel = 0;
	s->sel_waits = 0;
	if (id <= 0)
		return reply(s, "OK"); /* any, all */
	struct rdb_tg_thread h;
	if (!rdb_tg_threaded(s->t))
		return reply(s, (unsigned long)id == s->tid ? "OK" : "E01");
	if (find_thread(s, (unsigned long)id, &h))
		return reply(s, "E01");
	s->sel = (unsigned long)id;
	if (h.how != 0) {
		s->sel_waits = 1;
		s->sel_regs = h.regs;
	}
	return reply(s, "OK");
}

/* ---- the session --------------------------------------------------------------------- */

static int packet(struct srv *s, char *p, size_t n)
{
	unsigned long long a, l;
	struct rdb_tg_stop st;
	(void)n;
	switch (p[0]) {
	case '?':
		if (!rdb_tg_alive(s->t)) {
			st.kind = TG_EXITED;
			st.sig = 0;
			st.value = 0;
			return stop_reply(s, &st);
		}
		return reply(s, "T05thread:%lx;", cur_id(s));
	case '!':
		return reply(s, "OK");
	case 'H':
		return select_thread(s, p + 1);
	case 'T': {
		/* thread ID alive? */
		struct rdb_tg_thread h;
		unsigned long id = strtoul(p + 1, NULL, 16);
		if (!rdb_tg_alive(s->t))
			return reply(s, "E01");
		if (!rdb_tg_threaded(s->t))
			return reply(s, id == s->tid ? "OK" : "E01");
		return reply(s, find_thread(s, id, &h) ? "E01" : "OK");
	}
	case 'g': {
		if (!rdb_tg_alive(s->t))
			return reply(s, "E01");
		uint8_t b[64];
		char *o = scratch(s, 4096);
		size_t k = 0;
		for (int r = 0; r < NREGS; r++) {
			size_t m = reg_bytes(s->t, s->sel_waits ? &s->sel_regs : NULL, r, b);
			put_hex(o + k, b, m);
			k += 2 * m;
		}
		return rdb_rsp_put(s->c, o, k);
	}
	case 'p': {
		unsigned long r = strtoul(p + 1, NULL, 16);
		if (r >= NREGS || !rdb_tg_alive(s->t))
			return reply(s, "E01");
		uint8_t b[64];
		char o[130];
		put_hex(o, b, reg_bytes(s->t, s->sel_waits ? &s->sel_regs : NULL, (int)r, b));
		return reply(s, "%s", o);
	}
	case 'G':
	case 'P':
		return refuse_write(s, "registers");
	case 'M':
	case 'X':
		return refuse_write(s, "memory");
	case 'm': {
		if (sscanf(p + 1, "%llx,%llx", &a, &l) != 2 || l > 0x8000)
			return reply(s, "E01");
		uint8_t *b = rdb_xmalloc(l ? l : 1);
		size_t got = rdb_gm_read(s->mem, a, b, l);
		int r;
		if (!got && l) {
			r = reply(s, "E01");
		} else {
			char *o = scratch(s, 2 * got + 1);
			put_hex(o, b, got);
			r = rdb_rsp_put(s->c, o, 2 * got);
		}
		rdb_free(b);
		return r;
	}
	case 'Z':
	case 'z':
		if ((p[1] == '0' || p[1] == '1') && p[2] == ',' && sscanf(p + 3, "%llx", &a) == 1) {
			int r = p[0] == 'Z' ? rdb_tg_bp_add(s->t, a) : rdb_tg_bp_del(s->t, a);
			return reply(s, r && p[0] == 'Z' ? "E01" : "OK");
		}
		/* watchpoints: Z2 write, Z3 read, Z4 access, ADDR,LENGTH */
		if (p[1] >= '2' && p[1] <= '4' && p[2] == ',' &&
		    sscanf(p + 3, "%llx,%llx", &a, &l) == 2) {
			int k = p[1] - '0';
			if (p[0] == 'z') {
				rdb_tg_watch_del(s->t, k, a, l);
				return reply(s, "OK");
			}
			/* without debug registers the shadow pages see reads only
			 * where the replays keep their read hooks (not with
			 * RDB_GDB_WATCH=writes) */
			if (k != 2 && !rdb_tg_watch_reads()) {
				static int said;
				if (!said++)
					fprintf(stderr, "rdb: gdb server: this machine's debug registers do "
					                "not fire (a virtual machine that grants hardware "
					                "breakpoints and never triggers them): write "
					                "watchpoints (watch) use the shadow pages; read and "
					                "access ones (rwatch, awatch) need the replay's read "
					                "hooks, which RDB_GDB_WATCH=writes in rdb's "
					                "environment removes: start rdb without it\n");
				return reply(s, "E01");
			}
			return reply(s, rdb_tg_watch_add(s->t, k, a, l) ? "E01" : "OK");
		}
		return empty(s);
	case 'c':
	case 'C':
		return resume(s, 0);
	case 's':
	case 'S':
		return resume(s, 1);
	case 'b':
		if (p[1] == 'c' || p[1] == 's')
			return reverse(s, p[1] == 's');
		return empty(s);
	case 'k':
		rdb_tg_kill(s->t);
		s->killed = 1;
		return 0;
	case 'D':
		s->detached = 1;
		return reply(s, "OK");
	case 'R':
		if (rdb_tl_restart(s->l))
			return reply(s, "E01");
		return 0;
	case 'q':
		if (!strncmp(p, "qSupported", 10))
			return reply(s, "PacketSize=10000;qXfer:features:read+;qXfer:auxv:read+;"
			                "qXfer:exec-file:read+;ReverseContinue+;ReverseStep+;swbreak+;"
			                "hwbreak+;vContSupported+;QStartNoAckMode+;QPassSignals+");
		if (!strncmp(p, "qXfer:features:read:target.xml:", 31)) {
			const char *x = target_xml();
			return xfer(s, (const uint8_t *)x, strlen(x), p + 31);
		}
		if (!strncmp(p, "qXfer:auxv:read::", 17)) {
			uint8_t buf[4096];
			size_t got = 0;
			if (rdb_tg_auxv(s->t, buf, sizeof buf, &got))
				return reply(s, "E01");
			return xfer(s, buf, got, p + 17);
		}
		if (!strncmp(p, "qXfer:exec-file:read:", 21)) {
			const char *r = strchr(p + 21, ':');
			const char *exe = rdb_tg_header(s->t)->image;
			return r ? xfer(s, (const uint8_t *)exe, strlen(exe), r + 1) : reply(s, "E01");
		}
		if (!strcmp(p, "qfThreadInfo"))
			return thread_list(s);
		if (!strcmp(p, "qsThreadInfo"))
			return reply(s, "l");
		if (!strncmp(p, "qThreadExtraInfo,", 17))
			return thread_extra(s, p + 17);
		if (!strcmp(p, "qC"))
			return reply(s, "QC%lx", cur_id(s));
		if (!strncmp(p, "qAttached", 9))
			return reply(s, "1");
		if (!strncmp(p, "qSymbol", 7))
			return reply(s, "OK");
		if (!strncmp(p, "qRcmd,", 6))
			return monitor(s, p + 6);
		return empty(s);
	case 'Q':
		if (!strncmp(p, "QPassSignals:", 13)) {
			uint64_t mask = 0;
			for (char *q = p + 13; *q;) {
				int g = (int)strtol(q, &q, 16);
				for (int h = 1; h < 64; h++)
					if (gdb_signal(h) == g)
						mask |= 1ull << h;
				if (*q == ';')
					q++;
				else if (*q)
					break;
			}
			rdb_tg_pass_signals(s->t, mask);
			return reply(s, "OK");
		}
		if (!strcmp(p, "QStartNoAckMode")) {
			int r = reply(s, "OK");
			rdb_rsp_noack(s->c);
			return r;
		}
		return empty(s);
	case 'v':
		if (!strcmp(p, "vCont?"))
			return reply(s, "vCont;c;C;s;S");
		if (!strncmp(p, "vCont", 5))
			return vcont(s, p + 5);
		if (!strncmp(p, "vKill", 5)) {
			rdb_tg_kill(s->t);
			s->killed = 1;
			return reply(s, "OK");
		}
		if (!strncmp(p, "vRun", 4)) {
			s->killed = 0;
			if (rdb_tg_start(s->t, s->from, 0, 1))
				return reply(s, "E01");
			s->sel = 0;
			s->sel_waits = 0;
			return reply(s, "T05thread:%lx;", cur_id(s));
		}
		return empty(s);
	default:
		return empty(s);
	}
}

int rdb_gdbserver_run(struct rdb_rsp *c, struct rdb_tg *t, struct rdb_tl *l, uint64_t from)
{
	struct srv s;
	memset(&s, 0, sizeof s);
	s.c = c;
	s.t = t;
	s.l = l;
	s.from = from;
	s.mem = rdb_gm_new(t);
	s.tid = (unsigned long)rdb_tg_pid(t);
	const char *why = NULL;
	for (;;) {
		char *p;
		size_t n;
		if (!rdb_rsp_get(c, &p, &n, &why))
			break;
		if (packet(&s, p, n)) {
			why = "the connection failed";
			break;
		}
		if (s.detached)
			break;
	}
	rdb_gm_free(s.mem);
	if (why && strcmp(why, "gdb closed the connection"))
		rdb_warn("gdb server: %s: the session ends", why);
	if (s.detached && rdb_tg_alive(t))
		return rdb_tg_detach(t);
	if (rdb_tg_alive(t)) {
		rdb_warn("gdb server: gdb is gone: the replay is killed");
		rdb_tg_kill(t);
		return 125;
	}
	return rdb_tg_status(t);
}
