/*
 * macro.c: expanding GNU as macros at the text level, before reading.
 *
 * .macro/.endm definitions and their invocations, .rept, .irp and .irpc
 * are expanded here as gas expands them (its manual, "Macro", "Rept",
 * "Irp", "Irpc"), so that every instruction they make is read, analyzed,
 * instrumented and counted like any other.  Lines outside them are copied
 * byte for byte; an expansion's lines are remembered as coming from the
 * invocation's (or the directive's) line.  Conditionals (.if ...) are left
 * for gas to evaluate.  What this file does not handle (.altmacro, a count
 * it cannot evaluate, deep recursion, an .exitm inside a conditional,
 * malformed nesting) makes it give up on the whole file with a warning:
 * the input is then read unexpanded, as before, its bodies opaque.
 */
#include "altr.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { F_PLAIN, F_REQ, F_VARARG };

struct formal {
	char *name, *def;
	int type;
};

struct macro {
	char *name;               /* lowercase: names are case-insensitive */
	struct formal *f;
	int nf;
	char *body;               /* statements, comments removed, one a line */
	size_t blen;
	struct macro *next;
};

static void free_macro(struct macro *m)
{
	for (int k = 0; k < m->nf; k++) {
		free(m->f[k].name);
		free(m->f[k].def);
	}
	free(m->f);
	free(m->body);
	free(m->name);
	free(m);
}

struct sym {                  /* an absolute symbol (.set, .equ, =) */
	char *name;
	long value;
	bool known;
	struct sym *next;
};

/* One statement of some text: a ';', a newline or a '#' comment ends it. */
struct stmt {
	size_t start, next;       /* its raw text starts; the next one's does */
	int nl;                   /* newlines it consumed */
	bool eol;                 /* it ended its line */
	char *clean;              /* the text, comments dropped, trimmed */
	size_t clen;
	/* after the labels: */
	size_t lab;               /* clean[0..lab) are the labels */
	const char *word;         /* first word, and what follows it */
	size_t wlen;
	const char *rest;
	size_t rlen;
};

enum { K_TOP, K_MACRO, K_REPEAT };

struct xp {
	const char *path;
	struct altr_buf out;
	int *map;                 /* by output line: the input line */
	size_t nmap, capmap;
	struct macro *macros;
	struct sym *syms;
	unsigned counter;         /* \@: macros expanded so far */
	int depth;                /* expansions being read, nested */
	int cond;                 /* .if nesting */
	size_t work, limit;       /* bytes of expansion made, at most */
	bool changed;
	int line, col;            /* of the statement read at the top */
	struct altr_buf clean;    /* scratch for statements */
};

#define MAX_DEPTH 100

static bool name_begin(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c == '.';
}


static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static size_t skip_white(const char *p, size_t i, size_t n)
{
	while (i < n && blank(p[i]))
		i++;
	return i;
}

/* gas's get_token: a name, or nothing. */
static size_t token(const char *p, size_t i, size_t n)
{
	if (i < n && name_begin(p[i]))
		for (i++; i < n && altr_name_char(p[i]); i++)
			;
	return i;
}

static bool word_is(const char *w, size_t n, const char *lit)
{
	return strlen(lit) == n && strncasecmp(w, lit, n) == 0;
}

static void fail(struct xp *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct xp *x, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	altr_warn_at(x->path, x->line, x->col, "%s; macros and repeats in this "
	             "file are not expanded", msg);
}

/* ------------------------------------------------------------- output */

static void map_push(struct xp *x, int line)
{
	if (x->nmap == x->capmap) {
		x->capmap = x->capmap ? 2 * x->capmap : 1024;
		x->map = altr_xrealloc(x->map, x->capmap * sizeof *x->map);
	}
	x->map[x->nmap++] = line;
}

/* Puts n bytes of text ending its lines; line: of the first, and each next
 * one (step) or all (!step). */
static void put_lines(struct xp *x, const char *p, size_t n, int line,
                      bool step)
{
	if (!n)
		return;
	altr_buf_put(&x->out, p, n);
	for (size_t i = 0; i < n; i++)
		if (p[i] == '\n') {
			map_push(x, line);
			line += step;
		}
	if (p[n - 1] != '\n') /* a last line lacking its newline */
		map_push(x, line);
}

static void put_stmt(struct xp *x, const char *p, size_t n, int line)
{
	if (!n)
		return;
	altr_buf_put(&x->out, p, n);
	altr_buf_putc(&x->out, '\n');
	map_push(x, line);
}

/* ---------------------------------------------------------- statements */

static size_t label_len(const char *t, size_t n)
{
	size_t i = 0;
	if (!n)
		return 0;
	if (t[0] == '"') {
		for (i = 1; i < n && t[i] != '"'; i++)
			if (t[i] == '\\')
				i++;
		i++;
	} else if (t[0] >= '0' && t[0] <= '9') {
		while (i < n && t[i] >= '0' && t[i] <= '9')
			i++;
	} else if (name_begin(t[0]) || t[0] == '$') {
		while (i < n && altr_name_char(t[i]))
			i++;
	} else {
		return 0;
	}
	if (i < n && t[i] == ':' && !(i + 1 < n && t[i + 1] == ':'))
		return i + 1;
	return 0;
}

/* Reads the statement of t[0..n) at pos into *s (its clean text in
 * x->clean, valid until the next call). */
