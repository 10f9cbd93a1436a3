/*
 * prefilter.c: a regex's prefilter.  A rule's regex is parsed once more
 * here into literals one of which any match holds (or the whole set of
 * strings it matches); the regex test (regex.c) calls regexec only on
 * subjects that hold one.  Only a subset of POSIX ERE is understood; for
 * the rest there is no filter, and regexec decides alone.
 */
#include "altr.h"

#include <ctype.h>
#include <emmintrin.h>
#include <stdlib.h>
#include <string.h>

/* Most regexes in rules fail on most subjects (/%r1[2-5]|%gs/ on every
 * instruction's text) and the text of an instruction seen for the first
 * time is new to every memo.  A regex is parsed once more here, into
 * literals one of which each match must contain: a subject holding none
 * cannot match, and regexec is not called.  Only a subset of POSIX ERE is
 * understood (no intervals, no backslash letters, no collating elements);
 * for anything else there is no filter.  A piece of a regex is known as
 * the set of strings it matches (exact), or a set of which each match
 * contains one, or nothing. */

struct lits {
	bool exact;              /* str is all the piece matches */
	bool known;              /* else: each match contains one of str */
	int n;
	uint8_t len[ALTR_LIT_MAX];
	char str[ALTR_LIT_MAX][ALTR_LIT_LEN];
};

static const struct lits lits_unknown = {0};

static bool lits_add(struct lits *l, const char *p, size_t n)
{
	if (n > ALTR_LIT_LEN) {
		if (l->exact)
			return false;
		n = ALTR_LIT_LEN;
	}
	for (int i = 0; i < l->n; i++)
		if (l->len[i] == n && memcmp(l->str[i], p, n) == 0)
			return true;
	if (l->n == ALTR_LIT_MAX)
		return false;
	memcpy(l->str[l->n], p, n);
	l->len[l->n++] = (uint8_t)n;
	return true;
}

/* What a piece requires of any match: its set, unless it holds "". */
static struct lits lits_req(struct lits a)
{
	a.exact = false;
	for (int i = 0; i < a.n; i++)
		if (!a.len[i])
			return lits_unknown;
	if (!a.known || !a.n)
		return lits_unknown;
	return a;
}

static int lits_minlen(const struct lits *a)
{
	int m = ALTR_LIT_LEN + 1;
	for (int i = 0; i < a->n; i++)
		if (a->len[i] < m)
			m = a->len[i];
	return m;
}

/* The better requirement: longer shortest string, then fewer strings. */
static struct lits lits_better(struct lits a, struct lits b)
{
	a = lits_req(a);
	b = lits_req(b);
	if (!a.known)
		return b;
	if (!b.known)
		return a;
	int ma = lits_minlen(&a), mb = lits_minlen(&b);
	if (ma != mb)
		return ma > mb ? a : b;
	return a.n <= b.n ? a : b;
}

static struct lits lits_cat(struct lits a, struct lits b)
{
	if (a.exact && b.exact && a.n * b.n <= ALTR_LIT_MAX) {
		struct lits c = {.exact = true, .known = true};
		bool ok = true;
		for (int i = 0; i < a.n && ok; i++)
			for (int j = 0; j < b.n && ok; j++) {
				char t[2 * ALTR_LIT_LEN];
				memcpy(t, a.str[i], a.len[i]);
				memcpy(t + a.len[i], b.str[j], b.len[j]);
				ok = lits_add(&c, t, (size_t)a.len[i] + b.len[j]);
			}
		if (ok)
			return c;
	}
	return lits_better(a, b);
}

static struct lits lits_alt(struct lits a, struct lits b)
{
	if (!a.exact || !b.exact) {
		a = lits_req(a);
		b = lits_req(b);
		if (!a.known || !b.known)
			return lits_unknown;
	}
	struct lits c = a;
	for (int i = 0; i < b.n; i++)
		if (!lits_add(&c, b.str[i], b.len[i]))
			return lits_unknown;
	return c;
}

struct rescan {
	const char *p;
	bool bad;                /* not understood: no filter */
	bool plain;              /* no anchor or group seen */
};

static struct lits re_alt(struct rescan *r);

