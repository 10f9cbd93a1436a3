/* timeline.c: positions in a replayed run and going back to them.  A
 * position is (interval, SIC count, pc, %rsp, and a rep instruction's
 * %rcx): every back edge and call counts, so within one count each pc
 * runs at most once in each frame (a ret does not count: a caller may
 * run the pc again, at a higher %rsp), and rdb replays any interval from
 * its start, the same way every time.  Going back is therefore a replay
 * of the right interval, from its start or from a checkpoint (below),
 * run forward to the position: to the count without stepping (target.c
 * arms the SIC's check), then to the pc under a breakpoint.
 *   - reverse-stepi: the position before the current one.  The first
 *     position of a count is its check, right after the increment (the
 *     position before); an interval's first comes after the boundary's
 *     check, the last position of the interval before; any other is found
 *     by stepping the count's segment from its start (remembered, for the
 *     steps back after it).
 *   - reverse-continue: the last breakpoint stop before the current
 *     position: windows of the current interval back from here (scan_back),
 *     else the intervals before it, each whole, until one has stops; then
 *     a replay to the last of them.
 * History starts at interval 1's first instruction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdbserver.h"
#include "layout.h"

/* Checkpoints (target.c: frozen forked copies of a replay), each at the
 * program's first position of a count, or at an interval's first
 * position.  Going to a count starts from the latest one before it
 * instead of the interval's start, and leaves new ones on the way, closer
 * and closer to where it goes (at half the distance left, while that is
 * more than GAP counts), as rr does: the steps back after it start
 * near.  The least recently used goes when there are MAXCK. */
enum { MAXCK = 32, GAP = 200000 };
struct ckpt {
	struct rdb_pos pos;
	struct rdb_ck *ck;
	uint64_t used;
};

struct rdb_tl {
	struct rdb_tg *t;
	int replays; /* the first replay writes the program's output, later ones not */
	int walked;  /* later() replayed: the program is not where it was */
	/* the positions of the last count segment stepped through */
	struct rdb_pos *seg;
	size_t nseg, cap;
	struct ckpt ck[MAXCK];
	int nck, no_ck; /* RDB_GDB_CHECKPOINTS=0: none (to compare) */
	uint64_t clock;
	/* the last reverse-continue: intervals replayed, left out (monitor info) */
	uint64_t rc_replayed, rc_skipped;
};

static const unsigned char inc_insn[4] = {0x4d, 0x8d, 0x7f, 0x01}; /* lea 1(%r15), %r15 */

struct rdb_tl *rdb_tl_new(struct rdb_tg *t, uint64_t first)
{
	struct rdb_tl *l = rdb_xmalloc(sizeof *l);
	memset(l, 0, sizeof *l);
	l->t = t;
	(void)first;
	const char *e = getenv("RDB_GDB_CHECKPOINTS");
	l->no_ck = e && !strcmp(e, "0");
	return l;
}

static void drop_ck(struct rdb_tl *l, int i)
{
	rdb_tg_ck_drop(l->t, l->ck[i].ck);
	l->ck[i] = l->ck[--l->nck];
}

void rdb_tl_free(struct rdb_tl *l)
{
	while (l->nck)
		drop_ck(l, 0);
	rdb_free(l->seg);
	rdb_free(l);
}

int rdb_tl_checkpoints(const struct rdb_tl *l) { return l->nck; }

void rdb_tl_rc_counts(const struct rdb_tl *l, uint64_t *replayed, uint64_t *skipped)
{
	*replayed = l->rc_replayed;
	*skipped = l->rc_skipped;
}

/* Counts are each thread's own: going to a count is going to the count
 * of the thread of that birth in that slot (the main thread's without
 * threads; an earlier thread of the slot may come to the same count). */
static void want_thread(struct rdb_tl *l, uint64_t slot, uint64_t born)
{
	rdb_tg_want_thread(l->t, slot, born);
}

/* Whether p is a position of the thread wanted. */
static int wanted(const struct rdb_tl *l, const struct rdb_pos *p) { return rdb_tg_wanted(l->t, p); }

static int same(const struct rdb_pos *a, const struct rdb_pos *b)
{
	return a->interval == b->interval && a->count == b->count && a->pc == b->pc &&
	       a->sp == b->sp && a->rcx == b->rcx && a->slot == b->slot && a->born == b->born;
}

static int launch(struct rdb_tl *l, uint64_t interval, uint64_t to)
{
	return rdb_tg_start(l->t, interval, to, l->replays++ > 0);
}

int rdb_tl_restart(struct rdb_tl *l) { return launch(l, 1, 0); }

/* The first interval a replay can start at: a fork child's trace has
 * none before its fork (interval 2). */
static uint64_t first_interval(const struct rdb_tl *l)
{
	const struct rdb_header *h = rdb_tg_header(l->t);
	return h->have_proc && (h->proc.flags & RDB_TF_PROC_FORKED) ? 2 : 1;
}

int rdb_tl_first(struct rdb_tl *l, uint64_t from, int quiet)
{
	l->replays = 1;
	return rdb_tg_start(l->t, from, 0, quiet);
}

