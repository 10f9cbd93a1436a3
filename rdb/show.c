/* show.c: rdb info (what a trace set holds) and rdb truss (its syscalls,
 * like strace, named by syscallgen's table). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rdb.h"
#include "rdb_syscalls.h"

static const char *one_dir(int argc, char **argv, const char *usage)
{
	const char *dir = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			exit(0);
		}
		if (argv[i][0] == '-' || dir) {
			rdb_warn("unexpected argument '%s'", argv[i]);
			fputs(usage, stderr);
			exit(2);
		}
		dir = argv[i];
	}
	if (!dir) {
		fputs(usage, stderr);
		exit(2);
	}
	return dir;
}

static const char *exit_text(const struct rdb_tf_exit *x, char *buf, size_t n)
{
	if (x->how == RDB_TF_EXIT_SIGNAL)
		snprintf(buf, n, "killed by signal %d (%s)", x->value, strsignal(x->value));
	else
		snprintf(buf, n, "exit status %d", x->value);
	return buf;
}

/* ---- intervals (info) ------------------------------------------------ */

struct ivinfo {
	uint64_t n;                /* intervals: BOUNDARY records + 1 */
	struct rdb_tf_boundary *b; /* b[k]: the start of interval k + 2 */
	uint64_t *vbytes;          /* per interval: VALUES_END nbytes, or NONE */
	uint64_t *sigs;            /* per interval: asynchronous signals */
	uint64_t complete;
	int forked;                /* a fork child: interval 1 is its parent's */
};
#define NONE UINT64_MAX
#define SHOWN 20 /* interval lines, then "..." */

static void read_boundaries(const char *dir, struct ivinfo *v)
{
	struct rdb_tr *r = rdb_tr_open(dir, RDB_TF_S_INTERVALS);
	uint32_t t;
	const void *p;
	size_t n, cap = 0;
	v->n = 1;
	while (rdb_tr_next(r, &t, &p, &n)) {
		if (t != RDB_TF_BOUNDARY || !rdb_rec_ok(t, p, n))
			rdb_fatal("%s: not a BOUNDARY record (type %u, %zu bytes)", rdb_tr_where(r), t, n);
		if (rdb_rec_interval(p) != v->n + 1)
			rdb_fatal("%s: BOUNDARY of interval %llu, expected %llu", rdb_tr_where(r),
			          (unsigned long long)rdb_rec_interval(p),
			          (unsigned long long)v->n + 1);
		if (v->n - 1 == cap) {
			cap = cap ? 2 * cap : 16;
			v->b = rdb_xrealloc(v->b, cap * sizeof *v->b);
		}
		memcpy(&v->b[v->n - 1], p, sizeof *v->b);
		v->n++;
	}
	rdb_tr_close(r);
}

/* VALUES_END and SIGNAL records of intervals 1..n, per interval. */
static void read_per_interval(const char *dir, struct ivinfo *v)
{
	v->vbytes = rdb_xmalloc(v->n * sizeof *v->vbytes);
	v->sigs = rdb_xmalloc(v->n * sizeof *v->sigs);
	for (uint64_t i = 0; i < v->n; i++)
		v->vbytes[i] = NONE, v->sigs[i] = 0;
	int streams[2] = {RDB_TF_S_VALUES, RDB_TF_S_SIGNALS};
	for (int k = 0; k < 2; k++) {
		struct rdb_tr *r = rdb_tr_open(dir, streams[k]);
		uint32_t t;
		const void *p;
		size_t n;
		while (rdb_tr_next(r, &t, &p, &n)) {
			uint64_t i = rdb_rec_ok(t, p, n) && n >= 8 ? rdb_rec_interval(p) : 0;
			if (i < 1 || i > v->n || !rdb_rec_in(t, streams[k]))
				rdb_fatal("%s: not a %s record of interval 1 to %llu (type %u, %zu bytes)",
				          rdb_tr_where(r), k ? "SIGNAL" : "VALUES",
				          (unsigned long long)v->n, t, n);
			struct rdb_tf_values_end e;
			if (t == RDB_TF_VALUES_END) {
				memcpy(&e, p, sizeof e);
				v->complete += v->vbytes[i - 1] == NONE;
				v->vbytes[i - 1] = e.nbytes;
			}
			v->sigs[i - 1] += t == RDB_TF_SIGNAL;
		}
		rdb_tr_close(r);
	}
}

/* Interval i's row: CPU ns (-1: not recorded, the last), syscalls (-1:
 * unknown), values bytes (NONE: incomplete), signals. */
struct row {
	int64_t cpu, sys;
	uint64_t vb, sigs;
	unsigned stretch; /* the interval's timer in multiples of -i */
};

