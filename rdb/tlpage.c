/* tlpage.c: rdb timeline DIR, a recording as one self-contained HTML page
 * (docs/timeline.md): each process of the set (DIR, then DIR/proc/ID in the
 * order they started) along an axis of its CPU time, its intervals as bands,
 * its syscalls, signals, fork children and end as marks carrying rdb truss's
 * text, and the trace bytes each interval took per stream.  The page loads
 * nothing: its CSS, SVG and script are inline, and no URL is written. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "rdb.h"

/* The page stays small for any recording: an interval with more than
 * PER_IV marks in a lane, and every interval once a process has MAX_MARKS
 * marks drawn, gets one mark per lane that counts them (its hover text:
 * the first AGG_TEXT lines and the rdb truss command for the rest).  The
 * bytes lane has at most PLOT_W columns. */
enum { PER_IV = 16, MAX_MARKS = 2000, AGG_TEXT = 6, PLOT_W = 1000, LEFT = 80 };

/* The kinds of marks, each counted in its own data- attribute. */
enum { M_SYS, M_SIG, M_FORK, M_EXIT, M_OUT, NKINDS };
static const char *const kind_names[NKINDS] = {"sys", "sig", "fork", "exit", "out"};
static const char *const kind_what[NKINDS] = {"syscalls", "signals", "fork children",
                                              "ends", "other events"};

struct mark {
	int kind;
	char *text; /* truss's line, without its newline */
	const char *link; /* a fork child's process ID in the set, or NULL */
};

struct iv {
	uint64_t cpu_ns, nsys, nsig, vbytes;
	int complete;
	uint64_t bytes[RDB_TF_NSTREAMS];
	double x0, x1;
};

struct proc {
	char *dir, *id;
	struct rdb_header h;
	struct iv *iv;
	uint64_t n, last_complete;
};

struct page {
	FILE *out;
	const char *set;  /* the trace set, as the commands the page shows name it */
	const char *pid;  /* --pid ID, or NULL */
	struct proc *ps;
	size_t nps;
	uint64_t drawn; /* marks drawn for the current process */
};

static void esc(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			if ((unsigned char)*s < 32 && *s != '\n')
				fprintf(f, "\\x%02x", (unsigned char)*s);
			else
				fputc(*s, f);
		}
}

