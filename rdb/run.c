/* run.c: rdb record and rdb replay.  Both start PROG with ASLR disabled and
 * one end of a socketpair as fd RDB_CHAN_FD; the first record says the
 * mode.  Record: the runtime streams raw records, rdb compresses them into
 * the trace set (frames flushed at least every half second, so a recording
 * killed by SIGKILL keeps what was sent).  Replay: rdb merges the streams
 * back into program order and feeds them to the runtime. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rdb.h"

extern char **environ;

/* ---- shared ----------------------------------------------------------- */

static char *find_prog(const char *prog)
{
	char buf[PATH_MAX];
	if (strchr(prog, '/')) {
		if (!realpath(prog, buf))
			rdb_fatal("%s: %s", prog, strerror(errno));
		return rdb_xstrdup(buf);
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *e = strchr(path, ':');
		size_t n = e ? (size_t)(e - path) : strlen(path);
		snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? path : ".", prog);
		char real[PATH_MAX];
		if (access(buf, X_OK) == 0 && realpath(buf, real))
			return rdb_xstrdup(real);
		path += n + (e != NULL);
	}
	rdb_fatal("%s: not found in PATH", prog);
}

/* In the child: ASLR off, the channel at RDB_CHAN_FD, exec. */
static _Noreturn void start_child(int chan, const char *exe, char **argv, char **envp,
                                  const uint64_t *rlim)
{
	if (personality(ADDR_NO_RANDOMIZE) < 0)
		rdb_warn("personality(ADDR_NO_RANDOMIZE): %s", strerror(errno));
	if (rlim) {
		struct rlimit rl = {rlim[0], rlim[1]};
		if (setrlimit(RLIMIT_STACK, &rl))
			rdb_warn("cannot set the recorded stack limit: %s", strerror(errno));
	}
	if (dup2(chan, RDB_CHAN_FD) < 0) {
		rdb_warn("dup2: %s", strerror(errno));
		_exit(127);
	}
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	execve(exe, argv, envp);
	rdb_warn("%s: %s", exe, strerror(errno));
	_exit(127);
}