/* A bracket expression after its '['; the set of its bytes, if few. */
static struct lits re_bracket(struct rescan *r)
{
	static const struct {
		const char *name;
		int (*is)(int);
	} classes[] = {
		{"alpha", isalpha}, {"digit", isdigit}, {"alnum", isalnum},
		{"upper", isupper}, {"lower", islower}, {"space", isspace},
		{"blank", isblank}, {"punct", ispunct}, {"print", isprint},
		{"graph", isgraph}, {"cntrl", iscntrl}, {"xdigit", isxdigit},
	};
	bool in[256] = {0}, neg = false;
	const char *p = r->p;
	if (*p == '^')
		neg = true, p++;
	for (bool first = true; first || *p != ']'; first = false) {
		unsigned char c = (unsigned char)*p;
		if (!c || c == '\\') {
			r->bad = true;
			return lits_unknown;
		}
		if (c == '[' && (p[1] == '.' || p[1] == '=')) {
			r->bad = true;
			return lits_unknown;
		}
		if (c == '[' && p[1] == ':') {
			const char *e = strstr(p + 2, ":]");
			size_t k, n = e ? (size_t)(e - p - 2) : 0;
			for (k = 0; e && k < sizeof classes / sizeof classes[0]; k++)
				if (strlen(classes[k].name) == n &&
				    memcmp(classes[k].name, p + 2, n) == 0)
					break;
			if (!e || k == sizeof classes / sizeof classes[0]) {
				r->bad = true;
				return lits_unknown;
			}
			for (int b = 0; b < 256; b++)
				if (classes[k].is(b))
					in[b] = true;
			p = e + 2;
			continue;
		}
		if (p[1] == '-' && p[2] && p[2] != ']') {
			unsigned char d = (unsigned char)p[2];
			if (d == '[' || d == '\\' || d < c) {
				r->bad = true;
				return lits_unknown;
			}
			for (int b = c; b <= d; b++)
				in[b] = true;
			p += 3;
			continue;
		}
		in[c] = true;
		p++;
	}
	r->p = p + 1;
	if (neg)
		return lits_unknown;
	struct lits l = {.exact = true, .known = true};
	for (int b = 1; b < 256; b++) /* a subject holds no NUL regexec sees */
		if (in[b]) {
			char ch = (char)b;
			if (!lits_add(&l, &ch, 1))
				return lits_unknown;
		}
	return l;
}

static struct lits re_atom(struct rescan *r)
{
	char c = *r->p;
	struct lits l = {.exact = true, .known = true};
	switch (c) {
	case '(':
		r->p++;
		r->plain = false;
		l = re_alt(r);
		if (*r->p != ')') {
			r->bad = true;
			return lits_unknown;
		}
		r->p++;
		return l;
	case '[':
		r->p++;
		return re_bracket(r);
	case '.':
		r->p++;
		return lits_unknown;
	case '^':
	case '$':
		r->p++;
		r->plain = false;
		lits_add(&l, "", 0);
		return l;
	case '\\':
		c = r->p[1];
		/* letters, digits and these are GNU operators, not literals */
		if (!c || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z') || (unsigned char)c >= 0x80 ||
		    strchr("<>`'", c)) {
			r->bad = true;
			return lits_unknown;
		}
		r->p += 2;
		lits_add(&l, &c, 1);
		return l;
	case 0: case ')': case '|': case '*': case '+': case '?': case '{':
	case '}': case ']':
		r->bad = true;
		return lits_unknown;
	}
	r->p++;
	lits_add(&l, &c, 1);
	return l;
}

static struct lits re_repeat(struct rescan *r)
{
	struct lits l = re_atom(r);
	for (;;) {
		char c = *r->p;
		if (c == '*') {
			l = lits_unknown;
		} else if (c == '+') {
			l = lits_req(l);
		} else if (c == '?') {
			if (!l.exact || !lits_add(&l, "", 0))
				l = lits_unknown;
		} else if (c == '{') {
			r->bad = true;
			return lits_unknown;
		} else {
			return l;
		}
		r->p++;
	}
}

/* A concatenation: exact pieces in a row are joined into cur; once one
 * is not exact, the result only requires (the best run, or piece). */
