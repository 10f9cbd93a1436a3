/* shared.c: MAP_SHARED memory.  Others may write it behind the recorded
 * process's back: its fork children (an anonymous mapping made before a
 * fork), the file's other writers, the kernel (pwrite to a mapped file).
 * Replay has none of them, so:
 *   - record keeps a private copy of every MAP_SHARED mapping, equal to
 *     what replay has there; after each syscall (the synchronization
 *     points of a data-race-free program) the bytes of an "ext" mapping
 *     that differ from the copy, or that the process wrote in the
 *     interval, go out as SHARED records, and replay writes them after
 *     replaying that syscall;
 *   - a snapshot child reads interval-start values of such memory from
 *     the copies (the mapping itself is shared with it and moves on);
 *   - ext mappings are a map kind of their own (procmaps), left out of
 *     the checksums: at a boundary their bytes are whatever the children
 *     made of them.
 * Record and replay keep the same list: it follows the program's calls
 * and their results only (replay --from K starts from the MAPS record). */
#include "rt.h"

#define COPY_BASE 0x500400000000ull /* copies, upwards; never restored */
#define COPY_END 0x580000000000ull
#define GAP 32 /* changed bytes this close together go in one record */

/* ---- the list ------------------------------------------------------------ */

static void drop(size_t i)
{
	struct rdb_shared *s = &RT->shared[i];
	if (s->copy)
		rdb_sys2(__NR_munmap, (long)s->copy, (long)(s->end - s->start));
	for (size_t j = i + 1; j < RT->nshared; j++)
		RT->shared[j - 1] = RT->shared[j];
	RT->nshared--;
}

/* [lo, hi) is no longer (the same) shared memory: cut it out of the list.
 * A copy's pieces stay where they are. */
static void forget(uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < RT->nshared; i++) {
		struct rdb_shared *s = &RT->shared[i];
		if (hi <= s->start || lo >= s->end)
			continue;
		if (lo > s->start && hi < s->end && RT->nshared < RDB_MAX_SHARED) {
			/* a hole in the middle: two entries (the copy's middle stays mapped) */
			for (size_t j = RT->nshared; j > i + 1; j--)
				RT->shared[j] = RT->shared[j - 1];
			RT->nshared++;
			struct rdb_shared *t = &RT->shared[i + 1];
			*t = *s;
			t->start = hi;
			t->copy = s->copy ? s->copy + (hi - s->start) : 0;
			s->end = lo;
			i++;
		} else if (lo > s->start) {
			s->end = lo;
		} else if (hi < s->end) {
			if (s->copy)
				s->copy += hi - s->start;
			s->start = hi;
		} else {
			s->copy = 0; /* (its pages: leaked, rare) */
			drop(i--);
		}
	}
}

static uint64_t new_copy(uint64_t a, uint64_t n, int file)
{
	if (RT->mode != RDB_TF_MODE_RECORD)
		return 0;
	if (!RT->shared_next)
		RT->shared_next = COPY_BASE;
	uint64_t at = RT->shared_next;
	if (at + n > COPY_END)
		return 0;
	long r = rdb_sys6(__NR_mmap, (long)at, (long)n, RDB_PROT_RW,
	                  RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS | RDB_MAP_NORESERVE |
	                      RDB_MAP_FIXED_NOREPLACE,
	                  -1, 0);
	if (r != (long)at)
		return 0;
	RT->shared_next = at + n + 4096; /* a gap: never merged with the next one */
	/* as the kernel sees it now (a file past its end: zeros; fresh
	 * anonymous memory is zeros too) */
	if (file)
		rdb_peek((void *)at, a, n);
	return at;
}

static void add(uint64_t a, uint64_t n, int ext, int file, uint32_t prot)
{
	if (RT->nshared == RDB_MAX_SHARED) {
		static const char msg[] = "rdb: more than 64 MAP_SHARED mappings: the "
		                          "others are not tracked\n";
		rdb_write_all(2, msg, sizeof msg - 1);
		return;
	}
	size_t i = RT->nshared;
	while (i > 0 && RT->shared[i - 1].start > a) { /* keep it sorted */
		RT->shared[i] = RT->shared[i - 1];
		i--;
	}
	RT->nshared++;
	RT->shared[i] = (struct rdb_shared){a, a + n, new_copy(a, n, file), (uint32_t)ext, prot};
}

static int is_err(long r) { return r < 0 && r > -4096; }

