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

void altr_buf_put(struct altr_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		b->p = altr_xrealloc(b->p, cap);
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = 0;
}

void altr_buf_puts(struct altr_buf *b, const char *s)
{
	altr_buf_put(b, s, strlen(s));
}

void altr_buf_putc(struct altr_buf *b, char c)
{
	altr_buf_put(b, &c, 1);
}

void altr_buf_putl(struct altr_buf *b, long v)
{
	char tmp[24], *e = tmp + sizeof tmp, *p = e;
	unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	altr_buf_put(b, p, (size_t)(e - p));
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

char *altr_read_file_big(const char *path, size_t *len, size_t *big)
{
	*big = 0;
	struct stat st;
	int fd = strcmp(path, "-") == 0 ? -1 : open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < (1 << 20)) {
		if (fd >= 0)
			close(fd);
		return altr_read_file(path, len);
	}
	size_t n = (size_t)st.st_size, got = 0;
	char *p = altr_big_alloc(n + 1);
	while (got < n) {
		ssize_t k = read(fd, p + got, n - got);
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	char extra;
	bool whole = got == n && read(fd, &extra, 1) == 0;
	close(fd);
	if (!whole) { /* changed under us: the slow way sees what is there */
		altr_big_free(p, n + 1);
		return altr_read_file(path, len);
	}
	p[n] = 0;
	*len = n;
	*big = n + 1;
	return p;
}

void altr_warn(const char *file, int line, const char *fmt, ...)
{
	altr_nwarnings++;
	if (altr_quiet_warnings)
		return;
	va_list ap;
	if (line > 0)
		fprintf(stderr, "%s:%s:%d: warning: ", altr_progname, file, line);
	else
		fprintf(stderr, "%s:%s: warning: ", altr_progname, file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void altr_error_at(const char *file, int line, int col, const char *fmt, ...)
{
	va_list ap;
	if (col > 0)
		fprintf(stderr, "%s:%s:%d:%d: ", altr_progname, file, line, col);
	else if (line > 0)
		fprintf(stderr, "%s:%s:%d: ", altr_progname, file, line);
	else
		fprintf(stderr, "%s:%s: ", altr_progname, file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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
 * huge pages requested: page faults were a quarter of the reading time.
 * Those of 2 MB or more start on a 2 MB boundary, or no huge page fits. */
#define HUGE_PAGE ((size_t)2 << 20)
void *altr_big_alloc(size_t n)
{
	size_t extra = n >= HUGE_PAGE ? HUGE_PAGE : 0;
	char *p = mmap(NULL, n + extra, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		altr_die("out of memory (%zu bytes)", n);
	if (extra) {
		size_t head = (HUGE_PAGE - (uintptr_t)p % HUGE_PAGE) % HUGE_PAGE;
		if (head)
			munmap(p, head);
		/* the mapping is n rounded up to pages, plus extra */
		size_t pg = 4096, end = (n + pg - 1) / pg * pg;
		if (extra > head)
			munmap(p + head + end, extra - head);
		p += head;
	}
	madvise(p, n, MADV_HUGEPAGE);
	return p;
}

void *altr_big_realloc(void *p, size_t old, size_t n)
{
	if (!p)
		return altr_big_alloc(n);
	void *q = mremap(p, old, n, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		altr_die("out of memory (%zu bytes)", n);
	madvise(q, n, MADV_HUGEPAGE);
	return q;
}

void altr_big_free(void *p, size_t n)
{
	if (p)
		munmap(p, n);
}