/* s as one shell word (the commands the page shows are for pasting). */
static void shell_word(FILE *f, const char *s)
{
	if (*s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@") ==
	              strlen(s)) {
		esc(f, s);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			esc(f, "'\\''");
		else {
			char c[2] = {*s, 0};
			esc(f, c);
		}
	fputc('\'', f);
}

/* ---- reading a process ------------------------------------------------ */

static void read_intervals(struct proc *p)
{
	struct rdb_tr *r = rdb_tr_open(p->dir, RDB_TF_S_INTERVALS);
	uint32_t t;
	const void *q;
	size_t len, cap = 4;
	p->iv = rdb_xmalloc(cap * sizeof *p->iv);
	memset(p->iv, 0, sizeof *p->iv);
	p->n = 1;
	uint64_t sc_prev = 0, sc_base = 0;
	int forked = p->h.have_proc && (p->h.proc.flags & RDB_TF_PROC_FORKED);
	while (rdb_tr_next(r, &t, &q, &len)) {
		struct rdb_tf_boundary b;
		if (t != RDB_TF_BOUNDARY || !rdb_rec_ok(t, q, len))
			rdb_fatal("%s: not a BOUNDARY record (type %u, %zu bytes)", rdb_tr_where(r), t,
			          len);
		memcpy(&b, q, sizeof b);
		if (b.interval != p->n + 1)
			rdb_fatal("%s: BOUNDARY of interval %llu, expected %llu", rdb_tr_where(r),
			          (unsigned long long)b.interval, (unsigned long long)p->n + 1);
		struct iv *e = &p->iv[p->n - 1];
		e->cpu_ns = b.cpu_ns;
		e->nsys = b.sc_id >= sc_prev ? b.sc_id - sc_prev : 0;
		/* a fork child's interval 1 is its parent's run up to the fork:
		 * none of those syscalls (ids 1 to the fork's) are the child's */
		if (b.interval == 2 && forked)
			e->nsys = 0;
		sc_prev = b.sc_id;
		if (b.interval == 2 && forked)
			sc_base = b.sc_id;
		/* a BOUNDARY where the recording stopped starts no interval */
		if (b.flags & RDB_TF_B_UNTRACED)
			break;
		if (p->n == cap)
			p->iv = rdb_xrealloc(p->iv, (cap *= 2) * sizeof *p->iv);
		memset(&p->iv[p->n], 0, sizeof *p->iv);
		p->n++;
	}
	rdb_tr_close(r);
	/* (the exit file counts the process's own syscalls; a fork child's
	 * ids go on from its parent's) */
	uint64_t end = p->h.have_exit ? sc_base + p->h.exit.nsyscalls : sc_prev; /* no exit file: unknown */
	p->iv[p->n - 1].nsys = end >= sc_prev ? end - sc_prev : 0;
}

static void read_counts(struct proc *p)
{
	int streams[2] = {RDB_TF_S_VALUES, RDB_TF_S_SIGNALS};
	for (uint64_t i = 0; i < p->n; i++)
		p->iv[i].vbytes = UINT64_MAX;
	for (int k = 0; k < 2; k++) {
		struct rdb_tr *r = rdb_tr_open(p->dir, streams[k]);
		uint32_t t;
		const void *q;
		size_t len;
		while (rdb_tr_next(r, &t, &q, &len)) {
			uint64_t i = rdb_rec_ok(t, q, len) && len >= 8 ? rdb_rec_interval(q) : 0;
			if (i < 1 || i > p->n)
				continue; /* rdb info names damage; the picture leaves it out */
			if (t == RDB_TF_VALUES_END) {
				struct rdb_tf_values_end e;
				memcpy(&e, q, sizeof e);
				p->iv[i - 1].vbytes = e.nbytes;
			}
			p->iv[i - 1].nsig += t == RDB_TF_SIGNAL;
		}
		rdb_tr_close(r);
	}
	struct rdb_ivx *x = rdb_ivx_read(p->dir);
	p->last_complete = rdb_feed_last_complete(p->dir, x);
	for (int s = 0; s < RDB_TF_NSTREAMS; s++) {
		char *path = rdb_path(p->dir, rdb_stream_names[s]);
		struct stat st;
		uint64_t *b = rdb_xmalloc(p->n * sizeof *b);
		memset(b, 0, p->n * sizeof *b);
		if (stat(path, &st) == 0)
			rdb_ivx_bytes(x, s, (uint64_t)st.st_size, p->n, b);
		for (uint64_t i = 0; i < p->n; i++)
			p->iv[i].bytes[s] = b[i];
		rdb_free(b);
		rdb_free(path);
	}
	rdb_ivx_free(x);
	for (uint64_t i = 0; i < p->n; i++)
		p->iv[i].complete = i + 1 <= p->last_complete || i == 0;
}

/* The axis: the intervals' CPU time, one after the other.  The last
 * interval's is not recorded (no boundary ends it): it is drawn as long as
 * the median of the others (one unit when there are none). */
static int by_value(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

static void lay_out(struct proc *p)
{
	uint64_t *c = rdb_xmalloc(p->n * sizeof *c), k = 0;
	for (uint64_t i = 0; i + 1 < p->n; i++)
		c[k++] = p->iv[i].cpu_ns;
	qsort(c, k, sizeof *c, by_value);
	double last = k ? (double)c[k / 2] : 1e6;
	rdb_free(c);
	double x = 0;
	for (uint64_t i = 0; i < p->n; i++) {
		double w = i + 1 < p->n ? (double)p->iv[i].cpu_ns : last;
		p->iv[i].x0 = x;
		x += w > 0 ? w : 1;
		p->iv[i].x1 = x;
	}
}

static void load(struct proc *p, const char *dir, const char *id)
{
	memset(p, 0, sizeof *p);
	p->dir = rdb_xstrdup(dir);
	rdb_read_header(dir, &p->h);
	char buf[32];
	if (!id) {
		snprintf(buf, sizeof buf, "%d", p->h.start.pid);
		id = buf;
	}
	p->id = rdb_xstrdup(id);
	if (!p->h.have_random) /* not an rdb-cc program (rdb ps: not recorded) */
		return;
	read_intervals(p);
	read_counts(p);
	lay_out(p);
}

static int by_start(const void *x, const void *y)
{
	return rdb_tree_start_cmp(&((const struct proc *)x)->h.start,
	                          &((const struct proc *)y)->h.start);
}

struct procs {
	struct page *g;
	size_t cap;
};

static void add(void *ctx, const char *dir, const char *id)
{
	struct procs *l = ctx;
	struct page *g = l->g;
	if (g->nps == l->cap)
		g->ps = rdb_xrealloc(g->ps, (l->cap *= 2) * sizeof *g->ps);
	load(&g->ps[g->nps++], dir, id);
}

static void load_set(struct page *g)
{
	size_t cap = 4;
	g->ps = rdb_xmalloc(cap * sizeof *g->ps);
	if (g->pid) {
		char *d = rdb_tree_find(g->set, g->pid);
		load(&g->ps[g->nps++], d, g->pid);
		rdb_free(d);
		return;
	}
	load(&g->ps[g->nps++], g->set, NULL);
	struct procs l = {g, cap};
	rdb_tree_each(g->set, add, &l);
	qsort(g->ps + 1, g->nps - 1, sizeof *g->ps, by_start); /* the top stays first */
}

/* ---- drawing ------------------------------------------------------------ */

/* Lanes, top to bottom (y and height in px). */
enum { AXIS_Y = 14, IV_Y = 20, IV_H = 22, SYS_Y = 46, EV_Y = 66, LANE_H = 16, B_Y = 88,
       B_H = 48, SVG_H = 150 };

static double px(const struct proc *p, double x)
{
	double total = p->iv[p->n - 1].x1;
	return LEFT + x / total * PLOT_W;
}

static void axis(FILE *f, const struct proc *p)
{
	double total = p->iv[p->n - 1].x1 / 1e6; /* ms */
	double step = 1e-6; /* 1, 2 or 5 times a power of ten: 4 to 10 ticks */
	while (total / step > 10)
		step *= 10;
	step /= total / step < 2 ? 5 : total / step < 4 ? 2 : 1;
	fprintf(f, "<line class=\"ax\" x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n", LEFT,
	        LEFT + PLOT_W, AXIS_Y + 2, AXIS_Y + 2);
	for (double t = 0; t <= total + 1e-9; t += step) {
		double x = LEFT + t / total * PLOT_W;
		fprintf(f, "<text class=\"tk\" x=\"%.1f\" y=\"%d\">%g ms</text>\n", x, AXIS_Y - 2, t);
	}
	const char *lanes[] = {"intervals", "syscalls", "events", "trace bytes"};
	int ys[] = {IV_Y + 15, SYS_Y + 12, EV_Y + 12, B_Y + 28};
	for (int i = 0; i < 4; i++)
		fprintf(f, "<text class=\"ln\" x=\"2\" y=\"%d\">%s</text>\n", ys[i], lanes[i]);
}

static void bands(FILE *f, const struct proc *p)
{
	for (uint64_t i = 0; i < p->n; i++) {
		const struct iv *v = &p->iv[i];
		double x0 = px(p, v->x0), x1 = px(p, v->x1);
		fprintf(f, "<rect class=\"iv %s%s\" data-iv=\"%llu\" data-c=\"%d\" x=\"%.2f\" "
		           "y=\"%d\" width=\"%.2f\" height=\"%d\"><title>interval %llu",
		        i % 2 ? "odd" : "even", v->complete ? "" : " inc", (unsigned long long)i + 1,
		        v->complete, x0, IV_Y, x1 - x0 > 0.2 ? x1 - x0 : 0.2, IV_H,
		        (unsigned long long)i + 1);
		if (i + 1 < p->n)
			fprintf(f, ": %.3f ms CPU", (double)v->cpu_ns / 1e6);
		else
			fprintf(f, ": CPU time not recorded (the last interval)");
		fprintf(f, ", %llu syscalls, %llu signals", (unsigned long long)v->nsys,
		        (unsigned long long)v->nsig);
		if (v->vbytes != UINT64_MAX)
			fprintf(f, ", %llu values bytes", (unsigned long long)v->vbytes);
		fprintf(f, "%s\ntrace bytes:", v->complete ? "" : " (not complete)");
		for (int s = 0; s < RDB_TF_NSTREAMS; s++)
			if (v->bytes[s])
				fprintf(f, " %s %llu", rdb_stream_names[s], (unsigned long long)v->bytes[s]);
		fputs("</title></rect>\n", f);
	}
}

/* The trace bytes lane: a bar per interval, its streams stacked; with more
 * intervals than columns, a bar per column (the intervals' bytes summed). */
static void bytes_lane(FILE *f, const struct proc *p)
{
	int by_col = p->n > PLOT_W;
	size_t nu = by_col ? PLOT_W : (size_t)p->n;
	double *u = rdb_xmalloc(nu * RDB_TF_NSTREAMS * sizeof *u);
	double *x0 = rdb_xmalloc(nu * sizeof *x0), *x1 = rdb_xmalloc(nu * sizeof *x1);
	memset(u, 0, nu * RDB_TF_NSTREAMS * sizeof *u);
	for (size_t c = 0; c < nu; c++) /* columns, or the intervals' bands */
		x0[c] = by_col ? LEFT + (double)c : px(p, p->iv[c].x0),
		x1[c] = by_col ? LEFT + (double)c + 1 : px(p, p->iv[c].x1);
	for (uint64_t i = 0; i < p->n; i++) {
		size_t c = i;
		if (by_col) {
			int k = (int)(px(p, (p->iv[i].x0 + p->iv[i].x1) / 2) - LEFT);
			c = k < 0 ? 0 : k >= PLOT_W ? PLOT_W - 1 : (size_t)k;
		}
		for (int s = 0; s < RDB_TF_NSTREAMS; s++)
			u[c * RDB_TF_NSTREAMS + s] += (double)p->iv[i].bytes[s];
	}
	double max = 1, sum[RDB_TF_NSTREAMS] = {0};
	for (size_t c = 0; c < nu; c++) {
		double t = 0;
		for (int s = 0; s < RDB_TF_NSTREAMS; s++)
			t += u[c * RDB_TF_NSTREAMS + s], sum[s] += u[c * RDB_TF_NSTREAMS + s];
		max = t > max ? t : max;
	}
	double *base = rdb_xmalloc(nu * sizeof *base);
	memset(base, 0, nu * sizeof *base);
	for (int s = 0; s < RDB_TF_NSTREAMS; s++) {
		if (!sum[s])
			continue;
		fprintf(f, "<path class=\"st s%d\" data-stream=\"%s\" d=\"", s, rdb_stream_names[s]);
		for (size_t c = 0; c < nu; c++) {
			double v = u[c * RDB_TF_NSTREAMS + s];
			if (!v)
				continue;
			double y1 = B_Y + B_H - base[c] / max * B_H, h = v / max * B_H;
			double w = x1[c] - x0[c] > 1 ? x1[c] - x0[c] - (by_col ? 0 : 0.5) : 1;
			fprintf(f, "M%.1f %.1fh%.1fv%.1fh%.1fz", x0[c], y1, w, -(h > 0.5 ? h : 0.5), -w);
			base[c] += v;
		}
		fprintf(f, "\"><title>%s: %.0f bytes in the files</title></path>\n",
		        rdb_stream_names[s], sum[s]);
	}
	fprintf(f, "<text class=\"tk\" x=\"%d\" y=\"%d\">%.0f bytes</text>\n", LEFT + PLOT_W + 4,
	        B_Y + 8, max);
	rdb_free(base);
	rdb_free(x0);
	rdb_free(x1);
	rdb_free(u);
}

struct lane {
	struct mark *m;
	size_t n, cap;
};

static void lane_add(struct lane *l, int kind, char *text, const char *link)
{
	if (l->n == l->cap)
		l->m = rdb_xrealloc(l->m, (l->cap = l->cap ? 2 * l->cap : 16) * sizeof *l->m);
	l->m[l->n++] = (struct mark){kind, text, link};
}

static void lane_clear(struct lane *l)
{
	for (size_t i = 0; i < l->n; i++)
		rdb_free(l->m[i].text);
	l->n = 0;
}

/* Interval k's marks of one lane at y, spread evenly over its band in
 * program order, or one mark that counts them (the cap above). */
static void lane_draw(struct page *g, const struct proc *p, uint64_t k, struct lane *l, int y)
{
	FILE *f = g->out;
	if (!l->n)
		return;
	const struct iv *v = &p->iv[k - 1];
	double x0 = px(p, v->x0), x1 = px(p, v->x1);
	if (l->n <= PER_IV && g->drawn + l->n <= MAX_MARKS) {
		for (size_t i = 0; i < l->n; i++) {
			const struct mark *m = &l->m[i];
			double x = x0 + (x1 - x0) * ((double)i + 0.5) / (double)l->n;
			if (m->link)
				fprintf(f, "<a href=\"#p-%s\">", m->link);
			fprintf(f, "<rect class=\"mk %s\" data-%s=\"1\" data-iv=\"%llu\" x=\"%.2f\" "
			           "y=\"%d\" width=\"3\" height=\"%d\"><title>",
			        kind_names[m->kind], kind_names[m->kind], (unsigned long long)k, x - 1.5,
			        y, LANE_H);
			esc(f, m->text);
			if (m->link)
				fprintf(f, " (recorded: process %s)", m->link);
			fputs("</title></rect>", f);
			fputs(m->link ? "</a>\n" : "\n", f);
		}
		g->drawn += l->n;
		return;
	}
	uint64_t count[NKINDS] = {0};
	for (size_t i = 0; i < l->n; i++)
		count[l->m[i].kind]++;
	fprintf(f, "<rect class=\"mk agg\" data-iv=\"%llu\"", (unsigned long long)k);
	for (int c = 0; c < NKINDS; c++)
		if (count[c])
			fprintf(f, " data-%s=\"%llu\"", kind_names[c], (unsigned long long)count[c]);
	fprintf(f, " x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\"><title>interval %llu:",
	        x0, y, x1 - x0 > 3 ? x1 - x0 : 3, LANE_H, (unsigned long long)k);
	for (int c = 0; c < NKINDS; c++)
		if (count[c])
			fprintf(f, " %llu %s", (unsigned long long)count[c], kind_what[c]);
	for (size_t i = 0; i < l->n && i < AGG_TEXT; i++) {
		fputc('\n', f);
		esc(f, l->m[i].text);
	}
	fprintf(f, "\n... all of them: rdb truss ");
	if (g->pid || p != g->ps)
		fprintf(f, "--pid %s ", p->id);
	shell_word(f, g->set);
	fprintf(f, " %llu</title></rect>\n", (unsigned long long)k);
}

/* The fork child pid of process p as a process of the set, or NULL. */
static const char *child_id(const struct page *g, const struct proc *p, long long pid)
{
	for (size_t i = 0; i < g->nps; i++)
		if (g->ps[i].h.start.pid == pid && g->ps[i].h.have_proc &&
		    g->ps[i].h.proc.ppid == p->h.start.pid)
			return g->ps[i].id;
	return NULL;
}

static char *record_text(struct rdb_tr *sc, uint32_t type, const void *q, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);
	if (!m)
		rdb_fatal("open_memstream: %s", strerror(errno));
	rdb_show_record(m, sc, type, q, len);
	fclose(m);
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = 0;
	return buf;
}

/* The marks: the syscalls stream read once, interval by interval. */
static void marks(struct page *g, const struct proc *p)
{
	struct lane sys = {0}, ev = {0};
	struct rdb_tr *sc = rdb_tr_open(p->dir, RDB_TF_S_SYSCALLS);
	uint32_t t;
	const void *q;
	size_t len;
	uint64_t k = 1;
	int ended = 0;
	g->drawn = 0;
	while (rdb_tr_next(sc, &t, &q, &len)) {
		if (t == RDB_TF_BOUNDARY && rdb_rec_ok(t, q, len)) {
			lane_draw(g, p, k, &sys, SYS_Y);
			lane_draw(g, p, k, &ev, EV_Y);
			lane_clear(&sys);
			lane_clear(&ev);
			k = rdb_rec_interval(q);
			if (k > p->n)
				break; /* the boundary where the recording stopped */
			continue;
		}
		int kind = t == RDB_TF_TRAP     ? M_SYS
		           : t == RDB_TF_SIGNAL ? M_SIG
		           : t == RDB_TF_TERM   ? M_EXIT
		           : t == RDB_TF_CHILD_OUTPUT || t == RDB_TF_SHARED ? M_OUT
		                                                           : -1;
		const char *link = NULL;
		if (t == RDB_TF_NOTE && len == sizeof(struct rdb_tf_note)) {
			struct rdb_tf_note no;
			memcpy(&no, q, sizeof no);
			if (no.kind == RDB_TF_NOTE_FORK)
				kind = M_FORK, link = child_id(g, p, no.value);
		}
		if (kind < 0)
			continue;
		ended |= kind == M_EXIT;
		lane_add(kind == M_SYS ? &sys : &ev, kind, record_text(sc, t, q, len), link);
	}
	if (!ended) { /* no TERM: how the exit file says it ended */
		char buf[160];
		const struct rdb_tf_exit *x = &p->h.exit;
		if (!p->h.have_exit)
			snprintf(buf, sizeof buf, "+++ cut short: no exit file (rdb was killed) +++");
		else if (x->execd == 1)
			snprintf(buf, sizeof buf, "+++ exec'd another program +++");
		else if (x->how == RDB_TF_EXIT_SIGNAL)
			snprintf(buf, sizeof buf, "+++ killed by signal %d (%s)%s +++", x->value,
			         strsignal(x->value), x->cut ? ", cut short" : "");
		else
			snprintf(buf, sizeof buf, "+++ exited with %d%s +++", x->value,
			         x->cut ? ", cut short" : "");
		lane_add(&ev, M_EXIT, rdb_xstrdup(buf), NULL);
	}
	if (k <= p->n) {
		lane_draw(g, p, k, &sys, SYS_Y);
		lane_draw(g, p, k, &ev, EV_Y);
	}
	lane_clear(&sys);
	lane_clear(&ev);
	rdb_free(sys.m);
	rdb_free(ev.m);
	rdb_tr_close(sc);
}

static void process(struct page *g, const struct proc *p)
{
	FILE *f = g->out;
	fprintf(f, "<section class=\"proc\" id=\"p-%s\" data-id=\"%s\" data-cmd=\"", p->id, p->id);
	/* what the script puts before the interval number */
	esc(f, "rdb replay ");
	if (g->pid || p != g->ps)
		fprintf(f, "--pid %s ", p->id);
	fprintf(f, "\" data-dir=\"");
	shell_word(f, g->set);
	fprintf(f, "\" data-last=\"%llu\">\n<h2>process %s", (unsigned long long)p->last_complete,
	        p->id);
	if (p->h.have_proc)
		fprintf(f, " (parent pid %d)", p->h.proc.ppid);
	fputs(": ", f);
	for (size_t a = 0; a < p->h.argc; a++) {
		if (a)
			fputc(' ', f);
		esc(f, p->h.argv[a]);
	}
	fputs("</h2>\n", f);
	if (!p->h.have_random) {
		fputs("<p>not recorded (not built with rdb-cc)</p>\n</section>\n", f);
		return;
	}
	uint64_t nsig = 0;
	for (uint64_t i = 0; i < p->n; i++)
		nsig += p->iv[i].nsig;
	fprintf(f, "<p class=\"sum\">%llu intervals (%llu complete), %.3f ms CPU in the ended ones, "
	           "%llu signals delivered</p>\n",
	        (unsigned long long)p->n, (unsigned long long)p->last_complete,
	        (p->iv[p->n - 1].x0) / 1e6, (unsigned long long)nsig);
	/* inline SVG in HTML needs no namespace URL (the page names none) */
	fprintf(f, "<svg width=\"%d\" height=\"%d\">\n",
	        LEFT + PLOT_W + 110, SVG_H);
	axis(f, p);
	bands(f, p);
	marks(g, p);
	bytes_lane(f, p);
	fputs("</svg>\n</section>\n", f);
}

/* The trace bytes lane's colours, a stream each (more streams: grey). */
static const char *const stream_colours[] = {"#333", "#777", "#b8a", "#9c6", "#c96",
                                             "#69c", "#cc6", "#3a8", "#d62", "#96c"};

static const char *stream_colour(int s)
{
	return s < (int)(sizeof stream_colours / sizeof *stream_colours) ? stream_colours[s]
	                                                                  : "#aaa";
}

static const char style[] =
	"body{font:13px sans-serif;margin:12px;color:#222}\n"
	"h1{font-size:18px}h2{font-size:14px;margin:14px 0 2px}\n"
	"#cmd{background:#f4f4f4;border:1px solid #ccc;padding:6px;min-height:1.2em}\n"
	".iv.even{fill:#6f9fd8}.iv.odd{fill:#a8c6ec}.iv.inc{fill:#ccc}\n"
	".iv:hover,.mk:hover{stroke:#000;stroke-width:1}\n"
	".iv.sel{stroke:#d00;stroke-width:2}\n"
	".mk.sys{fill:#333}.mk.sig{fill:#d62}.mk.fork{fill:#2a2}.mk.exit{fill:#a0a}\n"
	".mk.out{fill:#888}.mk.agg{fill:#555;opacity:.6}\n"
	".ax{stroke:#999}.tk{font-size:10px;fill:#555}.ln{font-size:11px;fill:#333}\n"
	".key span{display:inline-block;width:10px;height:10px;margin:0 3px 0 10px}\n";

/* Clicking an interval (or a mark in it) shows its replay command; so
 * does opening the page at #p-ID-ivK (a link to interval K of process ID). */
static const char script[] =
	"function select(s, k) {\n"
	"  var last = +s.getAttribute('data-last'), c = document.getElementById('cmd');\n"
	"  var old = document.querySelector('.iv.sel');\n"
	"  if (old) old.classList.remove('sel');\n"
	"  var b = s.querySelector('.iv[data-iv=\"' + k + '\"]');\n"
	"  if (!b) return;\n"
	"  b.classList.add('sel');\n"
	"  var cmd = s.getAttribute('data-cmd') + '--from ' + k + ' ' + s.getAttribute('data-dir');\n"
	"  c.textContent = k <= last || k == 1 ? cmd :\n"
	"    'interval ' + k + ' is not complete: rdb replay --from accepts 1 to ' + last;\n"
	"  c.setAttribute('data-iv', k);\n"
	"}\n"
	"document.addEventListener('click', function (e) {\n"
	"  var t = e.target.closest ? e.target.closest('[data-iv]') : null;\n"
	"  if (t) select(t.closest('section'), +t.getAttribute('data-iv'));\n"
	"});\n"
	"var m = /^#p-(.+)-iv([0-9]+)$/.exec(location.hash);\n"
	"var ms = m && document.getElementById('p-' + m[1]);\n"
	"if (ms) select(ms, +m[2]);\n";

static void write_page(struct page *g)
{
	FILE *f = g->out;
	/* The policy forbids the page any load: only its inline style and script run. */
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n<title>rdb "
	      "timeline: ",
	      f);
	esc(f, g->set);
	fprintf(f, "</title>\n<style>\n%s", style);
	for (int s = 0; s < RDB_TF_NSTREAMS; s++)
		fprintf(f, ".s%d{fill:%s}", s, stream_colour(s));
	fputs("\n</style>\n</head><body>\n<h1>rdb timeline: ", f);
	esc(f, g->set);
	fputs("</h1>\n<p>Each process along its CPU time (the last interval's is not recorded: "
	      "drawn as long as the median one). Hover over an interval or a mark for what it "
	      "holds; click one for its replay command.",
	      f);
	fprintf(f, " An interval with more than %d marks in a lane, and every interval after "
	           "the first %d marks of a process, shows one mark counting them.</p>\n",
	        PER_IV, MAX_MARKS);
	fputs("<p class=\"key\">", f);
	const char *ks[] = {"#333", "syscall", "#d62", "signal", "#2a2", "fork child", "#a0a",
	                    "end", "#888", "child output, shared memory", "#ccc",
	                    "interval not complete"};
	for (int i = 0; i < 12; i += 2)
		fprintf(f, "<span style=\"background:%s\"></span>%s", ks[i], ks[i + 1]);
	fputs("<br>trace bytes:", f);
	for (int s = 0; s < RDB_TF_NSTREAMS; s++)
		fprintf(f, "<span style=\"background:%s\"></span>%s", stream_colour(s),
		        rdb_stream_names[s]);
	fputs("</p>\n<pre id=\"cmd\">(click an interval)</pre>\n", f);
	for (size_t i = 0; i < g->nps; i++)
		process(g, &g->ps[i]);
	fprintf(f, "<script>\n%s</script>\n</body></html>\n", script);
}