static void read_stmt(struct xp *x, const char *t, size_t n, size_t pos,
                      struct stmt *s)
{
	struct altr_buf *c = &x->clean;
	c->len = 0;
	altr_buf_putc(c, 0);
	c->len = 0;
	size_t i = skip_white(t, pos, n);
	s->start = i;
	s->nl = 0;
	for (;;) {
		if (i >= n) {
			s->next = n;
			s->eol = true;
			break;
		}
		char ch = t[i];
		if (ch == '\n' || ch == '#') {
			while (i < n && t[i] != '\n')
				i++;
			s->next = i < n ? i + 1 : n;
			s->nl += i < n;
			s->eol = true;
			break;
		}
		if (ch == ';') {
			s->next = i + 1;
			s->eol = false;
			break;
		}
		if (ch == '/' && i + 1 < n && t[i + 1] == '*') {
			for (i += 2; i < n && !(t[i] == '*' && i + 1 < n && t[i + 1] == '/'); i++)
				s->nl += t[i] == '\n';
			i = i < n ? i + 2 : n;
			altr_buf_putc(c, ' ');
			continue;
		}
		if (ch == '"') {
			size_t b = i++;
			while (i < n && t[i] != '"' && t[i] != '\n')
				i += (t[i] == '\\' && i + 1 < n && t[i + 1] != '\n') ? 2 : 1;
			if (i < n && t[i] == '"')
				i++;
			altr_buf_put(c, t + b, i - b);
			continue;
		}
		if (ch == '\'' && i + 1 < n && t[i + 1] != '\n') {
			/* as gas's input scrubber does: 'c is a number before a
			 * macro sees it ('\c is not \c substituted) */
			unsigned char v = (unsigned char)t[i + 1];
			i += 2;
			if (v == '\\' && i < n && t[i] != '\n') {
				switch (t[i++]) {
				case 'b': v = '\b'; break;
				case 'f': v = '\f'; break;
				case 'n': v = '\n'; break;
				case 'r': v = '\r'; break;
				case 't': v = '\t'; break;
				default: v = (unsigned char)t[i - 1];
				}
			}
			altr_buf_putl(c, v);
			continue;
		}
		size_t j = i + 1; /* a run of ordinary bytes at once */
		while (j < n && t[j] != '\n' && t[j] != '#' && t[j] != ';' &&
		       t[j] != '/' && t[j] != '"' && t[j] != '\'')
			j++;
		altr_buf_put(c, t + i, j - i);
		i = j;
	}
	while (c->len && blank(c->p[c->len - 1]))
		c->len--;
	if (c->len)
		c->p[c->len] = 0;
	size_t b = skip_white(c->p, 0, c->len);
	s->clean = c->p + b;
	s->clen = c->len - b;
	size_t k = 0;
	for (size_t l; (l = label_len(s->clean + k, s->clen - k)) > 0;)
		k = skip_white(s->clean, k + l, s->clen);
	s->lab = k;
	size_t w = token(s->clean, k, s->clen);
	s->word = s->clean + k;
	s->wlen = w - k;
	size_t r = skip_white(s->clean, w, s->clen);
	s->rest = s->clean + r;
	s->rlen = s->clen - r;
}

static struct macro *find_macro(struct xp *x, const char *w, size_t n)
{
	for (struct macro *m = x->macros; m; m = m->next)
		if (strlen(m->name) == n && strncasecmp(m->name, w, n) == 0)
			return m;
	return NULL;
}

static bool is_assignment(const struct stmt *s)
{
	return s->rlen && s->rest[0] == '=' && !(s->rlen > 1 && s->rest[1] == '=');
}

/* What a statement is to this file. */
enum { S_PLAIN, S_MACRO, S_ENDM, S_REPT, S_IRP, S_IRPC, S_ENDR, S_EXITM,
       S_PURGEM, S_CALL, S_ALT, S_IF, S_ELSEIF, S_ELSE, S_ENDIF };

/* In text an expansion made (expand_if), conditionals count too. */
static int classify(struct xp *x, const struct stmt *s, bool expand_if)
{
	const char *w = s->word;
	size_t n = s->wlen;
	if (!n || is_assignment(s))
		return S_PLAIN;
	if (expand_if && w[0] == '.' && n >= 3 && strncasecmp(w, ".if", 3) == 0)
		return S_IF;
	if (expand_if && w[0] == '.' && n >= 5) {
		if (word_is(w, n, ".else")) return S_ELSE;
		if (word_is(w, n, ".elseif")) return S_ELSEIF;
		if (word_is(w, n, ".endif")) return S_ENDIF;
	}
	if (w[0] == '.') {
		if (n < 4 || n > 11)
			return S_PLAIN;
		if (word_is(w, n, ".macro")) return S_MACRO;
		if (word_is(w, n, ".endm")) return S_ENDM;
		if (word_is(w, n, ".rept")) return S_REPT;
		if (word_is(w, n, ".irp")) return S_IRP;
		if (word_is(w, n, ".irpc")) return S_IRPC;
		if (word_is(w, n, ".endr")) return S_ENDR;
		if (word_is(w, n, ".exitm")) return S_EXITM;
		if (word_is(w, n, ".purgem")) return S_PURGEM;
		if (word_is(w, n, ".altmacro")) return S_ALT;
	}
	if (x->macros && find_macro(x, w, n))
		return S_CALL;
	return S_PLAIN;
}