void rdb_shared_track(long nr, const long a[6], long r)
{
	if (is_err(r))
		return;
	uint64_t len = ((uint64_t)a[1] + 0xfff) & ~0xfffull;
	switch (nr) {
	case __NR_mmap:
		forget((uint64_t)r, (uint64_t)r + len);
		if ((a[3] & RDB_MAP_TYPE) != RDB_MAP_SHARED && (a[3] & RDB_MAP_TYPE) != 3)
			return; /* (3: MAP_SHARED_VALIDATE) */
		if (!(a[2] & RDB_PROT_READ))
			return;
		add((uint64_t)r, len, !(a[3] & RDB_MAP_ANONYMOUS), !(a[3] & RDB_MAP_ANONYMOUS),
		    (uint32_t)a[2]);
		return;
	case __NR_munmap:
		forget((uint64_t)a[0], (uint64_t)a[0] + len);
		return;
	case __NR_mprotect:
		if (!(a[2] & RDB_PROT_READ))
			forget((uint64_t)a[0], (uint64_t)a[0] + len);
		for (size_t i = 0; i < RT->nshared; i++)
			if (RT->shared[i].start >= (uint64_t)a[0] &&
			    RT->shared[i].end <= (uint64_t)a[0] + len)
				RT->shared[i].prot = (uint32_t)a[2];
		return;
	case __NR_mremap: {
		/* moved or resized: the new range, with the old one's kind */
		uint64_t old = (uint64_t)a[0], olen = len, nlen = ((uint64_t)a[2] + 0xfff) & ~0xfffull;
		int was = -1;
		uint32_t prot = 0;
		for (size_t i = 0; i < RT->nshared; i++)
			if (RT->shared[i].start <= old && old < RT->shared[i].end) {
				was = (int)RT->shared[i].ext;
				prot = RT->shared[i].prot;
			}
		forget(old, old + olen);
		forget((uint64_t)r, (uint64_t)r + nlen);
		if (was >= 0) /* (the copy: read whole) */
			add((uint64_t)r, nlen, was, 1, prot);
		return;
	}
	case __NR_fork:
	case __NR_vfork:
	case __NR_clone:
		if (r > 0) /* the child shares every mapping there is */
			for (size_t i = 0; i < RT->nshared; i++)
				RT->shared[i].ext = 1;
		return;
	}
}

/* ---- record ----------------------------------------------------------- */

/* n bytes at a as the kernel has them, into to; 0 if unreadable. */
static int peek(void *to, uint64_t a, uint64_t n) { return rdb_peek(to, a, n) == (long)n; }

/* Copying the bytes the process (or the kernel for it) wrote in the
 * interval: the walk gives the words, grown into runs [lo, hi). */
struct fold {
	const struct rdb_shared *s;
	uint64_t lo, hi;
};

static void fold_run(struct fold *f)
{
	uint8_t *buf = RT->shared_buf;
	for (uint64_t a = f->lo; a < f->hi; a += RDB_SHARED_BUF) {
		uint64_t n = f->hi - a < RDB_SHARED_BUF ? f->hi - a : RDB_SHARED_BUF;
		if (!peek(buf, a, n))
			continue;
		uint8_t *c = (uint8_t *)(f->s->copy + (a - f->s->start));
		for (uint64_t i = 0; i < n; i++)
			if (*(const uint8_t *)rdb_s_of(a + i) & RDB_S_X)
				c[i] = buf[i];
	}
	f->lo = f->hi = 0;
}

static void fold_word(void *ctx, uintptr_t a, uint64_t r, uint64_t sw, size_t n)
{
	struct fold *f = ctx;
	(void)r;
	if (!(sw & 0x0202020202020202ull))
		return;
	if (f->hi && a <= f->hi + 64) {
		f->hi = a + 8 * n;
		return;
	}
	if (f->hi)
		fold_run(f);
	f->lo = a;
	f->hi = a + 8 * n;
}

/* The copy of s takes what the process wrote in this interval: the copy
 * was right at the interval's start, so with no other writer it is right
 * again, and with others it holds what replay has. */
static void fold(const struct rdb_shared *s)
{
	struct fold f = {s, 0, 0};
	rdb_planes_walk(s->start, s->end, fold_word, &f);
	if (f.hi)
		fold_run(&f);
}

/* Before the program forks: a mapping with no other writer yet holds
 * what replay has. */
void rdb_shared_prefork(void)
{
	for (size_t i = 0; i < RT->nshared; i++)
		if (RT->shared[i].copy && !RT->shared[i].ext)
			fold(&RT->shared[i]);
}

/* At a boundary, before the planes are cleared and the snapshot forked. */
void rdb_shared_boundary(void)
{
	for (size_t i = 0; i < RT->nshared; i++)
		if (RT->shared[i].copy)
			fold(&RT->shared[i]);
}

static void put(uint64_t id, uint64_t a, const uint8_t *p, uint64_t n)
{
	struct rdb_tf_shared h = {id, a, n};
	rdb_chan_put(RDB_TF_SHARED, &h, sizeof h, p, n);
}

