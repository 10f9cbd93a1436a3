/*
 * regex.c: a rule's regex test on one subject (mnemonic, operand, memory
 * operand or instruction text): the prefilter first (prefilter.c), then a
 * remembered result (a direct-mapped cache per leaf for short subjects,
 * and a memo by subject text for the rest), regexec last.
 */
#include "altr.h"

#include <stdlib.h>
#include <string.h>

/* Regex results by (expression, subject text), while altr_regex_memo_begin is
 * in force: regexec on instruction texts and operands was most of a trace
 * run, and compilers repeat instructions.  The table is dropped by
 * altr_regex_memo_end, so no key outlives its ruleset. */
struct re_memo {
	const struct altr_expr *e;   /* NULL: empty slot */
	const char *p;               /* the subject text first seen */
	uint32_t hash;
	uint16_t len;
	bool hit;
	int16_t so0, eo0;            /* capture 0 when hit, or -1 */
	int32_t more;                /* captures 1..9 in memo.caps (9 pairs
	                                from here), or -1: all none */
};

static struct {
	bool on;
	struct altr_table m;           /* of struct re_memo */
	int16_t *caps;
	size_t ncaps, capcaps;
	struct {
		const char *p;
		size_t len;
		uint64_t h;
	} last[4];                   /* recent subjects' text hashes */
} memo;

void altr_regex_memo_begin(void)
{
	memo.on = altr_shortcuts;
}

void altr_regex_memo_end(void)
{
	altr_table_free(&memo.m);
	free(memo.caps);
	memset(&memo, 0, sizeof memo);
}

static bool re_stop(const void *ent, const void *key)
{
	const struct re_memo *m = ent, *k = key;
	return !m->e || (m->e == k->e && m->hash == k->hash && m->len == k->len &&
	                 (m->p == k->p || memcmp(m->p, k->p, k->len) == 0));
}

static uint32_t re_hash(const void *ent)
{
	return ((const struct re_memo *)ent)->hash;
}

static bool re_used(const void *ent)
{
	return ((const struct re_memo *)ent)->e != NULL;
}

/* The entry for (e, subj); empty (e NULL, hash set) if there is none. */
static struct re_memo *re_find(const struct altr_expr *e, struct altr_str subj)
{
	if (!memo.m.size)
		memo.m = (struct altr_table){.size = sizeof(struct re_memo), .load = 3,
		                           .first = 4096, .mem = ALTR_TABLE_SPARSE};
	altr_table_reserve(&memo.m, 1, re_hash, re_used);
	/* Several expressions test the same subject (the mnemonic, op1): its
	 * hash is kept for the text last hashed at the same place. */
	unsigned k = (unsigned)(((uintptr_t)subj.p >> 2) ^ subj.len) & 3;
	uint64_t h;
	if (memo.last[k].p == subj.p && memo.last[k].len == subj.len && subj.p) {
		h = memo.last[k].h;
	} else {
		h = 1469598103934665603ull;
		for (size_t i = 0; i < subj.len; i++)
			h = (h ^ (unsigned char)subj.p[i]) * 1099511628211ull;
		memo.last[k].p = subj.p, memo.last[k].len = subj.len, memo.last[k].h = h;
	}
	h = (h ^ (uint64_t)(uintptr_t)e) * 0x9e3779b97f4a7c15ull;
	uint32_t h32 = (uint32_t)(h ^ (h >> 32));
	struct re_memo key = {.e = e, .p = subj.p, .hash = h32,
	                      .len = (uint16_t)subj.len};
	struct re_memo *r = altr_table_slot(&memo.m, sizeof key, h32, &key, re_stop);
	if (!r->e)
		r->hash = h32; /* for the caller to fill in */
	return r;
}

static void set_caps(struct altr_str caps[10], struct altr_str subj,
                     const regoff_t so[10], const regoff_t eo[10])
{
	for (int i = 0; i < 10; i++) {
		if (so[i] < 0) {
			caps[i].p = "";
			caps[i].len = 0;
		} else {
			caps[i].p = subj.p + so[i];
			caps[i].len = (size_t)(eo[i] - so[i]);
		}
	}
}

/* Results of one regex leaf by subject, for subjects of 16 bytes at most
 * (mnemonics, most operands): these repeat, and the packed subject is
 * its own key.  Direct-mapped. */
enum { REGEX_CACHE_SIZE = 256 };
struct altr_regex_cache {
	uint64_t a, b;           /* the subject: first and last 8 bytes (4, or
	                            bytes 0, n/2 and n-1 when shorter) */
	uint8_t len;
	bool valid, hit;
	int8_t so[10], eo[10];   /* captures when hit, -1: none */
};

static void pack(struct altr_str t, uint64_t *a, uint64_t *b)
{
	const char *p = t.p;
	size_t n = t.len;
	*a = *b = 0;
	if (n >= 8) {
		memcpy(a, p, 8);
		memcpy(b, p + n - 8, 8);
	} else if (n >= 4) {
		uint32_t x, y;
		memcpy(&x, p, 4);
		memcpy(&y, p + n - 4, 4);
		*a = x | (uint64_t)y << 32;
	} else if (n) {
		*a = (unsigned char)p[0] | (unsigned)(unsigned char)p[n / 2] << 8 |
		     (unsigned)(unsigned char)p[n - 1] << 16;
	}
}

/* t's packed key, and its slot in a direct-mapped table of size entries
 * (a power of two). */
size_t altr_regex_short_key(struct altr_str t, uint64_t *a, uint64_t *b,
                         size_t size)
{
	pack(t, a, b);
	uint64_t h = (*a * 0x9e3779b97f4a7c15ull) ^ (*b * 0xc2b2ae3d27d4eb4full) ^ t.len;
	return (h ^ (h >> 29) ^ (h >> 47)) & (size - 1);
}

