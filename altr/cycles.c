/*
 * cycles.c: which backward branches close a cycle of their function's
 * control-flow graph (SF_LOOP_BACK), and which flag setters fuse with one
 * (SF_FUSES_LOOP).  A backward branch whose target cannot reach it within
 * the function (gcc often puts a shared exit block, `setb %al; ret`,
 * before the code that jumps to it) is on no cycle of the function: a
 * cycle through it must leave the function, by a call, a return to a
 * caller whose call it passed, an indirect jump or a jump to another
 * function (or code outside any), and come back the same ways.  The SIC
 * rule (rules/trace.rules) counts calls, indirect jumps and jumps to other
 * functions, so it needs to count only these branches for every cycle of
 * execution to hold a count (docs/hooks.md "Software instruction counter").
 *
 * The graph is over the function's statements, in text order: each falls
 * through to the next of its function unless it is a jmp, ret, ud2 or hlt;
 * a direct jump or call to a label of the function adds that edge.  What
 * altr cannot see through may go anywhere in the function (an edge to
 * every label there, and to every statement that follows one that does
 * not fall through, unlabelled code): indirect jumps, unknown or opaque instructions,
 * statements altr did not parse, data directives (hand-encoded
 * instructions), and a ret when the function calls one of its own labels
 * (it may return inside).  Extra edges only make more branches count.
 * Branches outside any function are left as they are (all count).
 * Strongly connected components, iteratively (Tarjan): linear in the
 * statements.
 */
#include "altr.h"

#include <stdlib.h>
#include <string.h>

/* Directives that put nothing executable in the section. */
static bool transparent_directive(struct altr_str n)
{
	static const char *const names[] = {
		".loc", ".loc_mark_labels", ".p2align", ".p2alignw", ".p2alignl",
		".balign", ".balignw", ".balignl", ".align", ".type", ".size",
		".globl", ".global", ".local", ".weak", ".hidden", ".protected",
		".internal", ".file", ".ident", ".set", ".equ", ".equiv",
		".text", ".section", ".previous", ".pushsection", ".popsection",
	};
	if (n.len >= 5 && memcmp(n.p, ".cfi_", 5) == 0)
		return true;
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
		if (altr_str_eq(n, names[k]))
			return true;
	return false;
}

/* A .loc directive (as analyze.c's DK_LOC: any case). */
static bool is_loc(const struct altr_stmt *s)
{
	struct altr_str n = altr_stmt_name(s);
	return s->kind == STMT_DIRECTIVE && n.len == 4 && n.p[0] == '.' &&
	       (n.p[1] | 0x20) == 'l' && (n.p[2] | 0x20) == 'o' &&
	       (n.p[3] | 0x20) == 'c';
}

enum {
	E_FALL = 1,     /* may fall through to the next statement */
	E_ANY = 2,      /* may go to any label of the function */
	E_RET = 4,      /* a ret */
	E_SELFCALL = 8, /* a call whose direct target is in the function */
};

/* How statement s passes control on (E_*), its direct target aside. */
static unsigned edges_of(const struct altr_stmt *s)
{
	switch ((enum altr_stmtkind)s->kind) {
	case STMT_LABEL:
		return E_FALL;
	case STMT_DIRECTIVE:
		if (s->facts & SF_OPAQUE)
			return E_FALL | E_ANY;
		return transparent_directive(altr_stmt_name(s)) ? E_FALL
		                                                : E_FALL | E_ANY;
	case STMT_OTHER:
		return (s->facts & SF_PREFIX_ONLY) ? E_FALL : E_FALL | E_ANY;
	case STMT_INSN:
		break;
	}
	const struct altr_insn *in = s->insn;
	if (!in || !in->desc || (s->facts & SF_OPAQUE))
		return E_FALL | E_ANY;
	uint64_t at = in->info.attrs;
	bool star = in->nops >= 1 && in->ops[0].star;
	if (at & ATTR_RET)
		return E_RET;
	if (at & ATTR_JMP)
		return star ? E_ANY : 0;
	if (at & ATTR_JCC)
		return E_FALL;
	if (at & ATTR_CALL)
		return E_FALL;
	if (at & ATTR_NOFALL)
		return 0;
	return E_FALL;
}

/* The graph of one function, over its statements that matter: the first,
 * those that branch or do not only fall through, labels and statements
 * after one that does not fall through (where "any label" may go).  The
 * others only fall through to the next statement: each node's fall edge
 * goes to the next node.  (Labels no branch names, when nothing may go
 * anywhere, only split a fall edge in two: the components are the same
 * with them, and one walk over the statements finds the nodes.)  What is
 * kept by statement is by its place in the function's range of statements
 * (altr_func first..last): arrays as long as the longest function, not as
 * the unit (their pages were a good part of the time). */
