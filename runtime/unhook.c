/* unhook.c: replay without the hooks nobody reads.
 *
 * The read and write hooks only mark the planes; the program computes the
 * same without them (docs/hooks.md).  A recording needs the marks (they
 * choose the values traced), and so does a replay that checks itself
 * (--verify hashes the bytes the planes call touched; --verify-full
 * hashes all memory and needs none) or watches through shadow pages
 * (watch.c: a write hook's store is the watch's fault).  Any other replay
 * overwrites them with no-ops or prefixes before the program runs, and
 * runs much nearer the native speed than --verify does (docs/perf.md).
 *
 * trace.rules lists the hooks ('list' in docs/rules.md): altr puts the
 * start (relative to the entry) and length of every read hook in the
 * section rdb_hooks_r and of every write hook in rdb_hooks_w.  The SIC's
 * increments and checks are never listed: replay stops by them.  A read
 * hook with a check (rdb_hooks_rc: a compare, and a store out of line
 * when the bytes were not marked) leaves the status flags of an equal
 * compare: it becomes `cmp %r13, %r13` (with prefixes, after a no-op),
 * so that the flags are the recording's wherever the program could see
 * them (a syscall's %r11, a signal's context). */
#include "rt.h"

struct listed {
	int32_t off; /* the hook's first byte, relative to this field */
	uint32_t len;
};

extern const struct listed __start_rdb_hooks_r[] __attribute__((visibility("hidden")));
extern const struct listed __stop_rdb_hooks_r[] __attribute__((visibility("hidden")));
extern const struct listed __start_rdb_hooks_w[] __attribute__((visibility("hidden")));
extern const struct listed __stop_rdb_hooks_w[] __attribute__((visibility("hidden")));
extern const struct listed __start_rdb_hooks_rc[] __attribute__((visibility("hidden")));
extern const struct listed __stop_rdb_hooks_rc[] __attribute__((visibility("hidden")));

/* Each table has at least this entry, so the linker always defines its
 * bounds, also in a program where nothing was hooked. */
__attribute__((section("rdb_hooks_r"), used, aligned(4))) static const struct listed none_r;
__attribute__((section("rdb_hooks_w"), used, aligned(4))) static const struct listed none_w;
__attribute__((section("rdb_hooks_rc"), used, aligned(4))) static const struct listed none_rc;

static uintptr_t at(const struct listed *e)
{
	return (uintptr_t)&e->off + (uintptr_t)(intptr_t)e->off;
}

/* The bytes of [lo, hi) the tables cover, page-rounded. */
static void bounds(const struct listed *b, const struct listed *e, uintptr_t *lo, uintptr_t *hi)
{
	for (; b < e; b++)
		if (b->len) {
			if (!*lo || at(b) < *lo)
				*lo = at(b);
			if (at(b) + b->len > *hi)
				*hi = at(b) + b->len;
		}
}

