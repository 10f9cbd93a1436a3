/* replay.c: rdb replay.  PROG runs with the channel (run.c); rdb merges
 * the trace set's streams back into program order (feed.c) and feeds them
 * to its runtime. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rdb.h"

static uint64_t parse_count(const char *opt, const char *s)
{
	char *e;
	errno = 0;
	unsigned long long v = strtoull(s, &e, 10);
	if (!*s || *e || errno || *s == '-' || *s == '+')
		rdb_fatal("%s %s: not an interval number", opt, s);
	return v;
}

static void replay_usage(FILE *f)
{
	fputs("usage: rdb replay [--quiet] [--pid ID] [--from K] [--to K] [--verify | --verify-full]\n"
	      "                  [--timing] [--gdb | --gdb-batch FILE | --gdbserver [HOST:]PORT]\n"
	      "                  DIR\n"
	      "Re-executes the run recorded in DIR from the trace alone: syscalls return\n"
	      "their recorded results without entering the kernel (except those that shape\n"
	      "the address space), writes to stdout and stderr are re-executed (not with\n"
	      "--quiet), and rdb exits with the recorded status.\n"
	      "  -q, --quiet   do not re-execute writes to stdout and stderr\n"
	      "  --pid ID      replay process ID of a recorded tree (rdb ps DIR lists them)\n"
	      "  --from K      start at interval K (1, the default: the start; at most the\n"
	      "                last complete interval, see rdb info)\n"
	      "  --to K        stop after interval K (K >= --from): rdb says so and exits 0\n"
	      "  --verify      compare registers and memory hashes at every boundary with\n"
	      "                the recording's (recorded with rdb record --checksum)\n"
	      "  --verify-full compare registers and the hash of all writable memory only\n"
	      "                (a replay from the start): the replay then runs without the\n"
	      "                read and write hooks, as one without --verify does\n"
	      "  --timing      say (on stderr, as \"rdb: replay resumed the program at interval\n"
	      "                K's start N ms after rdb started\") how long the replay took to\n"
	      "                reach the program's first instruction, or interval K's\n"
	      "  --gdb         start gdb on the replay, rdb being its target (gdb's remote\n"
	      "                protocol): stopped before the program's first instruction\n"
	      "                (or interval K's, with --from K); gdb's reverse commands\n"
	      "                work (reverse-stepi, reverse-continue, ...)\n"
	      "  --gdb-batch FILE  the same, gdb running the commands in FILE (-batch -x)\n"
	      "  --gdbserver [HOST:]PORT  the same target, waiting for a gdb or an IDE to\n"
	      "                connect (target extended-remote HOST:PORT; HOST: loopback)\n",
	      f);
}

/* 0 and o filled, or the exit status for main. */
static int replay_args(int argc, char **argv, struct rdb_replay_opts *o)
{
	const char *v;
	memset(o, 0, sizeof *o);
	o->from = 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			replay_usage(stdout);
			return -1;
		}
		if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q"))
			o->flags |= RDB_TF_HELLO_QUIET;
		else if (!strcmp(argv[i], "--verify"))
			o->flags |= RDB_TF_HELLO_VERIFY;
		else if (!strcmp(argv[i], "--verify-full"))
			o->flags |= RDB_TF_HELLO_VERIFY | RDB_TF_HELLO_VERIFY_FULL;
		else if (!strcmp(argv[i], "--timing"))
			o->flags |= RDB_TF_HELLO_TIMING;
		else if (rdb_run_gdb_opt(argc, argv, &i, &o->gdb, &o->gdb_script))
			;
		else if (rdb_run_opt_arg(argc, argv, &i, "--gdbserver", NULL, &v))
			o->gdbserver = v;
		else if (rdb_run_opt_arg(argc, argv, &i, "--from", NULL, &v))
			o->from = parse_count("--from", v);
		else if (rdb_run_opt_arg(argc, argv, &i, "--to", NULL, &v)) {
			o->to = parse_count("--to", v);
			if (!o->to)
				rdb_fatal("--to 0: intervals count from 1");
		}
		else if (argv[i][0] == '-' || o->dir) {
			rdb_warn("replay: unexpected argument '%s'", argv[i]);
			replay_usage(stderr);
			return 2;
		} else
			o->dir = argv[i];
	}
	if (!o->dir) {
		replay_usage(stderr);
		return 2;
	}
	if (o->to && o->to < o->from)
		rdb_fatal("%s: --to %llu is before --from %llu", o->dir, (unsigned long long)o->to,
		          (unsigned long long)o->from);
	if (o->gdbserver && o->gdb)
		rdb_fatal("--gdbserver waits for a gdb to connect: not with --gdb or --gdb-batch");
	if ((o->gdb || o->gdbserver) && (o->flags & RDB_TF_HELLO_VERIFY))
		rdb_fatal("--verify checks the replay's memory; not under gdb");
	if (o->gdb)
		rdb_gdb_server_check(o->gdb_script);
	if ((o->flags & RDB_TF_HELLO_VERIFY_FULL) && o->from != 1)
		rdb_fatal("%s: --verify-full compares all of memory, which only a replay from the "
		          "start reproduces: not with --from %llu (use --verify)", o->dir,
		          (unsigned long long)o->from);
	return 0;
}

