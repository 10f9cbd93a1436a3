/* check.c: rdb check DIR, every interval of every process of a trace set
 * replayed on its own (rdb replay --quiet --verify --from K --to K; the
 * last complete one to the program's end), N at once.  A job is (the set's
 * path, a process id, an interval range): nothing else is shared between
 * jobs, so they can run anywhere the set is (docs/process-trees.md says
 * how to spread them over machines).  With --whole, each process is also
 * replayed whole and from its middle interval, both to its end.  One line
 * per process: how many of its intervals verified, and the first that did
 * not, with the replay's reason. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rdb.h"

/* One process of the set and what its replays found. */
struct cproc {
	char *id, *dir, *argv0;
	int recorded;        /* an rdb-cc program (AT_RANDOM came) */
	uint64_t first, last; /* the intervals to replay: first..last (0: none) */
	uint64_t complete;    /* the last complete one: its replay goes on to the end */
	uint64_t ok, bad;     /* replays verified, replays that failed */
	uint64_t bad_at;      /* the first interval that failed */
	char *why;            /* its replay's reason */
	/* --whole: the replays from first and from mid (0: none) to the end */
	uint64_t mid;
	int whole_st, mid_st; /* 0 not run, 1 verified, 2 failed; whole_st -1:
	                       * one interval, whose replay is the whole run */
	char *whole_why, *mid_why;
	struct rdb_tf_hstart start;
};

static const char check_help[] =
	"usage: rdb check [--jobs N] [--whole] [--pid ID [--intervals A-B]] DIR\n"
	"       rdb check --list DIR\n"
	"Replays every complete interval K of every process of the trace set DIR on\n"
	"its own (rdb replay --quiet --verify --from K --to K; the last complete one\n"
	"to the program's end, checking how it ended), N at once, and prints one line\n"
	"per process: ID, ok or FAILED, the intervals verified, and the first\n"
	"interval whose replay failed with the replay's reason.  Exit status 0 when\n"
	"every replay verified, 1 if one failed.\n"
	"  --jobs N        replays at once (default: the number of cores)\n"
	"  --whole         also replay each process whole and from its middle\n"
	"                  interval, both to its end, with --verify\n"
	"  --pid ID        only process ID (rdb ps DIR lists them)\n"
	"  --intervals A-B only intervals A to B of that process (a job of --list)\n"
	"  --list          print the jobs, one line per process (\"ID A-B\"), and\n"
	"                  replay nothing: each interval replays on its own, so any\n"
	"                  split of A-B can run anywhere DIR is (docs/process-trees.md)\n";

static uint64_t parse_num(const char *opt, const char *s, char **end)
{
	errno = 0;
	unsigned long long v = strtoull(s, end, 10);
	if (*end == s || errno || *s == '-' || *s == '+')
		rdb_fatal("%s %s: not a number", opt, s);
	return v;
}

static void read_header(void *dir)
{
	struct rdb_header h;
	rdb_read_header(dir, &h);
	struct rdb_ivx *x = rdb_ivx_read(dir);
	rdb_feed_last_complete(dir, x);
	rdb_ivx_free(x);
	rdb_header_free(&h);
}

/* The process in folder dir (id as rdb ps shows it): what to replay; one
 * whose header cannot be read has bad set and why. */
static void load(struct cproc *p, const char *dir, const char *id)
{
	memset(p, 0, sizeof *p);
	struct rdb_header h;
	char msg[512];
	if (rdb_try(read_header, (void *)dir, msg, sizeof msg)) {
		/* listed as FAILED, with what is wrong */
		p->id = rdb_xstrdup(id ? id : "?");
		p->dir = rdb_xstrdup(dir);
		p->argv0 = rdb_xstrdup("?");
		p->recorded = 1;
		p->bad = 1;
		p->why = rdb_xstrdup(msg);
		return;
	}
	rdb_read_header(dir, &h);
	char buf[32];
	if (!id) {
		snprintf(buf, sizeof buf, "%d", h.start.pid);
		id = buf;
	}
	p->id = rdb_xstrdup(id);
	p->dir = rdb_xstrdup(dir);
	p->argv0 = rdb_xstrdup(h.argc ? h.argv[0] : "?");
	p->recorded = h.have_random;
	p->start = h.start;
	if (p->recorded) {
		struct rdb_ivx *x = rdb_ivx_read(dir);
		p->last = p->complete = rdb_feed_last_complete(dir, x);
		rdb_ivx_free(x);
		/* a fork child's recording starts at boundary 2 */
		p->first = h.have_proc && (h.proc.flags & RDB_TF_PROC_FORKED) ? 2 : 1;
		if (p->last < p->first)
			p->first = p->last = 0;
	}
	rdb_header_free(&h);
}