struct cyc {
	int *node;      /* by place: its node, or -1 */
	int *back;      /* the function's backward branches (statements) */
	int *fall, *tgt; /* by node: the node it falls or jumps to, or -1 */
	uint8_t *e;     /* by node: E_* */
	int *labels;    /* where "any label" goes */
	int nlabels;
	int *index, *low, *comp, *stack, *cstack, *cnext;
	bool *on;
};

/* The k-th successor of node v (n nodes; the virtual node n stands for
 * "any label"), or -1 when there are no more. */
static int succ(const struct cyc *c, int n, int v, int k)
{
	if (v == n)
		return k < c->nlabels ? c->labels[k] : -1;
	int s[3], m = 0;
	if (c->fall[v] >= 0)
		s[m++] = c->fall[v];
	if (c->tgt[v] >= 0)
		s[m++] = c->tgt[v];
	if (c->e[v] & E_ANY)
		s[m++] = n;
	return k < m ? s[k] : -1;
}

/* Tarjan's strongly connected components of nodes [0, n], iteratively:
 * comp[v] numbers v's component. */
static void components(struct cyc *c, int n)
{
	int idx = 0, ncomp = 0, sp = 0, csp = 0;
	for (int v = 0; v <= n; v++)
		c->index[v] = -1;
	for (int r = 0; r <= n; r++) {
		if (c->index[r] >= 0)
			continue;
		/* call stack: cstack holds nodes, cnext the next successor */
		c->cstack[csp] = r;
		c->cnext[csp++] = 0;
		c->index[r] = c->low[r] = idx++;
		c->stack[sp++] = r;
		c->on[r] = true;
		while (csp > 0) {
			int v = c->cstack[csp - 1];
			int w = succ(c, n, v, c->cnext[csp - 1]++);
			if (w >= 0) {
				if (c->index[w] < 0) {
					c->index[w] = c->low[w] = idx++;
					c->stack[sp++] = w;
					c->on[w] = true;
					c->cstack[csp] = w;
					c->cnext[csp++] = 0;
				} else if (c->on[w] && c->index[w] < c->low[v]) {
					c->low[v] = c->index[w];
				}
				continue;
			}
			csp--;
			if (csp > 0) {
				int p = c->cstack[csp - 1];
				if (c->low[v] < c->low[p])
					c->low[p] = c->low[v];
			}
			if (c->low[v] == c->index[v]) {
				int w2;
				do {
					w2 = c->stack[--sp];
					c->on[w2] = false;
					c->comp[w2] = ncomp;
				} while (w2 != v);
				ncomp++;
			}
		}
	}
}

/* The nodes of function f and their edges, in one walk over its
 * statements (range a..b); how many.  Its backward branches go to
 * c->back (*nback of them). */
static int make_nodes(struct cyc *c, const struct altr_unit *u,
                      const int *func, const int *target, int f, int *nback)
{
	int a = u->funcs[f].first, b = u->funcs[f].last;
	int nn = 0, prev = -1; /* the previous statement's E_*, or -1 */
	bool selfcall = false, any = false;
	*nback = 0;
	c->nlabels = 0;
	for (int i = a; i <= b; i++) {
		if (func[i] != f)
			continue;
		const struct altr_stmt *s = &u->stmts[i];
		int t = target[i];
		unsigned e = edges_of(s);
		bool label = s->kind == STMT_LABEL;
		bool after_nofall = prev >= 0 && !(prev & E_FALL);
		bool tin = t >= 0 && func[t] == f;
		bool first = prev < 0;
		prev = (int)e;
		any |= (e & E_ANY) != 0;
		if (s->facts & SF_BACKWARD)
			c->back[(*nback)++] = i;
		if (tin && s->kind == STMT_INSN && (s->insn->info.attrs & ATTR_CALL))
			selfcall = true;
		if (!first && e == E_FALL && !tin && !label && !after_nofall) {
			c->node[i - a] = -1;
			continue;
		}
		/* falling through reaches the next node */
		if (nn > 0)
			c->fall[nn - 1] = (c->e[nn - 1] & E_FALL) ? nn : -1;
		c->node[i - a] = nn;
		c->e[nn] = (uint8_t)e;
		c->tgt[nn] = tin ? t - a : -1; /* a place, for now */
		if (label || after_nofall)
			c->labels[c->nlabels++] = nn;
		nn++;
	}
	if (nn > 0)
		c->fall[nn - 1] = -1;
	/* a ret may return inside when the function calls a label of its
	 * own: it may go anywhere then */
	for (int k = 0; k < nn; k++) {
		if (c->tgt[k] >= 0)
			c->tgt[k] = c->node[c->tgt[k]];
		if (selfcall && (c->e[k] & E_RET))
			c->e[k] |= E_ANY;
		any |= (c->e[k] & E_ANY) != 0;
	}
	if (!any) /* then no edge goes to the virtual node */
		c->nlabels = 0;
	return nn;
}

