/* feed.c: what rdb replay sends the runtime after HELLO (docs/trace-format.md
 * "Replay"): the preamble of the starting interval, TARGETs, the merged
 * program-order stream with each boundary's context and values, then STOP
 * or END.  Apart from replay.c so the fuzz harness can drive it: it only
 * reads the trace set and passes records to an emit callback.
 * Starting at interval K reads the ivindex and the frames of K onward:
 * the cost does not grow with K. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "layout.h" /* RDB_SIC_SPAN */
#include "rdb.h"

struct rdb_feed {
	char *dir;
	struct rdb_tf_exit exit;
	uint64_t from, to, last_complete;
	struct rdb_ivx *ix;
	struct rdb_tr *sc, *sd, *nd; /* merged */
	struct rdb_tr *ahead;        /* syscalls again: the next TARGET */
	struct rdb_tr *ctx, *val;    /* CONTEXT and VALUES, read in order */
	int (*emit)(void *ctx, uint32_t type, const void *p, size_t n);
	void *ectx;
	int end; /* enum rdb_feed_end, once the merge stopped for a reason */
	uint32_t owner; /* the thread holding the token where the merge is */
	/* per thread slot, the clone that made its thread (a TARGET's born) */
	uint64_t born[RDB_THREAD_MAX];
};

uint64_t rdb_feed_last_complete(const char *dir, const struct rdb_ivx *x)
{
	uint64_t j = rdb_ivx_last(x, RDB_TF_S_VALUES);
	if (!j)
		return 0;
	struct rdb_tr *r = rdb_tr_open(dir, RDB_TF_S_VALUES);
	uint32_t t;
	const void *p;
	size_t n;
	int done = 0;
	/* Its VALUES_END ends the stream's last frame unless the recording was
	 * cut short: look there first, else read the interval whole (all of it
	 * decompressed was a third of rdb's start of a replay: docs/perf.md). */
	rdb_tr_seek_interval(r, x, j);
	if (rdb_tr_last_frame(r))
		while (!done && rdb_tr_next(r, &t, &p, &n))
			done = t == RDB_TF_VALUES_END && rdb_rec_ok(t, p, n) && rdb_rec_interval(p) == j;
	if (!done)
		rdb_tr_seek_interval(r, x, j);
	while (!done && rdb_tr_next(r, &t, &p, &n))
		done = t == RDB_TF_VALUES_END && rdb_rec_ok(t, p, n) && rdb_rec_interval(p) == j;
	rdb_tr_close(r);
	return done ? j : j - 1;
}

static void check_from(struct rdb_feed *f)
{
	uint64_t n = rdb_ivx_last(f->ix, RDB_TF_S_INTERVALS);
	unsigned long long k = f->from;
	if (f->to > (n ? n : 1))
		rdb_fatal("%s: --to %llu: the trace has %llu interval%s", f->dir,
		          (unsigned long long)f->to, (unsigned long long)(n ? n : 1), n > 1 ? "s" : "");
	if (f->from == 1)
		return;
	if (f->from == 0)
		rdb_fatal("%s: --from 0: intervals count from 1", f->dir);
	if (n <= 1)
		rdb_fatal("%s: --from %llu: the trace has no intervals%s: only --from 1", f->dir, k,
		          rdb_ivx_last(f->ix, RDB_TF_S_SYSCALLS) ? "" : " (no ivindex entries)");
	if (f->from > n)
		rdb_fatal("%s: --from %llu: the trace has %llu intervals", f->dir, k,
		          (unsigned long long)n);
	if (f->from > f->last_complete)
		rdb_fatal("%s: --from %llu: interval %llu is not complete (its VALUES_END is not in "
		          "the values stream: the recording was cut short); the last complete "
		          "interval is %llu", f->dir, k, k, (unsigned long long)f->last_complete);
}