/* A feeder's bytes to leave out (rdb_replay_feeder). */
static uint64_t feed_skip;

static int feed_out(int fd, const void *p, size_t n)
{
	size_t k = feed_skip < n ? (size_t)feed_skip : n;
	feed_skip -= k;
	return n > k ? rdb_run_send_all(fd, (const char *)p + k, n - k) : 0;
}

/* VALUES go out in batches (a write a record was most of a replay's start
 * on a program with 100,000 value ranges: docs/perf.md); any other record
 * at once, in one write: the runtime may be waiting for it. */
#define FEED_BATCH (128u << 10)
static char feed_buf[FEED_BATCH];
static size_t feed_n;

static int feed_flush(int fd)
{
	size_t n = feed_n;
	feed_n = 0;
	return n && feed_out(fd, feed_buf, n) ? -1 : 0;
}

static int feed_add(int fd, const void *p, size_t n)
{
	if (feed_n + n > FEED_BATCH && feed_flush(fd))
		return -1;
	if (n >= FEED_BATCH)
		return feed_out(fd, p, n) ? -1 : 0;
	memcpy(feed_buf + feed_n, p, n);
	feed_n += n;
	return 0;
}

static int feed(int fd, uint32_t type, const void *p, size_t n)
{
	struct rdb_tf_rec h = {type, (uint32_t)n};
	return feed_add(fd, &h, sizeof h) || (n && feed_add(fd, p, n)) ||
	       (type != RDB_TF_VALUES && feed_flush(fd)) ? -1 : 0;
}

static int feed_chan(void *ctx, uint32_t type, const void *p, size_t n)
{
	return feed(*(int *)ctx, type, p, n);
}

static int send_hello(int fd, const struct rdb_header *h, const struct rdb_replay_opts *o)
{
	size_t hl = sizeof(struct rdb_tf_hello) + h->nauxv * 16 + 16;
	char *hb = rdb_xmalloc(hl);
	/* RDB_DEBUG=2 for rdb: the runtime traces events (the program's own
	 * environment is the recorded one) */
	const char *dbg = getenv("RDB_DEBUG");
	uint32_t flags = o->flags | (dbg && !strcmp(dbg, "2") ? RDB_TF_HELLO_DEBUG : 0) |
	                 (o->watch ? RDB_TF_HELLO_WATCH : 0);
	struct rdb_tf_hello m = {RDB_TF_HELLO_VERSION, RDB_TF_MODE_REPLAY, flags,
	                         (uint32_t)h->nauxv, h->start.pid, {(uint32_t)o->from},
	                         {.rdb_start_ns = (flags & RDB_TF_HELLO_TIMING) ? rdb_started_ns : 0}};
	memcpy(hb, &m, sizeof m);
	memcpy(hb + sizeof m, h->auxv, h->nauxv * 16);
	memcpy(hb + sizeof m + h->nauxv * 16, h->random, 16);
	int dead = feed(fd, RDB_TF_HELLO, hb, hl);
	rdb_free(hb);
	if (!dead && o->watch)
		dead = feed(fd, RDB_TF_WATCH, o->watch, sizeof *o->watch);
	return dead;
}

/* In the replay's child: the path to exec.  A process of a tree (H_EXECFN)
 * is exec'd by the string its own exec was given, from its working
 * directory, so that AT_EXECFN and the strings at the stack's top lie
 * where they lay; if that is no longer the recorded file, H_EXE. */