/* Regex test e on subj, a slice of the input (the memo keeps it). */
bool altr_regex_test(const struct altr_expr *e, struct altr_str subj,
                          struct altr_str caps[10], struct altr_regex_cache *cache)
{
	struct altr_regex_cache *c = NULL;
	regoff_t so[10], eo[10];
	/* a subject not in a whole set fails at once, before any cache */
	if (e->filter && e->filter->whole && altr_prefilter_whole(e->filter, subj) < 0)
		return e->negate;
	if (cache && subj.len <= 16) {
		uint64_t a, b;
		c = &cache[altr_regex_short_key(subj, &a, &b, REGEX_CACHE_SIZE)];
		if (c->valid && c->a == a && c->b == b && c->len == subj.len) {
			if (c->hit) {
				for (int i = 0; i < 10; i++)
					so[i] = c->so[i], eo[i] = c->eo[i];
				set_caps(caps, subj, so, eo);
			}
			return e->negate ? !c->hit : c->hit;
		}
		*c = (struct altr_regex_cache){.a = a, .b = b, .len = (uint8_t)subj.len,
		                    .valid = true};
	}
	struct re_memo *r = NULL;
	bool hit;
	const struct altr_refilter *f = e->filter;
	if (f && f->whole_exact) {
		/* "^(a|bc)$"-like without groups: the subject is the match */
		int k = altr_prefilter_whole(f, subj);
		if (k < 0) {
			if (c)
				c->hit = false;
			return e->negate;
		}
		hit = true;
		for (int i = 0; i < 10; i++)
			so[i] = eo[i] = -1;
		so[0] = 0;
		eo[0] = (regoff_t)f->len[k];
		goto found;
	}
	if (f && f->exact) {
		/* a union of strings: its match is found directly, as POSIX has
		 * it (the leftmost, then the longest) */
		size_t at = 0;
		int k = 0;
		hit = altr_prefilter_find(f, subj, &at, &k);
		if (!hit) {
			if (c)
				c->hit = false;
			return e->negate;
		}
		/* (regexec stops at a NUL: past one, it decides) */
		if (!memchr(subj.p, 0, at + f->len[k])) {
			for (int i = 0; i < 10; i++)
				so[i] = eo[i] = -1;
			so[0] = (regoff_t)at;
			eo[0] = (regoff_t)(at + f->len[k]);
			goto found;
		}
	} else if (!altr_prefilter_may_match(e, subj)) {
		return e->negate;
	}
	/* an instruction's whole text is new to the memo nearly always (the
	 * emitter evaluates each text once or so): it would only grow */
	if (memo.on && subj.len < 0x7fff && e->subj != SUBJ_INSN) {
		r = re_find(e, subj);
		if (r->e) {
			if (r->hit) {
				so[0] = r->so0, eo[0] = r->eo0;
				for (int i = 1; i < 10; i++) {
					so[i] = r->more < 0 ? -1 : memo.caps[r->more + 2 * (i - 1)];
					eo[i] = r->more < 0 ? -1 : memo.caps[r->more + 2 * (i - 1) + 1];
				}
				set_caps(caps, subj, so, eo);
				if (c)
					for (int i = 0; i < 10; i++)
						c->so[i] = (int8_t)so[i], c->eo[i] = (int8_t)eo[i];
			}
			if (c)
				c->hit = r->hit;
			return e->negate ? !r->hit : r->hit;
		}
	}
	char small[256];
	char *buf = subj.len < sizeof small ? small : altr_xmalloc(subj.len + 1);
	memcpy(buf, subj.p, subj.len);
	buf[subj.len] = 0;
	regmatch_t m[10];
	hit = regexec(&e->re, buf, 10, m, 0) == 0;
	for (int i = 0; i < 10; i++) {
		so[i] = hit ? m[i].rm_so : -1;
		eo[i] = hit ? m[i].rm_eo : -1;
	}
	if (buf != small)
		free(buf);
found:
	if (hit && caps)
		set_caps(caps, subj, so, eo);
	if (c) {
		c->hit = hit;
		for (int i = 0; hit && i < 10; i++)
			c->so[i] = (int8_t)so[i], c->eo[i] = (int8_t)eo[i];
	}
	if (r) {
		/* the slot is still free: nothing was added since re_find */
		*r = (struct re_memo){.e = e, .p = subj.p, .hash = r->hash,
		                      .len = (uint16_t)subj.len, .hit = hit,
		                      .so0 = (int16_t)so[0], .eo0 = (int16_t)eo[0],
		                      .more = -1};
		bool any = false;
		for (int i = 1; i < 10; i++)
			any |= so[i] >= 0;
		if (any) {
			if (memo.ncaps + 18 > memo.capcaps) {
				memo.capcaps = memo.capcaps ? 2 * memo.capcaps : 1024;
				memo.caps = altr_xrealloc(memo.caps, memo.capcaps * sizeof *memo.caps);
			}
			r->more = (int32_t)memo.ncaps;
			for (int i = 1; i < 10; i++) {
				memo.caps[memo.ncaps++] = (int16_t)so[i];
				memo.caps[memo.ncaps++] = (int16_t)eo[i];
			}
		}
		memo.m.n++;
	}
	return e->negate ? !hit : hit;
}

struct altr_regex_cache *altr_regex_cache_new(void)
{
	if (!altr_shortcuts)
		return NULL;
	return altr_xcalloc(REGEX_CACHE_SIZE, sizeof(struct altr_regex_cache));
}
