/* written.c: the flowback records (docs/flowback.md).  The boundary's scan
 * of the planes (interval.c) also sees which bytes the interval wrote: S
 * plane bit X, set by the program's write hooks and by the kernel's writes
 * in syscalls.  Those bytes go to the trace as exact ranges, so `rdb
 * flowback` finds the last interval that wrote an address from the trace
 * alone, and replays only that interval to find the instruction. */
#include "rt.h"

/* An interval that wrote nothing still gets one (empty) record: rdb
 * flowback tells "wrote nothing" from "not recorded" (no intervals, or a
 * run cut short). */
static void flush(int last)
{
	struct rdb_tf_written h = {RT->wr.interval, RT->wr.n, 0};
	if (RT->wr.n || (last && !RT->wr.sent))
		rdb_chan_put(RDB_TF_WRITTEN, &h, sizeof h, RT->wr.r,
		             RT->wr.n * sizeof RT->wr.r[0]);
	RT->wr.sent |= RT->wr.n != 0;
	RT->wr.n = 0;
}

static void close_range(void)
{
	if (RT->wr.hi == RT->wr.lo)
		return;
	if (RT->wr.n == RDB_WR_MAX)
		flush(0);
	RT->wr.r[RT->wr.n].addr = RT->wr.lo;
	RT->wr.r[RT->wr.n].len = RT->wr.hi - RT->wr.lo;
	RT->wr.n++;
	RT->wr.lo = RT->wr.hi = 0;
}

/* The pages too: what the boundary's copy-on-write faults will cost
 * (interval.c, stretch).  Ranges come in ascending address order. */
static void count_pages(uint64_t lo, uint64_t hi)
{
	if (RT->wr.shared) /* MAP_SHARED pages are not copied at a fork */
		return;
	uint64_t p0 = lo >> 12, p1 = (hi - 1) >> 12;
	if (RT->wr.pages && p0 <= RT->wr.last_page)
		p0 = RT->wr.last_page + 1;
	if (p1 >= p0) {
		RT->wr.pages += p1 - p0 + 1;
		RT->wr.last_page = p1;
	}
}

static void add(uint64_t lo, uint64_t hi)
{
	count_pages(lo, hi);
	if (RT->wr.hi != RT->wr.lo && lo == RT->wr.hi) {
		RT->wr.hi = hi;
		return;
	}
	close_range();
	RT->wr.lo = lo;
	RT->wr.hi = hi;
}

void rdb_written_begin(uint64_t interval)
{
	RT->wr.interval = interval;
	RT->wr.n = 0;
	RT->wr.sent = 0;
	RT->wr.lo = RT->wr.hi = 0;
	RT->wr.pages = RT->wr.last_page = 0;
	RT->wr.shared = 0;
}

/* s: the S plane's 8 bytes for each of [a, a + 8 * n), in ascending
 * address order. */
void rdb_written_words(uintptr_t a, uint64_t s, size_t n)
{
	uint64_t x = s & 0x0202020202020202ull;
	if (!x)
		return;
	if (x == 0x0202020202020202ull) {
		add(a, a + 8 * n);
		return;
	}
	for (; n; n--, a += 8)
		for (int i = 0; i < 8; i++) /* runs of written bytes inside the word */
			if (x >> (8 * i) & 2) {
				int j = i;
				while (j < 8 && (x >> (8 * j) & 2))
					j++;
				add(a + (uint64_t)i, a + (uint64_t)j);
				i = j;
			}
}

void rdb_written_end(void)
{
	close_range();
	flush(1);
}