static int by_start(const void *x, const void *y)
{
	return rdb_tree_start_cmp(&((const struct cproc *)x)->start,
	                          &((const struct cproc *)y)->start);
}

struct procs {
	struct cproc *ps;
	size_t n;
};

static void add(void *ctx, const char *dir, const char *id)
{
	struct procs *l = ctx;
	l->ps = rdb_xrealloc(l->ps, (l->n + 1) * sizeof *l->ps);
	load(&l->ps[l->n++], dir, id);
}

/* The set's own process, then DIR/proc/ID for each that joined, or only
 * process `only`. */
static struct cproc *list(const char *set, const char *only, size_t *np)
{
	struct cproc *ps = rdb_xmalloc(sizeof *ps);
	size_t n = 0;
	if (only) {
		char *d = rdb_tree_find(set, only);
		load(&ps[n++], d, only);
		rdb_free(d);
		*np = n;
		return ps;
	}
	load(&ps[n++], set, NULL);
	struct procs l = {ps, n};
	rdb_tree_each(set, add, &l);
	qsort(l.ps + 1, l.n - 1, sizeof *l.ps, by_start); /* as rdb ps lists them */
	*np = l.n;
	return l.ps;
}

/* What one replay checks: interval from of process proc alone (to: from,
 * or 0 for the last complete one, which goes on to the end), or with
 * --whole, the run from first or from mid to the end. */
enum { J_INTERVAL, J_WHOLE, J_MIDDLE };
struct cjob {
	size_t proc;
	uint64_t from, to;
	int kind;
	uint64_t cost; /* intervals it replays: the longest start first */
};

/* A replay running: its job and its stderr. */
struct job {
	pid_t pid;
	const struct cjob *j;
	int err;
};

/* In a child: job j of process p replayed, its stderr to err, the
 * program's output nowhere.  Exits 0 when it verified. */
static _Noreturn void run_one(const struct cproc *p, const struct cjob *j, int err)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	rdb_no_progress = 1;
	struct rdb_replay_opts o;
	memset(&o, 0, sizeof o);
	o.dir = p->dir;
	o.from = j->from;
	o.to = j->to;
	o.flags = RDB_TF_HELLO_QUIET | RDB_TF_HELLO_VERIFY;
	o.check = 1;
	_exit(rdb_replay(&o, NULL, 0, NULL));
}

/* Why a replay failed: its "replay diverged" line, else its first line
 * from rdb (what went wrong first: a bad trace makes the program's
 * runtime say the channel ended, after), else its status. */
static char *reason(int err, int status)
{
	char b[8192];
	ssize_t n = pread(err, b, sizeof b - 1, 0);
	b[n > 0 ? n : 0] = 0;
	char *pick = NULL;
	for (char *l = strtok(b, "\n"); l; l = strtok(NULL, "\n")) {
		if (strstr(l, "replay diverged")) {
			pick = l;
			break;
		}
		if (!strncmp(l, "rdb: ", 5) && !pick)
			pick = l;
	}
	if (pick)
		return rdb_xstrdup(!strncmp(pick, "rdb: ", 5) ? pick + 5 : pick);
	char s[64];
	if (WIFSIGNALED(status))
		snprintf(s, sizeof s, "the replay died by signal %d", WTERMSIG(status));
	else
		snprintf(s, sizeof s, "the replay exited with status %d", WEXITSTATUS(status));
	return rdb_xstrdup(s);
}

static void finish(struct cproc *ps, struct job *r, int status)
{
	const struct cjob *j = r->j;
	struct cproc *p = &ps[j->proc];
	int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (j->kind == J_WHOLE) {
		p->whole_st = ok ? 1 : 2;
		if (!ok)
			p->whole_why = reason(r->err, status);
	} else if (j->kind == J_MIDDLE) {
		p->mid_st = ok ? 1 : 2;
		if (!ok)
			p->mid_why = reason(r->err, status);
	} else if (ok)
		p->ok++;
	else {
		p->bad++;
		if (!p->bad_at || j->from < p->bad_at) {
			rdb_free(p->why);
			p->why = reason(r->err, status);
			p->bad_at = j->from;
		}
	}
	close(r->err);
	r->pid = 0;
}