/* The latest checkpoint of interval at count `count` or before (below:
 * before it), or -1. */
static int ck_before(struct rdb_tl *l, uint64_t interval, uint64_t count, int below)
{
	int best = -1;
	for (int i = 0; i < l->nck; i++) {
		const struct rdb_pos *p = &l->ck[i].pos;
		if (p->interval == interval && wanted(l, p) && (below ? p->count < count : p->count <= count) &&
		    (best < 0 || p->count > l->ck[best].pos.count))
			best = i;
	}
	return best;
}

/* A checkpoint where the replay is (the first position of a count, or
 * of an interval), unless one is near before it. */
static void ck_here(struct rdb_tl *l)
{
	struct rdb_pos p;
	if (l->no_ck || rdb_tg_pos(l->t, &p))
		return;
	int b = ck_before(l, p.interval, p.count, 0);
	if (b >= 0 && p.count - l->ck[b].pos.count < GAP / 2)
		return;
	struct rdb_ck *k = rdb_tg_ck_take(l->t);
	if (!k)
		return;
	if (l->nck == MAXCK) {
		int old = 0;
		for (int i = 1; i < l->nck; i++)
			if (l->ck[i].used < l->ck[old].used)
				old = i;
		drop_ck(l, old);
	}
	l->ck[l->nck++] = (struct ckpt){p, k, ++l->clock};
}

/* The replay at interval's first position, or count `count` or before:
 * the replay that is there already, a checkpoint's copy, or a new one.
 * 0, or -1 (message said). */
static int start_near(struct rdb_tl *l, uint64_t interval, uint64_t count)
{
	struct rdb_pos cur;
	int here = rdb_tg_pos(l->t, &cur) == 0 && !rdb_tg_bounded(l->t) &&
	           cur.interval == interval && wanted(l, &cur) && cur.count < count;
	int b = ck_before(l, interval, count, 0);
	if (here && (b < 0 || cur.count >= l->ck[b].pos.count))
		return 0;
	if (b >= 0) {
		l->ck[b].used = ++l->clock;
		if (rdb_tg_ck_resume(l->t, l->ck[b].ck) == 0)
			return 0;
		drop_ck(l, b);
	}
	if (launch(l, interval, 0))
		return -1;
	ck_here(l);
	return 0;
}

/* A replay at the program's first position of count `count` of
 * `interval`, or a later count's (then *at says which). */
static int to_segment(struct rdb_tl *l, uint64_t interval, uint64_t count, struct rdb_pos *at)
{
	if (start_near(l, interval, count))
		return -1;
	struct rdb_tg_stop s = {.kind = TG_COUNT};
	struct rdb_pos p;
	if (count && (rdb_tg_pos(l->t, &p) || !wanted(l, &p) || p.count < count)) {
		rdb_tg_bp_enable(l->t, 0);
		rdb_tg_watch_enable(l->t, 0);
		rdb_tg_quiet_signals(l->t, 1);
		rdb_tg_temp_bp(l->t, 0);
		for (;;) {
			uint64_t want = count;
			if (rdb_tg_pos(l->t, &p) == 0 && wanted(l, &p) && p.count < count &&
			    count - p.count > 2 * GAP)
				want = count - (count - p.count) / 2;
			rdb_tg_cont(l->t, want, &s);
			if (want == count || s.kind != TG_COUNT)
				break;
			ck_here(l);
		}
		rdb_tg_bp_enable(l->t, 1);
		rdb_tg_watch_enable(l->t, 1);
		rdb_tg_quiet_signals(l->t, 0);
		if (s.kind == TG_COUNT)
			ck_here(l);
	}
	if (s.kind != TG_COUNT || rdb_tg_pos(l->t, at) || at->interval != interval ||
	    !wanted(l, at)) {
		rdb_warn("gdb server: the replay of interval %llu did not reach count %llu",
		         (unsigned long long)interval, (unsigned long long)count);
		return -1;
	}
	return 0;
}

int rdb_tl_goto_count(struct rdb_tl *l, uint64_t interval, uint64_t count)
{
	struct rdb_pos at;
	want_thread(l, 0, 0); /* (monitor goto: the main thread's counts) */
	return to_segment(l, interval, count, &at);
}

