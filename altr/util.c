/*
 * util.c: allocation that cannot fail quietly, byte buffers, file reading
 * and the two error paths (bad input: a message naming file and line;
 * broken invariant: abort with our own file and line).
 */
#include "altr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

const char *altr_progname = "altr";
unsigned long altr_nwarnings;
bool altr_quiet_warnings;
bool altr_shortcuts = true;

void *altr_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		altr_die("out of memory (%zu bytes)", n);
	return p;
}

void *altr_xcalloc(size_t nmemb, size_t n)
{
	void *p = calloc(nmemb ? nmemb : 1, n ? n : 1);
	if (!p)
		altr_die("out of memory (%zu x %zu bytes)", nmemb, n);
	return p;
}

void *altr_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		altr_die("out of memory (%zu bytes)", n);
	return p;
}

char *altr_xstrndup(const char *s, size_t n)
{
	char *p = altr_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *altr_strdup_str(struct altr_str s)
{
	return altr_xstrndup(s.p, s.len);
}

bool altr_str_eq(struct altr_str s, const char *lit)
{
	size_t n = strlen(lit);
	return s.len == n && memcmp(s.p, lit, n) == 0;
}

bool altr_str_starts(struct altr_str s, const char *lit)
{
	size_t n = strlen(lit);
	return s.len >= n && memcmp(s.p, lit, n) == 0;
}

void altr_buf_grow(struct altr_buf *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + n + 1)
		cap *= 2;
	b->p = altr_xrealloc(b->p, cap);
	b->cap = cap;
}

void altr_buf_puts(struct altr_buf *b, const char *s)
{
	altr_buf_put(b, s, strlen(s));
}

void altr_buf_putl(struct altr_buf *b, long v)
{
	if (b->len + 22 > b->cap)
		altr_buf_grow(b, 21);
	char *p = b->p + b->len;
	if (v < 0)
		*p++ = '-';
	p = altr_put_ulong(p, v < 0 ? 0ul - (unsigned long)v : (unsigned long)v);
	b->len = (size_t)(p - b->p);
	*p = 0;
}

void altr_buf_printf(struct altr_buf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		altr_die("vsnprintf failed");
	if ((size_t)n < sizeof small) {
		altr_buf_put(b, small, (size_t)n);
		return;
	}
	char *big = altr_xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	altr_buf_put(b, big, (size_t)n);
	free(big);
}

void altr_buf_free(struct altr_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

char *altr_read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!f)
		return NULL;
	struct altr_buf b = {0};
	/* A regular file is read into a buffer of its size at once: growing
	 * one by copying cost page faults and time on large inputs. */
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		b.cap = (size_t)st.st_size + 1;
		b.p = altr_xmalloc(b.cap);
	}
	char chunk[65536];
	size_t n;
	for (;;) {
		if (b.cap - b.len > sizeof chunk) { /* read in place */
			n = fread(b.p + b.len, 1, b.cap - b.len - 1, f);
			b.len += n;
			b.p[b.len] = 0;
		} else if ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
			altr_buf_put(&b, chunk, n);
		}
		if (!n)
			break;
	}
	int err = ferror(f) ? errno : 0;
	if (f != stdin)
		fclose(f);
	if (err) {
		altr_buf_free(&b);
		errno = err;
		return NULL;
	}
	if (!b.p)
		b.p = altr_xcalloc(1, 1);
	*len = b.len;
	return b.p;
}

/* "altr:FILE:LINE:COL: " + what + the message, a line on stderr; LINE and
 * COL are left out when not positive. */
