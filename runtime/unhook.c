/* unhook.c: replay without the hooks nobody reads.
 *
 * The read and write hooks only mark the planes; the program computes the
 * same without them (docs/hooks.md).  A recording needs the marks (they
 * choose the values traced), and so does a replay that checks itself
 * (--verify hashes the bytes the planes call touched) or watches through
 * shadow pages (watch.c: a write hook's store is the watch's fault).  Any
 * other replay overwrites them with no-ops before the program runs: bzip2
 * replays about twice as fast.
 *
 * trace.rules lists the hooks ('list' in docs/rules.md): altr puts the
 * start (relative to the entry) and length of every read hook in the
 * section rdb_hooks_r and of every write hook in rdb_hooks_w.  The SIC's
 * increments and checks are never listed: replay stops by them. */
#include "rt.h"

struct listed {
	int32_t off; /* the hook's first byte, relative to this field */
	uint32_t len;
};

extern const struct listed __start_rdb_hooks_r[] __attribute__((visibility("hidden")));
extern const struct listed __stop_rdb_hooks_r[] __attribute__((visibility("hidden")));
extern const struct listed __start_rdb_hooks_w[] __attribute__((visibility("hidden")));
extern const struct listed __stop_rdb_hooks_w[] __attribute__((visibility("hidden")));

/* Each table has at least this entry, so the linker always defines its
 * bounds, also in a program where nothing was hooked. */
__attribute__((section("rdb_hooks_r"), used, aligned(4))) static const struct listed none_r;
__attribute__((section("rdb_hooks_w"), used, aligned(4))) static const struct listed none_w;

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

void rdb_unhook(int writes_too)
{
	uintptr_t lo = 0, hi = 0;
	bounds(__start_rdb_hooks_r, __stop_rdb_hooks_r, &lo, &hi);
	if (writes_too)
		bounds(__start_rdb_hooks_w, __stop_rdb_hooks_w, &lo, &hi);
	if (!hi)
		return;
	lo &= ~0xfffull;
	hi = (hi + 0xfff) & ~0xfffull;
	/* The runtime runs from these pages too: they stay executable. */
	long r = rdb_sys3(__NR_mprotect, lo, hi - lo, RDB_PROT_READ | RDB_PROT_WRITE | RDB_PROT_EXEC);
	if (r < 0) {
		if (RT->debug)
			rdb_printf("rdb: replay keeps its hooks: the text cannot be made writable "
			           "(error %ld)\n", -r);
		return;
	}
	size_t nr = unhook(__start_rdb_hooks_r, __stop_rdb_hooks_r);
	size_t nw = writes_too ? unhook(__start_rdb_hooks_w, __stop_rdb_hooks_w) : 0;
	r = rdb_sys3(__NR_mprotect, lo, hi - lo, RDB_PROT_READ | RDB_PROT_EXEC);
	if (r < 0)
		rdb_die("replay: cannot make the text read-only again (error %ld)\n", -r);
	if (RT->debug)
		rdb_printf("rdb: replay without %lu read hooks and %lu write hooks\n",
		           (unsigned long)nr, (unsigned long)nw);
}

/* A fault in a hook's store names the shadow byte, not the program's:
 * which plane, if pc is in a hook. */
int rdb_hook_plane(uintptr_t pc)
{
	for (const struct listed *b = __start_rdb_hooks_r; b < __stop_rdb_hooks_r; b++)
		if (b->len && pc - at(b) < b->len)
			return 'R';
	for (const struct listed *b = __start_rdb_hooks_w; b < __stop_rdb_hooks_w; b++)
		if (b->len && pc - at(b) < b->len)
			return 'S';
	return 0;
}