struct rdb_feed *rdb_feed_open(const char *dir, const struct rdb_tf_exit *x, uint64_t from,
                               uint64_t to)
{
	struct rdb_feed *f = rdb_xmalloc(sizeof *f);
	memset(f, 0, sizeof *f);
	f->dir = rdb_xstrdup(dir);
	f->exit = *x;
	f->from = from;
	f->to = to;
	if (to && to < from)
		rdb_fatal("%s: --to %llu is before --from %llu", dir, (unsigned long long)to,
		          (unsigned long long)from);
	f->ix = rdb_ivx_read(dir);
	if (!rdb_ivx_last(f->ix, RDB_TF_S_SYSCALLS))
		rdb_warn("%s: no ivindex entries: a replay stops at the first interval boundary",
		         dir);
	f->last_complete = rdb_feed_last_complete(dir, f->ix);
	check_from(f);
	f->sc = rdb_tr_open(dir, RDB_TF_S_SYSCALLS);
	f->sd = rdb_tr_open(dir, RDB_TF_S_SYSDATA);
	f->nd = rdb_tr_open(dir, RDB_TF_S_NONDET);
	f->ahead = rdb_tr_open(dir, RDB_TF_S_SYSCALLS);
	f->ctx = rdb_tr_open(dir, RDB_TF_S_CONTEXT);
	f->val = rdb_tr_open(dir, RDB_TF_S_VALUES);
	return f;
}

void rdb_feed_close(struct rdb_feed *f)
{
	if (!f)
		return;
	struct rdb_tr *rs[] = {f->sc, f->sd, f->nd, f->ahead, f->ctx, f->val};
	for (size_t i = 0; i < sizeof rs / sizeof *rs; i++)
		rdb_tr_close(rs[i]);
	rdb_ivx_free(f->ix);
	rdb_free(f->dir);
	rdb_free(f);
}

/* ---- reading records of an interval ----------------------------------- */

/* The next record of type t in r for interval iv, records of earlier
 * intervals skipped: 1, or 0 when r ends or reaches a later interval. */
static int find(struct rdb_tr *r, uint32_t want, uint64_t iv, const void **p, size_t *n)
{
	uint32_t t;
	while (rdb_tr_next(r, &t, p, n)) {
		if (t != want || !rdb_rec_ok(t, *p, *n))
			rdb_fatal("%s: not a %s record (type %u, %zu bytes)", rdb_tr_where(r),
			          rdb_rec_type(want)->name, t, *n);
		uint64_t got = rdb_rec_interval(*p);
		if (got == iv)
			return 1;
		if (got > iv)
			return 0;
	}
	return 0;
}

/* VALUES(iv)... then VALUES_END(iv), read on from where r is. */
static int emit_values(struct rdb_feed *f, uint64_t iv)
{
	uint32_t t;
	const void *p;
	size_t n;
	for (;;) {
		if (!rdb_tr_next(f->val, &t, &p, &n))
			rdb_fatal("%s: ends before the VALUES_END of interval %llu",
			          rdb_tr_path(f->val), (unsigned long long)iv);
		if (!rdb_rec_in(t, RDB_TF_S_VALUES) || !rdb_rec_ok(t, p, n))
			rdb_fatal("%s: not a VALUES record (type %u, %zu bytes)", rdb_tr_where(f->val),
			          t, n);
		uint64_t got = rdb_rec_interval(p);
		if (got < iv)
			continue;
		if (got > iv)
			rdb_fatal("%s: values of interval %llu before the VALUES_END of interval %llu",
			          rdb_tr_where(f->val), (unsigned long long)got,
			          (unsigned long long)iv);
		if (f->emit(f->ectx, t, p, n))
			return 1;
		if (t == RDB_TF_VALUES_END)
			return 0;
	}
}

/* ---- TARGET ----------------------------------------------------------- */

/* (a damaged trace's slot: the runtime refuses the TARGET) */
static uint64_t born_of(const struct rdb_feed *f, uint32_t slot)
{
	return slot < RDB_THREAD_MAX ? f->born[slot] : 0;
}