int rdb_tl_goto(struct rdb_tl *l, const struct rdb_pos *p)
{
	struct rdb_pos at;
	struct rdb_tg_stop s = {.kind = 0};
	want_thread(l, p->slot, p->born); /* (its thread's counts) */
	/* to the count, or an earlier one where an increment had no check */
	for (uint64_t k = 0;; k++) {
		if (k > p->count || k == 64 || to_segment(l, p->interval, p->count - k, &at))
			return -1;
		if (at.count <= p->count)
			break;
	}
	/* then to the pc, in that count, in p's frame (the pc's first time
	 * there may be in a callee's, before returns) */
	if (!same(&at, p) && (at.pc != p->pc || at.count != p->count || at.sp != p->sp)) {
		rdb_tg_bp_enable(l->t, 0);
		rdb_tg_watch_enable(l->t, 0);
		rdb_tg_quiet_signals(l->t, 1);
		rdb_tg_temp_bp(l->t, p->pc);
		do
			rdb_tg_cont(l->t, p->count + 1, &s);
		while (s.kind == TG_BREAK && rdb_tg_pos(l->t, &at) == 0 &&
		       (!wanted(l, &at) || at.count < p->count ||
		        (at.count == p->count && at.sp != p->sp)));
		rdb_tg_temp_bp(l->t, 0);
		rdb_tg_bp_enable(l->t, 1);
		rdb_tg_watch_enable(l->t, 1);
		rdb_tg_quiet_signals(l->t, 0);
		if (s.kind != TG_BREAK || rdb_tg_pos(l->t, &at) || !wanted(l, &at) ||
		    at.count != p->count) {
			rdb_warn("gdb server: interval %llu count %llu: pc %#llx not reached",
			         (unsigned long long)p->interval, (unsigned long long)p->count,
			         (unsigned long long)p->pc);
			return -1;
		}
	}
	/* a rep instruction: its iterations, one step each */
	rdb_tg_watch_enable(l->t, 0);
	while (at.rcx != p->rcx && at.pc == p->pc) {
		rdb_tg_step(l->t, &s);
		if (s.kind != TG_STEPPED || rdb_tg_pos(l->t, &at))
			break;
	}
	rdb_tg_watch_enable(l->t, 1);
	return same(&at, p) ? 0 : -1;
}

/* Interval's first position follows the check where the boundary before
 * it was taken (trace: its BOUNDARY record): that check is the last
 * position of the interval before. */
static int boundary_of(const char *dir, uint64_t interval, struct rdb_pos *last)
{
	struct rdb_ivx *x = rdb_ivx_read(dir);
	struct rdb_tr *r = rdb_tr_open(dir, RDB_TF_S_INTERVALS);
	int found = 0;
	if (rdb_tr_seek_interval(r, x, interval)) {
		uint32_t type;
		const void *p;
		size_t n;
		while (!found && rdb_tr_next(r, &type, &p, &n)) {
			struct rdb_tf_boundary b;
			if (type != RDB_TF_BOUNDARY || n != sizeof b)
				continue;
			memcpy(&b, p, sizeof b);
			if (b.interval == interval) {
				last->interval = interval - 1;
				last->count = b.sic;
				last->pc = b.pc;
				last->sp = 0;
				last->rcx = 0;
				last->slot = 0; /* (the main thread's: a limit with threads) */
				last->born = 0;
				found = 1;
			}
			if (b.interval > interval)
				break;
		}
	}
	rdb_tr_close(r);
	rdb_ivx_free(x);
	return found ? 0 : -1;
}

/* Steps from the program's first position of count `count` of interval
 * `interval` up to p (later), each position into l->seg: 0, or -1 (p not
 * met: passed, or the replay ended). */
static int walk(struct rdb_tl *l, uint64_t interval, uint64_t count, const struct rdb_pos *p)
{
	struct rdb_pos at;
	l->nseg = 0;
	if (to_segment(l, interval, count, &at) || at.interval > p->interval ||
	    (at.interval == p->interval && at.count > p->count))
		return -1;
	rdb_tg_quiet_signals(l->t, 1);
	rdb_tg_watch_enable(l->t, 0);
	int ok = -1;
	for (long steps = 0; steps < 10000000; steps++) {
		if (rdb_tg_pos(l->t, &at))
			break;
		if (!l->nseg || !same(&l->seg[l->nseg - 1], &at)) {
			if (l->nseg == l->cap) {
				l->cap = l->cap ? 2 * l->cap : 1024;
				l->seg = rdb_xrealloc(l->seg, l->cap * sizeof *l->seg);
			}
			l->seg[l->nseg++] = at;
		}
		if (same(&at, p)) {
			ok = 0;
			break;
		}
		if (at.interval > p->interval || (at.interval == p->interval && at.count > p->count))
			break;
		struct rdb_tg_stop s;
		rdb_tg_step(l->t, &s);
		if (s.kind != TG_STEPPED && s.kind != TG_SIGNAL)
			break;
	}
	rdb_tg_quiet_signals(l->t, 0);
	rdb_tg_watch_enable(l->t, 1);
	if (ok)
		l->nseg = 0;
	return ok;
}

/* The position before cur, found by walks from earlier and earlier counts
 * (a count may begin in the runtime: a handler it entered within
 * __rdb_syscall, an interval that began there), then from the end of the
 * interval before: 1 and *prev, 0 at the start of history, -1. */
static int before(struct rdb_tl *l, const struct rdb_pos *cur, struct rdb_pos *prev)
{
	for (uint64_t c = cur->count + 1; c-- > 0 && cur->count - c < 64;) {
		if (walk(l, cur->interval, c, cur) == 0 && l->nseg > 1) {
			*prev = l->seg[l->nseg - 2];
			return 1;
		}
		if (c == 0 && l->nseg == 1) { /* cur is its interval's first position */
			if (cur->interval <= 1)
				return 0;
			struct rdb_pos b;
			if (boundary_of(rdb_tg_dir(l->t), cur->interval, &b))
				return -1;
			for (uint64_t k = 0; k <= b.count && k < 64; k++)
				if (walk(l, cur->interval - 1, b.count - k, cur) == 0 && l->nseg > 1) {
					*prev = l->seg[l->nseg - 2];
					return 1;
				}
			return -1;
		}
	}
	return -1;
}

