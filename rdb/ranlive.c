/* ranlive.c: whether a breakpoint's function may have run in an interval
 * (docs/gdb.md "Breakpoints"), for leaving intervals out going back.  The
 * runtime marks only function entries (and signal handlers' returns, and
 * any switch to a stack the boundary did not save): a function that runs
 * in interval j without being entered there resumes a frame that was live
 * at j's start.  Such a frame is either the
 * innermost (the start pc is in it) or it called something, and its return
 * address is a word of the stack the boundary saved (STACK records).  So
 * the function may have run in j if j's RAN records name a point of it,
 * the start pc is in it, or a word of the saved live stack points into
 * it; if other threads were parked at j's start (THCTX), whose stacks no
 * record holds, or a record is missing, nothing is known. */
#include <string.h>

#include "rdb.h"

/* REG_RSP and REG_RIP in ucontext's order */
enum { GREG_RSP = 15, GREG_RIP = 16 };

static int any_holds(const struct rdb_fnset *f, int nf, uint64_t a)
{
	for (int i = 0; i < nf; i++)
		if (rdb_fn_holds(&f[i], a, a + 1))
			return 1;
	return 0;
}

/* Whether f's code holds a or a is the end of one of its parts (the return
 * address of a call that ends it). */
static int any_holds_ret(const struct rdb_fnset *f, int nf, uint64_t a)
{
	return any_holds(f, nf, a) || (a && any_holds(f, nf, a - 1));
}

/* j's RAN records: 1 a point in f, 0 none, -1 no records. */
static int ran(struct rdb_ranq *q, uint64_t j, const struct rdb_fnset *f, int nf)
{
	int r = 0;
	for (int i = 0; i < nf && r == 0; i++)
		for (int p = 0; p < f[i].n && r == 0; p++)
			r = rdb_ran_in(q->w, q->x, j, f[i].lo[p], f[i].hi[p]);
	return r;
}

/* Other threads parked at j's start (THCTX records other than the
 * holder's, after BOUNDARY(j) in the syscalls stream): 1, or 0; 1 too
 * when BOUNDARY(j) is not found where the index points. */
static int others_parked(struct rdb_ranq *q, uint64_t j)
{
	if (j < 2)
		return 0;
	if (!rdb_tr_seek_interval(q->sc, q->x, j))
		return 1;
	uint32_t t;
	const void *p;
	size_t n;
	int in = 0;
	for (int i = 0; i < 64 && rdb_tr_next(q->sc, &t, &p, &n); i++) {
		if (t == RDB_TF_THCTX && rdb_rec_ok(t, p, n)) {
			struct rdb_tf_thctx c;
			memcpy(&c, p, sizeof c);
			if (in && c.interval == j && c.how != RDB_TF_PARK_HOLDER)
				return 1;
		} else if (t == RDB_TF_BOUNDARY && rdb_rec_ok(t, p, n)) {
			struct rdb_tf_boundary b;
			memcpy(&b, p, sizeof b);
			if (in)
				return 0;
			in = b.interval == j;
		} else if (in && (t == RDB_TF_TRAP || t == RDB_TF_SIGNAL))
			return 0; /* THCTX come before the interval's first event */
	}
	return !in;
}

/* j's start context (pc and %rsp): 1, or 0 when the trace has none. */
static int start_of(struct rdb_ranq *q, uint64_t j, uint64_t *pc, uint64_t *sp)
{
	uint32_t t;
	const void *p;
	size_t n;
	if (!rdb_tr_seek_interval(q->c, q->x, j) || !rdb_tr_next(q->c, &t, &p, &n) ||
	    t != RDB_TF_CONTEXT || !rdb_rec_ok(t, p, n))
		return 0;
	struct rdb_tf_context c;
	memcpy(&c, p, sizeof c);
	if (c.interval != j)
		return 0;
	*pc = c.gregs[GREG_RIP];
	*sp = c.gregs[GREG_RSP];
	return 1;
}

/* j's STACK records: 1 a word of a live stack points into f, 0 none, -1
 * no records.  The record holding %rsp is scanned from %rsp up: every
 * live frame's return address is at or above %rsp (the red zone below
 * holds a leaf's data, never a return address), and below lies only what
 * returned frames left (a stale return address there would keep a
 * function that returned long ago "live" forever).  The others (the
 * main stack while %rsp is elsewhere, stacks handlers interrupted, the
 * alternate stack) are scanned whole.  Every byte offset, not just
 * aligned words: a few more false hits, never a miss. */
static int on_stack(struct rdb_ranq *q, uint64_t j, uint64_t sp, const struct rdb_fnset *f,
                    int nf)
{
	if (!rdb_tr_seek_interval(q->s, q->x, j))
		return -1;
	uint32_t t;
	const void *p;
	size_t n;
	int seen = 0;
	while (rdb_tr_next(q->s, &t, &p, &n)) {
		struct rdb_tf_blob b;
		if (t != RDB_TF_STACK || !rdb_rec_ok(t, p, n))
			return -1;
		memcpy(&b, p, sizeof b);
		if (b.interval != j)
			break;
		seen = 1;
		const unsigned char *d = (const unsigned char *)p + sizeof b;
		uint64_t from = 0;
		if (sp >= b.addr && sp < b.addr + b.len)
			from = sp - b.addr;
		for (uint64_t o = from; o + 8 <= b.len; o++) {
			uint64_t w;
			memcpy(&w, d + o, 8);
			if (any_holds_ret(f, nf, w))
				return 1;
		}
	}
	return seen ? 0 : -1;
}

int rdb_fn_may_run(struct rdb_ranq *q, uint64_t j, const struct rdb_fnset *f, int nf)
{
	int r = ran(q, j, f, nf);
	if (r)
		return r;
	uint64_t pc, sp;
	if (!start_of(q, j, &pc, &sp))
		return -1;
	if (any_holds(f, nf, pc))
		return 1;
	if (others_parked(q, j))
		return -1;
	return on_stack(q, j, sp, f, nf);
}
