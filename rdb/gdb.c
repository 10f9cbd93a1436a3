/* gdb.c: gdb on programs built with rdb-cc, always on a replay: rdb is
 * gdb's target (rdb_gdb_serve: gdbserver.c and its parts).  `rdb replay
 * --gdb DIR` serves a trace set; `rdb record --gdb` records the run and
 * then serves its fresh trace (record.c).  gdb never attaches to a
 * program itself: a plain gdb would stop at the instrumentation's own
 * faults and step through its hooks. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gdbserver.h"
#include "rdb.h"

/* fork() for gdb: the parent gets its pid, the child (0) the signals
 * rdb ignores back: they are the program's to handle, an ignored signal
 * stays ignored across exec, and ^C is how gdb's user stops the program. */
static pid_t fork_gdb(void)
{
	pid_t g = fork();
	if (g < 0)
		rdb_fatal("fork: %s", strerror(errno));
	if (g == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
	}
	return g;
}

static void reap_gdb(pid_t g)
{
	int st;
	while (waitpid(g, &st, 0) < 0)
		if (errno != EINTR)
			rdb_fatal("waitpid (gdb): %s", strerror(errno));
}

void rdb_gdb_server_check(const char *script)
{
	char *gdb = rdb_run_in_path("gdb");
	if (!gdb)
		rdb_fatal("--gdb: no gdb in PATH (Debian: apt-get install gdb)");
	free(gdb);
	if (script && access(script, R_OK))
		rdb_fatal("--gdb-batch %s: %s", script, strerror(errno));
}

/* gdb, connected to the server on the loopback port. */
static pid_t start_gdb(int port, const char *exe, const char *script)
{
	static char target[64];
	snprintf(target, sizeof target, "target extended-remote 127.0.0.1:%d", port);
	fflush(NULL);
	pid_t g = fork_gdb();
	if (g > 0)
		return g;
	char *a[16];
	int n = 0;
	a[n++] = "gdb";
	a[n++] = "-q";
	a[n++] = "-ex";
	a[n++] = target;
	if (script) {
		a[n++] = "-batch";
		a[n++] = "-x";
		a[n++] = (char *)script;
	}
	a[n++] = (char *)exe;
	a[n] = NULL;
	execvp(a[0], a);
	rdb_warn("cannot run gdb: %s (Debian: apt-get install gdb)", strerror(errno));
	_exit(127);
}

/* The first connection; NULL if gdb (g > 0) ended first. */
static struct rdb_rsp *wait_connection(int lfd, pid_t g)
{
	for (;;) {
		struct pollfd p = {lfd, POLLIN, 0};
		int r = poll(&p, 1, 200);
		if (r > 0)
			return rdb_rsp_accept(lfd);
		int st;
		if (g > 0 && waitpid(g, &st, WNOHANG) == g)
			return NULL;
	}
}

int rdb_gdb_serve(const struct rdb_replay_opts *oo)
{
	struct rdb_tg *t = rdb_tg_new(oo->dir);
	struct rdb_replay_opts fo = *oo;
	rdb_replay_fork_child_from(rdb_tg_header(t), &fo);
	const struct rdb_replay_opts *o = &fo;
	if (o->from > rdb_tg_last_interval(t))
		rdb_fatal("%s: --from %llu: the last complete interval is %llu", o->dir,
		          (unsigned long long)o->from, (unsigned long long)rdb_tg_last_interval(t));
	char host[256] = "127.0.0.1";
	int port = 0;
	if (o->gdbserver) {
		const char *colon = strrchr(o->gdbserver, ':');
		const char *ps = colon ? colon + 1 : o->gdbserver;
		char *e;
		long v = strtol(ps, &e, 10);
		if (!*ps || *e || v < 0 || v > 65535)
			rdb_fatal("--gdbserver %s: not [HOST:]PORT", o->gdbserver);
		port = (int)v;
		if (colon && colon > o->gdbserver)
			snprintf(host, sizeof host, "%.*s", (int)(colon - o->gdbserver), o->gdbserver);
	}
	int bound;
	int lfd = rdb_rsp_listen(host, port, &bound);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN); /* gdb's to handle: it interrupts the program through us */
	signal(SIGQUIT, SIG_IGN);
	rdb_no_progress = 1;
	struct rdb_tl *l = rdb_tl_new(t, o->from);
	if (rdb_tl_first(l, o->from, (o->flags & RDB_TF_HELLO_QUIET) != 0))
		rdb_fatal("%s: the replay did not start", o->dir);
	pid_t g = -1;
	if (o->gdb)
		g = start_gdb(bound, rdb_tg_header(t)->image, o->gdb_script);
	else
		fprintf(stderr, "rdb: waiting for gdb on %s:%d (gdb -ex 'target extended-remote "
		                "%s:%d' %s)\n", host, bound, host, bound, rdb_tg_header(t)->image);
	struct rdb_rsp *c = wait_connection(lfd, g);
	int status = 125;
	if (!c) {
		rdb_warn("gdb ended before it connected");
		rdb_tg_kill(t);
		return 125;
	}
	status = rdb_gdbserver_run(c, t, l, o->from);
	rdb_rsp_close(c);
	if (g > 0)
		reap_gdb(g);
	rdb_tl_free(l);
	rdb_tg_kill(t);
	rdb_tg_reap(t, 1);
	return status;
}