/* The next BOUNDARY, AT_SIC SIGNAL or SLICE SWITCH after the events
 * already targeted, with the thread whose count it is: the token's owner
 * there (the SWITCH records on the way say who). */
static int emit_target(struct rdb_feed *f)
{
	struct rdb_tf_target g = {0, 0, 0, 0, 0, 0};
	uint32_t t;
	const void *p;
	size_t n;
	uint32_t owner = f->owner;
	while (!g.kind && rdb_tr_next(f->ahead, &t, &p, &n)) {
		if (t == RDB_TF_SWITCH) {
			struct rdb_tf_switch w;
			if (!rdb_rec_ok(t, p, n))
				rdb_fatal("%s: SWITCH record of %zu bytes", rdb_tr_where(f->ahead), n);
			memcpy(&w, p, sizeof w);
			if (w.sic > RDB_SIC_SPAN)
				rdb_fatal("%s: SWITCH record with count %llu, over 2^40: a damaged trace",
				          rdb_tr_where(f->ahead), (unsigned long long)w.sic);
			if (w.why == RDB_TF_SW_SLICE)
				g = (struct rdb_tf_target){w.interval, w.sic, w.pc, born_of(f, w.from),
				                            RDB_TF_SWITCH, w.from};
			else
				owner = w.to;
			continue;
		}
		if (t == RDB_TF_THREAD) {
			struct rdb_tf_thread th;
			if (!rdb_rec_ok(t, p, n))
				rdb_fatal("%s: THREAD record of %zu bytes", rdb_tr_where(f->ahead), n);
			memcpy(&th, p, sizeof th);
			if (th.kind == RDB_TF_TH_CREATED && th.slot < RDB_THREAD_MAX)
				f->born[th.slot] = th.sc_id + 1;
			continue;
		}
		if (t != RDB_TF_BOUNDARY && t != RDB_TF_SIGNAL)
			continue;
		if (!rdb_rec_ok(t, p, n))
			rdb_fatal("%s: %s record of %zu bytes", rdb_tr_where(f->ahead),
			          t == RDB_TF_BOUNDARY ? "BOUNDARY" : "SIGNAL", n);
		/* a count past 2^40 (the overflow boundary's) cannot be recorded:
		 * the runtime's arithmetic on it would wrap */
		uint64_t sic;
		memcpy(&sic, (const char *)p + (t == RDB_TF_BOUNDARY ?
		                                 offsetof(struct rdb_tf_boundary, sic) :
		                                 offsetof(struct rdb_tf_signal, sic)), sizeof sic);
		if (sic > RDB_SIC_SPAN)
			rdb_fatal("%s: %s record with count %llu, over 2^40: a damaged trace",
			          rdb_tr_where(f->ahead), t == RDB_TF_BOUNDARY ? "BOUNDARY" : "SIGNAL",
			          (unsigned long long)sic);
		if (t == RDB_TF_BOUNDARY) {
			struct rdb_tf_boundary b;
			memcpy(&b, p, sizeof b);
			g = (struct rdb_tf_target){b.interval - 1, b.sic, b.pc, born_of(f, owner),
			                            RDB_TF_BOUNDARY, owner};
		} else {
			struct rdb_tf_signal s;
			memcpy(&s, p, sizeof s);
			if (s.kind == RDB_TF_SIG_AT_SIC)
				g = (struct rdb_tf_target){s.interval, s.sic, s.pc, born_of(f, owner),
				                            RDB_TF_SIGNAL, owner};
		}
	}
	return f->emit(f->ectx, RDB_TF_TARGET, &g, sizeof g);
}

/* ---- the preamble of --from K ----------------------------------------- */

/* r at interval k's first frame; fatal if the ivindex has no entry. */
static void seek_k(struct rdb_feed *f, struct rdb_tr *r, uint64_t k)
{
	if (!rdb_tr_seek_interval(r, f->ix, k))
		rdb_fatal("%s: no entry for interval %llu of %s", rdb_ivx_path(f->ix),
		          (unsigned long long)k, rdb_tr_path(r));
}