static void vreport(const char *file, int line, int col, const char *what,
                    const char *fmt, va_list ap)
{
	if (col > 0)
		fprintf(stderr, "%s:%s:%d:%d: %s", altr_progname, file, line,
		        col, what);
	else if (line > 0)
		fprintf(stderr, "%s:%s:%d: %s", altr_progname, file, line,
		        what);
	else
		fprintf(stderr, "%s:%s: %s", altr_progname, file, what);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void altr_warn(const char *file, int line, const char *fmt, ...)
{
	altr_nwarnings++;
	if (altr_quiet_warnings)
		return;
	va_list ap;
	va_start(ap, fmt);
	vreport(file, line, 0, "warning: ", fmt, ap);
	va_end(ap);
}

void altr_warn_at(const char *file, int line, int col, const char *fmt, ...)
{
	altr_nwarnings++;
	if (altr_quiet_warnings)
		return;
	va_list ap;
	va_start(ap, fmt);
	vreport(file, line, col, "warning: ", fmt, ap);
	va_end(ap);
}

void altr_error_at(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vreport(file, line, col, "", fmt, ap);
	va_end(ap);
}

_Noreturn void altr_die(const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", altr_progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

_Noreturn void altr_assert_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s: internal error at %s:%d: %s\n", altr_progname, file,
	        line, what);
	abort();
}

/* Large arrays (statements, instructions) come from mmap with transparent
 * huge pages requested: page faults were much of the reading time
 * (docs/perf.md).
 * Those of 2 MB or more start on a 2 MB boundary, or no huge page fits.
 * Freed ones are kept, a few, for a later allocation they fit: their pages
 * are in place, where fresh ones cost the kernel clearing them (a large
 * part of a run); clearing them here is cheaper. */
#define HUGE_PAGE ((size_t)2 << 20)
#define PAGE ((size_t)4096)
enum { BIG_KEPT = 8, BIG_LENT = 64, BIG_MIN = 1 << 16, BIG_WHOLE = 1 << 18 };
struct bigblk {
	char *p;
	size_t n;                /* bytes mapped */
};
static struct bigblk big_kept[BIG_KEPT]; /* freed, free for reuse */
static struct bigblk big_lent[BIG_LENT]; /* reused: their mapped size */

static size_t round_page(size_t n)
{
	return (n + PAGE - 1) / PAGE * PAGE;
}

/* The size mapped at p, given out for n bytes; forgets a lent block. */
static size_t big_mapped(void *p, size_t n)
{
	for (int i = 0; i < BIG_LENT; i++)
		if (big_lent[i].p == p) {
			big_lent[i].p = NULL;
			return big_lent[i].n;
		}
	return round_page(n);
}

/* A kept block for n bytes, cleared but for the first keep unless raw
 * (or NULL).
 * One much bigger than asked for is split, the rest kept: the emitter's
 * small arrays each took a whole block (one of them the analysis's, megabytes
 * long), and its big ones then had fresh pages (docs/perf.md). */
static void *big_reuse(size_t n, size_t keep, bool raw)
{
	size_t need = round_page(n);
	int best = -1;
	for (int i = 0; i < BIG_KEPT; i++)
		if (big_kept[i].p && big_kept[i].n >= need &&
		    (best < 0 || big_kept[i].n < big_kept[best].n))
			best = i;
	if (best < 0)
		return NULL;
	struct bigblk b = big_kept[best];
	size_t rest = b.n - need >= BIG_MIN ? b.n - need : 0;
	b.n -= rest;
	if (b.n != need) { /* remember its size */
		int i = 0;
		while (i < BIG_LENT && big_lent[i].p)
			i++;
		if (i == BIG_LENT)
			return NULL;
		big_lent[i] = b;
	}
	big_kept[best] = rest ? (struct bigblk){b.p + need, rest}
	                      : (struct bigblk){NULL, 0};
	if (!raw) /* the caller fills the first keep */
		memset(b.p + keep, 0, n - keep);
	return b.p;
}

/* Keeps block b (all of its mapping) for reuse, or unmaps it. */
static void big_release(struct bigblk b)
{
	if (b.n >= BIG_MIN)
		for (int i = 0; i < BIG_KEPT; i++) {
			if (!big_kept[i].p) {
				big_kept[i] = b;
				return;
			}
			if (big_kept[i].n < b.n) { /* keep the bigger */
				struct bigblk t = big_kept[i];
				big_kept[i] = b;
				b = t;
			}
		}
	munmap(b.p, b.n);
}