static const char *exec_path(const struct rdb_header *h)
{
	struct stat a, b;
	if (h->image && strcmp(h->image, h->exe))
		return rdb_pack_exec_path(h); /* the set's copy (rdb pack) */
	if (!h->execfn || !strncmp(h->execfn, "/proc/", 6) || !h->cwd || chdir(h->cwd) ||
	    stat(h->execfn, &a) || stat(h->exe, &b) || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
		return h->exe;
	return h->execfn;
}

/* The replay's child, exec'd: a process exec'd by /proc/self/exe (or
 * /proc/thread-self/exe) is exec'd by its image's path, and execs itself
 * again by the recorded string (RDB_EXEC_AS_ENV, runtime/start.c). */
static _Noreturn void start_child(const struct rdb_header *h, int chan)
{
	const uint64_t *rlim = h->have_rlimit ? h->rlimit_stack : NULL;
	const char *fn = h->execfn;
	if (!fn || (strcmp(fn, "/proc/self/exe") && strcmp(fn, "/proc/thread-self/exe")))
		rdb_run_start_child(chan, -1, exec_path(h), h->argv, h->envp, rlim);
	size_t n = 0;
	while (h->envp[n])
		n++;
	char **env = rdb_xmalloc((n + 2) * sizeof *env);
	env[0] = rdb_xmalloc(sizeof RDB_EXEC_AS_ENV + strlen(fn));
	snprintf(env[0], sizeof RDB_EXEC_AS_ENV + strlen(fn), "%s%s", RDB_EXEC_AS_ENV, fn);
	memcpy(env + 1, h->envp, (n + 1) * sizeof *env);
	rdb_run_start_child(chan, -1, h->image ? h->image : h->exe, h->argv, env, rlim);
}

/* rdb's exit status: the program's, checked against the recording's (or,
 * stopped by --to, 0 if the program exited 0). */
static int replay_status(const struct rdb_header *h, const struct rdb_replay_opts *o, int end,
                         int status)
{
	int how = WIFSIGNALED(status) ? RDB_TF_EXIT_SIGNAL : RDB_TF_EXIT_STATUS;
	int val = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
	const char *what = how == RDB_TF_EXIT_SIGNAL ? "signal" : "status";
	if (end == RDB_FEED_STOP) {
		if (how == RDB_TF_EXIT_STATUS && val == 0) {
			if (!o->watch && !o->check)
				rdb_warn("replay stopped after interval %llu", (unsigned long long)o->to);
			return 0;
		}
		rdb_warn("replay was to stop after interval %llu, but the program ended with %s %d",
		         (unsigned long long)o->to, what, val);
		return how == RDB_TF_EXIT_STATUS ? val : 125;
	}
	if (how != (int)h->exit.how || val != h->exit.value) {
		rdb_warn("replay ended with %s %d, the recording with %s %d", what, val,
		         h->exit.how == RDB_TF_EXIT_SIGNAL ? "signal" : "status", h->exit.value);
		return how == RDB_TF_EXIT_STATUS && val ? val : 125;
	}
	if (o->check) /* it ended as recorded */
		return 0;
	if (o->watch) /* rdb flowback goes on to report: no re-raised signal */
		return how == RDB_TF_EXIT_STATUS ? val : 128 + val;
	return rdb_run_end_like(how, val);
}

/* The watch's reports (runtime/watch.c), after the feed: WATCH_HIT
 * records until END or the end of the channel. */
static size_t read_hits(int fd, struct rdb_tf_watch_hit *hits, size_t cap)
{
	size_t n = 0;
	struct rdb_tf_rec h;
	while (rdb_run_read_all(fd, &h, sizeof h) == 0) {
		struct rdb_tf_watch_hit w;
		if (h.type != RDB_TF_WATCH_HIT || h.len != sizeof w || rdb_run_read_all(fd, &w, sizeof w))
			break;
		if (n < cap)
			hits[n++] = w;
		if (w.kind == RDB_TF_WH_END)
			break;
	}
	return n;
}

/* After the runtime's "the recorded program exec'd another one": where
 * that one is (docs/process-trees.md). */
static void say_exec_next(const char *dir, int pid)
{
	char *set, *id = rdb_tree_next_image(dir, pid, &set);
	if (!id) {
		fprintf(stderr, "rdb: the program it exec'd ran untraced (not built with rdb-cc, "
		                "or not recorded)\n");
		return;
	}
	fprintf(stderr, "rdb: the program it exec'd was recorded as process %s: rdb replay "
	                "--pid %s %s\n", id, id, set);
	rdb_free(id), rdb_free(set);
}

int rdb_replay(const struct rdb_replay_opts *o, struct rdb_tf_watch_hit *hits, size_t cap,
               size_t *nhits)
{
	struct rdb_header h;
	rdb_read_header(o->dir, &h);
	if (!h.have_random)
		rdb_fatal("%s: the program never started under rdb (no AT_RANDOM record): "
		          "nothing to replay", o->dir);
	rdb_replay_check_buildid(o->dir, &h);
	if (!h.have_exit) {
		if (!o->watch && !o->check)
			rdb_warn("%s: no exit file: the recording was cut short (rdb itself was "
			         "killed)", o->dir);
		h.exit.how = RDB_TF_EXIT_SIGNAL;
		h.exit.value = SIGKILL;
		h.exit.cut = 1;
	}
	/* Without checksums the runtime can compare only the registers at
	 * the boundaries: say so rather than pass as if all were checked. */
	if ((o->flags & RDB_TF_HELLO_VERIFY) && !(h.record_flags & RDB_TF_HELLO_CHECKSUM) &&
	    !o->check)
		rdb_warn("%s was recorded without --checksum: --verify compares the registers "
		         "at each boundary only, not memory, written bytes or the end (record "
		         "with --checksum for those)", o->dir);
	struct rdb_replay_opts fo = *o;
	rdb_replay_fork_child_from(&h, &fo);
	o = &fo;
	struct rdb_feed *f = rdb_feed_open(o->dir, &h.exit, o->from, o->to);

	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		rdb_fatal("socketpair: %s", strerror(errno));
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	pid_t pid = fork();
	if (pid < 0)
		rdb_fatal("fork: %s", strerror(errno));
	if (pid == 0) {
		if (h.cwd && chdir(h.cwd)) {
			/* not needed: paths are never opened on replay */
		}
		start_child(&h, sv[1]);
	}
	close(sv[1]);
	int fd = sv[0];
	int hello_failed = send_hello(fd, &h, o);
	int end = hello_failed ? RDB_FEED_DEAD : rdb_feed_run(f, feed_chan, &fd);
	if (feed_flush(fd) && end != RDB_FEED_DEAD)
		end = RDB_FEED_DEAD;
	shutdown(fd, SHUT_WR);
	if (o->watch)
		*nhits = read_hits(fd, hits, cap);
	int status;
	rdb_progress_end();
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			rdb_fatal("waitpid: %s", strerror(errno));
	close(fd);
	rdb_feed_close(f);
	if (end == RDB_FEED_END && h.exit.execd == 1 && !o->check && !o->watch)
		say_exec_next(o->dir, h.start.pid);
	return replay_status(&h, o, end, status);
}

/* A fork child's recording starts at boundary 2 (docs/process-trees.md) */
void rdb_replay_fork_child_from(const struct rdb_header *h, struct rdb_replay_opts *o)
{
	if (!h->have_proc || !(h->proc.flags & RDB_TF_PROC_FORKED) || o->from >= 2)
		return;
	o->from = 2;
	if (o->to && o->to < 2)
		rdb_fatal("%s: a fork child's recording starts at interval 2: --to %llu is before",
		          o->dir, (unsigned long long)o->to);
}

/* fork() for the gdb server's processes: the child dies with rdb and has
 * a process group of its own (the terminal's ^C is gdb's, not theirs). */
static pid_t fork_served(void)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		rdb_fatal("fork: %s", strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpgid(0, 0);
	}
	return pid;
}