/* CONTEXT (one), MAPS (one) or STACK (one per stack the program was on:
 * up to the next interval's) records of interval k, from its first frame. */
static int emit_snapshot(struct rdb_feed *f, uint32_t type, uint64_t k)
{
	int s = rdb_rec_type(type)->stream;
	struct rdb_tr *r = s == RDB_TF_S_CONTEXT ? f->ctx : rdb_tr_open(f->dir, s);
	const void *p;
	size_t n;
	seek_k(f, r, k);
	if (!find(r, type, k, &p, &n))
		rdb_fatal("%s: no %s record for interval %llu where the ivindex says it starts",
		          rdb_tr_path(r), rdb_rec_type(type)->name, (unsigned long long)k);
	int dead = f->emit(f->ectx, type, p, n);
	while (!dead && type == RDB_TF_STACK && find(r, type, k, &p, &n))
		dead = f->emit(f->ectx, type, p, n);
	if (r != f->ctx)
		rdb_tr_close(r);
	return dead;
}

/* Puts a syscalls reader right after BOUNDARY(k), which must equal b. */
static void skip_boundary(struct rdb_feed *f, struct rdb_tr *r, const struct rdb_tf_boundary *b)
{
	uint32_t t;
	const void *p;
	size_t n;
	seek_k(f, r, b->interval);
	if (!rdb_tr_next(r, &t, &p, &n) || t != RDB_TF_BOUNDARY || n != sizeof *b ||
	    memcmp(p, b, sizeof *b))
		rdb_fatal("%s: the frame of interval %llu does not start with the BOUNDARY of the "
		          "intervals stream", rdb_tr_where(r), (unsigned long long)b->interval);
}

/* The thread that took boundary k, r just past its BOUNDARY in the
 * syscalls stream: the HOLDER among the THCTX records right after it (a
 * boundary taken while several threads lived); else 0, the main thread.
 * (Its count is the boundary's, and the first TARGET's.) */
uint32_t rdb_boundary_holder(struct rdb_tr *r, uint64_t k)
{
	uint32_t t, holder = 0;
	const void *p;
	size_t n;
	while (rdb_tr_next(r, &t, &p, &n) && (t == RDB_TF_THCTX || t == RDB_TF_THSTATE)) {
		struct rdb_tf_thctx c;
		if (t != RDB_TF_THCTX || !rdb_rec_ok(t, p, n))
			continue;
		memcpy(&c, p, sizeof c);
		if (c.how == RDB_TF_PARK_HOLDER && c.interval == k)
			holder = c.slot;
	}
	return holder;
}

static uint32_t holder_at(struct rdb_feed *f, const struct rdb_tf_boundary *b)
{
	struct rdb_tr *r = rdb_tr_open(f->dir, RDB_TF_S_SYSCALLS);
	skip_boundary(f, r, b);
	uint32_t holder = rdb_boundary_holder(r, b->interval);
	rdb_tr_close(r);
	return holder;
}

static int preamble(struct rdb_feed *f)
{
	uint64_t k = f->from;
	struct rdb_tr *ir = rdb_tr_open(f->dir, RDB_TF_S_INTERVALS);
	const void *p;
	size_t n;
	struct rdb_tf_boundary b;
	seek_k(f, ir, k);
	if (!find(ir, RDB_TF_BOUNDARY, k, &p, &n))
		rdb_fatal("%s: no BOUNDARY record for interval %llu", rdb_tr_path(ir),
		          (unsigned long long)k);
	memcpy(&b, p, sizeof b);
	int dead = f->emit(f->ectx, RDB_TF_BOUNDARY, p, n);
	rdb_tr_close(ir);
	dead = dead || emit_snapshot(f, RDB_TF_CONTEXT, k) ||
	       emit_snapshot(f, RDB_TF_MAPS, k) ||
	       emit_snapshot(f, RDB_TF_STACK, k);
	if (dead)
		return 1;
	seek_k(f, f->val, k);
	skip_boundary(f, f->sc, &b);
	skip_boundary(f, f->ahead, &b);
	f->owner = holder_at(f, &b);
	seek_k(f, f->sd, k);
	seek_k(f, f->nd, k);
	return emit_values(f, k);
}