static struct row iv_row(const struct ivinfo *v, uint64_t i, uint64_t nsys)
{
	uint64_t from = i > 1 ? v->b[i - 2].sc_id : 0;
	uint64_t to = i < v->n ? v->b[i - 1].sc_id : nsys;
	struct row r = {-1, -1, v->vbytes[i - 1], v->sigs[i - 1], 1};
	if (i > 1 && RDB_TF_B_STRETCH(v->b[i - 2].flags))
		r.stretch = RDB_TF_B_STRETCH(v->b[i - 2].flags);
	/* a fork child's interval 1 is its parent's run up to the fork:
	 * none of those syscalls are the child's */
	if (i == 1 && v->forked)
		from = to;
	if (i < v->n)
		r.cpu = (int64_t)v->b[i - 1].cpu_ns;
	if (to >= from)
		r.sys = (int64_t)(to - from);
	return r;
}

static void print_interval(const struct ivinfo *v, uint64_t i, uint64_t nsys, int stretched)
{
	struct row r = iv_row(v, i, nsys);
	char cpu[32] = "-", sys[32] = "?", vb[32] = "-";
	if (r.cpu >= 0)
		snprintf(cpu, sizeof cpu, "%.1f", (double)r.cpu / 1e6);
	if (r.sys >= 0)
		snprintf(sys, sizeof sys, "%lld", (long long)r.sys);
	if (r.vb != NONE)
		snprintf(vb, sizeof vb, "%llu", (unsigned long long)r.vb);
	printf("            %8llu %10s %10s %13s %8llu", (unsigned long long)i, cpu, sys, vb,
	       (unsigned long long)r.sigs);
	if (stretched)
		printf(" %7u", r.stretch);
	printf("\n");
}

/* The typical interval: the median CPU time of those the timer ended (the
 * length given to rdb record is not in the trace). */
static double median_ms(const struct ivinfo *v)
{
	uint64_t m[64], k = 0;
	for (uint64_t i = 0; i + 1 < v->n && k < 64; i++)
		if (!(v->b[i].flags & RDB_TF_B_OVERFLOW))
			m[k++] = v->b[i].cpu_ns;
	for (uint64_t i = 1; i < k; i++) /* insertion sort: at most 64 */
		for (uint64_t j = i; j > 0 && m[j - 1] > m[j]; j--) {
			uint64_t x = m[j];
			m[j] = m[j - 1];
			m[j - 1] = x;
		}
	return k ? (double)m[k / 2] / 1e6 : -1;
}

/* What rdb info says, read once, then printed as text or as JSON: the
 * same facts either way. */
struct info {
	const char *dir;
	struct rdb_header h;
	char bid[129], started[64];
	uint64_t traps, cuts, forks, spawns, stopped, couts, cbytes, shareds, sbytes, nds;
	uint64_t stack_ivs; /* intervals with STACK_WRITTEN records */
	struct ivinfo v;
	uint64_t n, nsys; /* intervals; syscalls up to the end */
	double ms;        /* median_ms */
	int sums;
	uint64_t frames[RDB_TF_NSTREAMS], raw[RDB_TF_NSTREAMS], file[RDB_TF_NSTREAMS];
	/* threads (docs/threads.md): made, ended, switches by reason, and
	 * switches per interval (the first SHOWN) */
	uint64_t th_made, th_ended, th_refused, sw[4], sw_iv[SHOWN + 1], sw_ivmax;
	/* boundaries taken while threads lived (THCTX records: the last
	 * one's interval), and their parked threads by kind */
	uint64_t thb, thb_last, park[5];
};

