/* ps.c: rdb ps DIR, the processes of a recorded tree (docs/process-trees.md):
 * the process rdb record started (DIR itself) and every one that joined
 * (DIR/proc/ID), in the order they started, indented under their parent
 * (the process whose pid is their parent pid, or their own pid's earlier
 * image: an exec), with how each ended and what its trace holds. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rdb.h"

struct proc {
	char *dir, *id;
	struct rdb_header h;
	uint64_t intervals, complete, bytes;
	int parent, depth;
	char *damaged; /* what is wrong with its folder, or NULL */
};

static uint64_t dir_bytes(const char *dir)
{
	uint64_t n = 0;
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		char *p = rdb_path(dir, e->d_name);
		struct stat st;
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			n += (uint64_t)st.st_size;
		rdb_free(p);
	}
	closedir(d);
	return n;
}

static void load_header(void *ctx)
{
	struct proc *p = ctx;
	rdb_read_header(p->dir, &p->h);
	if (p->h.have_random) {
		struct rdb_ivx *x = rdb_ivx_read(p->dir);
		p->intervals = rdb_ivx_last(x, RDB_TF_S_SYSCALLS);
		p->complete = rdb_feed_last_complete(p->dir, x);
		rdb_ivx_free(x);
	}
}

/* A process whose folder is damaged is listed with what is wrong. */
static void load(struct proc *p, const char *dir, const char *id)
{
	memset(p, 0, sizeof *p);
	p->dir = rdb_xstrdup(dir);
	char msg[512];
	if (rdb_try(load_header, p, msg, sizeof msg)) {
		memset(&p->h, 0, sizeof p->h); /* what it had read is left */
		p->damaged = rdb_xstrdup(msg);
	}
	char buf[32];
	if (!id) {
		snprintf(buf, sizeof buf, "%d", p->h.start.pid);
		id = buf;
	}
	p->id = rdb_xstrdup(id);
	p->bytes = dir_bytes(dir);
	p->parent = -1;
}

static int by_start(const void *x, const void *y)
{
	return rdb_tree_start_cmp(&((const struct proc *)x)->h.start,
	                          &((const struct proc *)y)->h.start);
}

struct procs {
	struct proc *ps;
	size_t n, cap;
};

static void add(void *ctx, const char *dir, const char *id)
{
	struct procs *l = ctx;
	if (l->n == l->cap)
		l->ps = rdb_xrealloc(l->ps, (l->cap *= 2) * sizeof *l->ps);
	load(&l->ps[l->n++], dir, id);
}

/* "status 0", "status 3 FAILED", "signal 9 FAILED", ... */
static void ended(const struct proc *p, char *buf, size_t n)
{
	const struct rdb_tf_exit *x = &p->h.exit;
	if (!p->h.have_exit)
		snprintf(buf, n, "? (rdb was killed)");
	else if (x->execd == 1)
		snprintf(buf, n, "exec'd");
	else if (x->execd == 2)
		snprintf(buf, n, "ran on untraced");
	else if (x->how == RDB_TF_EXIT_SIGNAL)
		snprintf(buf, n, "signal %d%s FAILED", x->value, x->cut ? " (cut)" : "");
	else
		snprintf(buf, n, "status %d%s%s", x->value, x->cut ? " (cut)" : "",
		         x->value ? " FAILED" : "");
}

static const char ps_help[] =
	"usage: rdb ps DIR\n"
	"The processes recorded in the trace set DIR (rdb record of a process tree):\n"
	"ID (for rdb replay --pid ID), parent pid, how it ended (FAILED: a nonzero\n"
	"status or a fatal signal), intervals (complete/started), trace bytes, argv,\n"
	"indented under its parent.  A process not built with rdb-cc (the shell rdb\n"
	"record started) is listed as not recorded; one whose folder cannot be read,\n"
	"as damaged, with what is wrong (exit status 1).\n";

int rdb_cmd_ps(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(ps_help, stdout);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fputs(ps_help, stderr);
		return 2;
	}
	const char *set = argv[1];
	struct proc *ps = rdb_xmalloc(sizeof *ps);
	size_t n = 0, cap = 1;
	load(&ps[n++], set, NULL);
	struct procs l = {ps, n, cap};
	rdb_tree_each(set, add, &l);
	ps = l.ps, n = l.n;
	qsort(ps + 1, n - 1, sizeof *ps, by_start); /* the top stays first */
	for (size_t i = 1; i < n; i++) {
		for (size_t j = i; j-- > 0;) /* the image this one replaced (exec) */
			if (!ps[i].damaged && !ps[j].damaged &&
			    ps[j].h.start.pid == ps[i].h.start.pid && ps[j].h.exit.execd == 1) {
				ps[i].parent = (int)j;
				break;
			}
		for (size_t j = i; ps[i].parent < 0 && j-- > 0;)
			if (!ps[i].damaged && !ps[j].damaged && ps[j].h.start.pid == ps[i].h.proc.ppid)
				ps[i].parent = (int)j;
		ps[i].depth = ps[i].parent >= 0 ? ps[ps[i].parent].depth + 1 : 0;
	}
	printf("%-10s %-8s %-22s %-9s %10s  %s\n", "ID", "PPID", "EXIT", "INTERVALS", "BYTES",
	       "ARGV");
	for (size_t i = 0; i < n; i++) {
		struct proc *p = &ps[i];
		char ex[64], iv[32];
		if (p->damaged) {
			printf("%-10s %-8s damaged: %s\n", p->id, "?", p->damaged);
			continue;
		}
		if (p->h.have_random) {
			ended(p, ex, sizeof ex);
			snprintf(iv, sizeof iv, "%llu/%llu", (unsigned long long)p->complete,
			         (unsigned long long)(p->intervals ? p->intervals : 1));
		} else {
			/* not an rdb-cc program: its status only (rdb's child), never "cut" */
			p->h.exit.cut = 0;
			ended(p, ex, sizeof ex);
			snprintf(iv, sizeof iv, "not recorded");
		}
		printf("%-10s %-8d %-22s %-9s %10llu  %*s", p->id, p->h.have_proc ? p->h.proc.ppid : 0,
		       ex, iv, (unsigned long long)p->bytes, 2 * p->depth, "");
		for (size_t a = 0; a < p->h.argc; a++)
			printf(a ? " %s" : "%s", p->h.argv[a]);
		putchar('\n');
	}
	int damaged = 0;
	for (size_t i = 0; i < n; i++) {
		damaged |= ps[i].damaged != NULL;
		rdb_header_free(&ps[i].h);
		rdb_free(ps[i].dir);
		rdb_free(ps[i].id);
		rdb_free(ps[i].damaged);
	}
	rdb_free(ps);
	return damaged;
}