static int send_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t r = write(fd, c, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

/* rdb ends as PROG ended: its status, or its fatal signal re-raised. */
static int end_like(int how, int value)
{
	fflush(stdout);
	if (how == RDB_TF_EXIT_SIGNAL) {
		signal(value, SIG_DFL);
		sigset_t s;
		sigemptyset(&s);
		sigaddset(&s, value);
		sigprocmask(SIG_UNBLOCK, &s, NULL);
		struct rlimit no = {0, 0};
		setrlimit(RLIMIT_CORE, &no); /* PROG's core, if any, is already there */
		raise(value);
		return 128 + value;
	}
	return value;
}

static void hex(char *out, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = 0;
}

/* ---- record ----------------------------------------------------------- */

static void record_usage(FILE *f)
{
	fputs("usage: rdb record [-o DIR] -- PROG ARGS...\n"
	      "Runs PROG (built with rdb-cc) with ASLR disabled and writes a trace set to\n"
	      "DIR (default rdb-trace/PROG-N, N increasing).  PROG's stdin, stdout, stderr\n"
	      "and exit status are its own: rdb exits with PROG's status or re-raises its\n"
	      "fatal signal.  Fork children of PROG run untraced.\n",
	      f);
}

static char *default_dir(const char *prog)
{
	const char *base = strrchr(prog, '/');
	base = base ? base + 1 : prog;
	if (mkdir("rdb-trace", 0755) && errno != EEXIST)
		rdb_fatal("rdb-trace: %s", strerror(errno));
	for (int n = 1; n < 1000000; n++) {
		char buf[PATH_MAX];
		snprintf(buf, sizeof buf, "rdb-trace/%s-%d", base, n);
		if (mkdir(buf, 0755) == 0)
			return rdb_xstrdup(buf);
		if (errno != EEXIST)
			rdb_fatal("%s: %s", buf, strerror(errno));
	}
	rdb_fatal("rdb-trace: no free name for %s", base);
}

struct reader {
	int fd;
	struct rdb_tw *w;
	char *buf;
	size_t n, cap;
};

/* Reads up to cap bytes more, flushing frames when the program is quiet. */
static ssize_t fill(struct reader *r)
{
	for (;;) {
		struct pollfd p = {r->fd, POLLIN, 0};
		int k = poll(&p, 1, 500);
		if (k == 0) {
			rdb_tw_flush(r->w);
			continue;
		}
		if (k < 0 && errno == EINTR)
			continue;
		if (r->cap - r->n < (1 << 16)) {
			r->cap = r->cap ? 2 * r->cap : (1 << 20);
			r->buf = rdb_xrealloc(r->buf, r->cap);
		}
		ssize_t got = read(r->fd, r->buf + r->n, r->cap - r->n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got > 0)
			r->n += (size_t)got;
		return got;
	}
}

int rdb_cmd_record(int argc, char **argv)
{
	const char *dir = NULL;
	int i = 1;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			record_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			dir = argv[++i];
			continue;
		}
		if (argv[i][0] == '-') {
			rdb_warn("record: unknown option '%s'", argv[i]);
			record_usage(stderr);
			return 2;
		}
		break;
	}
	if (i >= argc) {
		record_usage(stderr);
		return 2;
	}
	char **pargv = argv + i;
	char *exe = find_prog(pargv[0]);
	uint8_t bid[64];
	char err[512];
	long nbid = rdb_elf_buildid(exe, bid, sizeof bid, err, sizeof err);
	if (nbid < 0)
		rdb_fatal("%s", err);
	if (nbid == 0)
		rdb_warn("%s has no build-id: replay cannot check it is the same executable",
		         exe);
	char *d;
	if (dir) {
		if (mkdir(dir, 0755) && errno != EEXIST)
			rdb_fatal("%s: %s", dir, strerror(errno));
		d = rdb_xstrdup(dir);
	} else {
		d = default_dir(pargv[0]);
	}

	struct rdb_tw *w = rdb_tw_open(d);
	rdb_tw_header(w, RDB_TF_H_EXE, exe, strlen(exe));
	rdb_tw_header(w, RDB_TF_H_BUILDID, bid, (size_t)(nbid > 0 ? nbid : 0));
	for (char **a = pargv; *a; a++)
		rdb_tw_header(w, RDB_TF_H_ARG, *a, strlen(*a));
	for (char **e = environ; *e; e++)
		rdb_tw_header(w, RDB_TF_H_ENV, *e, strlen(*e));
	struct utsname u;
	if (uname(&u) == 0) {
		char m[4 * 65 + 4];
		snprintf(m, sizeof m, "%s %s %s %s", u.sysname, u.release, u.version, u.machine);
		rdb_tw_header(w, RDB_TF_H_MACHINE, m, strlen(m));
	}
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof cwd))
		rdb_tw_header(w, RDB_TF_H_CWD, cwd, strlen(cwd));
	struct rlimit rl;
	if (getrlimit(RLIMIT_STACK, &rl) == 0) {
		uint64_t v[2] = {rl.rlim_cur, rl.rlim_max};
		rdb_tw_header(w, RDB_TF_H_RLIMIT_STACK, v, sizeof v);
	}

	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		rdb_fatal("socketpair: %s", strerror(errno));
	struct timespec t0;
	clock_gettime(CLOCK_REALTIME, &t0);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN); /* the terminal's ^C is PROG's to handle */
	signal(SIGQUIT, SIG_IGN);
	pid_t pid = fork();
	if (pid < 0)
		rdb_fatal("fork: %s", strerror(errno));
	if (pid == 0) {
		close(sv[0]);
		start_child(sv[1], exe, pargv, environ, NULL);
	}
	close(sv[1]);
	struct rdb_tf_hstart st = {t0.tv_sec, t0.tv_nsec, pid, 0};
	rdb_tw_header(w, RDB_TF_H_START, &st, sizeof st);
	struct {
		struct rdb_tf_rec h;
		struct rdb_tf_hello m;
	} hello = {{RDB_TF_HELLO, sizeof(struct rdb_tf_hello)},
	           {RDB_TF_VERSION, RDB_TF_MODE_RECORD, 0, 0, 0, 0}};
	send_all(sv[0], &hello, sizeof hello);

	struct reader r = {sv[0], w, NULL, 0, 0};
	uint64_t nsys = 0;
	int got_init = 0, got_term = 0, exec_pending = 0, bad = 0;
	for (;;) {
		ssize_t got = fill(&r);
		size_t o = 0;
		while (r.n - o >= sizeof(struct rdb_tf_rec)) {
			struct rdb_tf_rec h;
			memcpy(&h, r.buf + o, sizeof h);
			if (r.n - o < sizeof h + h.len) {
				if (sizeof h + h.len > r.cap) {
					r.cap = sizeof h + h.len + (1 << 20);
					r.buf = rdb_xrealloc(r.buf, r.cap);
				}
				break;
			}
			const char *p = r.buf + o + sizeof h;
			switch (h.type) {
			case RDB_TF_INIT: {
				struct rdb_tf_init in;
				if (h.len < sizeof in)
					goto badrec;
				memcpy(&in, p, sizeof in);
				if (h.len != sizeof in + (uint64_t)in.nauxv * 16)
					goto badrec;
				rdb_tw_header(w, RDB_TF_H_AUXV, p + sizeof in, h.len - sizeof in);
				rdb_tw_header(w, RDB_TF_H_RANDOM, in.random, 16);
				got_init = 1;
				break;
			}
			case RDB_TF_TRAP:
				nsys++;
				exec_pending = 0;
				/* fall through */
			case RDB_TF_NOTE:
			case RDB_TF_TERM:
			case RDB_TF_EXEC:
				if (h.type == RDB_TF_TERM)
					got_term = 1;
				if (h.type == RDB_TF_EXEC)
					exec_pending = 1;
				rdb_tw_add(w, RDB_TF_S_SYSCALLS, h.type, p, h.len, NULL, 0);
				break;
			case RDB_TF_DATA:
				rdb_tw_add(w, RDB_TF_S_SYSDATA, h.type, p, h.len, NULL, 0);
				break;
			case RDB_TF_NONDET:
				rdb_tw_add(w, RDB_TF_S_NONDET, h.type, p, h.len, NULL, 0);
				break;
			default:
			badrec:
				if (!bad++)
					rdb_warn("the program sent a bad record (type %u, %u bytes): "
					         "ignored", h.type, h.len);
			}
			o += sizeof h + h.len;
		}
		memmove(r.buf, r.buf + o, r.n - o);
		r.n -= o;
		if (got <= 0)
			break;
	}
	close(sv[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			rdb_fatal("waitpid: %s", strerror(errno));
	struct rdb_tf_exit x;
	memset(&x, 0, sizeof x);
	x.how = WIFSIGNALED(status) ? RDB_TF_EXIT_SIGNAL : RDB_TF_EXIT_STATUS;
	x.value = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
	x.execd = exec_pending && !got_term;
	x.cut = !got_term && !x.execd;
	x.nsyscalls = nsys;
	struct timespec t1;
	clock_gettime(CLOCK_REALTIME, &t1);
	x.end_sec = t1.tv_sec;
	x.end_nsec = t1.tv_nsec;
	rdb_tw_exit(w, &x);
	rdb_tw_close(w);
	if (!got_init)
		rdb_warn("%s never answered on the channel: was it built with rdb-cc? "
		         "The trace is empty", exe);
	else if (x.cut)
		rdb_warn("the recording was cut short (%s %d): the trace holds what was "
		         "sent until then", x.how == RDB_TF_EXIT_SIGNAL ? "signal" : "status",
		         x.value);
	return end_like((int)x.how, x.value);
}

/* ---- replay ----------------------------------------------------------- */

static void replay_usage(FILE *f)
{
	fputs("usage: rdb replay [--quiet] DIR\n"
	      "Re-executes the run recorded in DIR from the trace alone: syscalls return\n"
	      "their recorded results without entering the kernel (except those that shape\n"
	      "the address space), writes to stdout and stderr are re-executed (not with\n"
	      "--quiet), and rdb exits with the recorded status.\n",
	      f);
}

static int feed(int fd, uint32_t type, const void *p, size_t n)
{
	struct rdb_tf_rec h = {type, (uint32_t)n};
	return send_all(fd, &h, sizeof h) || send_all(fd, p, n) ? -1 : 0;
}

static int feed_chan(void *ctx, uint32_t type, const void *p, size_t n)
{
	return feed(*(int *)ctx, type, p, n);
}

int rdb_cmd_replay(int argc, char **argv)
{
	int quiet = 0;
	const char *dir = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			replay_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q"))
			quiet = 1;
		else if (argv[i][0] == '-' || dir) {
			rdb_warn("replay: unexpected argument '%s'", argv[i]);
			replay_usage(stderr);
			return 2;
		} else
			dir = argv[i];
	}
	if (!dir) {
		replay_usage(stderr);
		return 2;
	}
	struct rdb_header h;
	rdb_read_header(dir, &h);
	if (!h.have_random)
		rdb_fatal("%s: the program never started under rdb (no AT_RANDOM record): "
		          "nothing to replay", dir);
	uint8_t bid[64];
	char err[512];
	long nbid = rdb_elf_buildid(h.exe, bid, sizeof bid, err, sizeof err);
	if (nbid < 0)
		rdb_fatal("%s: cannot replay: %s", dir, err);
	if ((size_t)nbid != h.buildid_len || memcmp(bid, h.buildid, h.buildid_len)) {
		char a[129], b[129];
		hex(a, h.buildid, h.buildid_len);
		hex(b, bid, (size_t)nbid);
		rdb_fatal("%s: recorded from %s with build-id %s, but that file now has "
		          "build-id %s: refusing to replay another executable", dir, h.exe,
		          h.buildid_len ? a : "(none)", nbid ? b : "(none)");
	}
	if (!h.have_exit) {
		rdb_warn("%s: no exit file: the recording was cut short (rdb itself was killed)",
		         dir);
		h.exit.how = RDB_TF_EXIT_SIGNAL;
		h.exit.value = SIGKILL;
		h.exit.cut = 1;
	}
	struct rdb_tr *sc = rdb_tr_open(dir, RDB_TF_S_SYSCALLS);
	struct rdb_tr *sd = rdb_tr_open(dir, RDB_TF_S_SYSDATA);
	struct rdb_tr *nd = rdb_tr_open(dir, RDB_TF_S_NONDET);

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
		close(sv[0]);
		if (h.cwd && chdir(h.cwd)) {
			/* not needed: paths are never opened on replay */
		}
		start_child(sv[1], h.exe, h.argv, h.envp, h.have_rlimit ? h.rlimit_stack : NULL);
	}
	close(sv[1]);
	int fd = sv[0];
	size_t hl = sizeof(struct rdb_tf_hello) + h.nauxv * 16 + 16;
	char *hb = rdb_xmalloc(hl);
	struct rdb_tf_hello m = {RDB_TF_VERSION, RDB_TF_MODE_REPLAY,
	                         quiet ? RDB_TF_HELLO_QUIET : 0u, (uint32_t)h.nauxv,
	                         h.start.pid, 0};
	memcpy(hb, &m, sizeof m);
	memcpy(hb + sizeof m, h.auxv, h.nauxv * 16);
	memcpy(hb + sizeof m + h.nauxv * 16, h.random, 16);
	int dead = feed(fd, RDB_TF_HELLO, hb, hl);
	rdb_free(hb);

	dead = dead || rdb_tr_merge(sc, sd, nd, feed_chan, &fd);
	if (!dead)
		feed(fd, RDB_TF_END, &h.exit, sizeof h.exit);
	shutdown(fd, SHUT_WR);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			rdb_fatal("waitpid: %s", strerror(errno));
	close(fd);
	rdb_tr_close(sc);
	rdb_tr_close(sd);
	rdb_tr_close(nd);
	int how = WIFSIGNALED(status) ? RDB_TF_EXIT_SIGNAL : RDB_TF_EXIT_STATUS;
	int val = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
	if (how != (int)h.exit.how || val != h.exit.value) {
		rdb_warn("replay ended with %s %d, the recording with %s %d",
		         how == RDB_TF_EXIT_SIGNAL ? "signal" : "status", val,
		         h.exit.how == RDB_TF_EXIT_SIGNAL ? "signal" : "status", h.exit.value);
		return how == RDB_TF_EXIT_STATUS && val ? val : 125;
	}
	return end_like(how, val);
}