static const char timeline_help[] =
	"usage: rdb timeline [-o FILE.html] [--pid ID] DIR\n"
	"One self-contained HTML page of the trace set DIR (no network, nothing\n"
	"loaded: CSS, SVG and script inline): every process of the set along its\n"
	"CPU time, intervals as bands (CPU time, syscalls, signals, values bytes,\n"
	"trace bytes per stream on hover), syscalls, signals, fork children and\n"
	"the end as marks with rdb truss's text on hover; a click on an interval\n"
	"shows its rdb replay --from K command.  An interval with more than 16\n"
	"marks in a lane, and every interval after a process's first 2000 marks,\n"
	"gets one mark counting them.\n"
	"  -o FILE   write the page to FILE (default: DIR.html; - for stdout)\n"
	"  --pid ID  only process ID of a recorded tree (rdb ps)\n";

int rdb_cmd_timeline(int argc, char **argv)
{
	const char *out = NULL, *dir = NULL, *pid = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(timeline_help, stdout);
			return 0;
		}
		if (rdb_run_opt_arg(argc, argv, &i, "--output", "-o", &out) ||
		    rdb_run_opt_arg(argc, argv, &i, "--pid", NULL, &pid))
			continue;
		if ((argv[i][0] == '-' && argv[i][1]) || dir) {
			rdb_warn("unexpected argument '%s'", argv[i]);
			fputs(timeline_help, stderr);
			return 2;
		}
		dir = argv[i];
	}
	if (!dir) {
		fputs(timeline_help, stderr);
		return 2;
	}
	struct page g = {0};
	g.set = dir;
	g.pid = pid;
	load_set(&g);
	/* DIR.html by default: next to the set, not in it (rdb record -o DIR
	 * replaces a set, and a page there would outlive its trace) */
	char *def = NULL;
	if (!out) {
		size_t n = strlen(dir);
		while (n > 1 && dir[n - 1] == '/')
			n--;
		def = rdb_xmalloc(n + 6);
		memcpy(def, dir, n);
		strcpy(def + n, ".html");
	}
	const char *path = out ? out : def;
	/* written whole to a temporary file first: no half page on an error */
	char *tmp = NULL;
	if (strcmp(path, "-")) {
		tmp = rdb_xmalloc(strlen(path) + 8);
		sprintf(tmp, "%s.tmp", path);
		g.out = fopen(tmp, "w");
		if (!g.out)
			rdb_fatal("%s: %s", tmp, strerror(errno));
	} else
		g.out = stdout;
	write_page(&g);
	if (tmp) {
		if (ferror(g.out) | fclose(g.out))
			rdb_fatal("%s: write error", tmp);
		if (rename(tmp, path))
			rdb_fatal("%s: %s", path, strerror(errno));
		fprintf(stderr, "rdb: wrote %s\n", path);
	} else if (fflush(stdout) || ferror(stdout))
		rdb_fatal("stdout: write error");
	for (size_t i = 0; i < g.nps; i++) {
		rdb_header_free(&g.ps[i].h);
		rdb_free(g.ps[i].iv);
		rdb_free(g.ps[i].dir);
		rdb_free(g.ps[i].id);
	}
	rdb_free(g.ps);
	rdb_free(tmp);
	rdb_free(def);
	return 0;
}
