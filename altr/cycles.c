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
 * those that branch or do not only fall through, labels that are jumped
 * to (all labels, when something may go anywhere) and statements after one
 * that does not fall through (then too).  The others only fall through to
 * the next statement: each node's fall edge goes to the next node. */
struct cyc {
	int *node;      /* by statement: its node, or -1 */
	int *fall, *tgt; /* by node: the node it falls or jumps to, or -1 */
	uint8_t *e;     /* by node: E_* */
	int *labels;    /* where "any label" goes */
	int nlabels;
	uint8_t *ev;    /* by position in the function: E_* */
	uint8_t *jumped; /* by statement: a direct branch of the function
	                   goes there */
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

void altr_cycles(struct altr_unit *u, const int *func, const int *target)
{
	int n = u->nstmts;
	for (int i = 0; i < n; i++)
		u->stmts[i].facts &= (uint16_t) ~(SF_LOOP_BACK | SF_FUSES_LOOP);
	if (n == 0)
		return;
	/* statements by function, in text order (a counting sort) */
	int nf = u->nfuncs;
	int *start = altr_xcalloc((size_t)nf + 2, sizeof *start);
	bool *wanted = altr_xcalloc((size_t)nf + 1, sizeof *wanted);
	for (int i = 0; i < n; i++) {
		int f = func[i];
		if (f < 0)
			continue;
		start[f + 2]++;
		if (u->stmts[i].facts & SF_BACKWARD)
			wanted[f] = true;
	}
	for (int f = 0; f < nf; f++)
		start[f + 2] += start[f + 1];
	int *order = altr_xmalloc(((size_t)n + 1) * sizeof *order);
	for (int i = 0; i < n; i++)
		if (func[i] >= 0)
			order[start[func[i] + 1]++] = i;
	/* start[f] is now where f's statements begin, start[f + 1] the end */
	struct cyc c = {0};
	size_t m = (size_t)n + 1;
	c.node = altr_xmalloc(m * sizeof *c.node);
	for (int i = 0; i < n; i++)
		c.node[i] = -1;
	c.jumped = altr_xcalloc(m, 1);
	c.ev = altr_xmalloc(m);
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

	for (int f = 0; f < nf; f++) {
		if (!wanted[f])
			continue;
		const int *st = order + start[f];
		int fn = start[f + 1] - start[f];
		bool selfcall = false, any = false;
		for (int v = 0; v < fn; v++) {
			const struct altr_stmt *s = &u->stmts[st[v]];
			c.ev[v] = (uint8_t)edges_of(s);
			int t = target[st[v]];
			if (t < 0 || func[t] != f)
				continue;
			c.jumped[t] = 1;
			if (s->kind == STMT_INSN && (s->insn->info.attrs & ATTR_CALL))
				selfcall = true;
		}
		for (int v = 0; v < fn; v++) {
			if (selfcall && (c.ev[v] & E_RET))
				c.ev[v] |= E_ANY;
			any |= (c.ev[v] & E_ANY) != 0;
		}
		/* the nodes */
		int nn = 0;
		c.nlabels = 0;
		for (int v = 0; v < fn; v++) {
			int i = st[v], t = target[i];
			bool label = u->stmts[i].kind == STMT_LABEL;
			bool after_nofall = v > 0 && !(c.ev[v - 1] & E_FALL);
			if (v > 0 && c.ev[v] == E_FALL && (t < 0 || func[t] != f) &&
			    !(label && (any || c.jumped[i])) && !(any && after_nofall))
				continue;
			c.node[i] = nn;
			c.e[nn] = c.ev[v];
			if (any && (label || after_nofall))
				c.labels[c.nlabels++] = nn;
			nn++;
		}
		/* their edges: falling through reaches the next node */
		int next = -1;
		for (int v = fn - 1; v >= 0; v--) {
			int i = st[v], k = c.node[i];
			if (k < 0)
				continue;
			c.fall[k] = (c.e[k] & E_FALL) ? next : -1;
			int t = target[i];
			c.tgt[k] = t >= 0 && func[t] == f ? c.node[t] : -1;
			next = k;
		}
		components(&c, nn);
		for (int v = 0; v < fn; v++) {
			struct altr_stmt *s = &u->stmts[st[v]];
			int t = target[st[v]];
			if (!(s->facts & SF_BACKWARD) || t < 0 || c.node[t] < 0 ||
			    c.comp[c.node[t]] != c.comp[c.node[st[v]]])
				continue;
			s->facts |= SF_LOOP_BACK;
			if (!(s->facts & SF_FUSED))
				continue;
			/* its flag setter, as analyze.c found it: the statement
			 * before in the text, .locs between */
			int p = st[v] - 1;
			while (p >= 0 && is_loc(&u->stmts[p]))
				p--;
			ALTR_ASSERT(p >= 0 && (u->stmts[p].facts & SF_FUSES_BACK));
			u->stmts[p].facts |= SF_FUSES_LOOP;
		}
		for (int v = 0; v < fn; v++) {
			c.node[st[v]] = -1;
			c.jumped[st[v]] = 0;
		}
	}
	/* outside any function: every backward branch closes a cycle, as far
	 * as anyone here knows */
	for (int i = 0; i < n; i++) {
		struct altr_stmt *s = &u->stmts[i];
		if (func[i] >= 0 || !(s->facts & (SF_BACKWARD | SF_FUSES_BACK)))
			continue;
		if (s->facts & SF_BACKWARD)
			s->facts |= SF_LOOP_BACK;
		if (s->facts & SF_FUSES_BACK)
			s->facts |= SF_FUSES_LOOP;
	}
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
	free(c.ev);
	free(c.jumped);
	free(c.node);
	free(order);
	free(wanted);
	free(start);
}