/* The recommended long no-ops (1 to 9 bytes) */
static const unsigned char nops[9][9] = {
	{0x90},
	{0x66, 0x90},
	{0x0f, 0x1f, 0x00},
	{0x0f, 0x1f, 0x40, 0x00},
	{0x0f, 0x1f, 0x44, 0x00, 0x00},
	{0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00},
	{0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00},
	{0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
	{0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
};

/* Up to two no-ops; a longer hook (an lea, a TLS address, a helper call)
 * becomes a jump over it, whose bytes are left as they were. */
static void fill(unsigned char *p, uint32_t n)
{
	if (n > 18) {
		int32_t d = (int32_t)n - 2;
		if (d <= 127) {
			p[0] = 0xeb;
			p[1] = (unsigned char)d;
		} else {
			d = (int32_t)n - 5;
			p[0] = 0xe9;
			rdb_memcpy(p + 1, &d, 4);
		}
		return;
	}
	while (n) {
		uint32_t k = n > 9 ? n - n / 2 : n;
		rdb_memcpy(p, nops[k - 1], k);
		p += k;
		n -= k;
	}
}

static size_t unhook(const struct listed *b, const struct listed *e)
{
	size_t n = 0;
	for (; b < e; b++)
		if (b->len) {
			fill((unsigned char *)at(b), b->len);
			n++;
		}
	return n;
}

/* Whether p starts an instruction that takes more prefixes in front of
 * it, unchanged: not a no-op or jump fill() left, not VEX/EVEX/XOP
 * encoded (legacy prefixes before those are undefined), no %fs/%gs
 * override (two segments), not a branch (2e is a branch hint there). */
static int takes_prefixes(const unsigned char *p, const unsigned char *end)
{
	while (p < end && (*p == 0x66 || *p == 0x67 || *p == 0xf0 || *p == 0xf2 || *p == 0xf3 ||
	                   *p == 0x2e || *p == 0x3e || *p == 0x26 || *p == 0x36))
		p++;
	if (p < end && (*p & 0xf0) == 0x40) /* REX */
		p++;
	if (p + 1 >= end)
		return 0;
	switch (p[0]) {
	case 0x0f:
		return p[1] != 0x1f && (p[1] & 0xf0) != 0x80; /* nop, jcc */
	case 0x64: case 0x65: case 0x62: case 0x8f: case 0xc4: case 0xc5:
	case 0x90: case 0xe8: case 0xe9: case 0xeb: case 0xc2: case 0xc3:
		return 0;
	case 0xff: /* call, jmp */
		return (p[1] >> 3 & 7) < 2 || (p[1] >> 3 & 7) == 6;
	default:
		return (p[0] & 0xf0) != 0x70; /* jcc */
	}
}

/* A hook that is all of its IOT group before the instruction it guards
 * (trace.rules puts nothing after one) becomes prefixes of that
 * instruction instead: CS overrides, which 64-bit mode ignores, as
 * assemblers pad.  The hot loops then run as many instructions as
 * without rdb; no-ops would still take a slot each.  An instruction is at
 * most 15 bytes: the group's rest is a bound of the instruction's. */
static size_t absorb(const struct listed *b, const struct listed *e)
{
	size_t n = 0;
	for (; b < e; b++) {
		uintptr_t h = at(b), start;
		const struct rdb_iot_entry *g = b->len ? rdb_iot_find(h, &start) : 0;
		if (!g || start != h || g->len > 15 || g->len <= b->len)
			continue;
		unsigned char *p = (unsigned char *)h;
		if (!takes_prefixes(p + b->len, p + g->len))
			continue;
		rdb_memset(p, 0x2e, b->len);
		n++;
	}
	return n;
}

/* A read hook with a check (10 to 19 bytes) becomes cmp %r13, %r13, the
 * flags it leaves: one instruction, with CS overrides in front (64-bit
 * mode ignores them) up to 15 bytes, and the bytes beyond those CS
 * overrides of the program's instruction after it, as absorb() makes them,
 * where that instruction takes them and stays within 15 bytes; else a
 * no-op first.  No-ops and the cmp, three instructions or a jump, made
 * a replay measurably slower than one without store hooks (docs/perf.md). */
static void fill_check(unsigned char *p, uint32_t n, uint32_t room)
{
	static const unsigned char cmp[3] = {0x4d, 0x39, 0xed};
	uint32_t lead = n > 15 ? n - 15 : 0, absorbed = 0;
	if (lead && lead <= room) {
		absorbed = lead;
		lead = 0;
	}
	if (lead > 15) { /* (no hook is that long) */
		fill(p, lead);
	} else if (lead > 9) {
		rdb_memset(p, 0x2e, lead - 9);
		rdb_memcpy(p + lead - 9, nops[8], 9);
	} else if (lead) {
		rdb_memcpy(p, nops[lead - 1], lead);
	}
	uint32_t len = n - lead - absorbed; /* the cmp's, prefixes included */
	rdb_memset(p + lead, 0x2e, len - sizeof cmp);
	rdb_memcpy(p + lead + len - sizeof cmp, cmp, sizeof cmp);
	rdb_memset(p + n - absorbed, 0x2e, absorbed);
}

static size_t unhook_checks(const struct listed *b, const struct listed *e)
{
	size_t n = 0;
	for (; b < e; b++) {
		if (b->len < 3)
			continue;
		/* the program's instruction: the rest of the group after it */
		uintptr_t h = at(b), start, insn = h + b->len;
		const struct rdb_iot_entry *g = rdb_iot_find(h, &start);
		uint32_t room = 0;
		if (g && insn < start + g->len) {
			uint32_t ilen = (uint32_t)(start + g->len - insn);
			if (ilen < 15 && takes_prefixes((unsigned char *)insn,
			                                (unsigned char *)start + g->len))
				room = 15 - ilen;
		}
		fill_check((unsigned char *)h, b->len, room);
		n++;
	}
	return n;
}

/* reads, writes: whether those hooks go (a replay keeps the read hooks
 * when rdb's gdb server watches reads through the R plane, and then
 * the write hooks too). */
void rdb_unhook(int reads, int writes)
{
	uintptr_t lo = 0, hi = 0;
	if (!reads && !writes)
		return;
	if (reads) {
		bounds(__start_rdb_hooks_r, __stop_rdb_hooks_r, &lo, &hi);
		bounds(__start_rdb_hooks_rc, __stop_rdb_hooks_rc, &lo, &hi);
	}
	if (writes)
		bounds(__start_rdb_hooks_w, __stop_rdb_hooks_w, &lo, &hi);
	if (!hi)
		return;
	lo &= ~0xfffull;
	hi = (hi + 0xfff) & ~0xfffull;
	/* The runtime runs from these pages too: they stay executable. */
	long r = rdb_sys3(__NR_mprotect, lo, hi - lo, RDB_PROT_READ | RDB_PROT_WRITE | RDB_PROT_EXEC);
	if (r < 0) {
		if (RT->start.debug)
			rdb_printf("rdb: replay keeps its hooks: the text cannot be made writable "
			           "(error %ld)\n", -r);
		return;
	}
	size_t nr = reads ? unhook(__start_rdb_hooks_r, __stop_rdb_hooks_r) +
	                    unhook_checks(__start_rdb_hooks_rc, __stop_rdb_hooks_rc) : 0;
	size_t nw = writes ? unhook(__start_rdb_hooks_w, __stop_rdb_hooks_w) : 0;
	size_t np = reads ? absorb(__start_rdb_hooks_r, __stop_rdb_hooks_r) : 0;
	if (writes)
		np += absorb(__start_rdb_hooks_w, __stop_rdb_hooks_w);
	r = rdb_sys3(__NR_mprotect, lo, hi - lo, RDB_PROT_READ | RDB_PROT_EXEC);
	if (r < 0)
		rdb_die("replay: cannot make the text read-only again (error %ld)\n", -r);
	/* (reads kept, writes gone is no replay's: rdb keeps both or neither) */
	RT->unhook.unhooked = writes ? 'S' : 'R';
	if (RT->start.debug)
		rdb_printf("rdb: replay without %lu read hooks and %lu write hooks "
		           "(%lu of them prefixes)\n", (unsigned long)nr, (unsigned long)nw,
		           (unsigned long)np);
}

/* The end of the last listed hook in [lo, hi), or 0: in a group, where
 * the program's own instruction starts (hooks go right before it).  The
 * tables describe the hooks also after a replay overwrote them. */
uintptr_t rdb_hooks_end(uintptr_t lo, uintptr_t hi)
{
	uintptr_t end = 0;
	for (const struct listed *b = __start_rdb_hooks_r; b < __stop_rdb_hooks_r; b++)
		if (b->len && at(b) >= lo && at(b) + b->len <= hi && at(b) + b->len > end)
			end = at(b) + b->len;
	for (const struct listed *b = __start_rdb_hooks_w; b < __stop_rdb_hooks_w; b++)
		if (b->len && at(b) >= lo && at(b) + b->len <= hi && at(b) + b->len > end)
			end = at(b) + b->len;
	for (const struct listed *b = __start_rdb_hooks_rc; b < __stop_rdb_hooks_rc; b++)
		if (b->len && at(b) >= lo && at(b) + b->len <= hi && at(b) + b->len > end)
			end = at(b) + b->len;
	return end;
}

/* Whether pc is in one of the listed hooks [b, e). */
static int in_listed(const struct listed *b, const struct listed *e, uintptr_t pc)
{
	for (; b < e; b++)
		if (b->len && pc - at(b) < b->len)
			return 1;
	return 0;
}

/* Whether pc is in a read hook with a check (one still there, or the
 * cmp %r13, %r13 and prefixes a replay made of it). */
int rdb_in_check_hook(uintptr_t pc)
{
	return in_listed(__start_rdb_hooks_rc, __stop_rdb_hooks_rc, pc);
}

/* A fault in a hook's store names the shadow byte, not the program's:
 * which plane, if pc is in a hook still there.  (Where a hook became
 * prefixes, the instruction's own fault has the hook's first byte as
 * its pc.) */
int rdb_hook_plane(uintptr_t pc)
{
	if (!RT->unhook.unhooked && (in_listed(__start_rdb_hooks_r, __stop_rdb_hooks_r, pc) ||
	                      in_listed(__start_rdb_hooks_rc, __stop_rdb_hooks_rc, pc)))
		return 'R';
	if (RT->unhook.unhooked != 'S' && in_listed(__start_rdb_hooks_w, __stop_rdb_hooks_w, pc))
		return 'S';
	return 0;
}