static struct lits re_cat(struct rescan *r)
{
	struct lits empty = {.exact = true, .known = true, .n = 1};
	struct lits cur = empty, best = lits_unknown;
	bool exact = true;
	while (!r->bad && *r->p && *r->p != '|' && *r->p != ')') {
		struct lits b = re_repeat(r);
		if (b.exact) {
			struct lits c = lits_cat(cur, b);
			if (c.exact) {
				cur = c;
				continue;
			}
			best = lits_better(best, cur);
			cur = b;
		} else {
			best = lits_better(lits_better(best, cur), b);
			cur = empty;
		}
		exact = false;
	}
	return exact ? cur : lits_better(best, cur);
}

static struct lits re_alt(struct rescan *r)
{
	struct lits l = re_cat(r);
	while (!r->bad && *r->p == '|') {
		r->p++;
		l = lits_alt(l, re_cat(r));
	}
	return l;
}


/* Up to 4 bytes of p[0..n) as a little-endian word, zeros after. */
static uint32_t load4(const char *p, size_t n)
{
	uint32_t w = 0;
	if (n >= 4) {
		memcpy(&w, p, 4);
		return w;
	}
	for (size_t i = 0; i < n; i++)
		w |= (uint32_t)(unsigned char)p[i] << (8 * i);
	return w;
}

/* "^M$" with M (no '|' at its top) at most a set of strings: that set. */
static bool whole_set(const char *src, struct lits *l, bool *plain)
{
	size_t n = strlen(src), bs = 0;
	if (n < 2 || src[0] != '^' || src[n - 1] != '$')
		return false;
	while (bs + 2 < n && src[n - 2 - bs] == '\\')
		bs++;
	if (bs % 2) /* "\$": a dollar sign */
		return false;
	char *m = altr_xstrndup(src + 1, n - 2);
	struct rescan r = {m, false, true};
	*l = re_cat(&r);
	bool ok = !r.bad && !*r.p && l->exact;
	*plain = r.plain;
	free(m);
	return ok;
}

/* "R$" with no '|' at its top: the strings one of which ends any match
 * (those R's last exact pieces spell, none empty), if there are such. */
static bool tail_set(const char *src, struct lits *l)
{
	size_t n = strlen(src), bs = 0;
	if (n < 2 || src[n - 1] != '$')
		return false;
	while (bs + 1 < n && src[n - 2 - bs] == '\\')
		bs++;
	if (bs % 2) /* "\$": a dollar sign */
		return false;
	char *m = altr_xstrndup(src, n - 1);
	struct rescan r = {m, false, true};
	struct lits empty = {.exact = true, .known = true, .n = 1};
	struct lits cur = empty; /* the exact pieces last read, joined */
	while (!r.bad && *r.p && *r.p != '|' && *r.p != ')') {
		struct lits b = re_repeat(&r);
		struct lits c = b.exact ? lits_cat(cur, b) : empty;
		cur = c.exact ? c : b;
	}
	bool ok = !r.bad && !*r.p && cur.exact && cur.n > 0 &&
	          lits_minlen(&cur) > 0;
	*l = cur;
	free(m);
	return ok;
}

