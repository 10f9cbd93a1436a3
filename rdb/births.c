/* births.c: which thread is which across a recorded run.  The runtime
 * reuses a thread's slot once it has ended, so a slot alone does not name
 * a thread; the slot and its birth (the syscall number of the clone that
 * made it, as rdb/feed.c's TARGETs name threads) do, the same in every
 * replay, from the start or from any interval.  Read from the THREAD
 * records (CREATED) of the syscalls stream. */
#include <string.h>

#include "rdb.h"
#include "layout.h"

struct birth {
	uint64_t interval, born;
	uint32_t slot;
};

struct rdb_births {
	struct birth *b;
	size_t n, cap;
};

struct rdb_births *rdb_births_read(const char *dir)
{
	struct rdb_births *s = rdb_xmalloc(sizeof *s);
	memset(s, 0, sizeof *s);
	struct rdb_tr *r = rdb_tr_open(dir, RDB_TF_S_SYSCALLS);
	uint32_t type;
	const void *p;
	size_t n;
	while (r && rdb_tr_next(r, &type, &p, &n)) {
		struct rdb_tf_thread th;
		if (type != RDB_TF_THREAD || !rdb_rec_ok(type, p, n))
			continue;
		memcpy(&th, p, sizeof th);
		if (th.kind != RDB_TF_TH_CREATED || th.slot >= RDB_THREAD_MAX)
			continue;
		if (s->n == s->cap)
			s->b = rdb_xrealloc(s->b, (s->cap = s->cap ? 2 * s->cap : 16) * sizeof *s->b);
		s->b[s->n++] = (struct birth){th.interval, th.sc_id + 1, th.slot};
	}
	if (r)
		rdb_tr_close(r);
	return s;
}

void rdb_births_free(struct rdb_births *s)
{
	if (s) {
		rdb_free(s->b);
		rdb_free(s);
	}
}

int rdb_births_any(const struct rdb_births *s) { return s && s->n > 0; }

uint64_t rdb_born_at(const struct rdb_births *s, uint32_t slot, uint64_t interval, uint64_t sc_id)
{
	uint64_t born = 0;
	for (size_t i = 0; s && slot && i < s->n; i++) {
		const struct birth *b = &s->b[i];
		if (b->slot == slot &&
		    (b->interval < interval || (b->interval == interval && b->born <= sc_id)))
			born = b->born;
	}
	return born;
}