int rdb_tl_here(struct rdb_tl *l, const struct rdb_pos **seg, size_t *n)
{
	struct rdb_pos cur;
	if (rdb_tg_pos(l->t, &cur))
		return -1;
	want_thread(l, cur.slot, cur.born);
	for (uint64_t k = 0; k <= cur.count && k < 64; k++)
		if (walk(l, cur.interval, cur.count - k, &cur) == 0) {
			*seg = l->seg;
			*n = l->nseg;
			return 0;
		}
	rdb_tl_goto(l, &cur);
	return -1;
}

void rdb_tl_reverse_step(struct rdb_tl *l, struct rdb_tg_stop *s)
{
	struct rdb_pos cur, prev;
	memset(s, 0, sizeof *s);
	if (rdb_tg_pos(l->t, &cur)) {
		s->kind = TG_ERROR;
		return;
	}
	/* (the thread's own positions: the one before in its history) */
	want_thread(l, cur.slot, cur.born);
	uint8_t b[4];
	int found = 0;
	if (cur.count > 0 && rdb_tg_is_check(l->t, cur.pc) &&
	    rdb_tg_read(l->t, cur.pc - 4, b, 4) == 4 && !memcmp(b, inc_insn, 4)) {
		/* a check: right after its increment */
		prev = (struct rdb_pos){cur.interval, cur.count - 1, cur.pc - 4, cur.sp, 0, cur.slot,
		                        cur.born};
		found = 1;
	} else {
		/* the positions walked last time, or a walk to here */
		size_t i = 0;
		while (i < l->nseg && !same(&l->seg[i], &cur))
			i++;
		if (i < l->nseg && i > 0) {
			prev = l->seg[i - 1];
			found = 1;
		} else {
			found = before(l, &cur, &prev);
			if (found == 0)
				return; /* the start of history: a replay is there */
			found = found > 0;
		}
	}
	if (!found || rdb_tl_goto(l, &prev)) {
		rdb_warn("gdb server: cannot step back from interval %llu count %llu pc %#llx",
		         (unsigned long long)cur.interval, (unsigned long long)cur.count,
		         (unsigned long long)cur.pc);
		s->kind = TG_ERROR;
		return;
	}
	s->kind = TG_STEPPED;
}

/* A stop going back: where (for a watchpoint, the position after the
 * access) and what. */
struct event {
	struct rdb_pos at;
	struct rdb_tg_stop st;
};

static void event_break(struct event *ev, const struct rdb_pos *at)
{
	ev->at = *at;
	memset(&ev->st, 0, sizeof ev->st);
	ev->st.kind = TG_BREAK;
}

/* Runs the replay on with the user's breakpoints and the current group
 * of watchpoints (it is in upto's interval, before upto) up to upto:
 * exactly there (exact), or to the first position of upto's count.  The
 * last stop before it goes to *ev (a watchpoint's hit at upto itself is
 * before it: the access was the instruction before): 1 if there was
 * one, 0 if none. */
static int scan_to(struct rdb_tl *l, const struct rdb_pos *upto, int exact, struct event *ev)
{
	int n = 0, unsure = 0;
	struct event maybe;
	struct rdb_tg_stop s;
	struct rdb_pos at;
	rdb_tg_quiet_signals(l->t, 1);
	rdb_tg_temp_bp(l->t, 0);
	int phase2 = 0;
	if (rdb_tg_pos(l->t, &at) == 0) {
		/* a breakpoint where it starts: the segment's first stop */
		if (!same(&at, upto) && at.count < upto->count + (exact ? 1 : 0) &&
		    rdb_tg_bp_at(l->t, at.pc)) {
			event_break(ev, &at);
			n = 1;
		}
		if (exact && at.count >= upto->count) {
			phase2 = 1;
			rdb_tg_temp_bp(l->t, upto->pc);
		}
	}
	for (;;) {
		if (rdb_tg_pos(l->t, &at) == 0 && exact && same(&at, upto))
			break;
		rdb_tg_cont(l->t, phase2 ? upto->count + 1 : upto->count, &s);
		if (s.kind == TG_COUNT && !phase2) {
			if (!exact)
				break;
			phase2 = 1;
			rdb_tg_temp_bp(l->t, upto->pc);
			if (rdb_tg_pos(l->t, &at) == 0 && !same(&at, upto) && rdb_tg_bp_at(l->t, at.pc)) {
				event_break(ev, &at);
				n = 1;
			}
			continue;
		}
		if ((s.kind != TG_BREAK && s.kind != TG_WATCH) || rdb_tg_pos(l->t, &at))
			break;
		if (!phase2 && at.count >= upto->count) {
			/* upto's count began with no stop (a runtime that moved the
			 * SIC's window, delivering a signal): a stop in that count
			 * may be before upto or after it (a walk tells, below) */
			if (exact && at.count == upto->count &&
			    (s.kind == TG_WATCH || rdb_tg_bp_at(l->t, at.pc))) {
				maybe.at = at;
				maybe.st = s;
				unsure = 1;
			}
			break;
		}
		if (s.kind == TG_WATCH) {
			ev->at = at;
			ev->st = s;
			n = 1;
		}
		if (exact && same(&at, upto))
			break;
		/* a watchpoint's stop where a breakpoint is: the breakpoint
		 * comes after the access (a continue from it steps off it) */
		if (s.kind == TG_WATCH && rdb_tg_bp_at(l->t, at.pc))
			event_break(ev, &at);
		if (s.kind == TG_BREAK && rdb_tg_bp_at(l->t, at.pc)) {
			ev->at = at;
			ev->st = s;
			n = 1;
		}
	}
	rdb_tg_temp_bp(l->t, 0);
	rdb_tg_quiet_signals(l->t, 0);
	if (unsure && walk(l, upto->interval, upto->count, upto) == 0)
		for (size_t i = 0; i < l->nseg; i++)
			if (same(&l->seg[i], &maybe.at)) {
				*ev = maybe;
				n = 1;
			}
	return n;
}