/* ---------------------------------------------------------- expressions */

/* An absolute expression of integers and known symbols, with gas's
 * precedence (* / % << >>, then | & ^, then + - and comparisons, then
 * && ||); false if it is not one this can evaluate. */
struct ev {
	struct xp *x;
	const char *p;
	size_t i, n;
	bool ok;
};

static long ev_binary(struct ev *e, int level);

static char ev_peek(struct ev *e)
{
	e->i = skip_white(e->p, e->i, e->n);
	return e->i < e->n ? e->p[e->i] : 0;
}

static long ev_unary(struct ev *e)
{
	char c = ev_peek(e);
	if (c == '-' || c == '~' || c == '+') {
		e->i++;
		long v = ev_unary(e);
		return c == '-' ? (long)(0 - (unsigned long)v) : c == '~' ? ~v : v;
	}
	if (c == '(') {
		e->i++;
		long v = ev_binary(e, 3);
		if (ev_peek(e) != ')')
			e->ok = false;
		else
			e->i++;
		return v;
	}
	if (c >= '0' && c <= '9') {
		size_t b = e->i;
		int base = 10;
		if (c == '0' && e->i + 1 < e->n && (e->p[e->i + 1] | 0x20) == 'x')
			base = 16, e->i += 2;
		else if (c == '0' && e->i + 1 < e->n && (e->p[e->i + 1] | 0x20) == 'b')
			base = 2, e->i += 2;
		else if (c == '0')
			base = 8;
		unsigned long v = 0;
		size_t d0 = e->i;
		for (; e->i < e->n; e->i++) {
			char h = e->p[e->i];
			int dv = h >= '0' && h <= '9' ? h - '0'
			         : (h | 0x20) >= 'a' && (h | 0x20) <= 'f' ? (h | 0x20) - 'a' + 10
			         : 99;
			if (dv >= base)
				break;
			v = v * (unsigned)base + (unsigned)dv;
		}
		if ((base != 8 && e->i == d0) || (e->i < e->n && altr_name_char(e->p[e->i])))
			e->ok = false; /* 1f, 2b, 08: not numbers we know */
		(void)b;
		return (long)v;
	}
	if (name_begin(c)) {
		size_t b = e->i;
		e->i = token(e->p, e->i, e->n);
		for (struct sym *s = e->x->syms; s; s = s->next)
			if (strlen(s->name) == e->i - b &&
			    memcmp(s->name, e->p + b, e->i - b) == 0) {
				if (!s->known)
					break;
				return s->value;
			}
		e->ok = false;
		return 0;
	}
	e->ok = false;
	return 0;
}

static long ev_binary(struct ev *e, int level)
{
	long l = level ? ev_binary(e, level - 1) : ev_unary(e);
	while (e->ok) {
		char c = ev_peek(e), d = e->i + 1 < e->n ? e->p[e->i + 1] : 0;
		int op = 0;
		if (level == 0 && (c == '*' || c == '/' || c == '%'))
			op = c;
		else if (level == 0 && ((c == '<' && d == '<') || (c == '>' && d == '>')))
			op = c;
		else if (level == 1 && ((c == '|' && d != '|') || c == '^' ||
		                        (c == '&' && d != '&')))
			op = c;
		else if (level == 2 && (c == '+' || c == '-'))
			op = c;
		else if (level == 2 && c == '=' && d == '=')
			op = 'e';
		else if (level == 2 && ((c == '!' && d == '=') || (c == '<' && d == '>')))
			op = 'n';
		else if (level == 2 && (c == '<' || c == '>') && d == '=')
			op = c == '<' ? 'l' : 'g';
		else if (level == 2 && (c == '<' || c == '>') && d != c)
			op = c == '<' ? 'L' : 'G';
		else if (level == 3 && ((c == '&' && d == '&') || (c == '|' && d == '|')))
			op = c == '&' ? 'a' : 'o';
		if (!op)
			break;
		e->i += (op == '<' || op == '>' || op == 'e' || op == 'n' || op == 'l' ||
		         op == 'g' || op == 'a' || op == 'o') ? 2 : 1;
		long r = level ? ev_binary(e, level - 1) : ev_unary(e);
		unsigned long a = (unsigned long)l, b = (unsigned long)r;
		switch (op) {
		case '*': l = (long)(a * b); break;
		case '/':
		case '%':
			if (r == 0 || (l == -__LONG_MAX__ - 1 && r == -1)) {
				e->ok = false;
				return 0;
			}
			l = op == '/' ? l / r : l % r;
			break;
		case '<': l = b < 64 ? (long)(a << b) : 0; break;
		case '>': l = b < 64 ? l >> b : 0; break;
		case '|': l = (long)(a | b); break;
		case '^': l = (long)(a ^ b); break;
		case '&': l = (long)(a & b); break;
		case '+': l = (long)(a + b); break;
		case '-': l = (long)(a - b); break;
		/* gas: a true comparison is -1, a true && or || is 1 */
		case 'e': l = -(l == r); break;
		case 'n': l = -(l != r); break;
		case 'l': l = -(l <= r); break;
		case 'g': l = -(l >= r); break;
		case 'L': l = -(l < r); break;
		case 'G': l = -(l > r); break;
		case 'a': l = l && r; break;
		case 'o': l = l || r; break;
		}
	}
	return l;
}