static void read_info(const char *dir, struct info *in)
{
	memset(in, 0, sizeof *in);
	in->dir = dir;
	struct rdb_header *h = &in->h;
	rdb_read_header(dir, h);
	snprintf(in->bid, sizeof in->bid, "(none)");
	for (size_t i = 0; i < h->buildid_len; i++)
		sprintf(in->bid + 2 * i, "%02x", h->buildid[i]);
	time_t t0 = (time_t)h->start.sec;
	struct tm tm;
	if (!localtime_r(&t0, &tm) ||
	    !strftime(in->started, sizeof in->started, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(in->started, sizeof in->started, "%lld s after the epoch",
		         (long long)h->start.sec);
	struct rdb_tr *sc = rdb_tr_open(dir, RDB_TF_S_SYSCALLS);
	uint32_t type;
	const void *p;
	size_t n;
	while (rdb_tr_next(sc, &type, &p, &n)) {
		if (type == RDB_TF_TRAP) {
			in->traps++;
			struct rdb_tf_trap t;
			if (n >= sizeof t) {
				memcpy(&t, p, sizeof t);
				in->cuts += t.ret == RDB_TF_RET_CUT;
			}
		} else if (type == RDB_TF_CHILD_OUTPUT && rdb_rec_ok(type, p, n))
			in->couts++, in->cbytes += n - sizeof(struct rdb_tf_child_output);
		else if (type == RDB_TF_SHARED && rdb_rec_ok(type, p, n))
			in->shareds++, in->sbytes += n - sizeof(struct rdb_tf_shared);
		else if (type == RDB_TF_THREAD && rdb_rec_ok(type, p, n)) {
			struct rdb_tf_thread th;
			memcpy(&th, p, sizeof th);
			in->th_made += th.kind == RDB_TF_TH_CREATED;
			in->th_ended += th.kind == RDB_TF_TH_EXITED;
			in->th_refused += th.kind == RDB_TF_TH_REFUSED;
		} else if (type == RDB_TF_THCTX && rdb_rec_ok(type, p, n)) {
			struct rdb_tf_thctx c;
			memcpy(&c, p, sizeof c);
			if (c.interval != in->thb_last)
				in->thb++, in->thb_last = c.interval;
			in->park[c.how < 5 ? c.how : 0]++;
		} else if (type == RDB_TF_SWITCH && rdb_rec_ok(type, p, n)) {
			struct rdb_tf_switch w;
			memcpy(&w, p, sizeof w);
			in->sw[w.why < 4 ? w.why : 0]++;
			if (w.interval >= 1 && w.interval <= SHOWN)
				in->sw_iv[w.interval]++;
			if (w.interval > in->sw_ivmax)
				in->sw_ivmax = w.interval;
		} else if (type == RDB_TF_NOTE && n == sizeof(struct rdb_tf_note)) {
			struct rdb_tf_note no;
			memcpy(&no, p, sizeof no);
			in->forks += no.kind == RDB_TF_NOTE_FORK;
			in->spawns += no.kind == RDB_TF_NOTE_SPAWN;
			in->stopped += no.kind == RDB_TF_NOTE_STOPPED;
		}
	}
	rdb_tr_close(sc);
	struct rdb_tr *nd = rdb_tr_open(dir, RDB_TF_S_NONDET);
	while (rdb_tr_next(nd, &type, &p, &n))
		in->nds += type == RDB_TF_NONDET;
	rdb_tr_close(nd);
	/* each interval the kernel told about has one or more, in order */
	struct rdb_tr *wr = rdb_tr_open(dir, RDB_TF_S_WRITTEN);
	uint64_t last = 0;
	while (rdb_tr_next(wr, &type, &p, &n)) {
		struct rdb_tf_written w;
		if (type != RDB_TF_STACK_WRITTEN || !rdb_rec_ok(type, p, n))
			continue;
		memcpy(&w, p, sizeof w);
		in->stack_ivs += w.interval != last;
		last = w.interval;
	}
	rdb_tr_close(wr);
	in->nsys = h->have_exit ? h->exit.nsyscalls : in->traps;
	struct ivinfo *v = &in->v;
	read_boundaries(dir, v);
	/* A fork child's syscall ids go on from its parent's (the fork is
	 * boundary 2's sc_id), while its count is its own: the end of its
	 * last interval is that id plus the count. */
	v->forked = h->have_proc && (h->proc.flags & RDB_TF_PROC_FORKED) && v->n > 1;
	if (v->forked)
		in->nsys += v->b[0].sc_id;
	read_per_interval(dir, v);
	/* a BOUNDARY where the recording stopped starts no interval */
	in->n = v->n > 1 && (v->b[v->n - 2].flags & RDB_TF_B_UNTRACED) ? v->n - 1 : v->n;
	in->ms = median_ms(v);
	in->sums = v->n > 1 && (v->b[0].flags & RDB_TF_B_CHECKSUM);
	for (int i = 0; i < RDB_TF_NSTREAMS; i++) {
		struct rdb_tr *r = rdb_tr_open(dir, i);
		rdb_tr_stats(r, &in->frames[i], &in->raw[i], &in->file[i]);
		rdb_tr_close(r);
	}
}

static void free_info(struct info *in)
{
	rdb_free(in->v.b);
	rdb_free(in->v.vbytes);
	rdb_free(in->v.sigs);
	rdb_header_free(&in->h);
}

static double wall_secs(const struct rdb_header *h)
{
	return ((double)h->exit.end_sec - (double)h->start.sec) +
	       ((double)h->exit.end_nsec - (double)h->start.nsec) / 1e9;
}

static void print_text(const struct info *in)
{
	const struct rdb_header *h = &in->h;
	printf("trace:      %s (format %d)\n", in->dir, RDB_TF_VERSION);
	printf("program:    %s\nbuild-id:   %s\n", h->exe, in->bid);
	printf("argv:      ");
	for (size_t i = 0; i < h->argc; i++)
		printf(" %s", h->argv[i]);
	printf("\nenvironment: %zu variables\n", h->envc);
	if (h->machine)
		printf("machine:    %s\n", h->machine);
	printf("started:    %s, pid %d\n", in->started, h->start.pid);
	printf("syscalls:   %llu", (unsigned long long)in->traps);
	if (in->cuts) /* one record each time, with its own number */
		printf(" (%llu of them cut short by a signal, then run again after its handler)",
		       (unsigned long long)in->cuts);
	printf("\n");
	printf("nondeterministic instructions: %llu\n", (unsigned long long)in->nds);
	char eb[128];
	if (h->have_exit) {
		printf("ended:      %s\n", exit_text(&h->exit, eb, sizeof eb));
		printf("wall time:  %.3f s\n", wall_secs(h));
		if (h->exit.cut)
			printf("cut short:  yes: the program ended without its runtime's last "
			       "record (%s); the trace holds what was sent until then\n",
			       exit_text(&h->exit, eb, sizeof eb));
		else
			printf("cut short:  no\n");
	} else {
		printf("ended:      unknown\n");
		printf("cut short:  yes: no exit file (rdb record itself was killed)\n");
	}
	printf("not traced:");
	int none = 1;
	if (in->forks)
		printf(" %llu fork child%s (ran untraced; their writes to stdout and stderr "
		       "and to shared memory are recorded);",
		       (unsigned long long)in->forks, in->forks == 1 ? "" : "ren"), none = 0;
	if (in->spawns)
		printf(" %llu clone call%s of a thread refused with ENOSYS;",
		       (unsigned long long)in->spawns, in->spawns == 1 ? "" : "s"), none = 0;
	char *nset = NULL, *next = NULL;
	if (h->have_exit && h->exit.execd == 1) {
		next = rdb_tree_next_image(in->dir, h->start.pid, &nset);
		if (!next)
			printf(" the program exec'd another program, which ran untraced;"), none = 0;
	}
	if (h->have_exit && h->exit.execd == 2)
		printf(" the rest of the run, after %s;", in->stopped ?
		       "the runtime could not go on recording (see the message the recording printed)" :
		       "an interval reached 2^40 counts (or the test knob's span) with no "
		       "boundary possible (SIC overflow)"),
		    none = 0;
	printf("%s\n", none ? " nothing" : "");
	if (next) {
		printf("exec'd:     the program it exec'd is process %s of the set (rdb replay "
		       "--pid %s %s)\n", next, next, nset);
		rdb_free(next), rdb_free(nset);
	}
	if (in->couts || in->forks)
		printf("child output: %llu writes, %llu bytes (replayed)\n",
		       (unsigned long long)in->couts, (unsigned long long)in->cbytes);
	if (in->shareds)
		printf("shared memory: %llu changes by others, %llu bytes (replayed)\n",
		       (unsigned long long)in->shareds, (unsigned long long)in->sbytes);
	if (in->th_made || in->sw[0] + in->sw[1] + in->sw[2] + in->sw[3]) {
		printf("threads:    %llu created, %llu exited; %llu switches (%llu at the end of a "
		       "time slice, %llu at a syscall that may block, %llu at a thread's end)%s\n",
		       (unsigned long long)in->th_made, (unsigned long long)in->th_ended,
		       (unsigned long long)(in->sw[0] + in->sw[1] + in->sw[2] + in->sw[3]), (unsigned long long)in->sw[1],
		       (unsigned long long)in->sw[2], (unsigned long long)in->sw[3],
		       h->record_flags & RDB_TF_HELLO_CHAOS ? "; recorded with --chaos" : "");
		printf("switches per interval:");
		for (uint64_t i = 1; i <= in->sw_ivmax && i <= SHOWN; i++)
			printf(" %llu: %llu%s", (unsigned long long)i, (unsigned long long)in->sw_iv[i],
			       i < in->sw_ivmax && i < SHOWN ? "," : "");
		printf("%s\n", in->sw_ivmax > SHOWN ? " ..." : "");
		if (in->th_refused)
			printf("threads refused: %llu (the clone failed; replayed as it failed)\n",
			       (unsigned long long)in->th_refused);
	}
	if (in->thb)
		printf("boundaries while threads lived: %llu (threads parked there: %llu after a time "
		       "slice, %llu in a syscall that may block, %llu not started yet)\n",
		       (unsigned long long)in->thb, (unsigned long long)in->park[RDB_TF_PARK_SLICE],
		       (unsigned long long)in->park[RDB_TF_PARK_BLOCKED],
		       (unsigned long long)in->park[RDB_TF_PARK_NEW]);
	printf("intervals:  %llu (%llu complete)", (unsigned long long)in->n,
	       (unsigned long long)in->v.complete);
	if (in->ms >= 0)
		printf("; each about %.1f ms of CPU (median of the timer-ended ones)", in->ms);
	int stretched = (h->record_flags & RDB_TF_HELLO_STRETCH) != 0;
	if (stretched)
		printf("; made longer where the boundaries' page faults cost more (--stretch)");
	printf("\n");
	if (in->stack_ivs)
		printf("stack pages: the main stack's written pages known for %llu of %llu "
		       "intervals\n", (unsigned long long)in->stack_ivs, (unsigned long long)in->n);
	else
		printf("stack pages: not known (rdb record --no-stack-pages, or a kernel without "
		       "userfaultfd write-protect and PAGEMAP_SCAN)\n");
	printf("checksums:  %s\n", in->sums ? "yes" : "no");
	printf("            %8s %10s %10s %13s %8s%s\n", "interval", "CPU ms", "syscalls",
	       "values bytes", "signals", stretched ? "    x -i" : "");
	for (uint64_t i = 1; i <= in->n && i <= SHOWN; i++)
		print_interval(&in->v, i, in->nsys, stretched);
	if (in->n > SHOWN)
		printf("            ...\n");
	printf("streams:    %-10s %8s %12s %12s\n", "name", "frames", "raw bytes", "file bytes");
	for (int i = 0; i < RDB_TF_NSTREAMS; i++)
		printf("            %-10s %8llu %12llu %12llu\n", rdb_stream_names[i],
		       (unsigned long long)in->frames[i], (unsigned long long)in->raw[i],
		       (unsigned long long)in->file[i]);
}

/* A JSON string. */
static void jstr(const char *s)
{
	putchar('"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 32)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void jnum(const char *key, uint64_t v, const char *sep)
{
	printf("\"%s\": %llu%s", key, (unsigned long long)v, sep);
}

/* rdb info --json: print_text's facts, named; every interval's row (the
 * text shows the first 20); null where the text says "-" or "?". */
static void print_json(const struct info *in)
{
	const struct rdb_header *h = &in->h;
	char eb[128];
	printf("{\n  \"trace\": ");
	jstr(in->dir);
	printf(",\n  \"format\": %d,\n  \"program\": ", RDB_TF_VERSION);
	jstr(h->exe);
	printf(",\n  \"build_id\": ");
	if (h->buildid_len)
		jstr(in->bid);
	else
		printf("null");
	printf(",\n  \"argv\": [");
	for (size_t i = 0; i < h->argc; i++) {
		printf(i ? ", " : "");
		jstr(h->argv[i]);
	}
	printf("],\n  ");
	jnum("environment_variables", h->envc, ",\n  ");
	printf("\"machine\": ");
	if (h->machine)
		jstr(h->machine);
	else
		printf("null");
	printf(",\n  \"started\": ");
	jstr(in->started);
	printf(",\n  \"started_epoch\": %lld.%09lld,\n  \"pid\": %d,\n  ", (long long)h->start.sec,
	       (long long)h->start.nsec, h->start.pid);
	jnum("syscalls", in->traps, ",\n  ");
	jnum("syscalls_cut_short", in->cuts, ",\n  ");
	jnum("nondeterministic_instructions", in->nds, ",\n  ");
	printf("\"ended\": ");
	if (h->have_exit) {
		printf("{\"how\": \"%s\", \"value\": %d, \"text\": ",
		       h->exit.how == RDB_TF_EXIT_SIGNAL ? "signal" : "exit", h->exit.value);
		jstr(exit_text(&h->exit, eb, sizeof eb));
		printf("},\n  \"wall_time_s\": %.3f,\n  \"cut_short\": %s,\n  ", wall_secs(h),
		       h->exit.cut ? "true" : "false");
	} else
		printf("null,\n  \"wall_time_s\": null,\n  \"cut_short\": true,\n  ");
	printf("\"not_traced\": {");
	jnum("fork_children", in->forks, ", ");
	jnum("thread_clones_refused", in->spawns, ", ");
	printf("\"execd\": %s, \"stopped\": %s},\n  ",
	       h->have_exit && h->exit.execd == 1 ? "true" : "false",
	       h->have_exit && h->exit.execd == 2 ? "true" : "false");
	printf("\"child_output\": {");
	jnum("writes", in->couts, ", ");
	jnum("bytes", in->cbytes, "},\n  ");
	printf("\"shared_memory\": {");
	jnum("changes", in->shareds, ", ");
	jnum("bytes", in->sbytes, "},\n  ");
	printf("\"threads\": {"); /* the text's threads line; zeros without threads */
	jnum("created", in->th_made, ", ");
	jnum("exited", in->th_ended, ", ");
	jnum("refused", in->th_refused, ", ");
	jnum("switches", in->sw[0] + in->sw[1] + in->sw[2] + in->sw[3], ", ");
	jnum("slice_ends", in->sw[1], ", ");
	jnum("may_block", in->sw[2], ", ");
	jnum("thread_ends", in->sw[3], "},\n  ");
	jnum("intervals", in->n, ",\n  ");
	jnum("complete", in->v.complete, ",\n  ");
	if (in->ms >= 0)
		printf("\"median_cpu_ms\": %.1f,\n  ", in->ms);
	else
		printf("\"median_cpu_ms\": null,\n  ");
	printf("\"stretched\": %s,\n  ", h->record_flags & RDB_TF_HELLO_STRETCH ? "true" : "false");
	jnum("stack_pages_intervals", in->stack_ivs, ",\n  ");
	printf("\"checksums\": %s,\n  \"interval_table\": [", in->sums ? "true" : "false");
	for (uint64_t i = 1; i <= in->n; i++) {
		struct row r = iv_row(&in->v, i, in->nsys);
		printf("%s\n    {\"interval\": %llu, \"cpu_ms\": ", i > 1 ? "," : "",
		       (unsigned long long)i);
		if (r.cpu >= 0)
			printf("%.1f", (double)r.cpu / 1e6);
		else
			printf("null");
		if (r.sys >= 0)
			printf(", \"syscalls\": %lld", (long long)r.sys);
		else
			printf(", \"syscalls\": null");
		if (r.vb != NONE)
			printf(", \"values_bytes\": %llu", (unsigned long long)r.vb);
		else
			printf(", \"values_bytes\": null");
		printf(", \"signals\": %llu, \"stretch\": %u}", (unsigned long long)r.sigs, r.stretch);
	}
	printf("\n  ],\n  \"streams\": [");
	for (int i = 0; i < RDB_TF_NSTREAMS; i++) {
		printf("%s\n    {\"name\": \"%s\", ", i ? "," : "", rdb_stream_names[i]);
		jnum("frames", in->frames[i], ", ");
		jnum("raw_bytes", in->raw[i], ", ");
		jnum("file_bytes", in->file[i], "}");
	}
	printf("\n  ]\n}\n");
}

static const char info_help[] =
	"usage: rdb info [--json] [--pid ID] DIR\n"
	"       rdb info --complete [--pid ID] DIR\n"
	"What the trace set DIR holds: the program, its syscalls, how it ended,\n"
	"bytes per stream, what was not traced.\n"
	"  --json      the same facts as one JSON object (every interval's row,\n"
	"              where the text shows the first 20), for scripts\n"
	"  --complete  print only the number of the last complete interval (the\n"
	"              last K that rdb replay --from K accepts; 0: no interval is)\n"
	"  --pid ID    process ID of a recorded tree (rdb ps DIR lists them)\n";

int rdb_cmd_info(int argc, char **argv)
{
	int complete = 0, json = 0, na = 1;
	for (int i = 1; i < argc; i++) /* one_dir sees the other arguments */
		if (!strcmp(argv[i], "--complete"))
			complete = 1;
		else if (!strcmp(argv[i], "--json"))
			json = 1;
		else
			argv[na++] = argv[i];
	argc = na;
	const char *dir = one_dir(argc, argv, info_help);
	if (complete) {
		struct rdb_header h;
		rdb_read_header(dir, &h);
		struct rdb_ivx *x = rdb_ivx_read(dir);
		printf("%llu\n", (unsigned long long)rdb_feed_last_complete(dir, x));
		rdb_ivx_free(x);
		rdb_header_free(&h);
		return 0;
	}
	struct info in;
	read_info(dir, &in);
	if (json)
		print_json(&in);
	else
		print_text(&in);
	free_info(&in);
	return 0;
}

static void print_arg(FILE *f, const struct rdb_sys_info *si, int k, int64_t v)
{
	switch (si ? si->arg_kind[k] : RDB_ARG_LONG) {
	case RDB_ARG_INT: fprintf(f, "%d", (int)v); break;
	case RDB_ARG_UINT: fprintf(f, "%u", (unsigned)v); break;
	case RDB_ARG_ULONG: fprintf(f, "%llu", (unsigned long long)v); break;
	case RDB_ARG_PTR:
	case RDB_ARG_STR:
		if (v)
			fprintf(f, "0x%llx", (unsigned long long)v);
		else
			fprintf(f, "NULL");
		break;
	default: fprintf(f, "%lld", (long long)v);
	}
}

/* One record of the syscalls stream, strace-like. */
static void show_trap(FILE *f, const struct rdb_tf_trap *t, int thread);

/* The thread holding the token where truss is (-1: no thread seen yet,
 * the program's syscalls are not named by thread). */
static int truss_thread = -1;

void rdb_show_record(FILE *f, struct rdb_tr *sc, uint32_t type, const void *p, size_t n)
{
	if (type == RDB_TF_THREAD && rdb_rec_ok(type, p, n)) {
		struct rdb_tf_thread th;
		memcpy(&th, p, sizeof th);
		if (truss_thread < 0)
			truss_thread = (int)th.parent;
		if (th.kind == RDB_TF_TH_CREATED)
			fprintf(f, "--- thread %u creates thread %u ---\n", th.parent, th.slot);
		else if (th.kind == RDB_TF_TH_REFUSED)
			fprintf(f, "--- thread %u: clone failed, no thread made ---\n", th.parent);
		else
			fprintf(f, "--- thread %u (tid %d) exits ---\n", th.slot, th.tid);
		return;
	}
	if (type == RDB_TF_SWITCH && rdb_rec_ok(type, p, n)) {
		struct rdb_tf_switch w;
		memcpy(&w, p, sizeof w);
		static const char *const why[] = {"?", "time slice", "may block", "exit"};
		fprintf(f, "--- thread %u -> thread %u (%s, at count %llu) ---\n", w.from, w.to,
		       why[w.why < 4 ? w.why : 0], (unsigned long long)w.sic);
		truss_thread = (int)w.to;
		return;
	}
	if (type == RDB_TF_TERM && n == sizeof(struct rdb_tf_term)) {
		struct rdb_tf_term t;
		memcpy(&t, p, sizeof t);
		if (t.signo)
			fprintf(f, "+++ killed by signal %d (%s) +++\n", t.signo, strsignal(t.signo));
		else
			fprintf(f, "+++ exited with %d +++\n", t.status);
		return;
	}
	if (type == RDB_TF_NOTE && n == sizeof(struct rdb_tf_note)) {
		struct rdb_tf_note no;
		memcpy(&no, p, sizeof no);
		if (no.kind == RDB_TF_NOTE_FORK)
			fprintf(f, "--- child %lld runs untraced ---\n", (long long)no.value);
		return;
	}
	if (type == RDB_TF_CHILD_OUTPUT && rdb_rec_ok(type, p, n)) {
		struct rdb_tf_child_output c;
		memcpy(&c, p, sizeof c);
		const unsigned char *b = (const unsigned char *)p + sizeof c;
		size_t len = n - sizeof c;
		fprintf(f, "--- child %d wrote %zu bytes to %s: \"", c.pid, len,
		        c.fd == 1 ? "stdout" : "stderr");
		for (size_t i = 0; i < len && i < 32; i++)
			if (b[i] == '\n')
				fprintf(f, "\\n");
			else if (b[i] == '"' || b[i] == '\\')
				fprintf(f, "\\%c", b[i]);
			else if (b[i] >= 32 && b[i] < 127)
				fputc(b[i], f);
			else
				fprintf(f, "\\x%02x", b[i]);
		fprintf(f, "\"%s ---\n", len > 32 ? "..." : "");
		return;
	}
	if (type == RDB_TF_SHARED && rdb_rec_ok(type, p, n)) {
		struct rdb_tf_shared s;
		memcpy(&s, p, sizeof s);
		fprintf(f, "--- shared memory changed by others: %llu bytes at 0x%llx ---\n",
		        (unsigned long long)s.len, (unsigned long long)s.addr);
		return;
	}
	if ((type == RDB_TF_BOUNDARY || type == RDB_TF_SIGNAL) && rdb_rec_ok(type, p, n)) {
		if (type == RDB_TF_BOUNDARY)
			fprintf(f, "--- interval %llu ---\n", (unsigned long long)rdb_rec_interval(p));
		else {
			struct rdb_tf_signal g;
			memcpy(&g, p, sizeof g);
			fprintf(f, "--- signal %d (%s) delivered ---\n", g.signo, strsignal(g.signo));
		}
		return;
	}
	if (type != RDB_TF_TRAP)
		return;
	struct rdb_tf_trap t;
	if (n != sizeof t)
		rdb_fatal("%s: TRAP record of %zu bytes", rdb_tr_where(sc), n);
	memcpy(&t, p, sizeof t);
	show_trap(f, &t, truss_thread);
}

void rdb_show_trap(FILE *f, const struct rdb_tf_trap *t) { show_trap(f, t, -1); }

/* thread >= 0: the thread that made the call, named at the end. */
static void show_trap(FILE *f, const struct rdb_tf_trap *t, int thread)
{
	const struct rdb_sys_info *si = rdb_sys_info(t->nr);
	const char *name = rdb_sys_name(t->nr);
	int nargs = si && si->name ? si->nargs : 6;
	fprintf(f, "#%llu ", (unsigned long long)t->id);
	if (name)
		fprintf(f, "%s(", name);
	else
		fprintf(f, "syscall_%lld(", (long long)t->nr);
	for (int k = 0; k < nargs; k++) {
		if (k)
			fprintf(f, ", ");
		print_arg(f, si, k, t->args[k]);
	}
	if (t->ret == RDB_TF_RET_CUT) {
		fprintf(f, ") = ? <cut short by a signal: run again after its handler>");
	} else if (t->ret < 0 && t->ret > -4096) {
		const char *en = strerrorname_np((int)-t->ret);
		fprintf(f, ") = -1 %s (%s)", en ? en : "?", strerror((int)-t->ret));
	} else if (t->ret > 0xffff || t->ret < -0xffff)
		fprintf(f, ") = 0x%llx", (unsigned long long)t->ret);
	else
		fprintf(f, ") = %lld", (long long)t->ret);
	if (t->ndata)
		fprintf(f, " <%u region%s written>", t->ndata, t->ndata == 1 ? "" : "s");
	if (thread >= 0)
		fprintf(f, " [thread %d]", thread);
	fprintf(f, "\n");
}

static const char truss_help[] =
	"usage: rdb truss [--pid ID] DIR [K]\n"
	"Every recorded syscall: id, name, arguments, return value and the bytes\n"
	"the kernel wrote (like strace); interval boundaries and asynchronous\n"
	"signals as '---' lines.  With K: only the syscalls of interval K.\n"
	"  --pid ID  process ID of a recorded tree (rdb ps DIR lists them)\n";

/* Positions sc after BOUNDARY(k) (k >= 2), through the ivindex. */
static void truss_seek(const char *dir, struct rdb_tr *sc, uint64_t k)
{
	struct rdb_ivx *x = rdb_ivx_read(dir);
	if (!rdb_tr_seek_interval(sc, x, k))
		rdb_fatal("%s: no interval %llu: the trace has %llu", dir, (unsigned long long)k,
		          (unsigned long long)rdb_ivx_last(x, RDB_TF_S_SYSCALLS));
	rdb_ivx_free(x);
	uint32_t t;
	const void *p;
	size_t n;
	if (!rdb_tr_next(sc, &t, &p, &n) || t != RDB_TF_BOUNDARY || !rdb_rec_ok(t, p, n) ||
	    rdb_rec_interval(p) != k)
		rdb_fatal("%s: the frame of interval %llu does not start with its BOUNDARY",
		          rdb_tr_where(sc), (unsigned long long)k);
}

static const char *truss_args(int argc, char **argv, uint64_t *k)
{
	const char *dir = NULL, *ks = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(truss_help, stdout);
			exit(0);
		}
		if (argv[i][0] == '-' || (dir && ks)) {
			rdb_warn("unexpected argument '%s'", argv[i]);
			fputs(truss_help, stderr);
			exit(2);
		}
		*(dir ? &ks : &dir) = argv[i];
	}
	if (!dir) {
		fputs(truss_help, stderr);
		exit(2);
	}
	char *e;
	*k = ks ? strtoull(ks, &e, 10) : 0;
	if (ks && (!*ks || *e || *k == 0 || !strchr("0123456789", *ks)))
		rdb_fatal("%s: interval '%s': intervals count from 1", dir, ks);
	return dir;
}

int rdb_cmd_truss(int argc, char **argv)
{
	uint64_t k;
	const char *dir = truss_args(argc, argv, &k);
	struct rdb_header h;
	rdb_read_header(dir, &h);
	struct rdb_tr *sc = rdb_tr_open(dir, RDB_TF_S_SYSCALLS);
	if (k >= 2)
		truss_seek(dir, sc, k);
	uint32_t type;
	const void *p;
	size_t n;
	int more = 0;
	while ((more = rdb_tr_next(sc, &type, &p, &n))) {
		if (k && type == RDB_TF_BOUNDARY)
			break;
		rdb_show_record(stdout, sc, type, p, n);
	}
	if (!more && h.have_exit && h.exit.cut)
		printf("+++ cut short +++\n");
	rdb_tr_close(sc);
	rdb_header_free(&h);
	return 0;
}
