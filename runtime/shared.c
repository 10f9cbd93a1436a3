/* shared.c: MAP_SHARED memory.  Others may write it behind the recorded
 * process's back: its fork children (an anonymous mapping made before a
 * fork), the file's other writers, the kernel (pwrite to a mapped file).
 * Replay has none of them, so:
 *   - record keeps a private copy of every MAP_SHARED mapping, equal to
 *     what replay has there at the last sync; at a sync the bytes of an
 *     "ext" mapping that differ from the copy, that the process wrote in
 *     the interval (S plane X bit), or that are pending (below) go out as
 *     SHARED records, and replay writes them after replaying that syscall;
 *   - a snapshot child reads interval-start values of such memory from
 *     the copies (the mapping itself is shared with it and moves on);
 *   - ext mappings are a map kind of their own (procmaps), left out of
 *     the checksums: at a boundary their bytes are whatever the children
 *     made of them.
 * Record and replay keep the same list: it follows the program's calls
 * and their results only (replay --from K starts from the MAPS record).
 *
 * When to sync.  Comparing a mapping costs its size (a mapped database
 * made every syscall slow when every syscall did it: docs/perf.md),
 * and nothing the kernel offers tells cheaply that another process wrote
 * a page (soft-dirty and the pte dirty bits see only this process's
 * stores, the page's dirty flag lasts until writeback, mtime misses
 * stores through mappings and is coarse).  So the sync runs where it is
 * needed instead of after every syscall:
 *   - all ext mappings, whole, after a call where the process may learn
 *     of another process's stores (an acquire, syscalls.spec ACQUIRES):
 *     reads and receives on anything but a regular file (pipes, sockets,
 *     terminals, eventfd), futex other than FUTEX_WAKE, wait4/waitid,
 *     poll/select/epoll, accept, connect, fcntl's lock calls (F_*LK*),
 *     flock but LOCK_UN, semop, msgrcv, mq_timedreceive, ioctl, msync,
 *     sleeps, pause, sigsuspend, sigtimedwait, sched_yield, lock-file
 *     idioms (open with O_CREAT|O_EXCL, mkdir, link, symlink, rename),
 *     truncate by path, madvise(MADV_REMOVE), mremap (the moved copy);
 *     and at the first call after a signal for a handler came (its sender
 *     may have stored first);
 *   - the part of the file the call changed, in that file's mappings
 *     (matched by st_dev and st_ino), after the process's own write,
 *     writev, pwrite*, sendfile, copy_file_range, splice to it; whole
 *     after its ftruncate, fallocate, open with O_TRUNC (syscalls.spec
 *     FILEWRITE and FILECHANGE);
 *   - no sync after any other call (lseek, fstat, reads of regular files,
 *     writes to other files, clocks, memory calls...).
 * A data-race-free program sees another process's stores only after an
 * acquire, so its reads between acquires find what the last sync put
 * there; the process's own stores are replayed by replay's own stores.
 * What this gives up against a sync after every call: a program that
 * learns that a store happened through a regular file's contents or
 * metadata (it polls a flag file, or a file's size, without a lock) and
 * then reads the store in a mapping.  (Synchronization through memory
 * alone was never replayed: the trace has no event for it.)
 *
 * The process's own stores in the interval are sent too (the X bit):
 * another writer may have put back, after the process's store and before
 * the sync, the value the copy has; replay has the process's value.  A
 * boundary folds the process's stores into the copy (for the snapshot)
 * and then clears the planes, so the 64-byte blocks it folded in an ext
 * mapping are marked pending: the next sync covering them sends them
 * whatever they hold.
 *
 * The compare: per 64 KiB, one process_vm_readv (a file cut short makes
 * the mapping unreadable, not a fault), one mincore of the S plane pages
 * under it (the plane is read only where the process wrote: reading a
 * plane page maps the zero page, and mincore would say so from then on),
 * a word compare of 64-byte blocks, bytes looked at only in blocks that
 * differ, were written or are pending, and only those blocks copied. */
#include "rt.h"