/* A replay for rdb's gdb server (gdbserver.c): the program traced from
 * its exec (PTRACE_TRACEME: it stops there), killed should rdb die.  Its
 * feeder (rdb_replay_feeder) is a process of its own, so that the server
 * answers gdb while the feed blocks on a full channel; the server keeps
 * its end of the channel, to feed forked copies of the replay again. */
pid_t rdb_replay_spawn(const struct rdb_replay_opts *o, const struct rdb_header *h, int *chan)
{
	(void)o;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		rdb_fatal("socketpair: %s", strerror(errno));
	pid_t pid = fork_served();
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL)) {
			rdb_warn("ptrace(PTRACE_TRACEME): %s", strerror(errno));
			_exit(127);
		}
		rdb_run_start_child(sv[1], -1, exec_path(h), h->argv, h->envp,
		                    h->have_rlimit ? h->rlimit_stack : NULL);
	}
	close(sv[1]);
	*chan = sv[0];
	return pid;
}

pid_t rdb_replay_feeder(const struct rdb_replay_opts *o, const struct rdb_header *h, int chan,
                        uint64_t skip)
{
	pid_t f = fork_served();
	if (f == 0) {
		/* only the channel: not gdb's connection, not other replays' */
		for (int fd = 3; fd < 1024; fd++)
			if (fd != chan)
				close(fd);
		feed_skip = skip;
		struct rdb_feed *fe = rdb_feed_open(o->dir, &h->exit, o->from, o->to);
		int end = send_hello(chan, h, o) ? RDB_FEED_DEAD : rdb_feed_run(fe, feed_chan, &chan);
		if (feed_flush(chan))
			end = RDB_FEED_DEAD;
		_exit(end);
	}
	return f;
}

int rdb_cmd_replay(int argc, char **argv)
{
	struct rdb_replay_opts o;
	int bad = replay_args(argc, argv, &o);
	if (bad)
		return bad < 0 ? 0 : bad;
	if (o.gdb || o.gdbserver)
		return rdb_gdb_serve(&o);
	return rdb_replay(&o, NULL, 0, NULL);
}
