/*
 * argv.c: argument vectors, @file expansion and shell quoting for rdb-cc.
 * @file follows libiberty's expandargv (what gcc uses): whitespace
 * separates arguments, '' "" and backslash quote, files may nest, and an
 * @file that cannot be read stays a literal argument.
 */
#include "driver.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void rdbcc_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("rdb-cc: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

void *rdbcc_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		rdbcc_die("out of memory");
	return p;
}

char *rdbcc_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(rdbcc_xmalloc(n), s, n);
}

static char *vxasprintf(const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	char *s = rdbcc_xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

char *rdbcc_xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = vxasprintf(fmt, ap);
	va_end(ap);
	return s;
}

static void push_owned(struct rdbcc_argv *a, char *s)
{
	if (a->n + 2 > a->cap) {
		a->cap = a->cap ? 2 * a->cap : 16;
		a->v = realloc(a->v, (size_t)a->cap * sizeof *a->v);
		if (!a->v)
			rdbcc_die("out of memory");
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void rdbcc_argv_push(struct rdbcc_argv *a, const char *s)
{
	push_owned(a, rdbcc_xstrdup(s));
}

void rdbcc_argv_pushf(struct rdbcc_argv *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	push_owned(a, vxasprintf(fmt, ap));
	va_end(ap);
}

void rdbcc_argv_append(struct rdbcc_argv *a, const struct rdbcc_argv *b)
{
	for (int i = 0; i < b->n; i++)
		rdbcc_argv_push(a, b->v[i]);
}

void rdbcc_argv_free(struct rdbcc_argv *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = rdbcc_xmalloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n - 1 == 0) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				rdbcc_die("out of memory");
		}
	}
	buf[n] = 0;
	fclose(f);
	return buf;
}

static int expand(const char *arg, struct rdbcc_argv *out, int depth)
{
	if (arg[0] != '@' || !arg[1]) {
		rdbcc_argv_push(out, arg);
		return 0;
	}
	if (depth > 32) {
		fprintf(stderr, "rdb-cc: %s: @file nesting too deep\n", arg + 1);
		return -1;
	}
	char *text = read_file(arg + 1);
	if (!text) {             /* gcc keeps an unreadable @file as is */
		rdbcc_argv_push(out, arg);
		return 0;
	}
	size_t len = strlen(text);
	char *word = rdbcc_xmalloc(len + 1);
	const char *p = text;
	int rc = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
		       *p == '\f' || *p == '\v')
			p++;
		if (!*p)
			break;
		size_t n = 0;
		char quote = 0;
		for (; *p; p++) {
			if (!quote && (*p == ' ' || *p == '\t' || *p == '\n' ||
			               *p == '\r' || *p == '\f' || *p == '\v'))
				break;
			if (*p == '\\' && p[1]) {
				word[n++] = *++p;
			} else if (quote && *p == quote) {
				quote = 0;
			} else if (!quote && (*p == '\'' || *p == '"')) {
				quote = *p;
			} else {
				word[n++] = *p;
			}
		}
		word[n] = 0;
		if (expand(word, out, depth + 1) < 0) {
			rc = -1;
			break;
		}
	}
	free(word);
	free(text);
	return rc;
}

int rdbcc_expand_atfiles(int argc, char **argv, struct rdbcc_argv *out)
{
	for (int i = 0; i < argc; i++)
		if (expand(argv[i], out, 0) < 0)
			return -1;
	return 0;
}

static void put(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		s += w;
		n -= (size_t)w;
	}
}

/* gcc's -### style: every word in double quotes, " and \ escaped. */
void rdbcc_argv_print(const struct rdbcc_argv *a, int fd)
{
	for (int i = 0; i < a->n; i++) {
		put(fd, i ? " \"" : "\"", i ? 2 : 1);
		for (const char *s = a->v[i]; *s; s++) {
			if (*s == '"' || *s == '\\' || *s == '$' || *s == '`')
				put(fd, "\\", 1);
			put(fd, s, 1);
		}
		put(fd, "\"", 1);
	}
	put(fd, "\n", 1);
}