void altr_prefilter_make(struct altr_expr *e)
{
	free(e->filter);
	e->filter = NULL;
	if (!altr_shortcuts)
		return;
	bool wplain;
	struct lits w;
	if (whole_set(e->re_src, &w, &wplain)) {
		struct altr_refilter *f = altr_xcalloc(1, sizeof *f);
		f->whole = true;
		f->whole_exact = wplain && e->nsub == 0;
		for (int i = 0; i < w.n; i++) {
			f->len[i] = w.len[i];
			memcpy(f->str[i], w.str[i], w.len[i]);
		}
		f->nwhole = w.n;
		for (int i = 0; i < w.n; i++) {
			f->wlens |= 1ull << (w.len[i] < 63 ? w.len[i] : 63);
			if (w.len[i]) {
				unsigned char c0 = (unsigned char)w.str[i][0];
				f->wfirst[c0 >> 6] |= 1ull << (c0 & 63);
			}
		}
		e->filter = f;
		return;
	}
	struct rescan r = {e->re_src, false, true};
	struct lits l = re_alt(&r);
	if (r.bad || *r.p)
		return;
	bool exact = r.plain && l.exact;
	l = lits_req(l);
	if (!l.known)
		return;
	/* a string holding another one of the set adds nothing (but is a
	 * match of its own, if exact) */
	for (int i = 0; i < l.n && !exact; i++)
		for (int j = 0; j < l.n; j++)
			if (i != j && l.len[j] <= l.len[i] &&
			    memmem(l.str[i], l.len[i], l.str[j], l.len[j])) {
				l.n--;
				memmove(&l.str[i], &l.str[i + 1],
				        (size_t)(l.n - i) * sizeof l.str[0]);
				memmove(&l.len[i], &l.len[i + 1], (size_t)(l.n - i));
				i--;
				break;
			}
	struct altr_refilter *f = altr_xcalloc(1, sizeof *f);
	f->exact = exact;
	f->nlit = l.n;
	for (int i = 0; i < l.n; i++) {
		unsigned char c0 = (unsigned char)l.str[i][0];
		if (!f->first[c0] && f->nfirst >= 0) {
			if (f->nfirst < 4)
				f->firsts[f->nfirst++] = c0;
			else
				f->nfirst = -1;
		}
		f->first[(unsigned char)l.str[i][0]] |= (uint16_t)(1u << i);
		for (int k = 1; k <= 2; k++)
			for (int b = 0; b < 256; b++)
				if (l.len[i] <= k || (unsigned char)l.str[i][k] == b)
					f->next[k - 1][b] |= (uint16_t)(1u << i);
		f->len[i] = l.len[i];
		memcpy(f->str[i], l.str[i], l.len[i]);
		size_t k = l.len[i] < 4 ? l.len[i] : 4;
		f->pre[i] = load4(l.str[i], k);
		f->mask[i] = k == 4 ? ~0u : (1u << (8 * k)) - 1;
	}
	struct lits t;
	if (tail_set(e->re_src, &t)) {
		f->ntail = t.n;
		for (int i = 0; i < t.n; i++) {
			unsigned char c = (unsigned char)t.str[i][t.len[i] - 1];
			f->tlast[c >> 6] |= 1ull << (c & 63);
			f->tlen[i] = t.len[i];
			memcpy(f->tstr[i], t.str[i], t.len[i]);
		}
	}
	e->filter = f;
}

/* Where a literal of f starts at subj.p[i]: the longest one's index, or
 * -1. */
static inline int lit_at(const struct altr_refilter *f, struct altr_str subj,
                         size_t i)
{
	unsigned m = f->first[(unsigned char)subj.p[i]];
	if (!m)
		return -1;
	size_t left = subj.len - i;
	/* the next two bytes leave few or none (a NUL past the end: the
	 * literals hold none, so only those shorter than that pass) */
	m &= f->next[0][left > 1 ? (unsigned char)subj.p[i + 1] : 0];
	m &= f->next[1][left > 2 ? (unsigned char)subj.p[i + 2] : 0];
	uint32_t w = load4(subj.p + i, left);
	int best = -1;
	for (; m; m &= m - 1) {
		int k = __builtin_ctz(m);
		if ((w & f->mask[k]) == f->pre[k] && f->len[k] <= left &&
		    (f->len[k] <= 4 || memcmp(subj.p + i + 4, f->str[k] + 4,
		                              f->len[k] - 4u) == 0) &&
		    (best < 0 || f->len[k] > f->len[best]))
			best = k;
	}
	return best;
}

/* Bits of the 16 bytes at p[0..16) equal to one of f's first bytes. */
static unsigned first_mask(const struct altr_refilter *f, __m128i v)
{
	__m128i eq = _mm_cmpeq_epi8(v, _mm_set1_epi8((char)f->firsts[0]));
	for (int k = 1; k < f->nfirst; k++)
		eq = _mm_or_si128(eq, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)f->firsts[k])));
	return (unsigned)_mm_movemask_epi8(eq);
}

/* The first place in subj where one of f's literals starts, with the
 * index of the longest there in *k; false if there is none.  With at
 * NULL, only whether any literal is there at all. */
