/* gdbmem.c: what gdb may read of the program's memory where the replay
 * stands (docs/gdb.md "Memory after going back").  A replay started at
 * interval j >= 2 has the recording's value only for the bytes it
 * restored (j's saved stacks, the VALUES of j and of each interval it
 * entered since) and those it wrote since (the trace's WRITTEN ranges of
 * the intervals it ran through whole, the S plane for the current one:
 * the write hooks stay in such a replay, target.c); every other byte
 * holds what the executable or an empty mapping had, not what the
 * program had.  Such a byte kept its value since j began (nothing wrote
 * it since), so its value is the one at the end of the last interval
 * k < j that read or wrote it, which a replay of k alone has: a second
 * replay of rdb's (vt) runs k to its end.  A byte no interval touched
 * holds the executable's or an empty mapping's value, the replay's too;
 * anything the trace cannot answer (an interval without its records, a
 * file's mapping, a stack the boundary saved only above %rsp) is an error
 * for gdb, never a guess.
 * Answers are kept per position: gdb reads a struct or a stack frame in
 * pieces, many times over, between two stops. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gdbserver.h"
#include "layout.h"

/* A set of byte ranges: sorted and merged once built (rs_done). */
struct rset {
	struct rdb_tf_range *r;
	size_t n, cap;
};

static void rs_add(struct rset *s, uint64_t a, uint64_t len)
{
	if (!len)
		return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->r = rdb_xrealloc(s->r, s->cap * sizeof *s->r);
	}
	s->r[s->n++] = (struct rdb_tf_range){a, len};
}

static int by_addr(const void *a, const void *b)
{
	const struct rdb_tf_range *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void rs_done(struct rset *s)
{
	if (!s->n)
		return;
	qsort(s->r, s->n, sizeof *s->r, by_addr);
	size_t m = 0;
	for (size_t i = 1; i < s->n; i++) {
		struct rdb_tf_range *l = &s->r[m];
		if (s->r[i].addr <= l->addr + l->len) {
			uint64_t e = s->r[i].addr + s->r[i].len;
			if (e > l->addr + l->len)
				l->len = e - l->addr;
		} else
			s->r[++m] = s->r[i];
	}
	s->n = m + 1;
}

static void rs_clear(struct rset *s) { s->n = 0; }

/* Whether a is in s (built): its range's end, or 0. */
static uint64_t rs_end(const struct rset *s, uint64_t a)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->r[mid].addr + s->r[mid].len <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->r[lo].addr <= a ? s->r[lo].addr + s->r[lo].len : 0;
}

/* One answer at the current position. */
struct answer {
	uint64_t addr, asked, n; /* n: the bytes known from addr on */
	uint8_t *b;
};

struct rdb_gm {
	struct rdb_tg *t;
	const char *dir;
	struct rdb_ivx *x;
	int forked;         /* a fork child's trace: nothing before interval 2 */
	struct rset ro;     /* the image's read-only segments (text, rodata) */
	uint64_t ro_bias;
	int have_ro;
	/* what the replay from j has of its own at interval i, the S plane
	 * aside: j's saved stacks, the VALUES of j..i, the WRITTEN of j..i-1 */
	uint64_t kj, ki;
	struct rset known;
	struct rdb_tf_map *maps; /* j's mappings */
	size_t nmaps;
	struct rset stacks; /* mappings of j's saved stacks but the main one */
	int have_known;
	/* the position the answers are for, and the replay's moves then
	 * (the same position may be another thread's later, same slot) */
	struct rdb_pos at;
	uint64_t at_from, at_moves;
	int have_at;
	uint64_t stack_lo, stack_hi; /* the main stack's mapping there */
	int have_stack;
	struct answer *ans;
	size_t nans, capans;
	/* rdb's own replay for the values at an interval's end (0: none) */
	struct rdb_tg *vt;
	uint64_t vt_end, vt_bad; /* the interval it is at the end of, or failed to */
	uint64_t vt_runs; /* replays it made (RDB_GDB_DEBUG) */
	int said;         /* a damaged trace's message was said */
};