/* ---- the merged stream ------------------------------------------------ */

static int on_boundary(struct rdb_feed *f, const void *p, size_t n)
{
	uint64_t i = rdb_rec_interval(p);
	const void *c;
	size_t cn;
	if (f->to && i == f->to + 1) {
		/* the boundary and its context first, when there: --verify
		 * compares the end of interval `to` too (rdb check) */
		f->end = RDB_FEED_STOP;
		if (find(f->ctx, RDB_TF_CONTEXT, i, &c, &cn) &&
		    (f->emit(f->ectx, RDB_TF_BOUNDARY, p, n) || f->emit(f->ectx, RDB_TF_CONTEXT, c, cn)))
			return 1;
		return f->emit(f->ectx, RDB_TF_STOP, "", 0) || 1;
	}
	if (i > f->last_complete || !find(f->ctx, RDB_TF_CONTEXT, i, &c, &cn)) {
		if (!f->exit.cut && !f->exit.execd)
			rdb_warn("%s: interval %llu has no %s: the replay ends at its start", f->dir,
			         (unsigned long long)i,
			         i > f->last_complete ? "values (no VALUES_END)" : "CONTEXT record");
		f->end = RDB_FEED_CUT;
		return 1;
	}
	rdb_progress("replaying: interval %llu of %llu", (unsigned long long)i,
	             (unsigned long long)f->last_complete);
	/* A replay from the start has built every byte by running the program
	 * as it ran: interval i's values are what it holds already (--verify's
	 * full hash checks that at every boundary), and reading, decompressing
	 * and loading them was a large part of a replay (docs/perf.md).  From
	 * K >= 2 the bytes interval i reads first came only with its values. */
	return f->emit(f->ectx, RDB_TF_BOUNDARY, p, n) ||
	       f->emit(f->ectx, RDB_TF_CONTEXT, c, cn) ||
	       (f->from >= 2 && emit_values(f, i)) || emit_target(f);
}

static int merged(void *ctx, uint32_t type, const void *p, size_t n)
{
	struct rdb_feed *f = ctx;
	if (type == RDB_TF_BOUNDARY)
		return on_boundary(f, p, n);
	if (f->emit(f->ectx, type, p, n))
		return 1;
	if (type == RDB_TF_SWITCH) { /* (its size was checked by the merge) */
		struct rdb_tf_switch w;
		memcpy(&w, p, sizeof w);
		f->owner = w.to;
		return w.why == RDB_TF_SW_SLICE ? emit_target(f) : 0;
	}
	if (type != RDB_TF_SIGNAL)
		return 0;
	struct rdb_tf_signal s; /* its size was checked by the merge */
	memcpy(&s, p, sizeof s);
	return s.kind == RDB_TF_SIG_AT_SIC ? emit_target(f) : 0;
}

int rdb_feed_run(struct rdb_feed *f, int (*emit)(void *ctx, uint32_t type, const void *p,
                                                 size_t n), void *ctx)
{
	f->emit = emit;
	f->ectx = ctx;
	f->end = 0;
	if ((f->from >= 2 && preamble(f)) || emit_target(f))
		return RDB_FEED_DEAD;
	if (rdb_tr_merge(f->sc, f->sd, f->nd, merged, f) && !f->end)
		return RDB_FEED_DEAD;
	if (f->end == RDB_FEED_STOP)
		return RDB_FEED_STOP;
	struct rdb_tf_exit x = f->exit;
	if (f->end == RDB_FEED_CUT)
		x.cut = 1; /* the runtime reports the end of the trace */
	if (emit(ctx, RDB_TF_END, &x, sizeof x))
		return RDB_FEED_DEAD;
	return f->end == RDB_FEED_CUT ? RDB_FEED_CUT : RDB_FEED_END;
}