/* SF_LOOP_BACK and SF_FUSES_LOOP in function f, which has a backward
 * branch. */
static void function_cycles(struct cyc *c, struct altr_unit *u,
                            const int *func, const int *target, int f)
{
	int a = u->funcs[f].first, nback;
	components(c, make_nodes(c, u, func, target, f, &nback));
	for (int k = 0; k < nback; k++) {
		int i = c->back[k], t = target[i];
		if (t < 0 || func[t] != f || c->node[t - a] < 0 ||
		    c->comp[c->node[t - a]] != c->comp[c->node[i - a]])
			continue;
		struct altr_stmt *s = &u->stmts[i];
		s->facts |= SF_LOOP_BACK;
		if (!(s->facts & SF_FUSED))
			continue;
		/* its flag setter, as analyze.c found it: the statement
		 * before in the text, .locs between */
		int p = i - 1;
		while (p >= 0 && is_loc(&u->stmts[p]))
			p--;
		ALTR_ASSERT(p >= 0 && (u->stmts[p].facts & SF_FUSES_BACK));
		u->stmts[p].facts |= SF_FUSES_LOOP;
	}
}

void altr_cycles(struct altr_unit *u, const int *func, const int *target)
{
	int n = u->nstmts, nf = u->nfuncs;
	bool *wanted = altr_xcalloc((size_t)nf + 1, sizeof *wanted);
	/* One pass over all: the marks of an earlier run cleared, which
	 * functions have a backward branch, and outside any function every
	 * backward branch closes a cycle, as far as anyone here knows. */
	for (int i = 0; i < n; i++) {
		struct altr_stmt *s = &u->stmts[i];
		unsigned fa = s->facts & ~(unsigned)(SF_LOOP_BACK | SF_FUSES_LOOP);
		int f = func[i];
		if (f >= 0) {
			/* the places below hold every statement of f */
			ALTR_ASSERT(f < nf && i >= u->funcs[f].first &&
			            i <= u->funcs[f].last);
			if (fa & SF_BACKWARD)
				wanted[f] = true;
		} else {
			if (fa & SF_BACKWARD)
				fa |= SF_LOOP_BACK;
			if (fa & SF_FUSES_BACK)
				fa |= SF_FUSES_LOOP;
		}
		s->facts = (uint16_t)fa;
	}
	size_t m = 0; /* the longest range of a function wanted */
	for (int f = 0; f < nf; f++)
		if (wanted[f] && (size_t)(u->funcs[f].last - u->funcs[f].first + 1) > m)
			m = (size_t)(u->funcs[f].last - u->funcs[f].first + 1);
	if (!m) {
		free(wanted);
		return;
	}
	m++; /* and the virtual node */
	struct cyc c = {0};
	c.node = altr_xmalloc(m * sizeof *c.node);
	c.back = altr_xmalloc(m * sizeof *c.back);
	c.e = altr_xmalloc(m);
	c.fall = altr_xmalloc(m * sizeof *c.fall);
	c.tgt = altr_xmalloc(m * sizeof *c.tgt);
	c.labels = altr_xmalloc(m * sizeof *c.labels);
	c.index = altr_xmalloc(m * sizeof *c.index);
	c.low = altr_xmalloc(m * sizeof *c.low);
	c.comp = altr_xmalloc(m * sizeof *c.comp);
	c.stack = altr_xmalloc(m * sizeof *c.stack);
	c.cstack = altr_xmalloc(m * sizeof *c.cstack);
	c.cnext = altr_xmalloc(m * sizeof *c.cnext);
	c.on = altr_xcalloc(m, sizeof *c.on);
	for (int f = 0; f < nf; f++)
		if (wanted[f])
			function_cycles(&c, u, func, target, f);
	free(c.on);
	free(c.cnext);
	free(c.cstack);
	free(c.stack);
	free(c.comp);
	free(c.low);
	free(c.index);
	free(c.labels);
	free(c.tgt);
	free(c.fall);
	free(c.e);
	free(c.back);
	free(c.node);
	free(wanted);
}