struct rdb_gm *rdb_gm_new(struct rdb_tg *t)
{
	struct rdb_gm *g = rdb_xmalloc(sizeof *g);
	memset(g, 0, sizeof *g);
	g->t = t;
	g->dir = rdb_tg_dir(t);
	g->x = rdb_ivx_read(g->dir);
	const struct rdb_header *h = rdb_tg_header(t);
	g->forked = h->have_proc && (h->proc.flags & RDB_TF_PROC_FORKED);
	return g;
}

static void forget_answers(struct rdb_gm *g)
{
	for (size_t i = 0; i < g->nans; i++)
		rdb_free(g->ans[i].b);
	g->nans = 0;
}

void rdb_gm_free(struct rdb_gm *g)
{
	if (!g)
		return;
	forget_answers(g);
	rdb_free(g->ans);
	if (g->vt) {
		rdb_tg_kill(g->vt);
		rdb_tg_reap(g->vt, 1);
	}
	rdb_free(g->ro.r);
	rdb_free(g->known.r);
	rdb_free(g->stacks.r);
	rdb_free(g->maps);
	rdb_ivx_free(g->x);
	rdb_free(g);
}

/* ---- what never changes: the image's read-only segments ----------------- */

static void read_only_segments(struct rdb_gm *g)
{
	uint64_t bias = rdb_tg_bias(g->t);
	if (g->have_ro && g->ro_bias == bias)
		return;
	rs_clear(&g->ro);
	g->have_ro = 1;
	g->ro_bias = bias;
	int fd = open(rdb_tg_header(g->t)->image, O_RDONLY | O_CLOEXEC);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	size_t n = 0;
	if (e && elf_getphdrnum(e, &n) == 0)
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;
			/* no segment is relocated in place but writable ones
			 * (a static-pie has no text relocations) */
			if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD && !(ph.p_flags & PF_W))
				rs_add(&g->ro, ph.p_vaddr + bias, ph.p_memsz);
		}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	rs_done(&g->ro);
}

/* ---- the trace's records of an interval ------------------------------------ */

/* Adds to s the parts within [lo, hi) of interval k's records of `type`
 * (STACK, VALUES: their blobs; WRITTEN: its ranges): 1, or 0 when the
 * trace does not describe k (no records). */
static int records(struct rdb_gm *g, uint32_t type, uint64_t k, uint64_t lo, uint64_t hi,
                   struct rset *s)
{
	int stream = type == RDB_TF_STACK ? RDB_TF_S_STACK
	             : type == RDB_TF_VALUES ? RDB_TF_S_VALUES : RDB_TF_S_WRITTEN;
	struct rdb_tr *r = rdb_tr_open(g->dir, stream);
	int ok = 0;
	if (rdb_tr_seek_interval(r, g->x, k)) {
		uint32_t t;
		const void *p;
		size_t n;
		while (rdb_tr_next(r, &t, &p, &n) && rdb_rec_ok(t, p, n)) {
			uint64_t iv;
			memcpy(&iv, p, sizeof iv); /* every one of them begins with it */
			if (iv != k)
				break;
			if (t == RDB_TF_VALUES_END && type == RDB_TF_VALUES) {
				ok = 1;
				break;
			}
			if (t != type)
				continue;
			if (type == RDB_TF_WRITTEN) {
				struct rdb_tf_written w;
				memcpy(&w, p, sizeof w);
				if (n < sizeof w + (size_t)w.n * sizeof(struct rdb_tf_range))
					break;
				ok = 1;
				for (uint32_t i = 0; i < w.n; i++) {
					struct rdb_tf_range q;
					memcpy(&q, (const char *)p + sizeof w + i * sizeof q, sizeof q);
					uint64_t a = q.addr > lo ? q.addr : lo, e = q.addr + q.len;
					if (e > hi)
						e = hi;
					if (a < e)
						rs_add(s, a, e - a);
				}
				continue;
			}
			struct rdb_tf_blob b;
			memcpy(&b, p, sizeof b);
			ok |= type == RDB_TF_STACK;
			uint64_t a = b.addr > lo ? b.addr : lo, e = b.addr + b.len;
			if (e > hi)
				e = hi;
			if (a < e)
				rs_add(s, a, e - a);
		}
	}
	rdb_tr_close(r);
	return ok;
}