static int by_cost(const void *x, const void *y)
{
	const struct cjob *a = x, *b = y;
	if (a->cost != b->cost)
		return a->cost > b->cost ? -1 : 1;
	if (a->proc != b->proc)
		return a->proc < b->proc ? -1 : 1;
	return a->kind != b->kind ? a->kind - b->kind : a->from < b->from ? -1 : a->from > b->from;
}

/* The jobs: every interval of every process, and with whole, each
 * process's whole run and the run from its middle interval where they
 * are not one of those (a process of one interval: its interval's replay
 * is its whole run).  Longest first, so that with N at once no long
 * replay starts last. */
static struct cjob *plan(struct cproc *ps, size_t n, int whole, size_t *nj)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (ps[i].last)
			m += ps[i].last - ps[i].first + 1 + (whole ? 2 : 0);
	struct cjob *js = rdb_xmalloc((m ? m : 1) * sizeof *js);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		struct cproc *p = &ps[i];
		if (!p->last)
			continue;
		for (uint64_t iv = p->first; iv <= p->last; iv++)
			js[k++] = (struct cjob){i, iv, iv < p->complete ? iv : 0, J_INTERVAL,
			                        iv < p->complete ? 1 : 2};
		if (!whole)
			continue;
		if (p->first == p->complete)
			p->whole_st = -1; /* its one interval's replay */
		else
			js[k++] = (struct cjob){i, p->first, 0, J_WHOLE, p->complete - p->first + 2};
		p->mid = (p->first + p->complete) / 2;
		if (p->mid > p->first && p->mid < p->complete)
			js[k++] = (struct cjob){i, p->mid, 0, J_MIDDLE, p->complete - p->mid + 2};
		else
			p->mid = 0;
	}
	qsort(js, k, sizeof *js, by_cost);
	*nj = k;
	return js;
}

/* The jobs js, at most jobs at once. */
static void run_all(struct cproc *ps, const struct cjob *js, size_t nj, long jobs)
{
	struct job *run = rdb_xmalloc((size_t)jobs * sizeof *run);
	memset(run, 0, (size_t)jobs * sizeof *run);
	size_t next = 0, done = 0;
	long busy = 0;
	fflush(NULL);
	for (;;) {
		while (busy < jobs && next < nj) {
			long s = 0;
			while (run[s].pid)
				s++;
			int err = memfd_create("rdb-check", MFD_CLOEXEC);
			if (err < 0)
				rdb_fatal("memfd_create: %s", strerror(errno));
			pid_t c = fork();
			if (c < 0)
				rdb_fatal("fork: %s", strerror(errno));
			if (c == 0)
				run_one(&ps[js[next].proc], &js[next], err);
			run[s] = (struct job){c, &js[next], err};
			busy++;
			next++;
		}
		if (!busy)
			break;
		int status;
		pid_t c = waitpid(-1, &status, 0);
		if (c < 0) {
			if (errno == EINTR)
				continue;
			rdb_fatal("waitpid: %s", strerror(errno));
		}
		for (long s = 0; s < jobs; s++)
			if (run[s].pid == c) {
				finish(ps, &run[s], status);
				busy--;
				done++;
				rdb_progress("check: %zu of %zu replays done", done, nj);
			}
	}
	rdb_progress_end();
	rdb_free(run);
}

/* With --whole: ", whole and from K" after an ok count, or the parts that
 * failed after a FAILED one. */
static void whole_ok(const struct cproc *p)
{
	if (p->whole_st)
		printf(", whole");
	if (p->mid_st == 1)
		printf(" and from %llu", (unsigned long long)p->mid);
}

static void whole_failed(const struct cproc *p)
{
	if (p->whole_st == 2)
		printf("; whole replay: %s", p->whole_why);
	if (p->mid_st == 2)
		printf("; replay from %llu: %s", (unsigned long long)p->mid, p->mid_why);
}