static bool evaluate(struct xp *x, const char *p, size_t n, long *v)
{
	struct ev e = {x, p, 0, n, true};
	*v = ev_binary(&e, 3);
	return e.ok && ev_peek(&e) == 0;
}

/* Remembers an assignment of an absolute value; one made where a
 * conditional decides (or of what this cannot evaluate) is unknown. */
static void assign(struct xp *x, const char *name, size_t nlen, const char *e,
                   size_t elen)
{
	struct sym *s;
	for (s = x->syms; s; s = s->next)
		if (strlen(s->name) == nlen && memcmp(s->name, name, nlen) == 0)
			break;
	if (!s) {
		s = altr_xcalloc(1, sizeof *s);
		s->name = altr_xstrndup(name, nlen);
		s->next = x->syms;
		x->syms = s;
	}
	s->known = x->cond == 0 && evaluate(x, e, elen, &s->value);
}

/* Bookkeeping for statements passed through: conditionals, assignments. */
static void note_plain(struct xp *x, const struct stmt *s)
{
	const char *w = s->word;
	size_t n = s->wlen;
	if (!n)
		return;
	if (is_assignment(s)) {
		assign(x, w, n, s->rest + 1, s->rlen - 1);
		return;
	}
	if (w[0] != '.' || n < 3)
		return;
	if (n >= 3 && strncasecmp(w, ".if", 3) == 0)
		x->cond++;
	else if (word_is(w, n, ".endif") && x->cond > 0)
		x->cond--;
	else if (word_is(w, n, ".set") || word_is(w, n, ".equ") ||
	         word_is(w, n, ".equiv") || word_is(w, n, ".eqv")) {
		size_t e = token(s->rest, 0, s->rlen);
		size_t c = skip_white(s->rest, e, s->rlen);
		if (e && c < s->rlen && s->rest[c] == ',')
			assign(x, s->rest, e, s->rest + c + 1, s->rlen - c - 1);
	}
}

/* The truth of a conditional directive (.if, .elseif and the .ifXX that
 * compare an expression, .ifb/.ifnb, .ifc/.ifnc of unquoted strings);
 * false if this cannot tell (.ifdef, quoted strings, symbols ...). */
static bool condition(struct xp *x, const struct stmt *s, bool *v)
{
	const char *w = s->word + 3, *r = s->rest;
	size_t n = s->wlen - 3, rn = s->rlen;
	long e;
	if (word_is(s->word, s->wlen, ".elseif"))
		w = "", n = 0;
	if (word_is(w, n, "b") || word_is(w, n, "nb")) {
		*v = (rn == 0) == (n == 1);
		return true;
	}
	if (word_is(w, n, "c") || word_is(w, n, "nc")) {
		const char *c = memchr(r, ',', rn);
		if (!c || memchr(r, '"', rn) || memchr(r, '\'', rn))
			return false;
		size_t a = (size_t)(c - r), b0 = skip_white(r, a + 1, rn);
		while (a && blank(r[a - 1]))
			a--;
		for (size_t k = 0; k < rn; k++)
			if (blank(r[k]) && k < a)
				return false;
		*v = (a == rn - b0 && memcmp(r, r + b0, a) == 0) == (n == 1);
		return true;
	}
	if (!evaluate(x, r, rn, &e))
		return false;
	if (n == 0 || word_is(w, n, "ne")) *v = e != 0;
	else if (word_is(w, n, "eq")) *v = e == 0;
	else if (word_is(w, n, "ge")) *v = e >= 0;
	else if (word_is(w, n, "gt")) *v = e > 0;
	else if (word_is(w, n, "le")) *v = e <= 0;
	else if (word_is(w, n, "lt")) *v = e < 0;
	else return false;
	return true;
}

/* Conditionals of one expansion's text: those this could evaluate keep
 * only their true branch; the others stay for gas (x->cond counts them). */
struct conds {
	struct {
		bool mine, live, taking, taken;
	} f[64];
	int n;
};

static bool conds_live(const struct conds *c)
{
	return !c->n || (c->f[c->n - 1].live &&
	                 (!c->f[c->n - 1].mine || c->f[c->n - 1].taking));
}

/* A conditional directive of expansion text: false on failure; *keep:
 * it goes out (gas decides it). */
static bool do_cond(struct xp *x, struct conds *c, int what,
                    const struct stmt *s, bool *keep)
{
	*keep = false;
	bool v = false;
	if (what == S_IF) {
		if (c->n == 64) {
			fail(x, "conditionals nested too deep");
			return false;
		}
		bool live = conds_live(c);
		bool known = live && condition(x, s, &v);
		c->f[c->n].mine = !live || known;
		c->f[c->n].live = live;
		c->f[c->n].taking = c->f[c->n].taken = !live || v;
		if (!live)
			c->f[c->n].taking = false;
		c->n++;
		if (live && !known) {
			*keep = true;
			x->cond++;
		}
		return true;
	}
	if (!c->n) {
		fail(x, "conditional begun outside the expansion ending in it");
		return false;
	}
	__typeof__(c->f[0]) *f = &c->f[c->n - 1];
	if (what == S_ENDIF) {
		c->n--;
		if (!f->mine && f->live) {
			*keep = true;
			x->cond--;
		}
		return true;
	}
	if (!f->mine) {
		*keep = f->live;
		return true;
	}
	if (!f->live)
		return true;
	if (what == S_ELSE) {
		f->taking = !f->taken;
		f->taken = true;
		return true;
	}
	/* .elseif after branches found false */
	if (f->taken) {
		f->taking = false;
	} else if (condition(x, s, &v)) {
		f->taking = f->taken = v;
	} else {
		fail(x, "cannot evaluate '.elseif %.*s'", (int)s->rlen, s->rest);
		return false;
	}
	return true;
}