/* Replays interval `interval` whole with the user's breakpoints and the
 * current group of watchpoints and leaves the last stop in *ev: 1 if
 * there was one. */
static int scan_interval(struct rdb_tl *l, uint64_t interval, struct event *ev)
{
	int n = 0;
	if (launch(l, interval, interval))
		return -1;
	rdb_tg_quiet_signals(l->t, 1);
	rdb_tg_temp_bp(l->t, 0);
	struct rdb_tg_stop s;
	struct rdb_pos at;
	if (rdb_tg_pos(l->t, &at) == 0 && rdb_tg_bp_at(l->t, at.pc)) {
		event_break(ev, &at);
		n = 1;
	}
	for (;;) {
		rdb_tg_cont(l->t, 0, &s);
		if ((s.kind != TG_BREAK && s.kind != TG_WATCH) || rdb_tg_pos(l->t, &at) ||
		    at.interval != interval)
			break;
		if (s.kind == TG_WATCH || rdb_tg_bp_at(l->t, at.pc)) {
			ev->at = at;
			ev->st = s;
			n = 1;
		}
		if (s.kind == TG_WATCH && rdb_tg_bp_at(l->t, at.pc))
			event_break(ev, &at); /* (after the access, as in scan_to) */
	}
	rdb_tg_quiet_signals(l->t, 0);
	return n;
}

/* The last stop before cur in its interval: windows of counts back from
 * cur replayed with the breakpoints and watchpoints, each four times as
 * long as the one after it (a breakpoint hit at every call costs a stop
 * each time only in the windows replayed; each window starts from a
 * checkpoint's copy, run to its first count without breakpoints), up to
 * a few million counts, then the rest of the interval at once.  1 and
 * *ev, 0, or -1. */
static int scan_back(struct rdb_tl *l, const struct rdb_pos *cur, struct event *ev)
{
	struct rdb_pos hi = *cur, at;
	int exact = 1; /* to hi itself; later windows: to hi's count */
	for (uint64_t d = 256;; d *= 4) {
		/* past a few million counts without a stop the breakpoints are
		 * no hot ones here: the rest of the interval in one replay */
		uint64_t lo = hi.count > d && d < (1u << 22) ? hi.count - d : 0;
		if (lo) {
			/* to the window's first count (or a later one, where
			 * counts had no check: then a longer window) */
			if (to_segment(l, cur->interval, lo, &at))
				return -1;
			if (at.count >= hi.count)
				continue;
		} else if (start_near(l, cur->interval, 0) || rdb_tg_pos(l->t, &at)) {
			return -1;
		}
		int r = scan_to(l, &hi, exact, ev);
		if (r || !lo)
			return r;
		hi = at;
		exact = 0;
	}
}

/* Whether the instruction at pc is one of rdb's hooks: a no-op (what a
 * replay leaves of a read or write hook, runtime/unhook.c), a store of
 * %r13 to the S plane (`(...,%r14,2)`, docs/hooks.md), a read hook's store
 * to or compare with the R plane (a replay that keeps them), or the `lea`
 * into %r12 one takes first (compiled code never uses %r12). */
static int is_hook(struct rdb_tl *l, uint64_t pc)
{
	uint8_t b[8];
	return rdb_tg_read(l->t, pc, b, sizeof b) == sizeof b && rdb_sw_is_hook(b);
}

/* Whether the instruction at pc is a `jne` (a check's, after a hook). */
static int is_jne(struct rdb_tl *l, uint64_t pc)
{
	uint8_t b[2];
	return rdb_tg_read(l->t, pc, b, sizeof b) == sizeof b &&
	       (b[0] == 0x75 || (b[0] == 0x0f && b[1] == 0x85));
}

