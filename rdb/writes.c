/* writes.c: step 1 of rdb flowback (docs/flowback.md), from the trace
 * alone: the last interval whose WRITTEN records touch some bytes.  Apart
 * from flowback.c (symbols, lines, the replay) so the trace fuzz harness
 * reads the written stream too. */
#include <string.h>

#include "rdb.h"

/* The next record of r, which must be of type a, b or c (what: their name
 * in the error): its type, or 0 at the end of the stream. */
static uint32_t next_of(struct rdb_tr *r, uint32_t a, uint32_t b, uint32_t c, const char *what,
                        const void **p, size_t *n)
{
	uint32_t t;
	if (!rdb_tr_next(r, &t, p, n))
		return 0;
	if ((t != a && t != b && t != c) || !rdb_rec_ok(t, *p, *n))
		rdb_fatal("%s: a record of type %u and %zu bytes where %s records belong",
		          rdb_tr_where(r), t, *n, what);
	return t;
}

/* Whether interval j's records of type want (WRITTEN, STACK_WRITTEN or
 * RAN: all in the written stream, an interval's WRITTEN first) touch
 * [lo, hi): 1 or 0; -1 when it has none (every interval the runtime ended
 * has a WRITTEN record, maybe empty; STACK_WRITTEN only when the kernel
 * told). */
static int wrote(struct rdb_tr *r, const struct rdb_ivx *x, uint32_t want, uint64_t j,
                 uint64_t lo, uint64_t hi)
{
	int seen = 0;
	if (!rdb_tr_seek_interval(r, x, j))
		return -1;
	uint32_t t;
	const void *p;
	size_t n;
	while ((t = next_of(r, RDB_TF_WRITTEN, RDB_TF_STACK_WRITTEN, RDB_TF_RAN, "WRITTEN", &p, &n))) {
		struct rdb_tf_written w;
		memcpy(&w, p, sizeof w);
		if (w.interval != j)
			break;
		if (t != want)
			continue;
		seen = 1;
		const char *e = (const char *)p + sizeof w;
		for (uint32_t i = 0; i < w.n; i++) {
			struct rdb_tf_range g;
			memcpy(&g, e + i * sizeof g, sizeof g);
			if (g.addr < hi && lo < g.addr + g.len)
				return 1;
		}
	}
	return seen ? 0 : -1;
}

int rdb_written_in(struct rdb_tr *r, const struct rdb_ivx *x, uint64_t j, uint64_t lo,
                   uint64_t hi)
{
	return wrote(r, x, RDB_TF_WRITTEN, j, lo, hi);
}

int rdb_stack_written_in(struct rdb_tr *r, const struct rdb_ivx *x, uint64_t j, uint64_t lo,
                         uint64_t hi)
{
	return wrote(r, x, RDB_TF_STACK_WRITTEN, j, lo, hi);
}

int rdb_ran_in(struct rdb_tr *r, const struct rdb_ivx *x, uint64_t j, uint64_t lo,
               uint64_t hi)
{
	return wrote(r, x, RDB_TF_RAN, j, lo, hi);
}

int rdb_values_in(struct rdb_tr *r, const struct rdb_ivx *x, uint64_t j, uint64_t lo,
                  uint64_t hi)
{
	if (!rdb_tr_seek_interval(r, x, j))
		return -1;
	uint32_t t;
	const void *p;
	size_t n;
	while ((t = next_of(r, RDB_TF_VALUES, RDB_TF_VALUES_END, RDB_TF_VALUES_END, "VALUES", &p, &n))) {
		if (t == RDB_TF_VALUES_END) {
			struct rdb_tf_values_end e;
			memcpy(&e, p, sizeof e);
			return e.interval == j ? 0 : -1;
		}
		struct rdb_tf_blob b;
		memcpy(&b, p, sizeof b);
		if (b.interval != j)
			return -1;
		if (b.addr < hi && lo < b.addr + b.len)
			return 1;
	}
	return -1;
}

uint64_t rdb_writes_last(const char *dir, const struct rdb_ivx *x, uint64_t at, uint64_t lo,
                         uint64_t hi, uint64_t *unknown, uint64_t *known)
{
	struct rdb_tr *r = rdb_tr_open(dir, RDB_TF_S_WRITTEN);
	uint64_t j = at - 1;
	*unknown = *known = 0;
	for (; j >= 1; j--) {
		/* every interval: rdb_progress shows the first and then at most five a second */
		rdb_progress("flowback: looking back at interval %llu of %llu", (unsigned long long)j,
		             (unsigned long long)(at - 1));
		/* Intervals without an ivindex entry have no records: stepped over
		 * at once, or a damaged entry (interval 2^53) would take years. */
		uint64_t e = rdb_ivx_at_or_before(x, RDB_TF_S_WRITTEN, j);
		if (e < j) {
			if (!*unknown)
				*unknown = j;
			if (!(j = e))
				break;
		}
		int w = wrote(r, x, RDB_TF_WRITTEN, j, lo, hi);
		*known += w >= 0;
		if (w > 0)
			break;
		if (w < 0 && !*unknown)
			*unknown = j;
	}
	rdb_progress_end();
	rdb_tr_close(r);
	return j;
}
