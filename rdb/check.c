/* check.c: rdb check DIR, every interval of every process of a trace set
 * replayed on its own (rdb replay --quiet --verify --from K --to K; the
 * last complete one to the program's end), N at once.  A job is (the set's
 * path, a process id, an interval range): nothing else is shared between
 * jobs, so they can run anywhere the set is (docs/process-trees.md says
 * how to spread them over machines).  One line per process: how many of
 * its intervals verified, and the first that did not, with the replay's
 * reason. */
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
	struct rdb_tf_hstart start;
};

static const char check_help[] =
	"usage: rdb check [--jobs N] [--pid ID [--intervals A-B]] DIR\n"
	"       rdb check --list DIR\n"
	"Replays every complete interval K of every process of the trace set DIR on\n"
	"its own (rdb replay --quiet --verify --from K --to K; the last complete one\n"
	"to the program's end, checking how it ended), N at once, and prints one line\n"
	"per process: ID, ok or FAILED, the intervals verified, and the first\n"
	"interval whose replay failed with the replay's reason.  Exit status 0 when\n"
	"every replay verified, 1 if one failed.\n"
	"  --jobs N        replays at once (default: the number of cores)\n"
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

/* A replay running: the process and interval it checks, its stderr. */
struct job {
	pid_t pid;
	size_t proc;
	uint64_t k;
	int err;
};

/* In a child: interval k of process p replayed alone, its stderr to err,
 * the program's output nowhere.  Exits 0 when it verified. */
static _Noreturn void run_one(const struct cproc *p, uint64_t k, int err)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(err, 2) < 0)
		_exit(126);
	rdb_no_progress = 1;
	struct rdb_replay_opts o;
	memset(&o, 0, sizeof o);
	o.dir = p->dir;
	o.from = k;
	o.to = k < p->complete ? k : 0; /* the last one: on to the program's end */
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

static void finish(struct cproc *ps, struct job *j, int status)
{
	struct cproc *p = &ps[j->proc];
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		p->ok++;
	else {
		p->bad++;
		if (!p->bad_at || j->k < p->bad_at) {
			rdb_free(p->why);
			p->why = reason(j->err, status);
			p->bad_at = j->k;
		}
	}
	close(j->err);
	j->pid = 0;
}

/* Every interval of every process, at most jobs at once. */
static void run_all(struct cproc *ps, size_t n, long jobs)
{
	struct job *run = rdb_xmalloc((size_t)jobs * sizeof *run);
	memset(run, 0, (size_t)jobs * sizeof *run);
	uint64_t total = 0, done = 0;
	for (size_t i = 0; i < n; i++)
		total += ps[i].last ? ps[i].last - ps[i].first + 1 : 0;
	size_t pi = 0;
	uint64_t k = n ? ps[0].first : 0;
	long busy = 0;
	fflush(NULL);
	for (;;) {
		while (busy < jobs) {
			while (pi < n && (!ps[pi].last || k > ps[pi].last))
				if (++pi < n)
					k = ps[pi].first;
			if (pi == n)
				break;
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
				run_one(&ps[pi], k, err);
			run[s] = (struct job){c, pi, k, err};
			busy++;
			k++;
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
				rdb_progress("check: %llu of %llu intervals replayed",
				             (unsigned long long)done, (unsigned long long)total);
			}
	}
	rdb_progress_end();
	rdb_free(run);
}

int rdb_cmd_check(int argc, char **argv)
{
	long jobs = sysconf(_SC_NPROCESSORS_ONLN);
	const char *dir = NULL, *only = NULL, *v;
	uint64_t from = 0, to = 0;
	int listing = 0;
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
	run_all(ps, n, jobs);
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
		else if (!p->bad)
			printf("%-10s ok      %llu intervals verified (%llu-%llu)  %s\n", p->id,
			       (unsigned long long)p->ok, (unsigned long long)p->first,
			       (unsigned long long)p->last, p->argv0);
		else {
			failed = 1;
			printf("%-10s FAILED  %llu of %llu intervals verified; interval %llu: %s  %s\n",
			       p->id, (unsigned long long)p->ok, (unsigned long long)(p->ok + p->bad),
			       (unsigned long long)p->bad_at, p->why, p->argv0);
		}
	}
	for (size_t i = 0; i < n; i++) {
		rdb_free(ps[i].id);
		rdb_free(ps[i].dir);
		rdb_free(ps[i].argv0);
		rdb_free(ps[i].why);
	}
	rdb_free(ps);
	return failed;
}