/* Whether a came after b (both of one interval, from different replays
 * of it): by count, else by a walk of their count from its start. */
static int later(struct rdb_tl *l, const struct event *a, const struct event *b)
{
	if (a->at.count != b->at.count)
		return a->at.count > b->at.count;
	if (same(&a->at, &b->at)) /* a breakpoint there comes after the access */
		return a->st.kind == TG_BREAK;
	l->walked = 1;
	if (walk(l, a->at.interval, a->at.count, &a->at))
		return 0;
	for (size_t i = 0; i < l->nseg; i++)
		if (same(&l->seg[i], &b->at))
			return 1;
	return 0;
}

/* Whether interval j can be left out going back: the trace says it
 * neither wrote nor (for read and access watchpoints) read any watched
 * byte, and ran no code of a breakpoint's function.  A write watch where
 * %rsp-based stores could go (bit i of stack, watch i) also needs the
 * interval's STACK_WRITTEN pages to miss it: without them (the kernel
 * refused) nothing is skipped.  A breakpoint's function (fn[i]) may have
 * run in j if it was entered there, or had a frame live at j's start
 * (ranlive.c); when the trace cannot tell nothing is skipped (docs/gdb.md
 * "Breakpoints"). */
struct skip {
	struct rdb_ranq q;
	struct rdb_tr *v;
	int ok;
	uint64_t stack;
	int nfn;
	struct rdb_fnset fn[8];
};

static int skippable(struct rdb_tl *l, struct skip *k, uint64_t j)
{
	if (!k->ok)
		return 0;
	int kind;
	uint64_t a, n;
	for (int i = 0; rdb_tg_watch_get(l->t, i, &kind, &a, &n); i++) {
		if (rdb_written_in(k->q.w, k->q.x, j, a, a + n) != 0)
			return 0;
		if (k->stack >> i & 1 && rdb_stack_written_in(k->q.w, k->q.x, j, a, a + n) != 0)
			return 0;
		if (kind != 2 && rdb_values_in(k->v, k->q.x, j, a, a + n) != 0)
			return 0;
	}
	if (k->nfn && rdb_fn_may_run(&k->q, j, k->fn, k->nfn) != 0)
		return 0;
	return 1;
}

/* A recording with threads (docs/gdb.md): counts are each thread's own,
 * so the stops are told apart by their order instead.  Replays interval j
 * (to its end) with the user's breakpoints and watchpoints (the shadow
 * pages see every thread's writes), and a temporary breakpoint at upto's
 * pc when upto is in it, and counts the stops up to upto (or the end):
 * the ordinal of the last breakpoint or watchpoint stop before upto in
 * *nth (0: at the interval's first position; a watchpoint's hit at upto
 * itself is before it, the access being the instruction before).  A
 * watchpoint's stop where a breakpoint is (not at upto) is two stops, the
 * access then the breakpoint (as in scan_to): *brk 1 says the last one is
 * that breakpoint, made by the replay's stop *nth.  1 if there is one, 0
 * if none, -1. */
static int thread_stops(struct rdb_tl *l, uint64_t j, const struct rdb_pos *upto, uint64_t *nth,
                        int *brk)
{
	if (launch(l, j, j))
		return -1;
	rdb_tg_quiet_signals(l->t, 1);
	rdb_tg_watch_group(l->t, 0);
	rdb_tg_temp_bp(l->t, upto ? upto->pc : 0);
	int found = 0;
	struct rdb_pos at;
	struct rdb_tg_stop st;
	*brk = 0;
	if (rdb_tg_pos(l->t, &at) == 0 && !(upto && same(&at, upto)) && rdb_tg_bp_at(l->t, at.pc)) {
		*nth = 0;
		found = 1;
	}
	for (uint64_t n = 1; !(upto && rdb_tg_pos(l->t, &at) == 0 && same(&at, upto)); n++) {
		rdb_tg_cont(l->t, 0, &st);
		if ((st.kind != TG_BREAK && st.kind != TG_WATCH) || rdb_tg_pos(l->t, &at) ||
		    at.interval != j)
			break;
		int bp = !(upto && same(&at, upto)) && rdb_tg_bp_at(l->t, at.pc);
		if (st.kind == TG_WATCH || bp) {
			*nth = n;
			*brk = st.kind == TG_WATCH && bp;
			found = 1;
		}
		if (upto && same(&at, upto))
			break;
	}
	rdb_tg_temp_bp(l->t, 0);
	rdb_tg_quiet_signals(l->t, 0);
	return found;
}

static int before_access(struct rdb_tl *l);

/* reverse-continue with threads: the intervals from the current one
 * back, each replayed whole (to here in the current one), the last
 * breakpoint or watchpoint stop of the first with any; then a replay of
 * that interval to the same stop (a replay makes the same stops every
 * time), and for a watchpoint one instruction back, before its access,
 * in the thread that made it; a breakpoint where that watchpoint's stop
 * is comes first, there. */
