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

static void print_interval(const struct ivinfo *v, uint64_t i, uint64_t nsys)
{
	uint64_t from = i > 1 ? v->b[i - 2].sc_id : 0;
	uint64_t to = i < v->n ? v->b[i - 1].sc_id : nsys;
	char cpu[32] = "-", sys[32] = "?", vb[32] = "-";
	if (i < v->n)
		snprintf(cpu, sizeof cpu, "%.1f", (double)v->b[i - 1].cpu_ns / 1e6);
	if (to >= from)
		snprintf(sys, sizeof sys, "%llu", (unsigned long long)(to - from));
	if (v->vbytes[i - 1] != NONE)
		snprintf(vb, sizeof vb, "%llu", (unsigned long long)v->vbytes[i - 1]);
	printf("            %8llu %10s %10s %13s %8llu\n", (unsigned long long)i, cpu, sys, vb,
	       (unsigned long long)v->sigs[i - 1]);
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

static void show_intervals(const char *dir, uint64_t nsys)
{
	struct ivinfo v;
	memset(&v, 0, sizeof v);
	read_boundaries(dir, &v);
	read_per_interval(dir, &v);
	/* a BOUNDARY where the recording stopped starts no interval */
	uint64_t n = v.n > 1 && (v.b[v.n - 2].flags & RDB_TF_B_UNTRACED) ? v.n - 1 : v.n;
	printf("intervals:  %llu (%llu complete)", (unsigned long long)n,
	       (unsigned long long)v.complete);
	double ms = median_ms(&v);
	if (ms >= 0)
		printf("; each about %.1f ms of CPU (median of the timer-ended ones)", ms);
	printf("\n");
	int sums = v.n > 1 && (v.b[0].flags & RDB_TF_B_CHECKSUM);
	printf("checksums:  %s\n", sums ? "yes" : "no");
	printf("            %8s %10s %10s %13s %8s\n", "interval", "CPU ms", "syscalls",
	       "values bytes", "signals");
	for (uint64_t i = 1; i <= n && i <= SHOWN; i++)
		print_interval(&v, i, nsys);
	if (n > SHOWN)
		printf("            ...\n");
	rdb_free(v.b);
	rdb_free(v.vbytes);
	rdb_free(v.sigs);
}

static const char info_help[] =
	"usage: rdb info DIR\n"
	"       rdb info --complete DIR\n"
	"What the trace set DIR holds: the program, its syscalls, how it ended,\n"
	"bytes per stream, what was not traced.\n"
	"  --complete  print only the number of the last complete interval (the\n"
	"              last K that rdb replay --from K accepts; 0: no interval is)\n";

int rdb_cmd_info(int argc, char **argv)
{
	int complete = 0, na = 1;
	for (int i = 1; i < argc; i++) /* one_dir sees the other arguments */
		if (!strcmp(argv[i], "--complete"))
			complete = 1;
		else
			argv[na++] = argv[i];
	argc = na;
	const char *dir = one_dir(argc, argv, info_help);
	struct rdb_header h;
	rdb_read_header(dir, &h);
	if (complete) {
		struct rdb_ivx *x = rdb_ivx_read(dir);
		printf("%llu\n", (unsigned long long)rdb_feed_last_complete(dir, x));
		rdb_ivx_free(x);
		rdb_header_free(&h);
		return 0;
	}
	printf("trace:      %s (format %d)\n", dir, RDB_TF_VERSION);
	char bid[129] = "(none)";
	for (size_t i = 0; i < h.buildid_len; i++)
		sprintf(bid + 2 * i, "%02x", h.buildid[i]);
	printf("program:    %s\nbuild-id:   %s\n", h.exe, bid);
	printf("argv:      ");
	for (size_t i = 0; i < h.argc; i++)
		printf(" %s", h.argv[i]);
	printf("\nenvironment: %zu variables\n", h.envc);
	if (h.machine)
		printf("machine:    %s\n", h.machine);
	time_t t0 = (time_t)h.start.sec;
	struct tm tm;
	char tb[64];
	if (!localtime_r(&t0, &tm) || !strftime(tb, sizeof tb, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(tb, sizeof tb, "%lld s after the epoch", (long long)h.start.sec);
	printf("started:    %s, pid %d\n", tb, h.start.pid);

	uint64_t traps = 0, cuts = 0, forks = 0, spawns = 0, stopped = 0, execs = 0, terms = 0;
	uint64_t couts = 0, cbytes = 0, shareds = 0, sbytes = 0;
	/* threads (docs/threads.md): made, ended, switches by reason, and
	 * switches per interval (the first SHOWN) */
	uint64_t th_made = 0, th_ended = 0, sw[4] = {0}, sw_iv[SHOWN + 1] = {0}, sw_ivmax = 0;
	struct rdb_tr *sc = rdb_tr_open(dir, RDB_TF_S_SYSCALLS);
	uint32_t type;
	const void *p;
	size_t n;
	while (rdb_tr_next(sc, &type, &p, &n)) {
		if (type == RDB_TF_TRAP) {
			traps++;
			struct rdb_tf_trap t;
			if (n >= sizeof t) {
				memcpy(&t, p, sizeof t);
				cuts += t.ret == RDB_TF_RET_CUT;
			}
		} else if (type == RDB_TF_EXEC)
			execs++;
		else if (type == RDB_TF_TERM)
			terms++;
		else if (type == RDB_TF_CHILD_OUTPUT && rdb_rec_ok(type, p, n))
			couts++, cbytes += n - sizeof(struct rdb_tf_child_output);
		else if (type == RDB_TF_SHARED && rdb_rec_ok(type, p, n))
			shareds++, sbytes += n - sizeof(struct rdb_tf_shared);
		else if (type == RDB_TF_THREAD && rdb_rec_ok(type, p, n)) {
			struct rdb_tf_thread th;
			memcpy(&th, p, sizeof th);
			th_made += th.kind == RDB_TF_TH_CREATED;
			th_ended += th.kind == RDB_TF_TH_EXITED;
		} else if (type == RDB_TF_SWITCH && rdb_rec_ok(type, p, n)) {
			struct rdb_tf_switch w;
			memcpy(&w, p, sizeof w);
			sw[w.why < 4 ? w.why : 0]++;
			if (w.interval >= 1 && w.interval <= SHOWN)
				sw_iv[w.interval]++;
			if (w.interval > sw_ivmax)
				sw_ivmax = w.interval;
		} else if (type == RDB_TF_NOTE && n == sizeof(struct rdb_tf_note)) {
			struct rdb_tf_note no;
			memcpy(&no, p, sizeof no);
			forks += no.kind == RDB_TF_NOTE_FORK;
			spawns += no.kind == RDB_TF_NOTE_SPAWN;
			stopped += no.kind == RDB_TF_NOTE_STOPPED;
		}
	}
	rdb_tr_close(sc);
	printf("syscalls:   %llu", (unsigned long long)traps);
	if (cuts) /* one record each time, with its own number */
		printf(" (%llu of them cut short by a signal, then run again after its handler)",
		       (unsigned long long)cuts);
	printf("\n");
	uint64_t nds = 0;
	struct rdb_tr *nd = rdb_tr_open(dir, RDB_TF_S_NONDET);
	while (rdb_tr_next(nd, &type, &p, &n))
		nds += type == RDB_TF_NONDET;
	rdb_tr_close(nd);
	printf("nondeterministic instructions: %llu\n", (unsigned long long)nds);
	char eb[128];
	if (h.have_exit) {
		printf("ended:      %s\n", exit_text(&h.exit, eb, sizeof eb));
		double secs = ((double)h.exit.end_sec - (double)h.start.sec) +
		              ((double)h.exit.end_nsec - (double)h.start.nsec) / 1e9;
		printf("wall time:  %.3f s\n", secs);
		if (h.exit.cut)
			printf("cut short:  yes: the program ended without its runtime's last "
			       "record (%s); the trace holds what was sent until then\n",
			       exit_text(&h.exit, eb, sizeof eb));
		else
			printf("cut short:  no\n");
	} else {
		printf("ended:      unknown\n");
		printf("cut short:  yes: no exit file (rdb record itself was killed)\n");
	}
	printf("not traced:");
	int none = 1;
	if (forks)
		printf(" %llu fork child%s (ran untraced; their writes to stdout and stderr "
		       "and to shared memory are recorded);",
		       (unsigned long long)forks, forks == 1 ? "" : "ren"), none = 0;
	if (spawns)
		printf(" %llu clone call%s of a thread refused with ENOSYS;",
		       (unsigned long long)spawns, spawns == 1 ? "" : "s"), none = 0;
	if (h.have_exit && h.exit.execd == 1)
		printf(" the program exec'd another program, which ran untraced;"), none = 0;
	if (h.have_exit && h.exit.execd == 2)
		printf(" the rest of the run, after %s;", stopped ?
		       "the runtime could not go on recording (see the message the recording printed)" :
		       "an interval reached 2^40 counts (or the test knob's span) with no "
		       "boundary possible (SIC overflow)"),
		    none = 0;
	printf("%s\n", none ? " nothing" : "");
	if (couts || forks)
		printf("child output: %llu writes, %llu bytes (replayed)\n",
		       (unsigned long long)couts, (unsigned long long)cbytes);
	if (shareds)
		printf("shared memory: %llu changes by others, %llu bytes (replayed)\n",
		       (unsigned long long)shareds, (unsigned long long)sbytes);
	if (th_made || sw[0] + sw[1] + sw[2] + sw[3]) {
		printf("threads:    %llu created, %llu exited; %llu switches (%llu at the end of a "
		       "time slice, %llu at a syscall that may block, %llu at a thread's end)\n",
		       (unsigned long long)th_made, (unsigned long long)th_ended,
		       (unsigned long long)(sw[0] + sw[1] + sw[2] + sw[3]), (unsigned long long)sw[1],
		       (unsigned long long)sw[2], (unsigned long long)sw[3]);
		printf("switches per interval:");
		for (uint64_t i = 1; i <= sw_ivmax && i <= SHOWN; i++)
			printf(" %llu: %llu%s", (unsigned long long)i, (unsigned long long)sw_iv[i],
			       i < sw_ivmax && i < SHOWN ? "," : "");
		printf("%s\n", sw_ivmax > SHOWN ? " ..." : "");
	}
	show_intervals(dir, h.have_exit ? h.exit.nsyscalls : traps);
	printf("streams:    %-10s %8s %12s %12s\n", "name", "frames", "raw bytes", "file bytes");
	for (int i = 0; i < RDB_TF_NSTREAMS; i++) {
		struct rdb_tr *r = rdb_tr_open(dir, i);
		uint64_t fr, raw, file;
		rdb_tr_stats(r, &fr, &raw, &file);
		printf("            %-10s %8llu %12llu %12llu\n", rdb_stream_names[i],
		       (unsigned long long)fr, (unsigned long long)raw, (unsigned long long)file);
		rdb_tr_close(r);
	}
	rdb_header_free(&h);
	(void)execs;
	(void)terms;
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

static void truss_record(struct rdb_tr *sc, uint32_t type, const void *p, size_t n)
{
	if (type == RDB_TF_THREAD && rdb_rec_ok(type, p, n)) {
		struct rdb_tf_thread th;
		memcpy(&th, p, sizeof th);
		if (truss_thread < 0)
			truss_thread = (int)th.parent;
		if (th.kind == RDB_TF_TH_CREATED)
			printf("--- thread %u creates thread %u ---\n", th.parent, th.slot);
		else
			printf("--- thread %u (tid %d) exits ---\n", th.slot, th.tid);
		return;
	}
	if (type == RDB_TF_SWITCH && rdb_rec_ok(type, p, n)) {
		struct rdb_tf_switch w;
		memcpy(&w, p, sizeof w);
		static const char *const why[] = {"?", "time slice", "may block", "exit"};
		printf("--- thread %u -> thread %u (%s, at count %llu) ---\n", w.from, w.to,
		       why[w.why < 4 ? w.why : 0], (unsigned long long)w.sic);
		truss_thread = (int)w.to;
		return;
	}
	if (type == RDB_TF_TERM && n == sizeof(struct rdb_tf_term)) {
		struct rdb_tf_term t;
		memcpy(&t, p, sizeof t);
		if (t.signo)
			printf("+++ killed by signal %d (%s) +++\n", t.signo, strsignal(t.signo));
		else
			printf("+++ exited with %d +++\n", t.status);
		return;
	}
	if (type == RDB_TF_NOTE && n == sizeof(struct rdb_tf_note)) {
		struct rdb_tf_note no;
		memcpy(&no, p, sizeof no);
		if (no.kind == RDB_TF_NOTE_FORK)
			printf("--- child %lld runs untraced ---\n", (long long)no.value);
		return;
	}
	if (type == RDB_TF_CHILD_OUTPUT && rdb_rec_ok(type, p, n)) {
		struct rdb_tf_child_output c;
		memcpy(&c, p, sizeof c);
		const unsigned char *b = (const unsigned char *)p + sizeof c;
		size_t len = n - sizeof c;
		printf("--- child %d wrote %zu bytes to %s: \"", c.pid, len,
		       c.fd == 1 ? "stdout" : "stderr");
		for (size_t i = 0; i < len && i < 32; i++)
			if (b[i] == '\n')
				printf("\\n");
			else if (b[i] == '"' || b[i] == '\\')
				printf("\\%c", b[i]);
			else if (b[i] >= 32 && b[i] < 127)
				putchar(b[i]);
			else
				printf("\\x%02x", b[i]);
		printf("\"%s ---\n", len > 32 ? "..." : "");
		return;
	}
	if (type == RDB_TF_SHARED && rdb_rec_ok(type, p, n)) {
		struct rdb_tf_shared s;
		memcpy(&s, p, sizeof s);
		printf("--- shared memory changed by others: %llu bytes at 0x%llx ---\n",
		       (unsigned long long)s.len, (unsigned long long)s.addr);
		return;
	}
	if ((type == RDB_TF_BOUNDARY || type == RDB_TF_SIGNAL) && rdb_rec_ok(type, p, n)) {
		if (type == RDB_TF_BOUNDARY)
			printf("--- interval %llu ---\n", (unsigned long long)rdb_rec_interval(p));
		else {
			struct rdb_tf_signal g;
			memcpy(&g, p, sizeof g);
			printf("--- signal %d (%s) delivered ---\n", g.signo, strsignal(g.signo));
		}
		return;
	}
	if (type != RDB_TF_TRAP)
		return;
	struct rdb_tf_trap t;
	if (n != sizeof t)
		rdb_fatal("%s: TRAP record of %zu bytes", rdb_tr_where(sc), n);
	memcpy(&t, p, sizeof t);
	show_trap(stdout, &t, truss_thread);
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
	"usage: rdb truss DIR [K]\n"
	"Every recorded syscall: id, name, arguments, return value and the bytes\n"
	"the kernel wrote (like strace); interval boundaries and asynchronous\n"
	"signals as '---' lines.  With K: only the syscalls of interval K.\n";

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
		truss_record(sc, type, p, n);
	}
	if (!more && h.have_exit && h.exit.cut)
		printf("+++ cut short +++\n");
	rdb_tr_close(sc);
	rdb_header_free(&h);
	return 0;
}