/* ---------------------------------------------------------- bodies */

/* Reads the body of a block opened by the statement ending at *pos, up
 * to its end (.endm for macro, else .endr), nested blocks included, into
 * body (statements, one a line); moves *pos past the end statement and
 * adds the newlines read to *nl.  eol: whether the end ended its line.
 * False if the text ends first. */
static bool collect(struct xp *x, const char *t, size_t n, size_t *pos,
                    bool macro, struct altr_buf *body, int *nl, bool *eol)
{
	int depth = 0;
	struct stmt s;
	while (*pos < n) {
		read_stmt(x, t, n, *pos, &s);
		*pos = s.next;
		*nl += s.nl;
		const char *w = s.word;
		size_t k = s.wlen;
		bool open, close;
		if (macro) {
			open = word_is(w, k, ".macro");
			close = word_is(w, k, ".endm");
		} else {
			open = word_is(w, k, ".rept") || word_is(w, k, ".irp") ||
			       word_is(w, k, ".irpc") || word_is(w, k, ".rep") ||
			       word_is(w, k, ".irep") || word_is(w, k, ".irepc");
			close = word_is(w, k, ".endr");
		}
		depth += open;
		if (close && depth-- == 0) {
			if (s.lab) { /* labels before the end are the body's */
				altr_buf_put(body, s.clean, s.lab);
				altr_buf_putc(body, '\n');
			}
			*eol = s.eol;
			return true;
		}
		if (s.clen) {
			altr_buf_put(body, s.clean, s.clen);
			altr_buf_putc(body, '\n');
		}
	}
	return false;
}

/* ---------------------------------------------------------- substitution */

struct actual {
	const char *p;
	size_t n;
};

/* gas's macro_expand_body: \name and &name (a formal), \@ (the count of
 * macros expanded), \(...) (its contents: \() separates), any other
 * backslash kept. */
static void substitute(struct xp *x, const char *b, size_t n,
                       const struct formal *f, const struct actual *a, int nf,
                       struct altr_buf *out)
{
	for (size_t i = 0; i < n;) {
		char c = b[i];
		if (c != '\\' && c != '&') {
			size_t j = i + 1;
			while (j < n && b[j] != '\\' && b[j] != '&')
				j++;
			altr_buf_put(out, b + i, j - i);
			i = j;
			continue;
		}
		i++;
		if (c == '\\' && i < n && b[i] == '(') {
			size_t j = i + 1;
			while (j < n && b[j] != ')')
				j++;
			altr_buf_put(out, b + i + 1, j - i - 1);
			i = j < n ? j + 1 : n;
			continue;
		}
		if (c == '\\' && i < n && b[i] == '@') {
			altr_buf_putl(out, (long)x->counter);
			i++;
			continue;
		}
		size_t e = token(b, i, n);
		size_t end = e;
		if (c == '&' && end < n && b[end] == '&')
			end++;
		int k;
		for (k = 0; k < nf; k++)
			if (strlen(f[k].name) == e - i && memcmp(f[k].name, b + i, e - i) == 0)
				break;
		if (k < nf && e > i) {
			if (a[k].n)
				altr_buf_put(out, a[k].p, a[k].n);
			else if (f[k].def)
				altr_buf_puts(out, f[k].def);
			i = end;
		} else if (c == '&') {
			altr_buf_putc(out, '&');
			altr_buf_put(out, b + i, end - i);
			i = end;
		} else {
			altr_buf_putc(out, '\\');
		}
	}
}

/* gas's get_any_string: a quoted string (quotes dropped, pieces joined),
 * or text up to a blank or comma outside brackets. */
static size_t any_string(const char *p, size_t i, size_t n, struct altr_buf *v)
{
	v->len = 0;
	i = skip_white(p, i, n);
	if (i < n && p[i] == '"') {
		while (i < n && p[i] == '"') {
			bool esc = false;
			for (i++; i < n; i++) {
				esc = p[i - 1] == '\\' ? !esc : false;
				if (!esc && p[i] == '"') {
					i++;
					if (i >= n || p[i] != '"')
						break;
				}
				altr_buf_putc(v, p[i]);
			}
		}
		return i;
	}
	int depth = 0;
	while (i < n && (depth || !blank(p[i])) && p[i] != ',') {
		char c = p[i];
		if (c == '"' || c == '\'') {
			size_t b = i++;
			while (i < n && p[i] != c)
				i++;
			if (i >= n) {
				altr_buf_put(v, p + b, i - b);
				return i;
			}
			altr_buf_put(v, p + b, i - b);
		} else if (c == '(' || c == '[') {
			depth++;
		} else if ((c == ')' || c == ']') && depth) {
			depth--;
		}
		altr_buf_putc(v, p[i]);
		i++;
	}
	return i;
}