static void reverse_cont_threads(struct rdb_tl *l, const struct rdb_pos *cur,
                                 struct rdb_tg_stop *s)
{
	l->rc_replayed = l->rc_skipped = 0;
	for (uint64_t j = cur->interval; j >= first_interval(l); j--) {
		uint64_t nth = 0;
		int brk = 0;
		const struct rdb_pos *upto = j == cur->interval ? cur : NULL;
		l->rc_replayed++;
		int r = thread_stops(l, j, upto, &nth, &brk);
		if (r < 0) {
			s->kind = TG_ERROR;
			return;
		}
		if (!r)
			continue;
		if (launch(l, j, 0)) {
			s->kind = TG_ERROR;
			return;
		}
		rdb_tg_quiet_signals(l->t, 1);
		rdb_tg_temp_bp(l->t, upto ? upto->pc : 0);
		struct rdb_tg_stop st = {.kind = TG_BREAK};
		for (uint64_t n = 0; n < nth && (st.kind == TG_BREAK || st.kind == TG_WATCH); n++)
			rdb_tg_cont(l->t, 0, &st);
		rdb_tg_temp_bp(l->t, 0);
		rdb_tg_quiet_signals(l->t, 0);
		struct rdb_pos at;
		if ((st.kind != TG_BREAK && st.kind != TG_WATCH) || rdb_tg_pos(l->t, &at) ||
		    ((st.kind == TG_BREAK || brk) && !rdb_tg_bp_at(l->t, at.pc)) ||
		    (brk && st.kind != TG_WATCH)) {
			rdb_warn("gdb server: interval %llu: its breakpoint or watchpoint stop %llu was "
			         "not made again", (unsigned long long)j, (unsigned long long)nth);
			s->kind = TG_ERROR;
			return;
		}
		/* the breakpoint after the access: a stop of its own, there */
		if (brk) {
			memset(s, 0, sizeof *s);
			s->kind = TG_BREAK;
			return;
		}
		/* a syscall's write: before its call, in its thread */
		if (st.kind == TG_WATCH && (st.before.pc ? rdb_tl_goto(l, &st.before) : before_access(l))) {
			s->kind = TG_ERROR;
			return;
		}
		*s = st;
		return;
	}
	if (rdb_tl_restart(l))
		s->kind = TG_ERROR; /* (else kind 0: the start of history) */
}

/* Back to the last breakpoint stop or watchpoint access before the
 * current position: the intervals from the current one back are each
 * replayed once per group of watchpoints (four debug registers' worth),
 * unless the trace shows the interval can have no stop; the latest
 * event wins.  A watchpoint's stop is before its access, as gdb's
 * record full reports it going back. */
void rdb_tl_reverse_cont(struct rdb_tl *l, struct rdb_tg_stop *s)
{
	struct rdb_pos cur;
	struct event best, ev;
	memset(s, 0, sizeof *s);
	if (rdb_tg_pos(l->t, &cur)) {
		s->kind = TG_ERROR;
		return;
	}
	if (rdb_tg_threaded(l->t))
		return reverse_cont_threads(l, &cur, s);
	struct skip k;
	memset(&k, 0, sizeof k);
	int nbps = rdb_tg_nbps(l->t);
	k.ok = rdb_tg_watch_groups(l->t) > 0 || nbps > 0;
	int kind;
	uint64_t a, n;
	for (int i = 0; k.ok && rdb_tg_watch_get(l->t, i, &kind, &a, &n); i++)
		if (rdb_tg_watch_stacky(l->t, i)) {
			/* reads through %rsp are in no VALUES record */
			k.ok = kind == 2 && i < 64;
			k.stack |= 1ull << (i & 63);
		}
	/* RDB_GDB_RAN=0: every interval replayed for breakpoints (to compare) */
	const char *ran = getenv("RDB_GDB_RAN");
	if (nbps > 0 && (nbps > 8 || (ran && !strcmp(ran, "0"))))
		k.ok = 0;
	for (int i = 0; k.ok && i < nbps; i++) {
		uint64_t bp;
		k.ok = rdb_tg_bp_get(l->t, i, &bp) && rdb_fn_of(rdb_tg_header(l->t), bp, &k.fn[k.nfn++]);
	}
	if (k.ok) {
		const char *dir = rdb_tg_dir(l->t);
		k.q.x = rdb_ivx_read(dir);
		k.q.w = rdb_tr_open(dir, RDB_TF_S_WRITTEN);
		k.v = rdb_tr_open(dir, RDB_TF_S_VALUES);
		k.q.c = rdb_tr_open(dir, RDB_TF_S_CONTEXT);
		k.q.s = rdb_tr_open(dir, RDB_TF_S_STACK);
		k.q.sc = rdb_tr_open(dir, RDB_TF_S_SYSCALLS);
	}
	int groups = rdb_tg_watch_groups(l->t), found = 0, err = 0;
	l->rc_replayed = l->rc_skipped = 0;
	for (uint64_t j = cur.interval; j >= first_interval(l) && !found && !err; j--) {
		/* the current interval too: its WRITTEN records are the whole
		 * interval's, so none there means none before here either */
		if (skippable(l, &k, j)) {
			l->rc_skipped++;
			continue;
		}
		l->rc_replayed++;
		for (int g = 0; g < (groups ? groups : 1) && !err; g++) {
			rdb_tg_watch_group(l->t, g);
			int r = j == cur.interval ? scan_back(l, &cur, &ev) : scan_interval(l, j, &ev);
			if (r < 0)
				err = 1;
			else if (r && (!found || later(l, &ev, &best))) {
				best = ev;
				found = 1;
			}
		}
	}
	rdb_tg_watch_group(l->t, 0);
	if (k.ok) {
		rdb_tr_close(k.q.w);
		rdb_tr_close(k.v);
		rdb_tr_close(k.q.c);
		rdb_tr_close(k.q.s);
		rdb_tr_close(k.q.sc);
		rdb_ivx_free(k.q.x);
	}
	if (err) {
		s->kind = TG_ERROR;
		return;
	}
	if (!found) {
		if (rdb_tl_restart(l))
			s->kind = TG_ERROR;
		return; /* the start of history */
	}
	/* a syscall's write: before its call (the position after it may
	 * begin in the runtime) */
	if (best.st.kind == TG_WATCH && best.st.before.pc) {
		if (rdb_tl_goto(l, &best.st.before))
			s->kind = TG_ERROR;
		else
			*s = best.st;
		return;
	}
	if (rdb_tl_goto(l, &best.at)) {
		s->kind = TG_ERROR;
		return;
	}
	if (best.st.kind == TG_WATCH && before_access(l)) {
		s->kind = TG_ERROR;
		return;
	}
	*s = best.st;
}