bool altr_prefilter_find(const struct altr_refilter *f, struct altr_str subj,
                     size_t *at, int *k)
{
	size_t i = 0;
	if (f->nfirst > 0 && subj.len >= 8) {
		/* 16 bytes at a time, never past the subject's end */
		for (; i < subj.len; i += 16) {
			__m128i v;
			unsigned keep = 0xffff;
			if (i + 16 <= subj.len) {
				v = _mm_loadu_si128((const __m128i *)(const void *)(subj.p + i));
			} else if (subj.len >= 16) { /* the last 16, overlapping */
				size_t b = subj.len - 16;
				v = _mm_loadu_si128((const __m128i *)(const void *)(subj.p + b));
				keep = 0xffffu << (i - b);
				i = b;
			} else { /* 8 <= len < 16: two overlapping halves */
				uint64_t lo, hi;
				memcpy(&lo, subj.p, 8);
				memcpy(&hi, subj.p + subj.len - 8, 8);
				v = _mm_set_epi64x((long long)hi, (long long)lo);
				unsigned m = first_mask(f, v);
				unsigned pos = (m & 0xff) | ((m >> 8) << (subj.len - 8));
				for (; pos; pos &= pos - 1) {
					size_t j = (size_t)__builtin_ctz(pos);
					int kk = lit_at(f, subj, j);
					if (kk >= 0) {
						if (at)
							*at = j, *k = kk;
						return true;
					}
				}
				return false;
			}
			for (unsigned m = first_mask(f, v) & keep; m; m &= m - 1) {
				size_t j = i + (size_t)__builtin_ctz(m);
				int kk = lit_at(f, subj, j);
				if (kk >= 0) {
					if (at)
						*at = j, *k = kk;
					return true;
				}
			}
		}
		return false;
	}
	for (; i < subj.len; i++) {
		if (!f->first[(unsigned char)subj.p[i]])
			continue;
		int kk = lit_at(f, subj, i);
		if (kk >= 0) {
			if (at)
				*at = i, *k = kk;
			return true;
		}
	}
	return false;
}

/* The string of a whole filter subj is (up to a NUL, where regexec
 * stops), or -1. */
int altr_prefilter_whole(const struct altr_refilter *f, struct altr_str subj)
{
	/* (a first byte that is no NUL is the first byte regexec sees) */
	if (subj.len && subj.p[0]) {
		unsigned char c0 = (unsigned char)subj.p[0];
		if (!(f->wfirst[c0 >> 6] & (1ull << (c0 & 63))))
			return -1;
	}
	const char *z = memchr(subj.p, 0, subj.len);
	if (z)
		subj.len = (size_t)(z - subj.p);
	/* most subjects differ from all in length or first byte */
	if (!(f->wlens & (1ull << (subj.len < 63 ? subj.len : 63))))
		return -1;
	if (subj.len) {
		unsigned char c0 = (unsigned char)subj.p[0];
		if (!(f->wfirst[c0 >> 6] & (1ull << (c0 & 63))))
			return -1;
	}
	for (int k = 0; k < f->nwhole; k++)
		if (f->len[k] == subj.len && memcmp(f->str[k], subj.p, subj.len) == 0)
			return k;
	return -1;
}

/* Whether subj (up to a NUL, where regexec stops) ends with one of f's
 * tail strings. */
static bool has_tail(const struct altr_refilter *f, struct altr_str subj)
{
	const char *z = memchr(subj.p, 0, subj.len);
	if (z)
		subj.len = (size_t)(z - subj.p);
	if (!subj.len)
		return false;
	/* most subjects end with a byte none of them does */
	unsigned char c = (unsigned char)subj.p[subj.len - 1];
	if (!(f->tlast[c >> 6] & (1ull << (c & 63))))
		return false;
	for (int k = 0; k < f->ntail; k++)
		if (f->tlen[k] <= subj.len &&
		    memcmp(subj.p + subj.len - f->tlen[k], f->tstr[k], f->tlen[k]) == 0)
			return true;
	return false;
}

/* False if e cannot match subj: it holds none of e's literals, does not
 * end with one of its tails, or is not one of its whole strings. */
bool altr_prefilter_may_match(const struct altr_expr *e, struct altr_str subj)
{
	const struct altr_refilter *f = e->filter;
	if (!f)
		return true;
	if (f->whole)
		return altr_prefilter_whole(f, subj) >= 0;
	if (f->ntail && !has_tail(f, subj))
		return false;
	return altr_prefilter_find(f, subj, NULL, NULL);
}