#define COPY_BASE 0x500400000000ull /* copies, upwards; never restored */
#define COPY_END 0x570000000000ull
#define PEND_BASE COPY_END /* a bit per 64 bytes of copies (15 GiB, not reserved) */
#define PEND_SIZE ((COPY_END - COPY_BASE) >> 9)
#define GAP 32 /* changed bytes this close together go in one record */

struct rdb_shared;
static void pend_carry(const struct rdb_shared *s, uint64_t from, uint64_t n);

/* ---- the list ------------------------------------------------------------ */

static void drop(size_t i)
{
	struct rdb_shared *s = &RT->shared.shared[i];
	if (s->copy)
		rdb_sys2(__NR_munmap, (long)s->copy, (long)(s->end - s->start));
	for (size_t j = i + 1; j < RT->shared.nshared; j++)
		RT->shared.shared[j - 1] = RT->shared.shared[j];
	RT->shared.nshared--;
}

/* Room for one more entry in the list; if the table cannot grow, the
 * recording stops (a replay has the recording's count). */
static int room(void)
{
	if (rdb_grow(RDB_G_SHARED, (RT->shared.nshared + 1) * sizeof RT->shared.shared[0]))
		return 1;
	if (RT->mode == RDB_TF_MODE_REPLAY)
		rdb_die("replay: no memory for the list of MAP_SHARED mappings (%lu)\n",
		        (unsigned long)RT->shared.nshared);
	rdb_record_limit("the list of MAP_SHARED mappings cannot grow (no memory for it)");
	return 0;
}