int rdb_cmd_check(int argc, char **argv)
{
	long jobs = sysconf(_SC_NPROCESSORS_ONLN);
	const char *dir = NULL, *only = NULL, *v;
	uint64_t from = 0, to = 0;
	int listing = 0, whole = 0;
	char *end;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(check_help, stdout);
			return 0;
		}
		if (rdb_run_opt_arg(argc, argv, &i, "--jobs", "-j", &v)) {
			jobs = (long)parse_num("--jobs", v, &end);
			if (*end || jobs < 1 || jobs > 4096)
				rdb_fatal("--jobs %s: not a number of replays at once (1 to 4096)", v);
		} else if (rdb_run_opt_arg(argc, argv, &i, "--pid", NULL, &v))
			only = v;
		else if (rdb_run_opt_arg(argc, argv, &i, "--intervals", NULL, &v)) {
			from = parse_num("--intervals", v, &end);
			if (*end != '-')
				rdb_fatal("--intervals %s: not a range A-B", v);
			to = parse_num("--intervals", end + 1, &end);
			if (*end || !from || to < from)
				rdb_fatal("--intervals %s: not a range A-B (1 <= A <= B)", v);
		} else if (!strcmp(argv[i], "--list"))
			listing = 1;
		else if (!strcmp(argv[i], "--whole"))
			whole = 1;
		else if (argv[i][0] == '-' || dir) {
			rdb_warn("check: unexpected argument '%s'", argv[i]);
			fputs(check_help, stderr);
			return 2;
		} else
			dir = argv[i];
	}
	if (!dir) {
		fputs(check_help, stderr);
		return 2;
	}
	if (from && !only)
		rdb_fatal("--intervals A-B: of one process (--pid ID)");
	if (whole && (from || listing))
		rdb_fatal("--whole replays each process to its end: not with %s",
		          from ? "--intervals" : "--list (its jobs are intervals)");
	size_t n;
	struct cproc *ps = list(dir, only, &n);
	if (from) {
		struct cproc *p = &ps[0];
		if (!p->last || from < p->first || to > p->last)
			rdb_fatal("%s: process %s: --intervals %llu-%llu is not within its complete "
			          "intervals (%llu-%llu)", dir, p->id, (unsigned long long)from,
			          (unsigned long long)to, (unsigned long long)p->first,
			          (unsigned long long)p->last);
		p->first = from;
		p->last = to; /* its replay goes to the end only if to is the last */
	}
	if (listing) {
		for (size_t i = 0; i < n; i++)
			if (ps[i].last)
				printf("%s %llu-%llu\n", ps[i].id, (unsigned long long)ps[i].first,
				       (unsigned long long)ps[i].last);
		return 0;
	}
	size_t nj;
	struct cjob *js = plan(ps, n, whole, &nj);
	run_all(ps, js, nj, jobs);
	rdb_free(js);
	int failed = 0;
	for (size_t i = 0; i < n; i++) {
		struct cproc *p = &ps[i];
		if (!p->recorded)
			printf("%-10s not recorded  %s\n", p->id, p->argv0);
		else if (p->bad && !p->ok && !p->bad_at) {
			failed = 1;
			printf("%-10s FAILED  damaged: %s\n", p->id, p->why);
		} else if (!p->last)
			printf("%-10s none    no complete interval to replay  %s\n", p->id, p->argv0);
		else if (!p->bad && p->whole_st != 2 && p->mid_st != 2) {
			printf("%-10s ok      %llu intervals verified (%llu-%llu)", p->id,
			       (unsigned long long)p->ok, (unsigned long long)p->first,
			       (unsigned long long)p->last);
			whole_ok(p);
			printf("  %s\n", p->argv0);
		} else {
			failed = 1;
			printf("%-10s FAILED  %llu of %llu intervals verified", p->id,
			       (unsigned long long)p->ok, (unsigned long long)(p->ok + p->bad));
			if (p->bad)
				printf("; interval %llu: %s", (unsigned long long)p->bad_at, p->why);
			whole_failed(p);
			printf("  %s\n", p->argv0);
		}
	}
	for (size_t i = 0; i < n; i++) {
		rdb_free(ps[i].id);
		rdb_free(ps[i].dir);
		rdb_free(ps[i].argv0);
		rdb_free(ps[i].why);
		rdb_free(ps[i].whole_why);
		rdb_free(ps[i].mid_why);
	}
	rdb_free(ps);
	return failed;
}
