/* grow.c: the runtime's tables whose length the program decides: its
 * mappings (a heap of a million objects made 4,096 and more), the
 * MAP_SHARED ones, the signals waiting for a check or queued again, the
 * regions one syscall wrote, an instrumentation library's callbacks.  The
 * runtime has no malloc, and a fixed array killed recordings of programs
 * that run natively.  Each table has a slot of RDB_GROW_SLOT bytes at a
 * fixed address outside the covered range (layout.h: no restore of an
 * interval touches it), mapped from its start as it grows, so a pointer
 * into it stays valid; fork children get their copy as of the rest of the
 * state. */
#include "rt.h"

_Static_assert(RDB_G_N <= sizeof RT->grow.grown / sizeof RT->grow.grown[0], "grown[]");
_Static_assert(RDB_GROW_ADDR + 8 * RDB_GROW_SLOT <= RDB_COVER_LO, "slots below the cover");

#define FIRST (64u << 10) /* the first mapping of a table */

static uint64_t slot_addr(int slot) { return RDB_GROW_ADDR + (uint64_t)slot * RDB_GROW_SLOT; }

void rdb_grow_init(void)
{
	RT->procmaps.maps = (struct rdb_tf_map *)slot_addr(RDB_G_MAPS);
	RT->record.reg = (struct rdb_region *)slot_addr(RDB_G_REGIONS);
	RT->shared.shared = (struct rdb_shared *)slot_addr(RDB_G_SHARED);
	RT->signal.pending = (struct rdb_pending *)slot_addr(RDB_G_PENDING);
	RT->signal.queued = (struct rdb_tf_queued *)slot_addr(RDB_G_QUEUED);
	RT->ctx.q = (struct rdb_tf_queued *)slot_addr(RDB_G_CTXQ);
	RT->api.cb = (struct rdb_cb *)slot_addr(RDB_G_CB);
	RT->checksum.stack_tops = (uint64_t *)slot_addr(RDB_G_STACKS);
}

/* Doubling, so a table of n bytes cost O(log n) calls; in place (mremap
 * without MAYMOVE: the slot after the mapped part is free), or by a
 * mapping right after it, which the kernel merges. */
int rdb_grow_slow(int slot, uint64_t n)
{
	uint64_t at = slot_addr(slot), have = RT->grow.grown[slot];
	uint64_t most = RT->grow.grow_max ? RT->grow.grow_max : RDB_GROW_SLOT;
	if (n > most)
		return 0;
	uint64_t want = have ? 2 * have : FIRST;
	while (want < n)
		want *= 2;
	if (want > most)
		want = (most + 0xfff) & ~0xfffull;
	long r = -RDB_ENOMEM;
	if (have)
		r = rdb_sys6(__NR_mremap, (long)at, (long)have, (long)want, 0, 0, 0);
	if (r != (long)at)
		r = rdb_sys6(__NR_mmap, (long)(at + have), (long)(want - have), RDB_PROT_RW,
		             RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS | RDB_MAP_FIXED_NOREPLACE, -1, 0);
	if (r != (long)(at + have) && r != (long)at)
		return 0;
	RT->grow.grown[slot] = want;
	return 1;
}