/* Faults the pages of a new block in at once: when no huge page is to be
 * had, one fault per 4 KB page cost more than the kernel's clearing of
 * it.  Only where the kernel can (Linux 5.14); else they fault as used. */
static void populate(void *p, size_t n)
{
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
	static bool unsupported;
	if (!unsupported && madvise(p, n, MADV_POPULATE_WRITE) != 0)
		unsupported = true;
}

static void *big_alloc(size_t n, bool dense, bool raw)
{
	void *q = big_reuse(n, 0, raw);
	if (q && dense && raw) /* a block used sparsely may have pages to fault */
		populate(q, n);
	if (q)
		return q;
	/* A block of BIG_WHOLE or more is mapped in whole huge pages: the
	 * kernel faults its tail in one huge page, not in 4 KB ones (each of
	 * those cost six times as much per byte), and what the block leaves
	 * of that page is kept for the next blocks (the analysis's and the
	 * emitter's arrays fit there). */
	size_t want = round_page(n);
	size_t span = n >= BIG_WHOLE ? (want + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE
	                             : want;
	size_t extra = span >= HUGE_PAGE ? HUGE_PAGE : 0;
	char *p = mmap(NULL, span + extra, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		altr_die("out of memory (%zu bytes)", n);
	if (extra) {
		size_t head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
		if (head)
			munmap(p, head);
		if (extra > head)
			munmap(p + head + span, extra - head);
		p += head;
	}
	madvise(p, span, MADV_HUGEPAGE);
	if (dense)
		populate(p, n);
	if (span > want)
		big_release((struct bigblk){p + want, span - want});
	return p;
}

void *altr_big_alloc(size_t n)
{
	return big_alloc(n, true, false);
}

void *altr_big_alloc_sparse(size_t n)
{
	return big_alloc(n, false, false);
}

void *altr_big_alloc_raw(size_t n)
{
	return big_alloc(n, true, true);
}

static void *big_realloc(void *p, size_t old, size_t n, bool raw)
{
	if (!p)
		return big_alloc(n, true, raw);
	size_t mapped = big_mapped(p, old);
	if (n <= mapped) {
		if (n > old && !raw)
			memset((char *)p + old, 0, n - old);
		if (mapped != round_page(n)) { /* still lent */
			for (int i = 0; i < BIG_LENT; i++)
				if (!big_lent[i].p) {
					big_lent[i] = (struct bigblk){p, mapped};
					return p;
				}
			munmap((char *)p + round_page(n), mapped - round_page(n));
		}
		return p;
	}
	/* growing into a kept block: its pages are in place */
	void *q = big_reuse(n, old, raw);
	if (q) {
		memcpy(q, p, old);
		big_release((struct bigblk){p, mapped});
		return q;
	}
	if (mapped > old && !raw)
		memset((char *)p + old, 0, mapped - old);
	q = mremap(p, mapped, n, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		altr_die("out of memory (%zu bytes)", n);
	madvise(q, n, MADV_HUGEPAGE);
	if (n > mapped)
		populate((char *)q + mapped, round_page(n) - mapped);
	return q;
}

void *altr_big_realloc(void *p, size_t old, size_t n)
{
	return big_realloc(p, old, n, false);
}

void *altr_big_realloc_raw(void *p, size_t old, size_t n)
{
	return big_realloc(p, old, n, true);
}

void altr_big_free(void *p, size_t n)
{
	if (p)
		big_release((struct bigblk){p, big_mapped(p, n)});
}

char *altr_map_file(const char *path, size_t *len, size_t *mapped)
{
	*mapped = 0;
	struct stat st;
	int fd = strcmp(path, "-") == 0 ? -1 : open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < (1 << 20) || (uint64_t)st.st_size >= UINT32_MAX) {
		if (fd >= 0)
			close(fd);
		return altr_read_file(path, len);
	}
	/* The file's pages are mapped where read() would copy them into
	 * fresh ones (the kernel clearing those was a tenth of a run), with
	 * one zero byte after them: from the file's last page when it ends
	 * inside one, else from an anonymous page reserved behind it. */
	size_t n = (size_t)st.st_size, span = round_page(n + 1);
	char *p = mmap(NULL, span, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED &&
	    mmap(p, n, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd,
	         0) == MAP_FAILED) {
		munmap(p, span);
		p = MAP_FAILED;
	}
	close(fd);
	if (p == MAP_FAILED)
		return altr_read_file(path, len);
	*len = n;
	*mapped = span;
	return p;
}

/* -------------------------------------------------------------- the map */

static void *map_alloc(const struct altr_table *m, size_t bytes)
{
	switch (m->mem) {
	case ALTR_TABLE_BIG: return altr_big_alloc(bytes);
	case ALTR_TABLE_SPARSE: return altr_big_alloc_sparse(bytes);
	default: return altr_xcalloc(1, bytes);
	}
}

static void map_release(const struct altr_table *m)
{
	if (m->mem == ALTR_TABLE_HEAP)
		free(m->e);
	else
		altr_big_free(m->e, m->bytes);
}

void altr_table_grow(struct altr_table *m, size_t more,
                     uint32_t (*hash)(const void *ent),
                     bool (*used)(const void *ent))
{
	ALTR_ASSERT(m->size && m->load && m->first);
	size_t cap = m->cap ? m->cap : m->first;
	while (4 * (m->n + more) > m->load * cap)
		cap *= 2;
	if (cap == m->cap)
		return;
	struct altr_table old = *m;
	m->cap = cap;
	m->bytes = cap * m->size;
	if (!old.cap && m->bytes < m->room)
		m->bytes = m->room;
	m->e = map_alloc(m, m->bytes);
	for (size_t i = 0; i < old.cap; i++) {
		const char *e = old.e + i * m->size;
		if (!used(e))
			continue;
		size_t j = hash(e) & (cap - 1);
		while (used(m->e + j * m->size))
			j = (j + 1) & (cap - 1);
		memcpy(m->e + j * m->size, e, m->size);
	}
	if (old.cap)
		map_release(&old);
}

void altr_table_free(struct altr_table *m)
{
	if (m->cap)
		map_release(m);
	m->e = NULL;
	m->cap = m->n = m->bytes = 0;
}

/* A key of the kept map: its text, and where the kept keys are. */
struct kept_key {
	const char *p, *keys;
	size_t len;
	uint32_t hash;
};

static bool kept_stop(const void *ent, const void *key)
{
	const struct altr_kept *e = ent;
	const struct kept_key *k = key;
	return !e->len || (e->hash == k->hash && e->len == k->len &&
	                   memcmp(k->keys + e->off, k->p, k->len) == 0);
}

static uint32_t kept_hash(const void *ent)
{
	return ((const struct altr_kept *)ent)->hash;
}

static bool kept_used(const void *ent)
{
	return ((const struct altr_kept *)ent)->len != 0;
}

struct altr_kept *altr_kept_find(struct altr_kept_table *km, const char *p,
                                 size_t n, uint32_t h)
{
	ALTR_ASSERT(n > 0 && n <= UINT32_MAX);
	if (!km->m.size)
		km->m = (struct altr_table){.size = sizeof(struct altr_kept), .load = 2,
		                          .first = 1024};
	altr_table_reserve(&km->m, 1, kept_hash, kept_used);
	struct kept_key key = {p, km->keys.p, n, h};
	return altr_table_slot(&km->m, sizeof(struct altr_kept), h, &key, kept_stop);
}

void altr_kept_add(struct altr_kept_table *km, struct altr_kept *e,
                   const char *p, size_t n, uint32_t h, long val)
{
	ALTR_ASSERT(!e->len);
	*e = (struct altr_kept){h, (uint32_t)n, km->keys.len, val};
	altr_buf_put(&km->keys, p, n);
	km->m.n++;
}

void altr_kept_free(struct altr_kept_table *km)
{
	altr_table_free(&km->m);
	altr_buf_free(&km->keys);
}
