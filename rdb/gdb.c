/* gdb.c: gdb on programs built with rdb-cc.  Replays: rdb is gdb's
 * target (rdb_gdb_serve: gdbserver.c and its parts).  The attach path:
 * `rdb gdb -- PROG ARGS` runs gdb on an unrecorded run; `rdb record
 * --gdb` starts gdb attached to the recorded process, which waits for it
 * before its first instruction (runtime/gdb.c); gdb runs with
 * librdb-gdb.so preloaded (gdbshim.c: it lets gdb write the registers and
 * keeps the instrumentation's own stops from it). */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gdbserver.h"
#include "layout.h"
#include "rdb.h"

/* rdb's own path (/proc/self/exe). */
static char *self_path(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		rdb_fatal("cannot find my own executable (/proc/self/exe): %s", strerror(errno));
	self[n] = 0;
	return rdb_xstrdup(self);
}

/* A file rdb ships for gdb (librdb-gdb.so): next to rdb in
 * the build folder, PREFIX/lib/rdb when installed. */
static char *lib_path(const char *name)
{
	char *self = self_path();
	*strrchr(self, '/') = 0;
	static const char *const where[] = {"%s/%s", "%s/../lib/rdb/%s"};
	char buf[2 * PATH_MAX];
	for (size_t i = 0; i < sizeof where / sizeof where[0]; i++) {
		snprintf(buf, sizeof buf, where[i], self, name);
		if (access(buf, R_OK) == 0)
			return rdb_xstrdup(buf);
	}
	rdb_fatal("%s is neither in %s nor in %s/../lib/rdb: "
	          "build it (cmake --build BUILD) or install rdb again", name, self, self);
}

static char *shim_path(void) { return lib_path("librdb-gdb.so"); }

void rdb_gdb_check(const char *script)
{
	free(shim_path());
	rdb_gdb_server_check(script);
}

/* gdb, with the shim first in LD_PRELOAD, and the commands every session
 * needs: the interval timer's signal is the runtime's. */
static _Noreturn void exec_gdb(char **args)
{
	char *shim = shim_path();
	const char *old = getenv("LD_PRELOAD");
	size_t n = strlen(shim) + (old ? strlen(old) + 1 : 0) + 1;
	char *pre = rdb_xmalloc(n);
	snprintf(pre, n, "%s%s%s", shim, old ? ":" : "", old ? old : "");
	setenv("LD_PRELOAD", pre, 1);
	execvp(args[0], args);
	rdb_fatal("cannot run %s: %s (Debian: apt-get install gdb)", args[0], strerror(errno));
}

/* The arguments every gdb gets first. */
static int common_args(char **a, int n)
{
	a[n++] = "gdb";
	a[n++] = "-q";
	a[n++] = "-iex";
	a[n++] = "handle SIG64 nostop noprint pass";
	return n;
}

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

pid_t rdb_gdb_attach(pid_t pid, const char *exe, const char *script)
{
	static char pidbuf[24];
	snprintf(pidbuf, sizeof pidbuf, "%d", (int)pid);
	rdb_no_progress = 1; /* gdb has the terminal */
	pid_t g = fork_gdb();
	if (g > 0)
		return g;
	char *a[40];
	int n = common_args(a, 0);
	/* the snapshot children, cloned at each boundary, are not the
	 * program's: gdb sees them come and go quietly */
	a[n++] = "-iex";
	a[n++] = "set print inferior-events off";
	a[n++] = "-iex";
	a[n++] = "set print thread-events off";
	/* attached: the program, waiting in rdb_gdb_wait, may go on when
	 * gdb's user says so, or at once should gdb end */
	static char attached[64];
	snprintf(attached, sizeof attached, "set var *(long *)%#llx = 1",
	         (unsigned long long)RDB_STATE_ADDR + RDB_STATE_GDB_IN);
	a[n++] = "-ex";
	a[n++] = attached;
	if (script) {
		a[n++] = "-batch";
		a[n++] = "-x";
		a[n++] = (char *)script;
	}
	a[n++] = "-p";
	a[n++] = pidbuf;
	a[n++] = (char *)exe;
	a[n] = NULL;
	exec_gdb(a);
}

static void gdb_usage(FILE *f)
{
	fputs("usage: rdb gdb [GDB-OPTION...] -- PROG [ARG...]\n"
	      "Runs gdb on PROG, built with rdb-cc, unrecorded (gdb --args PROG ARG...).\n"
	      "Plain gdb cannot continue from a breakpoint in such a program (the %gs\n"
	      "base its hooks use is one the kernel will not let gdb write back); here\n"
	      "gdb runs with librdb-gdb.so, which also hides the instrumentation's own\n"
	      "stops (the instruction counter's SIGSEGV, steps through a hook's cold\n"
	      "path).  To debug a recorded run: rdb replay --gdb DIR; while recording:\n"
	      "rdb record --gdb ... -- PROG.\n",
	      f);
}

int rdb_cmd_gdb(int argc, char **argv)
{
	int dash = 0;
	for (int i = 1; i < argc && !dash; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			gdb_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--"))
			dash = i;
	}
	if (!dash || dash + 1 >= argc) {
		gdb_usage(stderr);
		return 2;
	}
	char **a = rdb_xmalloc((size_t)(argc + 8) * sizeof *a);
	int n = common_args(a, 0);
	for (int i = 1; i < dash; i++)
		a[n++] = argv[i];
	a[n++] = "--args";
	for (int i = dash + 1; i < argc; i++)
		a[n++] = argv[i];
	a[n] = NULL;
	exec_gdb(a);
}

void rdb_gdb_reap(pid_t g)
{
	int st;
	while (waitpid(g, &st, 0) < 0)
		if (errno != EINTR)
			rdb_fatal("waitpid (gdb): %s", strerror(errno));
}

/* ---- rdb replay --gdb / --gdbserver: rdb is the target ------------------- */

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

int rdb_gdb_serve(const struct rdb_replay_opts *o)
{
	struct rdb_tg *t = rdb_tg_new(o->dir);
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
		g = start_gdb(bound, rdb_tg_header(t)->exe, o->gdb_script);
	else
		fprintf(stderr, "rdb: waiting for gdb on %s:%d (gdb -ex 'target extended-remote "
		                "%s:%d' %s)\n", host, bound, host, bound, rdb_tg_header(t)->exe);
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
		rdb_gdb_reap(g);
	rdb_tl_free(l);
	rdb_tg_kill(t);
	rdb_tg_reap(t, 1);
	return status;
}