/* A watchpoint's stop going back is before its access, as record full
 * gives it (the value as it was): from the position after the access
 * one instruction back (in the thread that made it), and on back over
 * the instruction's hooks (no-ops in a replay, or S plane stores, or a
 * read hook's check and its jne where the replay keeps them): where its
 * line begins, if it is the line's first.  0, or -1. */
static int before_access(struct rdb_tl *l)
{
	struct rdb_tg_stop st;
	struct rdb_pos at;
	rdb_tl_reverse_step(l, &st);
	if (st.kind != TG_STEPPED || rdb_tg_pos(l->t, &at))
		return -1;
	size_t i = 0;
	while (i < l->nseg && !same(&l->seg[i], &at))
		i++;
	if (i < l->nseg) {
		while (i > 0 && l->seg[i - 1].count == at.count && l->seg[i - 1].pc < l->seg[i].pc &&
		       l->seg[i].pc - l->seg[i - 1].pc <= 15 &&
		       (is_hook(l, l->seg[i - 1].pc) ||
		        (i >= 2 && is_jne(l, l->seg[i - 1].pc) && is_hook(l, l->seg[i - 2].pc))))
			i--;
		if (!same(&l->seg[i], &at) && rdb_tl_goto(l, &l->seg[i]))
			return -1;
	}
	return 0;
}

/* Continue with more watchpoints than the debug registers hold: the
 * run from here once per group of four pieces, each to its first stop (a
 * replay is the same every time, so a breakpoint or signal stops every
 * group alike); the earliest stop wins, and a last run with its group
 * leaves the program exactly as that stop.  Cost: a replay of the
 * stretch per group. */
void rdb_tl_cont(struct rdb_tl *l, struct rdb_tg_stop *s)
{
	int groups = rdb_tg_watch_groups(l->t);
	struct rdb_pos cur;
	if (groups <= 1 || rdb_tg_pos(l->t, &cur)) {
		rdb_tg_watch_group(l->t, 0);
		rdb_tg_cont(l->t, 0, s);
		return;
	}
	struct event best, ev;
	int bestg = -1;
	for (int g = 0; g < groups; g++) {
		if (g > 0 && rdb_tl_goto(l, &cur)) {
			s->kind = TG_ERROR;
			return;
		}
		rdb_tg_watch_group(l->t, g);
		rdb_tg_cont(l->t, 0, &ev.st);
		l->walked = 0;
		if (ev.st.kind == TG_INTR || ev.st.kind == TG_ERROR) {
			*s = ev.st;
			rdb_tg_watch_group(l->t, 0);
			return;
		}
		int ended = ev.st.kind == TG_EXITED || rdb_tg_pos(l->t, &ev.at);
		if (ended)
			memset(&ev.at, 0, sizeof ev.at);
		/* earlier than the best so far: by interval, count, or a walk */
		int first = bestg < 0 || (!ended && (!best.at.interval || best.at.interval > ev.at.interval ||
		                                     (best.at.interval == ev.at.interval &&
		                                      later(l, &best, &ev))));
		if (first) {
			best = ev;
			bestg = g;
		}
	}
	if (bestg != groups - 1 || l->walked) {
		if (rdb_tl_goto(l, &cur)) {
			s->kind = TG_ERROR;
			return;
		}
		rdb_tg_watch_group(l->t, bestg);
		rdb_tg_cont(l->t, 0, &best.st);
	}
	*s = best.st;
	rdb_tg_watch_group(l->t, 0);
}