static size_t skip_comma(const char *p, size_t i, size_t n)
{
	i = skip_white(p, i, n);
	if (i < n && p[i] == ',')
		i = skip_white(p, i + 1, n);
	return i;
}

/* A vararg's text as gas's input scrubber leaves it: blanks around commas
 * dropped, other runs of blanks one space (not inside strings). */
static void scrub(const char *p, size_t n, struct altr_buf *v)
{
	v->len = 0;
	for (size_t i = 0; i < n; i++) {
		char c = p[i];
		if (c == '"') {
			size_t b = i++;
			while (i < n && p[i] != '"')
				i += p[i] == '\\' ? 2 : 1;
			if (i > n)
				i = n;
			altr_buf_put(v, p + b, (i < n ? i + 1 : n) - b);
			continue;
		}
		if (blank(c)) {
			size_t j = skip_white(p, i, n);
			if (v->len && v->p[v->len - 1] != ',' && j < n && p[j] != ',')
				altr_buf_putc(v, ' ');
			i = j - 1;
			continue;
		}
		altr_buf_putc(v, c);
	}
}

/* ---------------------------------------------------------- expansion */

static int process(struct xp *x, const char *t, size_t n, int kind,
                   int line);

/* Reads text made by an expansion (nested one deeper), its lines all
 * from line; -1 on failure. */
static int reread(struct xp *x, struct altr_buf *text, int kind, int line)
{
	x->work += text->len + 64; /* an empty one costs time too */
	if (x->work > x->limit) {
		fail(x, "expansion larger than %zu bytes", x->limit);
		return -1;
	}
	if (++x->depth > MAX_DEPTH) {
		fail(x, "macros or repeats nested more than %d deep", MAX_DEPTH);
		return -1;
	}
	x->changed = true;
	int rc = process(x, text->p ? text->p : "", text->len, kind, line);
	x->depth--;
	return rc < 0 ? -1 : 0;
}

static int do_macro(struct xp *x, const struct stmt *s, const char *t,
                    size_t n, size_t *pos, int *nl, bool *eol)
{
	const char *p = s->rest;
	size_t rn = s->rlen;
	size_t e = token(p, 0, rn);
	if (!e) {
		fail(x, ".macro without a name");
		return -1;
	}
	char *name = altr_xstrndup(p, e);
	for (char *q = name; *q; q++)
		if (*q >= 'A' && *q <= 'Z')
			*q = (char)(*q + 32);
	struct macro *m = altr_xcalloc(1, sizeof *m);
	m->name = name;
	m->next = x->macros;
	x->macros = m; /* listed now: freed with the others on failure */
	/* gas rejects a second definition: a conditional chose one */
	for (struct macro *o = m->next; o; o = o->next)
		if (strcmp(o->name, name) == 0) {
			fail(x, "macro '%s' defined twice", name);
			return -1;
		}
	size_t i = skip_comma(p, e, rn);
	struct altr_buf v = {0};
	int rc = 0;
	while (i < rn) {
		size_t b = i;
		i = token(p, i, rn);
		if (i == b) {
			fail(x, "bad .macro parameter list");
			rc = -1;
			break;
		}
		m->f = altr_xrealloc(m->f, (size_t)(m->nf + 1) * sizeof *m->f);
		struct formal *f = &m->f[m->nf++];
		*f = (struct formal){altr_xstrndup(p + b, i - b), NULL, F_PLAIN};
		i = skip_white(p, i, rn);
		if (i < rn && p[i] == ':') {
			size_t qb = skip_white(p, i + 1, rn);
			i = token(p, qb, rn);
			if (i - qb == 3 && !strncmp(p + qb, "req", 3))
				f->type = F_REQ;
			else if (i - qb == 6 && !strncmp(p + qb, "vararg", 6))
				f->type = F_VARARG;
			else {
				fail(x, "bad .macro parameter qualifier");
				rc = -1;
				break;
			}
			i = skip_white(p, i, rn);
		}
		if (i < rn && p[i] == '=') {
			i = any_string(p, i + 1, rn, &v);
			if (f->type != F_REQ)
				f->def = altr_xstrndup(v.p ? v.p : "", v.len);
			i = skip_white(p, i, rn);
		}
		for (int k = 0; k + 1 < m->nf; k++)
			if (strcmp(m->f[k].name, f->name) == 0) {
				fail(x, "macro parameter '%s' twice", f->name);
				rc = -1;
			}
		if (rc || f->type == F_VARARG)
			break;
		i = skip_comma(p, i, rn);
	}
	if (!rc && skip_white(p, i, rn) < rn) {
		fail(x, "bad .macro parameter list");
		rc = -1;
	}
	altr_buf_free(&v);
	if (rc)
		return -1;
	struct altr_buf body = {0};
	if (!collect(x, t, n, pos, true, &body, nl, eol)) {
		altr_buf_free(&body);
		fail(x, ".macro without .endm");
		return -1;
	}
	m->body = body.p;
	m->blen = body.len;
	x->changed = true;
	return 0;
}