static int map_cmp(const void *a, const void *b)
{
	const struct rdb_tf_map *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* records() where a damaged trace's rdb_fatal ends no session: the
 * bytes are then not answered (the message said why, once). */
struct rec_call {
	struct rdb_gm *g;
	uint32_t type;
	uint64_t k, lo, hi;
	struct rset *s;
	int res;
};

static void rec_run(void *ctx)
{
	struct rec_call *c = ctx;
	c->res = records(c->g, c->type, c->k, c->lo, c->hi, c->s);
}

static int add_records(struct rdb_gm *g, uint32_t type, uint64_t k, uint64_t lo, uint64_t hi,
                       struct rset *s)
{
	struct rec_call c = {g, type, k, lo, hi, s, 0};
	char msg[512];
	if (rdb_try(rec_run, &c, msg, sizeof msg) == 0)
		return c.res;
	if (!g->said++)
		rdb_warn("gdb server: %s: memory the trace would say nothing of is not answered",
		         msg);
	return 0;
}

/* j's MAPS record into g->maps: 0, or -1. */
static int maps_of(struct rdb_gm *g, uint64_t j)
{
	struct rdb_tr *r = rdb_tr_open(g->dir, RDB_TF_S_MAPPINGS);
	int res = -1;
	uint32_t t;
	const void *p;
	size_t n;
	if (rdb_tr_seek_interval(r, g->x, j) && rdb_tr_next(r, &t, &p, &n) && t == RDB_TF_MAPS &&
	    rdb_rec_ok(t, p, n)) {
		struct rdb_tf_maps m;
		memcpy(&m, p, sizeof m);
		if (m.interval == j && n >= sizeof m + (size_t)m.n * sizeof(struct rdb_tf_map)) {
			rdb_free(g->maps);
			g->maps = rdb_xmalloc((m.n ? m.n : 1) * sizeof *g->maps);
			memcpy(g->maps, (const char *)p + sizeof m, m.n * sizeof *g->maps);
			g->nmaps = m.n;
			qsort(g->maps, g->nmaps, sizeof *g->maps, map_cmp);
			res = 0;
		}
	}
	rdb_tr_close(r);
	return res;
}

/* j's mapping holding a, or NULL (g->maps sorted: read_maps). */
static void maps_run(void *ctx)
{
	struct rec_call *c = ctx;
	c->res = maps_of(c->g, c->k);
}

static int read_maps(struct rdb_gm *g, uint64_t j)
{
	struct rec_call c = {g, 0, j, 0, 0, NULL, -1};
	char msg[512];
	if (rdb_try(maps_run, &c, msg, sizeof msg) == 0)
		return c.res;
	if (!g->said++)
		rdb_warn("gdb server: %s: memory the trace would say nothing of is not answered",
		         msg);
	return -1;
}

static const struct rdb_tf_map *map_of(const struct rdb_gm *g, uint64_t a)
{
	size_t lo = 0, hi = g->nmaps;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->maps[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->nmaps && g->maps[lo].start <= a ? &g->maps[lo] : NULL;
}

/* The known set of a replay from j standing in interval i: 0, or -1
 * when the trace lacks a record it needs (then nothing but the S plane
 * and the main stack is known). */
static int known_set(struct rdb_gm *g, uint64_t j, uint64_t i)
{
	if (g->have_known && g->kj == j && g->ki == i)
		return g->have_known > 0 ? 0 : -1;
	uint64_t from = j;
	int on = g->have_known > 0 && g->kj == j && g->ki < i;
	if (on) {
		/* on from the same launch: the intervals since only (the old
		 * current one's VALUES are in, its WRITTEN not yet) */
		from = g->ki;
		g->ki = i;
		g->have_known = -1;
		goto more;
	}
	rs_clear(&g->known);
	rs_clear(&g->stacks);
	g->kj = j;
	g->ki = i;
	g->have_known = -1;
	g->nmaps = 0;
	if (read_maps(g, j) || !add_records(g, RDB_TF_STACK, j, 0, UINT64_MAX, &g->known))
		return -1;
	/* the stacks but the main one, saved from %rsp (or their lowest
	 * written page) to their mapping's end: below, the replay's stores
	 * through %rsp since j are in no record and no plane */
	for (size_t s = 0; s < g->known.n; s++) {
		const struct rdb_tf_map *m = map_of(g, g->known.r[s].addr);
		const struct rdb_tf_range *q = &g->known.r[s];
		if (m && m->kind != RDB_TF_MAP_STACK && q->addr + q->len == m->end)
			rs_add(&g->stacks, m->start, q->addr - m->start);
	}
	rs_done(&g->stacks);
more:
	for (uint64_t k = from; k <= i; k++)
		if ((!(on && k == from) && !add_records(g, RDB_TF_VALUES, k, 0, UINT64_MAX, &g->known)) ||
		    (k < i && !add_records(g, RDB_TF_WRITTEN, k, 0, UINT64_MAX, &g->known))) {
			rs_clear(&g->known);
			return -1;
		}
	rs_done(&g->known);
	g->have_known = 1;
	return 0;
}

/* ---- the position ------------------------------------------------------------- */

/* The main stack's mapping in the replay ([stack]), from %rsp up: the
 * boundary saved it whole (below its lowest written page it is zeros,
 * and the replay clears it: runtime replay.c clear_below), and stores
 * through %rsp since are the replay's own.  Below %rsp, only the part
 * the recording had mapped at j's start is (answer: the replay's
 * mapping may begin lower, with its own start-up's bytes). */
static void main_stack(struct rdb_gm *g)
{
	g->stack_lo = g->stack_hi = 0;
	g->have_stack = 1;
	char path[64], line[512];
	snprintf(path, sizeof path, "/proc/%d/maps", (int)rdb_tg_pid(g->t));
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		unsigned long long lo, hi;
		if (strstr(line, "[stack]") && sscanf(line, "%llx-%llx", &lo, &hi) == 2) {
			g->stack_lo = lo;
			g->stack_hi = hi;
		}
	}
	fclose(f);
	if (g->at.sp > g->stack_lo && g->at.sp < g->stack_hi)
		g->stack_lo = g->at.sp;
}

/* ---- values from before the replay's start ---------------------------------- */

/* The thread that took boundary k (rdb_boundary_holder), or 0. */
static uint64_t holder_of(struct rdb_gm *g, uint64_t k)
{
	struct rdb_tr *r = rdb_tr_open(g->dir, RDB_TF_S_SYSCALLS);
	uint64_t holder = 0;
	uint32_t t;
	const void *p;
	size_t n;
	if (rdb_tr_seek_interval(r, g->x, k) && rdb_tr_next(r, &t, &p, &n) && t == RDB_TF_BOUNDARY)
		holder = rdb_boundary_holder(r, k);
	rdb_tr_close(r);
	return holder;
}

/* rdb's own replay at the end of interval k (the check where the
 * boundary after it is taken, trace: k + 1's BOUNDARY, a count of the
 * thread that took it): 0, or -1. */
static int vt_at_end(struct rdb_gm *g, uint64_t k)
{
	if (g->vt && g->vt_end == k && rdb_tg_alive(g->vt))
		return 0;
	if (g->vt_bad == k) /* it failed once: it would again */
		return -1;
	struct rdb_tr *r = rdb_tr_open(g->dir, RDB_TF_S_INTERVALS);
	uint64_t count = 0;
	int found = 0;
	if (rdb_tr_seek_interval(r, g->x, k + 1)) {
		uint32_t t;
		const void *p;
		size_t n;
		while (!found && rdb_tr_next(r, &t, &p, &n)) {
			struct rdb_tf_boundary b;
			if (t != RDB_TF_BOUNDARY || n != sizeof b)
				continue;
			memcpy(&b, p, sizeof b);
			if (b.interval > k + 1)
				break;
			if (b.interval == k + 1) {
				count = b.sic;
				found = 1;
			}
		}
	}
	rdb_tr_close(r);
	if (!found)
		return -1;
	if (!g->vt)
		g->vt = rdb_tg_new(g->dir);
	g->vt_end = 0;
	g->vt_runs++;
	if (rdb_tg_start(g->vt, k, 0, 1)) {
		g->vt_bad = k;
		return -1;
	}
	struct rdb_tg_stop s = {.kind = TG_COUNT};
	struct rdb_pos p;
	/* (the holder is the last thread made in its slot by interval k's
	 * end: an earlier one there may have come to the same count) */
	uint64_t slot = holder_of(g, k + 1), born = rdb_tg_born_before(g->vt, (uint32_t)slot, k + 1);
	rdb_tg_quiet_signals(g->vt, 1);
	rdb_tg_want_thread(g->vt, slot, born);
	if (rdb_tg_pos(g->vt, &p) || p.interval != k || !rdb_tg_wanted(g->vt, &p) || p.count < count)
		rdb_tg_cont(g->vt, count, &s);
	if (s.kind != TG_COUNT || rdb_tg_pos(g->vt, &p) || p.interval != k ||
	    !rdb_tg_wanted(g->vt, &p) || p.count != count) {
		rdb_warn("gdb server: the replay of interval %llu did not reach its end (count "
		         "%llu): memory it wrote is not known", (unsigned long long)k,
		         (unsigned long long)count);
		rdb_tg_kill(g->vt);
		g->vt_bad = k;
		return -1;
	}
	g->vt_end = k;
	return 0;
}

/* Fills the bytes of buf (for [addr, addr + n)) that unknown[] marks with
 * their value at the start of interval j, clearing their marks; those
 * left marked have none the trace gives.  Such a byte was not written
 * since j began (else the S plane or WRITTEN said so), unless by a store
 * through %rsp on a stack saved in part (g->stacks), and it was mapped
 * then: memory mapped since (the replay's as the recording's, but at an
 * address an older mapping's writes may name) is not answered. */
static void before_start(struct rdb_gm *g, uint64_t j, uint64_t addr, uint8_t *buf,
                         uint8_t *unknown, size_t n)
{
	size_t first = 0, last = n;
	for (size_t i = 0; i < n; i++) {
		const struct rdb_tf_map *m = unknown[i] ? map_of(g, addr + i) : NULL;
		/* (MAP_SHARED memory others write: their writes since are
		 * SHARED records, in no plane) */
		if (unknown[i] && (!m || m->kind == RDB_TF_MAP_SHARED_EXT || rs_end(&g->stacks, addr + i)))
			unknown[i] = 2; /* no value to be had */
	}
	for (uint64_t k = j - 1; k >= (g->forked ? 2u : 1u); k--) {
		while (first < last && unknown[first] != 1)
			first++;
		while (last > first && unknown[last - 1] != 1)
			last--;
		if (first == last)
			return;
		struct rset touched = {0};
		uint64_t lo = addr + first, hi = addr + last;
		if (!add_records(g, RDB_TF_WRITTEN, k, lo, hi, &touched) ||
		    !add_records(g, RDB_TF_VALUES, k, lo, hi, &touched)) {
			rdb_free(touched.r); /* k is not described: it may have written them */
			return;
		}
		rs_done(&touched);
		/* read or written in k: the value at its end, in a replay of k */
		uint8_t *v = NULL;
		int have = -1;
		for (size_t i = first; i < last; i++) {
			if (unknown[i] != 1 || !rs_end(&touched, addr + i))
				continue;
			if (have < 0) {
				have = vt_at_end(g, k) == 0;
				v = rdb_xmalloc(last - first);
				if (have && rdb_tg_read(g->vt, lo, v, last - first) != last - first)
					have = 0;
			}
			if (!have)
				break; /* that replay failed: they stay unknown */
			buf[i] = v[i - first];
			unknown[i] = 0;
		}
		rdb_free(v);
		rdb_free(touched.r);
		if (have == 0)
			return;
	}
	/* touched by no interval: what the executable (.data, .bss) or an
	 * empty mapping held, in the replay as in the recording; a file's
	 * mapping (which the replay makes empty), or a fork child's memory
	 * (its parent's, before its first interval), has no value the trace
	 * gives */
	for (size_t i = first; i < last && !g->forked; i++) {
		const struct rdb_tf_map *m = unknown[i] == 1 ? map_of(g, addr + i) : NULL;
		if (m && (m->kind == RDB_TF_MAP_IMAGE || m->kind == RDB_TF_MAP_BRK ||
		          m->kind == RDB_TF_MAP_ANON))
			unknown[i] = 0;
	}
}

/* ---- gdb's read --------------------------------------------------------------- */

/* The answer for [addr, addr + n) at the current position, uncached. */
static size_t answer(struct rdb_gm *g, uint64_t j, uint64_t addr, uint8_t *buf, size_t n)
{
	size_t got = rdb_tg_read(g->t, addr, buf, n);
	if (!got || j <= 1)
		return got; /* from the start: all of it is the recording's */
	read_only_segments(g);
	if (!g->have_stack)
		main_stack(g);
	uint8_t *unknown = rdb_xmalloc(got);
	size_t nun = 0;
	for (size_t i = 0; i < got; i++) {
		uint64_t a = addr + i;
		unknown[i] = !(a >= g->stack_lo && a < g->stack_hi) && !rs_end(&g->ro, a);
		nun += unknown[i];
	}
	int have = nun ? known_set(g, j, g->at.interval) == 0 : 1;
	for (size_t i = 0; nun && have && i < got; i++) {
		const struct rdb_tf_map *m;
		if (unknown[i] && (rs_end(&g->known, addr + i) ||
		                   ((m = map_of(g, addr + i)) && m->kind == RDB_TF_MAP_STACK))) {
			unknown[i] = 0;
			nun--;
		}
	}
	/* written by the replay in the current interval: its S plane */
	if (nun && addr >= RDB_COVER_LO && addr + got <= RDB_COVER_HI) {
		uint8_t *s = rdb_xmalloc(got);
		if (rdb_tg_read(g->t, addr - RDB_S_OFFSET, s, got) == got)
			for (size_t i = 0; i < got; i++)
				if (unknown[i] && (s[i] & RDB_S_W)) {
					unknown[i] = 0;
					nun--;
				}
		rdb_free(s);
	}
	if (nun && have)
		before_start(g, j, addr, buf, unknown, got);
	size_t k = 0;
	while (k < got && !unknown[k])
		k++;
	rdb_free(unknown);
	return k;
}

size_t rdb_gm_read(struct rdb_gm *g, uint64_t addr, uint8_t *buf, size_t n)
{
	struct rdb_pos p;
	if (rdb_tg_pos(g->t, &p))
		return rdb_tg_from(g->t) <= 1 ? rdb_tg_read(g->t, addr, buf, n) : 0;
	uint64_t j = rdb_tg_from(g->t);
	uint64_t m = rdb_tg_moves(g->t);
	if (!g->have_at || memcmp(&p, &g->at, sizeof p) || g->at_from != j || g->at_moves != m) {
		forget_answers(g);
		g->at = p;
		g->at_from = j;
		g->at_moves = m;
		g->have_at = 1;
		g->have_stack = 0;
	}
	for (size_t i = 0; i < g->nans; i++) {
		/* inside an answer's known bytes, or up to the unknown byte
		 * after them when the answer was asked that far */
		const struct answer *a = &g->ans[i];
		if (addr < a->addr || addr - a->addr > a->n)
			continue;
		uint64_t off = addr - a->addr, k = a->n - off;
		if (k >= n || (a->n < a->asked && addr + n > a->addr + a->n)) {
			k = k < n ? k : n;
			memcpy(buf, a->b + off, k);
			return k;
		}
	}
	size_t k = answer(g, j, addr, buf, n);
	if (g->nans == g->capans) {
		g->capans = g->capans ? 2 * g->capans : 16;
		g->ans = rdb_xrealloc(g->ans, g->capans * sizeof *g->ans);
	}
	struct answer *a = &g->ans[g->nans++];
	a->addr = addr;
	a->asked = n;
	a->n = k;
	a->b = rdb_xmalloc(k ? k : 1);
	memcpy(a->b, buf, k);
	if (getenv("RDB_GDB_DEBUG"))
		fprintf(stderr, "rdb-gdb: read %#llx %zu: %zu known (from %llu, its own replays %llu)\n",
		        (unsigned long long)addr, n, k, (unsigned long long)j,
		        (unsigned long long)g->vt_runs);
	return k;
}