/* After syscall id (signals blocked, before the records are flushed). */
void rdb_shared_sync(uint64_t id)
{
	uint8_t *buf = RT->shared_buf;
	for (size_t i = 0; i < RT->nshared && RT->mode; i++) {
		struct rdb_shared *s = &RT->shared[i];
		if (!s->ext || !s->copy)
			continue;
		for (uint64_t a = s->start; a < s->end; a += RDB_SHARED_BUF) {
			uint64_t n = s->end - a < RDB_SHARED_BUF ? s->end - a : RDB_SHARED_BUF;
			if (!peek(buf, a, n))
				continue; /* (a file shrunk under it: replay faults as well) */
			uint8_t *c = (uint8_t *)(s->copy + (a - s->start));
			uint64_t lo = 0, hi = 0; /* the run being grown: [lo, hi) */
			int have = 0;
			for (uint64_t w = 0; w < n; w += 8) {
				uint64_t x, y, sw = *(const uint64_t *)rdb_s_of(a + w);
				rdb_memcpy(&x, buf + w, 8);
				rdb_memcpy(&y, c + w, 8);
				if (x == y && !(sw & 0x0202020202020202ull))
					continue;
				for (uint64_t k = w; k < w + 8; k++) {
					if (buf[k] == c[k] && !(*(const uint8_t *)rdb_s_of(a + k) & RDB_S_X))
						continue;
					if (have && k <= hi + GAP) {
						hi = k + 1;
						continue;
					}
					if (have)
						put(id, a + lo, buf + lo, hi - lo);
					lo = k;
					hi = k + 1;
					have = 1;
				}
			}
			if (have)
				put(id, a + lo, buf + lo, hi - lo);
			rdb_memcpy(c, buf, n);
		}
	}
}

/* ---- the snapshot child and the maps ----------------------------------- */

void rdb_shared_overlay(void *to, uint64_t a, uint64_t n)
{
	for (size_t i = 0; i < RT->nshared; i++) {
		const struct rdb_shared *s = &RT->shared[i];
		uint64_t lo = a > s->start ? a : s->start, hi = a + n < s->end ? a + n : s->end;
		if (lo < hi && s->copy)
			rdb_memcpy((uint8_t *)to + (lo - a), (const void *)(s->copy + (lo - s->start)),
			           hi - lo);
	}
}

/* The kernel may merge a mapping with its neighbours (replay's anonymous
 * stand-ins, for one): the maps are cut at the tracked ranges, so record
 * and replay hash the same bytes. */
size_t rdb_shared_kinds(struct rdb_tf_map *m, size_t n, size_t cap)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < RT->nshared; j++) {
			const struct rdb_shared *s = &RT->shared[j];
			if (s->end <= m[i].start || s->start >= m[i].end)
				continue;
			uint64_t cut = s->start > m[i].start ? s->start
			             : s->end < m[i].end   ? s->end
			                                   : 0;
			if (cut) {
				if (n == cap)
					return n;
				for (size_t k = n; k > i + 1; k--)
					m[k] = m[k - 1];
				n++;
				m[i + 1] = m[i];
				m[i].end = m[i + 1].start = cut;
				j = (size_t)-1; /* m[i] again, now shorter */
				continue;
			}
			m[i].kind = s->ext ? RDB_TF_MAP_SHARED_EXT : RDB_TF_MAP_SHARED;
			break;
		}
	}
	return n;
}

void rdb_shared_from_maps(const struct rdb_tf_map *m, size_t n)
{
	RT->nshared = 0;
	for (size_t i = 0; i < n; i++)
		if (m[i].kind == RDB_TF_MAP_SHARED || m[i].kind == RDB_TF_MAP_SHARED_EXT)
			add(m[i].start, m[i].end - m[i].start, m[i].kind == RDB_TF_MAP_SHARED_EXT, 0,
			    m[i].prot);
}

/* ---- replay ------------------------------------------------------------- */

/* Through /proc/self/mem: the mapping may be read-only. */
void rdb_shared_apply(const struct rdb_tf_shared *s)
{
	if (!rdb_covered(s->addr, s->len))
		rdb_die("replay: SHARED record outside the program's memory\n");
	for (uint64_t done = 0; done < s->len;) {
		uint64_t k = s->len - done < sizeof RT->bounce ? s->len - done : sizeof RT->bounce;
		if (rdb_chan_read(RT->bounce, k) != 1)
			rdb_die("replay: the channel ended inside a SHARED record\n");
		rdb_poke_mem(s->addr + done, RT->bounce, k);
		done += k;
	}
	if (RT->debug > 1)
		rdb_printf("rdb: shared memory [%p, +%lu) after #%lu\n", (void *)s->addr,
		           (unsigned long)s->len, (unsigned long)s->id);
}