static int do_call(struct xp *x, struct macro *m, const struct stmt *s,
                   int line)
{
	const char *p = s->rest;
	size_t n = s->rlen;
	struct actual *a = altr_xcalloc((size_t)m->nf + 1, sizeof *a);
	struct altr_buf *vals = altr_xcalloc((size_t)m->nf + 1, sizeof *vals);
	int rc = 0, next = 0;
	bool keyword = false;
	size_t i = skip_white(p, 0, n);
	while (i < n && !rc) {
		size_t scan = i;
		while (scan < n && !blank(p[scan]) && p[scan] != ',' && p[scan] != '"' &&
		       p[scan] != '(' && p[scan] != ')' && p[scan] != '=')
			scan++;
		int k;
		if (scan < n && p[scan] == '=') {
			keyword = true;
			size_t e = token(p, i, n);
			for (k = 0; k < m->nf; k++)
				if (strlen(m->f[k].name) == e - i &&
				    memcmp(m->f[k].name, p + i, e - i) == 0)
					break;
			if (e == i || e != scan || k == m->nf) {
				fail(x, "bad keyword argument to macro '%s'", m->name);
				rc = -1;
				break;
			}
			i = any_string(p, scan + 1, n, &vals[k]);
		} else {
			if (keyword || next >= m->nf) {
				fail(x, "bad arguments to macro '%s'", m->name);
				rc = -1;
				break;
			}
			k = next;
			if (m->f[k].type == F_VARARG) {
				scrub(p + i, n - i, &vals[k]);
				i = n;
			} else {
				i = any_string(p, i, n, &vals[k]);
			}
			next++;
		}
		a[k].p = vals[k].p;
		a[k].n = vals[k].len;
		i = skip_comma(p, i, n);
	}
	for (int k = 0; k < m->nf && !rc; k++)
		if (m->f[k].type == F_REQ && !a[k].n) {
			fail(x, "missing value for parameter '%s' of macro '%s'",
			     m->f[k].name, m->name);
			rc = -1;
		}
	if (!rc) {
		struct altr_buf text = {0};
		substitute(x, m->body ? m->body : "", m->blen, m->f, a, m->nf, &text);
		x->counter++;
		rc = reread(x, &text, K_MACRO, line);
		altr_buf_free(&text);
	}
	for (int k = 0; k <= m->nf; k++)
		altr_buf_free(&vals[k]);
	free(vals);
	free(a);
	return rc;
}

static int do_repeat(struct xp *x, int what, const struct stmt *s,
                     const char *t, size_t n, size_t *pos, int *nl, bool *eol,
                     int line)
{
	/* the arguments go before the body overwrites the statement */
	char *args = altr_xstrndup(s->rest, s->rlen);
	size_t an = s->rlen;
	struct altr_buf body = {0}, text = {0}, v = {0};
	int rc = 0;
	if (!collect(x, t, n, pos, false, &body, nl, eol)) {
		fail(x, "%s without .endr", what == S_REPT ? ".rept" :
		     what == S_IRP ? ".irp" : ".irpc");
		rc = -1;
		goto out;
	}
	if (what == S_REPT) {
		long count;
		if (!evaluate(x, args, an, &count)) {
			fail(x, "cannot evaluate the .rept count '%s'", args);
			rc = -1;
			goto out;
		}
		if (count > 0 && body.len &&
		    (unsigned long)count > (x->limit - x->work) / body.len) {
			fail(x, "expansion larger than %zu bytes", x->limit);
			rc = -1;
			goto out;
		}
		for (long k = 0; k < count && body.len; k++)
			altr_buf_put(&text, body.p, body.len);
		rc = reread(x, &text, K_REPEAT, line);
		goto out;
	}
	size_t e = token(args, 0, an);
	if (!e) {
		fail(x, "%s without a parameter", what == S_IRP ? ".irp" : ".irpc");
		rc = -1;
		goto out;
	}
	struct formal f = {altr_xstrndup(args, e), NULL, F_PLAIN};
	struct actual a = {NULL, 0};
	size_t i = skip_comma(args, e, an);
	const char *b = body.p ? body.p : "";
	if (i >= an) {
		substitute(x, b, body.len, &f, &a, 1, &text);
	} else if (what == S_IRP) {
		while (i < an) {
			i = any_string(args, i, an, &v);
			a.p = v.p;
			a.n = v.len;
			substitute(x, b, body.len, &f, &a, 1, &text);
			i = skip_comma(args, i, an);
			if (text.len > x->limit) {
				break;
			}
		}
	} else {
		bool quoted = false;
		if (args[i] == '"') {
			quoted = true;
			i++;
		}
		while (i < an) {
			if (args[i] == '"') {
				quoted = !quoted;
				size_t nx = skip_white(args, i + 1, an);
				if (nx >= an)
					break;
			}
			a.p = args + i;
			a.n = 1;
			i++;
			substitute(x, b, body.len, &f, &a, 1, &text);
			if (!quoted)
				i = skip_white(args, i, an);
			if (text.len > x->limit)
				break;
		}
	}
	free(f.name);
	rc = reread(x, &text, K_REPEAT, line);
out:
	free(args);
	altr_buf_free(&body);
	altr_buf_free(&text);
	altr_buf_free(&v);
	return rc;
}

/* Handles one statement that is not plain; -1 on failure, 1 after an
 * .exitm that ends the expansion being read. */