/* The first entry that ends after a (the list is sorted, disjoint). */
static size_t first_after(uint64_t a)
{
	size_t lo = 0, hi = RT->shared.nshared;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (RT->shared.shared[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* [lo, hi) is no longer (the same) shared memory: cut it out of the list.
 * A copy's pieces stay where they are. */
static void forget(uint64_t lo, uint64_t hi)
{
	for (size_t i = first_after(lo); i < RT->shared.nshared; i++) {
		struct rdb_shared *s = &RT->shared.shared[i];
		if (lo >= s->end)
			continue;
		if (hi <= s->start)
			break;
		if (lo > s->start && hi < s->end && room()) {
			/* a hole in the middle: two entries (the copy's middle stays mapped) */
			for (size_t j = RT->shared.nshared; j > i + 1; j--)
				RT->shared.shared[j] = RT->shared.shared[j - 1];
			RT->shared.nshared++;
			struct rdb_shared *t = &RT->shared.shared[i + 1];
			*t = *s;
			t->start = hi;
			t->copy = s->copy ? s->copy + (hi - s->start) : 0;
			t->off = s->off + (hi - s->start);
			s->end = lo;
			i++;
		} else if (lo > s->start) {
			s->end = lo;
		} else if (hi < s->end) {
			if (s->copy)
				s->copy += hi - s->start;
			s->off += hi - s->start;
			s->start = hi;
		} else {
			s->copy = 0; /* (its pages: leaked, rare) */
			drop(i--);
		}
	}
}

/* A new copy of [a, a + n): as the kernel sees it now when file (a file
 * past its end: zeros), zeros otherwise (fresh anonymous memory); or, from
 * != 0, the first keep bytes of the copy at from (a tracked mapping that
 * mremap moved or resized: what replay has there) and zeros after them
 * (replay's stand-in grows with zeros). */
static uint64_t new_copy(uint64_t a, uint64_t n, int file, uint64_t from, uint64_t keep)
{
	if (RT->mode != RDB_TF_MODE_RECORD)
		return 0;
	if (!RT->shared.shared_next)
		RT->shared.shared_next = COPY_BASE;
	uint64_t at = RT->shared.shared_next;
	if (at + n > COPY_END)
		return 0;
	long r = rdb_sys6(__NR_mmap, (long)at, (long)n, RDB_PROT_RW,
	                  RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS | RDB_MAP_NORESERVE |
	                      RDB_MAP_FIXED_NOREPLACE,
	                  -1, 0);
	if (r != (long)at)
		return 0;
	RT->shared.shared_next = at + n + 4096; /* a gap: never merged with the next one */
	if (from)
		rdb_memcpy((void *)at, (const void *)from, keep < n ? keep : n);
	else if (file)
		rdb_peek((void *)at, a, n);
	return at;
}

/* What fstat says of an fd's file (struct stat's fields on x86-64). */
struct fid {
	uint64_t dev, ino, size;
	uint32_t mode;
};

#define S_IFMT_ 0170000
#define S_IFREG_ 0100000

/* fstat of fd into *f; 0 if that failed. */
static int fd_id(long fd, struct fid *f)
{
	uint64_t st[18];
	if (rdb_sys2(__NR_fstat, fd, st) != 0)
		return 0;
	*f = (struct fid){st[0], st[1], st[6], ((const uint32_t *)st)[6]};
	return 1;
}

static int fd_regular(long fd, struct fid *f)
{
	return fd_id(fd, f) && (f->mode & S_IFMT_) == S_IFREG_;
}

/* file: (record) fd of the file mapped at offset off, or -1 (anonymous:
 * the copy starts as zeros), or -2 (a mapping moved or resized by mremap:
 * the copy starts as the first keep bytes of the old copy at from, zeros
 * after; the identity and offset are dev, ino, off). */
static void add(uint64_t a, uint64_t n, int ext, long file, uint32_t prot, uint64_t dev,
                uint64_t ino, uint64_t off, uint64_t from, uint64_t keep)
{
	if (!room())
		return;
	size_t i = RT->shared.nshared;
	while (i > 0 && RT->shared.shared[i - 1].start > a) { /* keep it sorted */
		RT->shared.shared[i] = RT->shared.shared[i - 1];
		i--;
	}
	RT->shared.nshared++;
	struct rdb_shared *s = &RT->shared.shared[i];
	rdb_memset(s, 0, sizeof *s);
	s->start = a;
	s->end = a + n;
	s->copy = new_copy(a, n, file >= 0, file == -2 ? from : 0, keep);
	s->ext = (uint32_t)ext;
	s->prot = prot;
	s->dev = dev;
	s->ino = ino;
	s->off = off;
	struct fid f;
	if (file >= 0 && RT->mode == RDB_TF_MODE_RECORD && fd_id(file, &f)) {
		s->dev = f.dev;
		s->ino = f.ino;
	}
}

static int is_err(long r) { return r < 0 && r > -4096; }

void rdb_shared_track(long nr, const long a[6], long r)
{
	if (is_err(r))
		return;
	if (rdb_systab_attrs(nr) & RDB_ATTR_FORKS) {
		if (r > 0) /* the child shares every mapping there is */
			for (size_t i = 0; i < RT->shared.nshared; i++)
				RT->shared.shared[i].ext = 1;
		return;
	}
	/* Each of these changes the list its own way: logic, not a fact
	 * another call could share (syscalls.spec ADDRSPACE names them). */
	uint64_t len = ((uint64_t)a[1] + 0xfff) & ~0xfffull;
	switch (nr) {
	case __NR_mmap:
		forget((uint64_t)r, (uint64_t)r + len);
		if ((a[3] & RDB_MAP_TYPE) != RDB_MAP_SHARED && (a[3] & RDB_MAP_TYPE) != 3)
			return; /* (3: MAP_SHARED_VALIDATE) */
		if (!(a[2] & RDB_PROT_READ))
			return;
		add((uint64_t)r, len, !(a[3] & RDB_MAP_ANONYMOUS), a[3] & RDB_MAP_ANONYMOUS ? -1 : a[4],
		    (uint32_t)a[2], 0, 0, a[3] & RDB_MAP_ANONYMOUS ? 0 : (uint64_t)a[5], 0, 0);
		return;
	case __NR_munmap:
		forget((uint64_t)a[0], (uint64_t)a[0] + len);
		return;
	case __NR_mprotect:
		if (!(a[2] & RDB_PROT_READ))
			forget((uint64_t)a[0], (uint64_t)a[0] + len);
		for (size_t i = 0; i < RT->shared.nshared; i++)
			if (RT->shared.shared[i].start >= (uint64_t)a[0] &&
			    RT->shared.shared[i].end <= (uint64_t)a[0] + len)
				RT->shared.shared[i].prot = (uint32_t)a[2];
		return;
	case __NR_mremap: {
		/* Moved or resized: the new range, with the old one's kind, and
		 * a copy that holds what replay has there: the old copy's bytes,
		 * zeros where it grew (the copies' pages stay when forgotten).
		 * The sync after the call (an acquire) sends what differs; blocks
		 * pending in the old copy are pending in the new one. */
		uint64_t old = (uint64_t)a[0], olen = len, nlen = ((uint64_t)a[2] + 0xfff) & ~0xfffull;
		int was = -1;
		uint32_t prot = 0;
		uint64_t dev = 0, ino = 0, off = 0, from = 0, keep = 0;
		for (size_t i = 0; i < RT->shared.nshared; i++)
			if (RT->shared.shared[i].start <= old && old < RT->shared.shared[i].end) {
				was = (int)RT->shared.shared[i].ext;
				prot = RT->shared.shared[i].prot;
				dev = RT->shared.shared[i].dev;
				ino = RT->shared.shared[i].ino;
				off = RT->shared.shared[i].off + (old - RT->shared.shared[i].start);
				from = RT->shared.shared[i].copy ? RT->shared.shared[i].copy + (old - RT->shared.shared[i].start)
				                          : 0;
				keep = RT->shared.shared[i].end - old; /* (the copy's part of it) */
			}
		if (keep > olen)
			keep = olen;
		if (keep > nlen)
			keep = nlen;
		forget(old, old + olen);
		forget((uint64_t)r, (uint64_t)r + nlen);
		if (was < 0)
			return;
		add((uint64_t)r, nlen, was, -2, prot, dev, ino, off, from, keep);
		for (size_t i = 0; from && i < RT->shared.nshared; i++)
			if (RT->shared.shared[i].start == (uint64_t)r && RT->shared.shared[i].copy)
				pend_carry(&RT->shared.shared[i], from, keep);
		return;
	}
	}
}

/* ---- record ----------------------------------------------------------- */

/* n bytes at a as the kernel has them, into to; 0 if unreadable. */
static int peek(void *to, uint64_t a, uint64_t n) { return rdb_peek(to, a, n) == (long)n; }

/* Pending blocks: 64-byte blocks of an ext mapping that the next sync
 * covering them sends whatever they hold (the bytes a boundary folded
 * into the copy, below).  One bit per block of the copies' range, at
 * PEND_BASE, indexed by the block's address in the copy (copies are
 * never reused): mapped, without reserving memory, when first needed. */
static uint8_t *pend_byte(uint64_t copy_addr)
{
	return (uint8_t *)(PEND_BASE + ((copy_addr - COPY_BASE) >> 9));
}

static void pend_add(const struct rdb_shared *s, uint64_t lo, uint64_t hi)
{
	if (!RT->shared.shared_pend) {
		long r = rdb_sys6(__NR_mmap, (long)PEND_BASE, (long)PEND_SIZE, RDB_PROT_RW,
		                  RDB_MAP_PRIVATE | RDB_MAP_ANONYMOUS | RDB_MAP_NORESERVE |
		                      RDB_MAP_FIXED_NOREPLACE,
		                  -1, 0);
		if (r != (long)PEND_BASE)
			return; /* (then the copy keeps what it folded: as before pending bits) */
		RT->shared.shared_pend = PEND_BASE;
	}
	for (uint64_t b = lo & ~63ull; b < hi; b += 64) {
		uint64_t c = s->copy + (b - s->start);
		*pend_byte(c) |= (uint8_t)(1u << ((c >> 6) & 7));
	}
}

/* The blocks pending in the copy at from (n bytes) are pending in s,
 * whose copy now holds those bytes from its start (mremap). */
static void pend_carry(const struct rdb_shared *s, uint64_t from, uint64_t n)
{
	if (!RT->shared.shared_pend)
		return;
	for (uint64_t b = 0; b < n; b += 64) {
		uint64_t c = from + b;
		if (*pend_byte(c) >> ((c >> 6) & 7) & 1)
			pend_add(s, s->start + b, s->start + b + 1);
	}
}

/* Copying the bytes the process (or the kernel for it) wrote in the
 * interval: the walk gives the words, grown into runs [lo, hi). */
struct fold {
	struct rdb_shared *s;
	uint64_t lo, hi;
};

static void fold_run(struct fold *f)
{
	uint8_t *buf = RT->shared.shared_buf;
	if (f->s->ext) /* (below: the next full sync sends them) */
		pend_add(f->s, f->lo, f->hi);
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
 * was right at the last sync, so with no other writer it is right again
 * (what replay has), and it is what the snapshot child gives as the next
 * interval's start values.  In an ext mapping another writer may have
 * changed a byte the process wrote, after the process's last sync: the
 * copy now has that writer's value, replay the process's, and the plane
 * that said "the process wrote it" is about to be cleared.  So those
 * runs stay pending until the next full sync sends them. */
static void fold(struct rdb_shared *s)
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
	for (size_t i = 0; i < RT->shared.nshared; i++)
		if (RT->shared.shared[i].copy && !RT->shared.shared[i].ext)
			fold(&RT->shared.shared[i]);
}

/* A fork child that records itself (join.c) shares every MAP_SHARED
 * mapping of its parent with it: it keeps the parent's list (its copies
 * came along with the fork, private), every entry ext.  Its recording
 * starts at its first boundary, whose snapshot is what its replay starts
 * from: there the copies take the mappings' bytes as they are (below),
 * and from then on the child syncs as any process does, so its replay
 * has what it read, from its own trace alone.  The parent goes on as
 * before (the fork made its entries ext). */
void rdb_shared_fork_child(void)
{
	RT->shared.nshared = RT->shared.shared_forked;
	for (size_t i = 0; i < RT->shared.nshared; i++)
		RT->shared.shared[i].ext = 1;
	RT->shared.shared_fresh = 1;
	RT->shared.shared_sig = 0;
}

/* The copy of s takes the mapping's bytes as they are now (a file cut
 * short: what can be read), and none of its blocks is pending. */
static void fresh(struct rdb_shared *s)
{
	uint64_t n = s->end - s->start;
	long got = rdb_peek((void *)s->copy, s->start, n);
	if (got < (long)n)
		rdb_memset((uint8_t *)s->copy + (got > 0 ? got : 0), 0, n - (uint64_t)(got > 0 ? got : 0));
	if (RT->shared.shared_pend)
		rdb_memset(pend_byte(s->copy), 0, n >> 9); /* (copies are page-aligned) */
}

/* At a boundary, before the planes are cleared and the snapshot forked. */
void rdb_shared_boundary(void)
{
	int first = RT->shared.shared_fresh;
	RT->shared.shared_fresh = 0;
	for (size_t i = 0; i < RT->shared.nshared; i++)
		if (RT->shared.shared[i].copy) {
			if (first)
				fresh(&RT->shared.shared[i]);
			else
				fold(&RT->shared.shared[i]);
		}
}

static void put(uint64_t id, uint64_t a, const uint8_t *p, uint64_t n)
{
	struct rdb_tf_shared h = {id, a, n};
	rdb_chan_put(RDB_TF_SHARED, &h, sizeof h, p, n);
}

/* The run of bytes to send being grown: [lo, hi) of the chunk at a. */
struct run {
	uint64_t id, a, lo, hi;
	int have;
};

static void run_byte(struct run *r, const uint8_t *buf, uint64_t k)
{
	if (r->have && k <= r->hi + GAP) {
		r->hi = k + 1;
		return;
	}
	if (r->have)
		put(r->id, r->a + r->lo, buf + r->lo, r->hi - r->lo);
	r->lo = k;
	r->hi = k + 1;
	r->have = 1;
}

/* Sync [lo, hi) of s (page multiples, inside s): the bytes that differ
 * from the copy, that the process wrote in the interval (S plane X bit),
 * or that are pending go out as SHARED records, and the copy takes them.
 * Cost: one process_vm_readv, one mincore of the S plane and a compare,
 * 8 bytes at a time, per 64 KiB; bytes are looked at one by one only in
 * the 64-byte blocks that differ or that the process wrote or are
 * pending.  The S plane is read only where mincore says the process wrote
 * (a read would map the zero page and make mincore say so from then on). */
static void sync_range(struct rdb_shared *s, uint64_t lo, uint64_t hi, uint64_t id)
{
	uint8_t *buf = RT->shared.shared_buf;
	unsigned char vec[RDB_SHARED_BUF / 4096 + 2];
	for (uint64_t a = lo; a < hi; a += RDB_SHARED_BUF) {
		uint64_t n = hi - a < RDB_SHARED_BUF ? hi - a : RDB_SHARED_BUF;
		long got = rdb_peek(buf, a, n);
		/* A file cut short: its pages past the end cannot be read (the
		 * program's reads there fault); the whole pages before them can,
		 * the last one zeroed past the end by the kernel. */
		if (got < (long)n)
			n = got > 0 ? (uint64_t)got & ~0xfffull : 0;
		if (!n)
			continue;
		const uint8_t *c = (const uint8_t *)(s->copy + (a - s->start));
		uint64_t sp = rdb_s_of(a) & ~0xfffull; /* the S plane's pages of the chunk */
		uint64_t spn = ((rdb_s_of(a + n) + 0xfff) & ~0xfffull) - sp;
		int written = 0;
		if (rdb_sys3(__NR_mincore, sp, spn, vec) < 0)
			rdb_memset(vec, 1, spn >> 12); /* cannot tell: look */
		for (uint64_t i = 0; i < spn >> 12; i++)
			written |= vec[i] & 1;
		/* the chunk's pending bits: n / 512 bytes, 8-aligned (pages) */
		uint64_t *pb = RT->shared.shared_pend ? (uint64_t *)pend_byte((uint64_t)c) : 0;
		uint64_t pend = 0;
		for (uint64_t i = 0; pb && i < n / 512 / 8; i++)
			pend |= pb[i];
		struct run r = {id, a, 0, 0, 0};
		for (uint64_t b = 0; b < n; b += 64) {
			const uint64_t *x = (const uint64_t *)(buf + b), *y = (const uint64_t *)(c + b);
			uint64_t d = 0;
			for (int w = 0; w < 8; w++)
				d |= x[w] ^ y[w];
			int sx = 0, pd = 0;
			if (written) {
				uint64_t sa = rdb_s_of(a + b);
				/* (the two S pages under the block: resident?) */
				if ((vec[((sa & ~0xfffull) - sp) >> 12] |
				     vec[(((sa + 63) & ~0xfffull) - sp) >> 12]) & 1) {
					const uint64_t *sw = (const uint64_t *)sa;
					uint64_t o = 0;
					for (int w = 0; w < 8; w++)
						o |= sw[w];
					sx = (o & 0x0202020202020202ull) != 0;
				}
			}
			if (pend)
				pd = (((const uint8_t *)pb)[b >> 9] >> ((b >> 6) & 7)) & 1;
			if (!d && !sx && !pd)
				continue;
			for (uint64_t k = b; k < b + 64; k++)
				if (buf[k] != c[k] ||
				    (sx && (*(const uint8_t *)rdb_s_of(a + k) & RDB_S_X)) ||
				    pd)
					run_byte(&r, buf, k);
			if (d)
				rdb_memcpy((uint8_t *)c + b, buf + b, 64);
		}
		if (r.have)
			put(id, a + r.lo, buf + r.lo, r.hi - r.lo);
		if (pend)
			rdb_memset(pb, 0, n / 512);
	}
}

static void sync_all(struct rdb_shared *s, uint64_t id) { sync_range(s, s->start, s->end, id); }

/* The process changed bytes [foff, foff + n) of the file (dev, ino)
 * through a syscall (n = -1: from foff on; foff = -1: anywhere): the
 * mappings of that file sync what they show of them. */
static void sync_file(uint64_t dev, uint64_t ino, uint64_t foff, uint64_t n, uint64_t id)
{
	for (size_t i = 0; i < RT->shared.nshared; i++) {
		struct rdb_shared *s = &RT->shared.shared[i];
		if (!s->ext || !s->copy || s->dev != dev || s->ino != ino || (!dev && !ino))
			continue;
		if (foff == ~0ull) {
			sync_all(s, id);
			continue;
		}
		uint64_t len = s->end - s->start;
		uint64_t fend = n > ~0ull - foff ? ~0ull : foff + n;
		uint64_t lo = foff > s->off ? foff : s->off, hi = fend < s->off + len ? fend : s->off + len;
		if (lo >= hi)
			continue;
		sync_range(s, s->start + ((lo - s->off) & ~0xfffull),
		           s->start + ((hi - s->off + 0xfff) & ~0xfffull), id);
	}
}


/* Whether a pwrite on fd (with pwritev2's flags) appends whatever its
 * offset: fd opened O_APPEND, or RWF_APPEND. */
static int appends(long fd, long flags)
{
	long fl = rdb_sys2(__NR_fcntl, fd, 3 /* F_GETFL */);
	return (fl >= 0 && (fl & 02000)) || (flags & 0x10);
}

/* A write-like call put r bytes into fd at offset off (-1: the bytes
 * before the fd's position now; -2: the file's last r bytes, appended). */
static void wrote(long fd, long off, long r, uint64_t id)
{
	struct fid f;
	if (r <= 0 || !fd_regular(fd, &f))
		return;
	if (off == -2) {
		off = (long)f.size >= r ? (long)f.size - r : -1;
	} else if (off == -1) {
		long pos = rdb_sys3(__NR_lseek, fd, 0, 1 /* SEEK_CUR */);
		off = pos >= r ? pos - r : -1;
	}
	sync_file(f.dev, f.ino, off < 0 ? ~0ull : (uint64_t)off, off < 0 ? ~0ull : (uint64_t)r, id);
}

/* The file of fd changed anywhere (truncated, holes punched). */
static void changed(long fd, uint64_t id)
{
	struct fid f;
	if (fd_id(fd, &f))
		sync_file(f.dev, f.ino, ~0ull, ~0ull, id);
}

/* syscalls.spec ACQUIRES(!regular(fd)): reads and receives on a pipe,
 * socket, terminal, eventfd... acquire, on a regular file they do not. */
static int regular(void *ctx, long fd)
{
	struct fid f;
	(void)ctx;
	return fd_regular(fd, &f);
}

/* After syscall id (signals blocked, before the records are flushed):
 * nr with arguments a returned r. */
void rdb_shared_sync(uint64_t id, long nr, const long a[6], long r)
{
	if (!RT->mode)
		return;
	size_t i = 0;
	while (i < RT->shared.nshared && !(RT->shared.shared[i].ext && RT->shared.shared[i].copy))
		i++;
	if (i == RT->shared.nshared)
		return; /* (the common case: no ext mapping) */
	/* (a signal for a handler that came during the call: its sender may
	 * have stored first, and the handler runs before the next call) */
	if (RT->shared.shared_sig || TH->sig.npending || rdb_systab_acquires(nr, a, r, regular)) {
		RT->shared.shared_sig = 0;
		for (i = 0; i < RT->shared.nshared && RT->mode; i++)
			if (RT->shared.shared[i].ext && RT->shared.shared[i].copy)
				sync_all(&RT->shared.shared[i], id);
		return;
	}
	/* the process's own changes to a mapped file through its fds
	 * (syscalls.spec FILEWRITE: write, pwrite*, sendfile, splice...;
	 * FILECHANGE: ftruncate, fallocate, open with O_TRUNC) */
	long v[4];
	if (r > 0 && rdb_systab_fact(RDB_FACT_FILEWRITE, nr, a, r, v)) {
		long at = v[3] ? (appends(v[0], v[2]) ? -2 : v[1] < 0 ? -1 : v[1]) : -1;
		wrote(v[0], at, r, id);
		return;
	}
	if (!is_err(r) && rdb_systab_fact(RDB_FACT_FILECHANGE, nr, a, r, v))
		changed(v[0], id);
}

/* Whether [a, a + n) overlaps a tracked MAP_SHARED mapping. */
int rdb_shared_overlaps(uint64_t a, uint64_t n)
{
	for (size_t i = 0; i < RT->shared.nshared; i++)
		if (RT->shared.shared[i].start < a + n && a < RT->shared.shared[i].end)
			return 1;
	return 0;
}

/* ---- the snapshot child and the maps ----------------------------------- */

/* Returns whether the copies cover all of [a, a + n): then to holds
 * their bytes even where the mapping itself cannot be read any more (its
 * file was cut short after the boundary). */
int rdb_shared_overlay(void *to, uint64_t a, uint64_t n)
{
	uint64_t got = 0;
	for (size_t i = 0; i < RT->shared.nshared; i++) {
		const struct rdb_shared *s = &RT->shared.shared[i];
		uint64_t lo = a > s->start ? a : s->start, hi = a + n < s->end ? a + n : s->end;
		if (lo < hi && s->copy) {
			rdb_memcpy((uint8_t *)to + (lo - a), (const void *)(s->copy + (lo - s->start)),
			           hi - lo);
			got += hi - lo;
		}
	}
	return got == n; /* (the list's ranges do not overlap) */
}

/* The kernel may merge a mapping with its neighbours (replay's anonymous
 * stand-ins, for one): the maps are cut at the tracked ranges, so record
 * and replay hash the same bytes. */
int rdb_shared_kinds(void)
{
	struct rdb_tf_map *m = RT->procmaps.maps;
	size_t j = 0; /* both lists are sorted: the first entry ending after m[i] */
	for (size_t i = 0; i < RT->procmaps.nmaps; i++) {
		while (j < RT->shared.nshared && RT->shared.shared[j].end <= m[i].start)
			j++;
		if (j == RT->shared.nshared)
			break;
		const struct rdb_shared *s = &RT->shared.shared[j];
		if (s->start >= m[i].end)
			continue;
		uint64_t cut = s->start > m[i].start ? s->start : s->end < m[i].end ? s->end : 0;
		if (!cut) {
			m[i].kind = s->ext ? RDB_TF_MAP_SHARED_EXT : RDB_TF_MAP_SHARED;
			continue;
		}
		if (!rdb_grow(RDB_G_MAPS, (RT->procmaps.nmaps + 1) * sizeof *m))
			return 0;
		for (size_t k = RT->procmaps.nmaps; k > i + 1; k--)
			m[k] = m[k - 1];
		RT->procmaps.nmaps++;
		m[i + 1] = m[i];
		m[i].end = m[i + 1].start = cut;
		i--; /* m[i] again, now shorter (wraps to 0 - 1, then back) */
	}
	return 1;
}

void rdb_shared_from_maps(const struct rdb_tf_map *m, size_t n)
{
	RT->shared.nshared = 0;
	for (size_t i = 0; i < n; i++)
		if (m[i].kind == RDB_TF_MAP_SHARED || m[i].kind == RDB_TF_MAP_SHARED_EXT)
			add(m[i].start, m[i].end - m[i].start, m[i].kind == RDB_TF_MAP_SHARED_EXT, -1,
			    m[i].prot, 0, 0, 0, 0, 0);
}

/* ---- replay ------------------------------------------------------------- */

/* Through /proc/self/mem: the mapping may be read-only. */
void rdb_shared_apply(const struct rdb_tf_shared *s)
{
	if (!rdb_covered(s->addr, s->len))
		rdb_die("replay: SHARED record outside the program's memory\n");
	for (uint64_t done = 0; done < s->len;) {
		uint64_t k = s->len - done < sizeof RT->replay.bounce ? s->len - done : sizeof RT->replay.bounce;
		if (rdb_chan_read(RT->replay.bounce, k) != 1)
			rdb_die("replay: the channel ended inside a SHARED record\n");
		rdb_poke_mem(s->addr + done, RT->replay.bounce, k);
		done += k;
	}
	if (RT->start.debug > 1)
		rdb_printf("rdb: shared memory [%p, +%lu) after #%lu\n", (void *)s->addr,
		           (unsigned long)s->len, (unsigned long)s->id);
}
