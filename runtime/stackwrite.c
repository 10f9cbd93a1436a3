/* stackwrite.c: which pages of the main stack each interval wrote
 * (STACK_WRITTEN, docs/trace-format.md).  Stores through %rsp and %rbp
 * leave no WRITTEN range (the hooks skip them), so without this a reverse
 * watch on a stack address replays every interval back.  The kernel tells
 * instead: the stack is registered with userfaultfd write-protect-async
 * (the kernel lifts the protection of a page at its first write, with no
 * fault delivered to anyone) and each boundary asks PAGEMAP_SCAN which
 * pages lost it, protecting them again in the same call.  The answer is a
 * superset: the runtime's own boundary work on the program's stack counts
 * too (in the interval after the scan), which only costs a skip. */
#include "rt.h"

#define UFFD_USER_MODE_ONLY 1
#define UFFD_API 0xAAull
#define UFFD_FEATURE_WP_UNPOPULATED (1ull << 13)
#define UFFD_FEATURE_WP_ASYNC (1ull << 15)
#define UFFDIO_API 0xc018aa3fu      /* _IOWR(0xAA, 0x3f, struct uffdio_api) */
#define UFFDIO_REGISTER 0xc020aa00u /* _IOWR(0xAA, 0x00, struct uffdio_register) */
#define UFFDIO_REGISTER_MODE_WP 2
#define PAGEMAP_SCAN 0xc0606610u    /* _IOWR('f', 16, struct pm_scan_arg) */
#define PM_SCAN_WP_MATCHING 1
#define PM_SCAN_CHECK_WPASYNC 2
#define PAGE_IS_WRITTEN 2

struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};

static const struct rdb_tf_map *main_stack(void)
{
	for (size_t i = 0; i < RT->procmaps.nmaps; i++)
		if (RT->procmaps.maps[i].kind == RDB_TF_MAP_STACK)
			return &RT->procmaps.maps[i];
	return 0;
}

/* Start (again, in a fork child: fork drops the registration of a
 * userfaultfd without fork events).  On any refusal nothing is sent and
 * replay never skips an interval for a watch on the stack. */
void rdb_stackwrite_start(void)
{
	struct rdb_stackwrite *w = &RT->stackwrite;
	if (w->uffd > 0)
		rdb_sys1(__NR_close, w->uffd);
	if (w->pm > 0)
		rdb_sys1(__NR_close, w->pm);
	w->uffd = w->pm = 0;
	w->ok = 0;
	if (RT->chan.no_stack_pages || !rdb_procmaps())
		return;
	const struct rdb_tf_map *m = main_stack();
	if (!m)
		return;
	long u = rdb_sys1(__NR_userfaultfd, RDB_O_CLOEXEC | UFFD_USER_MODE_ONLY);
	if (u < 0)
		return;
	w->uffd = (int)rdb_high_fd(u, RDB_WATCH_FD);
	struct { uint64_t api, features, ioctls; } api = {
		UFFD_API, UFFD_FEATURE_WP_ASYNC | UFFD_FEATURE_WP_UNPOPULATED, 0};
	struct { uint64_t start, len, mode, ioctls; } reg = {
		m->start, m->end - m->start, UFFDIO_REGISTER_MODE_WP, 0};
	if (rdb_sys3(__NR_ioctl, w->uffd, UFFDIO_API, &api) ||
	    rdb_sys3(__NR_ioctl, w->uffd, UFFDIO_REGISTER, &reg))
		return;
	long pm = rdb_sys4(__NR_openat, -100, "/proc/self/pagemap", RDB_O_RDONLY | RDB_O_CLOEXEC, 0);
	if (pm < 0)
		return;
	w->pm = (int)rdb_high_fd(pm, RDB_WATCH_FD);
	/* No scan now: the pages not yet protected count as written at
	 * the first boundary, a superset of what interval 1 wrote. */
	w->ok = 1;
}

static void put(uint64_t interval, uint32_t n)
{
	struct rdb_tf_written h = {interval, n, 0};
	rdb_chan_put(RDB_TF_STACK_WRITTEN, &h, sizeof h, RT->stackwrite.r, n * sizeof RT->stackwrite.r[0]);
}

/* The boundary: the stack's pages written since the last scan, for the
 * interval that ends (after its WRITTEN records; procmaps is fresh). */
void rdb_stackwrite_scan(uint64_t interval)
{
	struct rdb_stackwrite *w = &RT->stackwrite;
	if (!w->ok)
		return;
	const struct rdb_tf_map *m = main_stack();
	if (!m) {
		w->ok = 0;
		return;
	}
	struct pm_scan_arg a;
	rdb_memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.flags = PM_SCAN_WP_MATCHING | PM_SCAN_CHECK_WPASYNC;
	a.start = m->start;
	a.end = m->end;
	a.vec = (uint64_t)w->pr;
	a.vec_len = RDB_SW_MAX;
	a.category_mask = a.return_mask = PAGE_IS_WRITTEN;
	int sent = 0;
	for (;;) {
		long n = rdb_sys3(__NR_ioctl, w->pm, PAGEMAP_SCAN, &a);
		if (n < 0) {
			/* From here on nothing is known: the rest of the
			 * stack counts as written, and later intervals get
			 * no record. */
			w->r[0].addr = a.start;
			w->r[0].len = m->end - a.start;
			put(interval, 1);
			w->ok = 0;
			return;
		}
		for (long i = 0; i < n; i++) {
			w->r[i].addr = w->pr[i].start;
			w->r[i].len = w->pr[i].end - w->pr[i].start;
		}
		if (n || !sent)
			put(interval, (uint32_t)n);
		sent = 1;
		if (a.walk_end >= m->end || a.walk_end <= a.start)
			return;
		a.start = a.walk_end;
	}
}