static int handle(struct xp *x, int what, struct stmt *s, const char *t,
                  size_t n, size_t *pos, int *nl, bool *eol, int kind,
                  int line, int cond0)
{
	if (s->lab)
		put_stmt(x, s->clean, s->lab, line);
	switch (what) {
	case S_ALT:
		fail(x, ".altmacro is not handled");
		return -1;
	case S_ENDM:
		fail(x, ".endm without .macro");
		return -1;
	case S_ENDR:
		fail(x, ".endr without .rept, .irp or .irpc");
		return -1;
	case S_EXITM:
		if (kind == K_TOP) { /* gas ignores it, with a warning */
			put_stmt(x, s->clean + s->lab, s->clen - s->lab, line);
			return 0;
		}
		if (kind != K_MACRO || x->cond != cond0) {
			fail(x, ".exitm inside a conditional or repeat");
			return -1;
		}
		x->changed = true;
		return 1;
	case S_PURGEM: {
		size_t e = token(s->rest, 0, s->rlen);
		for (struct macro **pm = &x->macros; *pm; pm = &(*pm)->next)
			if (strlen((*pm)->name) == e && e &&
			    strncasecmp((*pm)->name, s->rest, e) == 0) {
				struct macro *m = *pm;
				*pm = m->next;
				free_macro(m);
				x->changed = true;
				return 0;
			}
		fail(x, ".purgem of a macro not defined");
		return -1;
	}
	case S_MACRO:
		return do_macro(x, s, t, n, pos, nl, eol);
	case S_REPT:
	case S_IRP:
	case S_IRPC:
		return do_repeat(x, what, s, t, n, pos, nl, eol, line);
	case S_CALL: {
		struct macro *m = find_macro(x, s->word, s->wlen);
		return do_call(x, m, s, line);
	}
	}
	return 0;
}

/* Reads t[0..n): kind says what made it; line: the line of its first
 * line (K_TOP: each next line is the next one, else all are line).
 * Returns -1 on failure, 1 after .exitm, else 0. */
static int process(struct xp *x, const char *t, size_t n, int kind, int line)
{
	size_t pos = 0;
	int cond0 = x->cond;
	bool top = kind == K_TOP;
	struct conds c;
	c.n = 0;
	struct stmt s;
	while (pos < n) {
		/* A line of plain statements goes out as it is. */
		size_t p = pos;
		bool plain = conds_live(&c), note = false;
		while (plain) {
			read_stmt(x, t, n, p, &s);
			p = s.next;
			if (classify(x, &s, !top) != S_PLAIN)
				plain = false;
			note |= is_assignment(&s) || (s.wlen > 3 && s.word[0] == '.' &&
			        strchr("eEiIsS", s.word[1]));
			if (s.eol)
				break;
		}
		if (plain) {
			for (size_t q = pos; note && q < p; q = s.next) {
				read_stmt(x, t, n, q, &s);
				note_plain(x, &s);
			}
			put_lines(x, t + pos, p - pos, line, kind == K_TOP);
			if (kind == K_TOP)
				for (size_t q = pos; q < p; q++)
					line += t[q] == '\n';
			pos = p;
			continue;
		}
		/* Else statement by statement, to the end of a line. */
		bool eol = false;
		while (!eol && pos < n) {
			read_stmt(x, t, n, pos, &s);
			int nl = s.nl;
			pos = s.next;
			eol = s.eol;
			if (kind == K_TOP) {
				/* messages name the word's column */
				x->line = line;
				size_t ls = s.start;
				while (ls > 0 && t[ls - 1] != '\n')
					ls--;
				x->col = 1 + (int)(s.start - ls) + (int)(s.word - s.clean);
			}
			int what = classify(x, &s, !top);
			int rc = 0;
			bool keep;
			if (what >= S_IF) {
				if (!do_cond(x, &c, what, &s, &keep))
					return -1;
				if (keep)
					put_stmt(x, s.clean, s.clen, line);
			} else if (!conds_live(&c)) {
				/* a branch not taken: gone */
			} else if (what == S_PLAIN) {
				note_plain(x, &s);
				put_stmt(x, s.clean, s.clen, line);
			} else {
				rc = handle(x, what, &s, t, n, &pos, &nl, &eol, kind, line,
				            cond0);
			}
			if (kind == K_TOP)
				line += nl;
			if (rc)
				return rc;
		}
	}
	if (c.n) {
		fail(x, "conditional not ended in the expansion it begins in");
		return -1;
	}
	return 0;
}

char *altr_macro_expand(const char *path, const char *src, size_t len,
                        size_t *outlen, int **lines, size_t *nlines)
{
	struct xp x = {.path = path, .line = 1, .col = 1};
	x.limit = 64u << 20;
	if (x.limit < 16 * len)
		x.limit = 16 * len;
	int rc = process(&x, src, len, K_TOP, 1);
	while (x.macros) {
		struct macro *m = x.macros;
		x.macros = m->next;
		free_macro(m);
	}
	while (x.syms) {
		struct sym *s = x.syms;
		x.syms = s->next;
		free(s->name);
		free(s);
	}
	altr_buf_free(&x.clean);
	if (rc < 0 || !x.changed) {
		altr_buf_free(&x.out);
		free(x.map);
		return NULL;
	}
	*outlen = x.out.len;
	*lines = x.map;
	*nlines = x.nmap;
	return x.out.p ? x.out.p : altr_xcalloc(1, 1);
}
