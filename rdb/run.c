/* run.c: rdb record and rdb replay.  Both start PROG with ASLR disabled and
 * one end of a socketpair as fd RDB_CHAN_FD; the first record says the
 * mode.  Record: the runtime streams raw records, rdb compresses them into
 * the trace set (frames flushed at least every half second, so a recording
 * killed by SIGKILL keeps what was sent).  Replay: rdb merges the streams
 * back into program order and feeds them to the runtime. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
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

char *rdb_in_path(const char *prog)
{
	char buf[PATH_MAX];
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
	return NULL;
}

static char *find_prog(const char *prog)
{
	char buf[PATH_MAX];
	if (strchr(prog, '/')) {
		if (!realpath(prog, buf))
			rdb_fatal("%s: %s", prog, strerror(errno));
		return rdb_xstrdup(buf);
	}
	char *exe = rdb_in_path(prog);
	if (!exe)
		rdb_fatal("%s: not found in PATH", prog);
	return exe;
}

/* In the child: ASLR off, the channel at RDB_CHAN_FD (and, recording, the
 * values socket at RDB_VALUES_FD), exec. */
static _Noreturn void start_child(int chan, int values, const char *exe, char **argv,
                                  char **envp, const uint64_t *rlim)
{
	if (personality(ADDR_NO_RANDOMIZE) < 0)
		rdb_warn("personality(ADDR_NO_RANDOMIZE): %s", strerror(errno));
	if (rlim) {
		struct rlimit rl = {rlim[0], rlim[1]};
		if (setrlimit(RLIMIT_STACK, &rl))
			rdb_warn("cannot set the recorded stack limit: %s", strerror(errno));
	}
	if (dup2(chan, RDB_CHAN_FD) < 0 || (values >= 0 && dup2(values, RDB_VALUES_FD) < 0)) {
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

/* "--name V" or "--name=V" (also a short alias "-x V"): 1 and *val, or 0. */
static int opt_arg(int argc, char **argv, int *i, const char *name, const char *alias,
                   const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (!strncmp(a, name, n) && a[n] == '=') {
		*val = a + n + 1;
		return 1;
	}
	if (strcmp(a, name) && (!alias || strcmp(a, alias)))
		return 0;
	if (*i + 1 >= argc)
		rdb_fatal("%s needs a value", a);
	*val = argv[++*i];
	return 1;
}

/* --gdb and --gdb-batch FILE, of record and replay: 1 when argv[*i] is one. */
static int gdb_opt(int argc, char **argv, int *i, int *gdb, const char **script)
{
	if (!strcmp(argv[*i], "--gdb"))
		return *gdb = 1;
	if (!opt_arg(argc, argv, i, "--gdb-batch", NULL, script))
		return 0;
	return *gdb = 1;
}

static uint64_t parse_count(const char *opt, const char *s)
{
	char *e;
	errno = 0;
	unsigned long long v = strtoull(s, &e, 10);
	if (!*s || *e || errno || *s == '-' || *s == '+')
		rdb_fatal("%s %s: not an interval number", opt, s);
	return v;
}

/* Milliseconds (fractions allowed) as microseconds. */
static uint64_t parse_ms(const char *opt, const char *s)
{
	char *e;
	errno = 0;
	double v = strtod(s, &e);
	if (!*s || *e || errno || !(v >= 0) || v > 1e12)
		rdb_fatal("%s %s: not a number of milliseconds (0 or more, e.g. 1000 or 2.5)", opt,
		          s);
	uint64_t us = (uint64_t)(v * 1000 + 0.5);
	if (v > 0 && !us)
		rdb_fatal("%s %s: less than a microsecond", opt, s);
	return us;
}

/* All n bytes written (out) or read: 0, or -1 at an error or the end of
 * the stream. */
static int move_all(int fd, void *p, size_t n, int out)
{
	char *c = p;
	while (n) {
		ssize_t r = out ? write(fd, c, n) : read(fd, c, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		c += r;
		n -= (size_t)r;
	}
	return 0;
}

static int send_all(int fd, const void *p, size_t n) { return move_all(fd, (void *)p, n, 1); }
static int read_all(int fd, void *p, size_t n) { return move_all(fd, p, n, 0); }

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

/* -o DIR: a new folder, or an old trace set to replace.  Another folder
 * with things in it is refused (its files would be mixed with the
 * trace's); an old trace's files that a new one may not write again go
 * (its `exit` would say how a recording killed early ended). */
static void out_dir(const char *dir)
{
	if (!mkdir(dir, 0755))
		return;
	if (errno != EEXIST)
		rdb_fatal("%s: %s", dir, strerror(errno));
	DIR *dd = opendir(dir);
	if (!dd)
		rdb_fatal("%s: %s", dir, strerror(errno));
	int trace = 0, other = 0;
	for (struct dirent *e; (e = readdir(dd));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			*(strcmp(e->d_name, "header") ? &other : &trace) = 1;
	closedir(dd);
	if (other && !trace)
		rdb_fatal("%s: exists and holds no trace (no header file): not writing a trace "
		          "into it", dir);
	static const char *const stale[] = {"exit", "index"}; /* index: format 3's */
	for (size_t i = 0; i < sizeof stale / sizeof *stale; i++) {
		char *p = rdb_path(dir, stale[i]);
		if (unlink(p) && errno != ENOENT)
			rdb_fatal("%s: %s", p, strerror(errno));
		rdb_free(p);
	}
}

/* ---- record ----------------------------------------------------------- */

static void record_usage(FILE *f)
{
	fputs("usage: rdb record [-o DIR] [-i MS | --every-sic N] [--checksum] [--gdb]\n"
	      "                  -- PROG ARGS...\n"
	      "Runs PROG (built with rdb-cc) with ASLR disabled and writes a trace set to\n"
	      "DIR (default rdb-trace/PROG-N, N increasing).  PROG's stdin, stdout, stderr\n"
	      "and exit status are its own: rdb exits with PROG's status or re-raises its\n"
	      "fatal signal.  Fork children of PROG run untraced; what they (and rdb-cc\n"
	      "programs they exec) write to PROG's stdout and stderr or to its MAP_SHARED\n"
	      "memory is recorded.\n"
	      "  -o DIR              the trace set's folder (new, or an old trace set to replace)\n"
	      "  -i, --interval MS   CPU milliseconds per interval (default 1000; fractions\n"
	      "                      such as 2.5 allowed; 0: no intervals).  Replay can\n"
	      "                      start at any complete interval (rdb replay --from)\n"
	      "  --every-sic N       instead of a timer, end an interval every N counts of\n"
	      "                      the software instruction counter (loops' backward\n"
	      "                      branches, calls): many intervals even for a run of a\n"
	      "                      few ms\n"
	      "  --checksum          hash the program's memory and registers at every\n"
	      "                      interval boundary (rdb replay --verify compares)\n"
	      "  --gdb               start gdb attached to PROG, which waits for it before\n"
	      "                      its first instruction (set breakpoints, then continue)\n"
	      "  --gdb-batch FILE    the same, gdb running the commands in FILE (-batch -x)\n",
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

struct record_opts {
	const char *dir;
	uint64_t interval_us;
	uint32_t flags;
	int gdb;
	const char *gdb_script;
	char **argv; /* PROG ARGS... */
};

/* 0 and o filled, or the exit status for main. */
static int record_args(int argc, char **argv, struct record_opts *o)
{
	const char *v;
	int i = 1;
	o->dir = NULL;
	o->interval_us = 1000000;
	o->flags = 0;
	o->gdb = 0;
	o->gdb_script = NULL;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			record_usage(stdout);
			return -1;
		}
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (opt_arg(argc, argv, &i, "-o", NULL, &v))
			o->dir = v;
		else if (opt_arg(argc, argv, &i, "--interval", "-i", &v))
			o->interval_us = parse_ms("--interval", v);
		else if (opt_arg(argc, argv, &i, "--every-sic", NULL, &v)) {
			char *end;
			errno = 0;
			unsigned long long n = strtoull(v, &end, 10);
			if (errno || *end || !n || n >= (1ull << 40)) {
				rdb_warn("record: --every-sic wants a count from 1 to 2^40, not '%s'", v);
				return 2;
			}
			o->interval_us = n;
			o->flags |= RDB_TF_HELLO_EVERY_SIC;
		} else if (!strcmp(argv[i], "--checksum"))
			o->flags |= RDB_TF_HELLO_CHECKSUM;
		else if (gdb_opt(argc, argv, &i, &o->gdb, &o->gdb_script))
			;
		else if (argv[i][0] == '-') {
			rdb_warn("record: unknown option '%s'", argv[i]);
			record_usage(stderr);
			return 2;
		} else
			break;
	}
	if (i >= argc) {
		record_usage(stderr);
		return 2;
	}
	o->argv = argv + i;
	if (o->gdb) {
		rdb_gdb_check(o->gdb_script);
		o->flags |= RDB_TF_HELLO_GDB;
	}
	return 0;
}

/* The build-id, checked before anything is written: PROG must be ELF. */
static size_t record_buildid(const char *exe, uint8_t *bid, size_t cap)
{
	char err[512];
	long nbid = rdb_elf_buildid(exe, bid, cap, err, sizeof err);
	if (nbid < 0)
		rdb_fatal("%s", err);
	if (nbid == 0)
		rdb_warn("%s has no build-id: replay cannot check it is the same executable",
		         exe);
	return (size_t)nbid;
}

/* The header file's entries known before PROG starts. */
static void record_header(struct rdb_tw *w, const char *exe, char **pargv,
                          const uint8_t *bid, size_t nbid)
{
	rdb_tw_header(w, RDB_TF_H_EXE, exe, strlen(exe));
	rdb_tw_header(w, RDB_TF_H_BUILDID, bid, nbid);
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
}

/* The recording in progress: two sockets, read until both reach EOF. */
struct recorder {
	struct rdb_tw *w;
	int sfd, vfd;          /* the stream and values sockets; -1 after EOF */
	char *buf;             /* stream bytes not yet a whole record */
	size_t n, cap;
	char *msg;             /* one values message */
	uint64_t nsys;
	uint64_t iv;           /* the current interval */
	/* The values stream holds each interval's values whole, in interval
	 * order: interval vdone + 1 is written as it comes.  Two snapshot
	 * children may send at once (the runtime reaps the older one after
	 * starting the next), so records of later intervals wait in vpend. */
	uint64_t vdone;        /* the last interval whose VALUES_END was written */
	uint64_t vmarked;      /* the last interval with an ivindex entry in values */
	char *vpend;           /* records (header + payload) of later intervals */
	size_t vpn, vpcap;
	int got_init, got_term, exec_pending;
	int untraced; /* a BOUNDARY (SIC overflow) or a NOTE said the recording stops */
	int bad[2], bad_order; /* warned once: stream socket, values socket; late values */
};

#define VALUES_BUF (RDB_TF_VALUES_MSG + 64)

/* The streams fed by the stream socket: each starts a frame per interval. */
static const int chan_streams[] = {
	RDB_TF_S_SYSCALLS, RDB_TF_S_SYSDATA, RDB_TF_S_NONDET, RDB_TF_S_INTERVALS,
	RDB_TF_S_CONTEXT, RDB_TF_S_MAPPINGS, RDB_TF_S_STACK, RDB_TF_S_SIGNALS,
	RDB_TF_S_WRITTEN,
};

static void bad_record(struct recorder *rc, const char *where, uint32_t type, size_t len)
{
	if (!rc->bad[*where == 'v']++)
		rdb_warn("the program sent a bad record on the %s socket (type %u, %zu bytes): "
		         "ignored", where, type, len);
}

static void on_init(struct recorder *rc, const char *p, uint32_t len)
{
	struct rdb_tf_init in;
	if (len < sizeof in)
		return bad_record(rc, "stream", RDB_TF_INIT, len);
	memcpy(&in, p, sizeof in);
	if (len != sizeof in + (uint64_t)in.nauxv * 16)
		return bad_record(rc, "stream", RDB_TF_INIT, len);
	rdb_tw_header(rc->w, RDB_TF_H_AUXV, p + sizeof in, len - sizeof in);
	rdb_tw_header(rc->w, RDB_TF_H_RANDOM, in.random, 16);
	rc->got_init = 1;
}

/* Interval i's records start new frames in every stream the channel feeds,
 * so replay --from i reads nothing of the intervals before. */
static void on_boundary(struct recorder *rc, const char *p, uint32_t len)
{
	uint64_t i = len == sizeof(struct rdb_tf_boundary) ? rdb_rec_interval(p) : 0;
	if (i <= rc->iv)
		return bad_record(rc, "stream", RDB_TF_BOUNDARY, len);
	for (size_t k = 0; k < sizeof chan_streams / sizeof *chan_streams; k++)
		rdb_tw_mark(rc->w, chan_streams[k], i);
	rc->iv = i;
	struct rdb_tf_boundary b;
	memcpy(&b, p, sizeof b);
	rc->untraced |= (b.flags & RDB_TF_B_UNTRACED) != 0;
	rdb_progress("recording: interval %llu", (unsigned long long)i);
	rdb_tw_add(rc->w, RDB_TF_S_SYSCALLS, RDB_TF_BOUNDARY, p, len, NULL, 0);
	rdb_tw_add(rc->w, RDB_TF_S_INTERVALS, RDB_TF_BOUNDARY, p, len, NULL, 0);
}

/* The stream a record of the stream socket goes to, or -1 (special or bad). */
static int stream_of(uint32_t type)
{
	switch (type) {
	case RDB_TF_TRAP: case RDB_TF_NOTE: case RDB_TF_TERM: case RDB_TF_EXEC:
	case RDB_TF_CHILD_OUTPUT: case RDB_TF_SHARED:
		return RDB_TF_S_SYSCALLS;
	case RDB_TF_DATA: return RDB_TF_S_SYSDATA;
	case RDB_TF_NONDET: return RDB_TF_S_NONDET;
	case RDB_TF_CONTEXT: return RDB_TF_S_CONTEXT;
	case RDB_TF_MAPS: return RDB_TF_S_MAPPINGS;
	case RDB_TF_STACK: return RDB_TF_S_STACK;
	case RDB_TF_WRITTEN: return RDB_TF_S_WRITTEN;
	case RDB_TF_SIGNAL: return RDB_TF_S_SYSCALLS; /* and signals */
	default: return -1;
	}
}

static void stream_record(struct recorder *rc, uint32_t type, const char *p, uint32_t len)
{
	int s = stream_of(type);
	if (type == RDB_TF_INIT)
		return on_init(rc, p, len);
	if (type == RDB_TF_BOUNDARY)
		return on_boundary(rc, p, len);
	if (s < 0 || !rdb_rec_ok(type, p, len))
		return bad_record(rc, "stream", type, len);
	rc->nsys += type == RDB_TF_TRAP;
	rc->got_term |= type == RDB_TF_TERM;
	if (type == RDB_TF_NOTE && len == sizeof(struct rdb_tf_note)) {
		struct rdb_tf_note no;
		memcpy(&no, p, sizeof no);
		rc->untraced |= no.kind == RDB_TF_NOTE_STOPPED; /* the runtime stopped it */
	}
	if (type == RDB_TF_TRAP || type == RDB_TF_EXEC)
		rc->exec_pending = type == RDB_TF_EXEC;
	rdb_tw_add(rc->w, s, type, p, len, NULL, 0);
	if (type == RDB_TF_SIGNAL)
		rdb_tw_add(rc->w, RDB_TF_S_SIGNALS, type, p, len, NULL, 0);
}

/* Reads what the stream socket has: 0 at EOF. */
static int read_stream(struct recorder *rc)
{
	if (rc->cap - rc->n < (1 << 16)) {
		rc->cap = rc->cap ? 2 * rc->cap : (1 << 20);
		rc->buf = rdb_xrealloc(rc->buf, rc->cap);
	}
	ssize_t got = read(rc->sfd, rc->buf + rc->n, rc->cap - rc->n);
	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (got <= 0)
		return 0;
	rc->n += (size_t)got;
	size_t o = 0;
	struct rdb_tf_rec h;
	while (rc->n - o >= sizeof h) {
		memcpy(&h, rc->buf + o, sizeof h);
		if (rc->n - o - sizeof h < h.len) {
			if (sizeof h + h.len > rc->cap) {
				rc->cap = sizeof h + h.len + (1 << 20);
				rc->buf = rdb_xrealloc(rc->buf, rc->cap);
			}
			break;
		}
		stream_record(rc, h.type, rc->buf + o + sizeof h, h.len);
		o += sizeof h + h.len;
	}
	memmove(rc->buf, rc->buf + o, rc->n - o);
	rc->n -= o;
	return 1;
}

static void values_pend(struct recorder *rc, uint32_t type, const char *p, uint32_t len)
{
	struct rdb_tf_rec h = {type, len};
	if (rc->vpcap - rc->vpn < sizeof h + len) {
		rc->vpcap = 2 * rc->vpcap + sizeof h + len;
		rc->vpend = rdb_xrealloc(rc->vpend, rc->vpcap);
	}
	memcpy(rc->vpend + rc->vpn, &h, sizeof h);
	memcpy(rc->vpend + rc->vpn + sizeof h, p, len);
	rc->vpn += sizeof h + len;
}

static void values_record(struct recorder *rc, uint32_t type, const char *p, uint32_t len);

/* Interval vdone's values ended: the next one's may be waiting. */
static void values_next(struct recorder *rc)
{
	char *b = rc->vpend;
	size_t n = rc->vpn;
	struct rdb_tf_rec h;
	rc->vpend = NULL;
	rc->vpn = rc->vpcap = 0;
	for (size_t o = 0; o < n; o += sizeof h + h.len) {
		memcpy(&h, b + o, sizeof h);
		values_record(rc, h.type, b + o + sizeof h, h.len);
	}
	rdb_free(b);
}

/* A record of the values socket: written if of interval vdone + 1 (the
 * first one starts its frame and ivindex entry), kept if of a later one. */
static void values_record(struct recorder *rc, uint32_t type, const char *p, uint32_t len)
{
	if ((type != RDB_TF_VALUES && type != RDB_TF_VALUES_END) || !rdb_rec_ok(type, p, len))
		return bad_record(rc, "values", type, len);
	uint64_t j = rdb_rec_interval(p);
	if (j <= rc->vdone) {
		if (!rc->bad_order++)
			rdb_warn("values of interval %llu after its VALUES_END: ignored",
			         (unsigned long long)j);
		return;
	}
	if (j > rc->vdone + 1)
		return values_pend(rc, type, p, len);
	if (j > rc->vmarked)
		rdb_tw_mark(rc->w, RDB_TF_S_VALUES, rc->vmarked = j);
	rdb_tw_add(rc->w, RDB_TF_S_VALUES, type, p, len, NULL, 0);
	if (type == RDB_TF_VALUES_END) {
		rc->vdone = j;
		values_next(rc);
	}
}

/* One message of the values socket: 0 at EOF.  A zero-length message
 * cannot be told from EOF once every sender closed (hup): none is sent. */
static int read_values(struct recorder *rc, int hup)
{
	struct iovec io = {rc->msg, VALUES_BUF};
	struct msghdr mh;
	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &io;
	mh.msg_iovlen = 1;
	ssize_t got = recvmsg(rc->vfd, &mh, 0);
	if (got < 0 && (errno == EINTR || errno == EAGAIN))
		return 1;
	if (got < 0)
		rdb_warn("the values socket: %s", strerror(errno));
	if (got <= 0)
		return got == 0 && !hup;
	size_t o = 0, n = (size_t)got;
	struct rdb_tf_rec h;
	if ((mh.msg_flags & MSG_TRUNC) && !rc->bad[1]++)
		rdb_warn("the program sent a message of more than %u bytes on the values socket: "
		         "what does not fit is ignored", VALUES_BUF);
	while (n - o >= sizeof h) {
		memcpy(&h, rc->msg + o, sizeof h);
		if (n - o - sizeof h < h.len) {
			bad_record(rc, "values", h.type, h.len);
			break;
		}
		values_record(rc, h.type, rc->msg + o + sizeof h, h.len);
		o += sizeof h + h.len;
	}
	if (o < n && n - o < sizeof h)
		bad_record(rc, "values", 0, n - o);
	return 1;
}

/* Until both sockets reach EOF; frames are flushed when both are quiet for
 * half a second, so a recording killed by SIGKILL keeps what was sent.
 * The program's fork children hold the stream socket too (their output):
 * once the program is gone (reaped here, *status set) and the socket
 * quiet, a child that lives on is not waited for. */
static void record_loop(struct recorder *rc, pid_t pid, int *status, int *reaped)
{
	while (rc->sfd >= 0 || rc->vfd >= 0) {
		if (!*reaped && waitpid(pid, status, WNOHANG) == pid)
			*reaped = 1;
		struct pollfd pf[2] = {{rc->sfd, POLLIN, 0}, {rc->vfd, POLLIN, 0}};
		int k = poll(pf, 2, 500);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			rdb_fatal("poll: %s", strerror(errno));
		if (k == 0) {
			rdb_tw_flush(rc->w);
			if (*reaped && rc->sfd >= 0) {
				close(rc->sfd);
				rc->sfd = -1;
			}
			continue;
		}
		if (pf[0].revents && !read_stream(rc)) {
			close(rc->sfd);
			rc->sfd = -1;
		}
		if (pf[1].revents && !read_values(rc, pf[1].revents & POLLHUP)) {
			close(rc->vfd);
			rc->vfd = -1;
		}
	}
}

/* The exit file: how PROG ended, and whether its runtime said so. */
static struct rdb_tf_exit record_exit(struct recorder *rc, int status)
{
	struct rdb_tf_exit x;
	memset(&x, 0, sizeof x);
	x.how = WIFSIGNALED(status) ? RDB_TF_EXIT_SIGNAL : RDB_TF_EXIT_STATUS;
	x.value = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
	x.execd = rc->got_term ? 0 : rc->untraced ? 2 : rc->exec_pending;
	x.cut = !rc->got_term && !x.execd;
	x.nsyscalls = rc->nsys;
	struct timespec t1;
	clock_gettime(CLOCK_REALTIME, &t1);
	x.end_sec = t1.tv_sec;
	x.end_nsec = t1.tv_nsec;
	rdb_tw_exit(rc->w, &x);
	return x;
}

int rdb_cmd_record(int argc, char **argv)
{
	struct record_opts o;
	int bad = record_args(argc, argv, &o);
	if (bad)
		return bad < 0 ? 0 : bad;
	char *exe = find_prog(o.argv[0]);
	uint8_t bid[64];
	size_t nbid = record_buildid(exe, bid, sizeof bid);
	char *d;
	if (o.dir) {
		out_dir(o.dir);
		d = rdb_xstrdup(o.dir);
	} else {
		d = default_dir(o.argv[0]);
	}
	struct rdb_tw *w = rdb_tw_open(d);
	record_header(w, exe, o.argv, bid, nbid);
	rdb_tw_header(w, RDB_TF_H_FLAGS, &o.flags, sizeof o.flags);
	for (int s = 0; s < RDB_TF_NSTREAMS; s++)
		rdb_tw_mark(w, s, 1);

	int sv[2], vv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, vv))
		rdb_fatal("socketpair: %s", strerror(errno));
	struct timespec t0;
	clock_gettime(CLOCK_REALTIME, &t0);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN); /* the terminal's ^C is PROG's to handle */
	signal(SIGQUIT, SIG_IGN);
	pid_t pid = fork();
	if (pid < 0)
		rdb_fatal("fork: %s", strerror(errno));
	if (pid == 0)
		start_child(sv[1], vv[1], exe, o.argv, environ, NULL);
	close(sv[1]);
	close(vv[1]); /* EOF on vv[0] once the program and its snapshot children are gone */
	struct rdb_tf_hstart st = {t0.tv_sec, t0.tv_nsec, pid, 0};
	rdb_tw_header(w, RDB_TF_H_START, &st, sizeof st);
	struct {
		struct rdb_tf_rec h;
		struct rdb_tf_hello m;
	} hello = {{RDB_TF_HELLO, sizeof(struct rdb_tf_hello)},
	           {RDB_TF_HELLO_VERSION, RDB_TF_MODE_RECORD, o.flags, 0, 0, 0, o.interval_us}};
	send_all(sv[0], &hello, sizeof hello);
	pid_t gdb = o.gdb ? rdb_gdb_attach(pid, exe, o.gdb_script) : -1;

	struct recorder rc;
	memset(&rc, 0, sizeof rc);
	rc.w = w;
	rc.sfd = sv[0];
	rc.vfd = vv[0];
	rc.msg = rdb_xmalloc(VALUES_BUF);
	rc.iv = rc.vmarked = 1;
	int status, reaped = 0;
	record_loop(&rc, pid, &status, &reaped);
	if (rc.vpn)
		rdb_warn("values of intervals after %llu came, but not all of interval %llu's: "
		         "the later ones are left out", (unsigned long long)rc.vdone + 1,
		         (unsigned long long)rc.vdone + 1);
	rdb_progress_end();
	while (!reaped && waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			rdb_fatal("waitpid: %s", strerror(errno));
	struct rdb_tf_exit x = record_exit(&rc, status);
	rdb_tw_close(w);
	if (gdb > 0)
		rdb_gdb_reap(gdb);
	if (!rc.got_init)
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
	fputs("usage: rdb replay [--quiet] [--from K] [--to K] [--verify | --verify-full]\n"
	      "                  [--timing] [--gdb | --gdb-batch FILE | --gdbserver [HOST:]PORT]\n"
	      "                  DIR\n"
	      "Re-executes the run recorded in DIR from the trace alone: syscalls return\n"
	      "their recorded results without entering the kernel (except those that shape\n"
	      "the address space), writes to stdout and stderr are re-executed (not with\n"
	      "--quiet), and rdb exits with the recorded status.\n"
	      "  -q, --quiet   do not re-execute writes to stdout and stderr\n"
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
		else if (gdb_opt(argc, argv, &i, &o->gdb, &o->gdb_script))
			;
		else if (opt_arg(argc, argv, &i, "--gdbserver", NULL, &v))
			o->gdbserver = v;
		else if (opt_arg(argc, argv, &i, "--from", NULL, &v))
			o->from = parse_count("--from", v);
		else if (opt_arg(argc, argv, &i, "--to", NULL, &v)) {
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

/* The recorded executable must be the file at its path now. */
void rdb_check_buildid(const char *dir, const struct rdb_header *h)
{
	uint8_t bid[64];
	char err[512];
	long nbid = rdb_elf_buildid(h->exe, bid, sizeof bid, err, sizeof err);
	if (nbid < 0)
		rdb_fatal("%s: cannot replay: %s", dir, err);
	if ((size_t)nbid != h->buildid_len || memcmp(bid, h->buildid, h->buildid_len)) {
		char a[129], b[129];
		hex(a, h->buildid, h->buildid_len);
		hex(b, bid, (size_t)nbid);
		rdb_fatal("%s: recorded from %s with build-id %s, but that file now has "
		          "build-id %s: refusing to replay another executable", dir, h->exe,
		          h->buildid_len ? a : "(none)", nbid ? b : "(none)");
	}
}

/* A feeder's bytes to leave out (rdb_replay_feeder). */
static uint64_t feed_skip;

static int feed_out(int fd, const void *p, size_t n)
{
	size_t k = feed_skip < n ? (size_t)feed_skip : n;
	feed_skip -= k;
	return n > k ? send_all(fd, (const char *)p + k, n - k) : 0;
}

static int feed(int fd, uint32_t type, const void *p, size_t n)
{
	struct rdb_tf_rec h = {type, (uint32_t)n};
	return feed_out(fd, &h, sizeof h) || (n && feed_out(fd, p, n)) ? -1 : 0;
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
	                         (uint32_t)h->nauxv, h->start.pid, (uint32_t)o->from,
	                         (flags & RDB_TF_HELLO_TIMING) ? rdb_started_ns : 0};
	memcpy(hb, &m, sizeof m);
	memcpy(hb + sizeof m, h->auxv, h->nauxv * 16);
	memcpy(hb + sizeof m + h->nauxv * 16, h->random, 16);
	int dead = feed(fd, RDB_TF_HELLO, hb, hl);
	rdb_free(hb);
	if (!dead && o->watch)
		dead = feed(fd, RDB_TF_WATCH, o->watch, sizeof *o->watch);
	return dead;
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
			if (!o->watch)
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
	if (o->watch) /* rdb flowback goes on to report: no re-raised signal */
		return how == RDB_TF_EXIT_STATUS ? val : 128 + val;
	return end_like(how, val);
}

/* The watch's reports (runtime/watch.c), after the feed: WATCH_HIT
 * records until END or the end of the channel. */
static size_t read_hits(int fd, struct rdb_tf_watch_hit *hits, size_t cap)
{
	size_t n = 0;
	struct rdb_tf_rec h;
	while (read_all(fd, &h, sizeof h) == 0) {
		struct rdb_tf_watch_hit w;
		if (h.type != RDB_TF_WATCH_HIT || h.len != sizeof w || read_all(fd, &w, sizeof w))
			break;
		if (n < cap)
			hits[n++] = w;
		if (w.kind == RDB_TF_WH_END)
			break;
	}
	return n;
}

int rdb_replay(const struct rdb_replay_opts *o, struct rdb_tf_watch_hit *hits, size_t cap,
               size_t *nhits)
{
	struct rdb_header h;
	rdb_read_header(o->dir, &h);
	if (!h.have_random)
		rdb_fatal("%s: the program never started under rdb (no AT_RANDOM record): "
		          "nothing to replay", o->dir);
	rdb_check_buildid(o->dir, &h);
	if (!h.have_exit) {
		if (!o->watch)
			rdb_warn("%s: no exit file: the recording was cut short (rdb itself was "
			         "killed)", o->dir);
		h.exit.how = RDB_TF_EXIT_SIGNAL;
		h.exit.value = SIGKILL;
		h.exit.cut = 1;
	}
	/* Without checksums the runtime can compare only the registers at
	 * the boundaries: say so rather than pass as if all were checked. */
	if ((o->flags & RDB_TF_HELLO_VERIFY) && !(h.record_flags & RDB_TF_HELLO_CHECKSUM))
		rdb_warn("%s was recorded without --checksum: --verify compares the registers "
		         "at each boundary only, not memory, written bytes or the end (record "
		         "with --checksum for those)", o->dir);
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
		start_child(sv[1], -1, h.exe, h.argv, h.envp, h.have_rlimit ? h.rlimit_stack : NULL);
	}
	close(sv[1]);
	int fd = sv[0];
	int hello_failed = send_hello(fd, &h, o);
	int end = hello_failed ? RDB_FEED_DEAD : rdb_feed_run(f, feed_chan, &fd);
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
	return replay_status(&h, o, end, status);
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
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		rdb_fatal("fork: %s", strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpgid(0, 0); /* the terminal's ^C is gdb's, not the replay's */
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL)) {
			rdb_warn("ptrace(PTRACE_TRACEME): %s", strerror(errno));
			_exit(127);
		}
		start_child(sv[1], -1, h->exe, h->argv, h->envp,
		            h->have_rlimit ? h->rlimit_stack : NULL);
	}
	close(sv[1]);
	*chan = sv[0];
	return pid;
}

pid_t rdb_replay_feeder(const struct rdb_replay_opts *o, const struct rdb_header *h, int chan,
                        uint64_t skip)
{
	fflush(NULL);
	pid_t f = fork();
	if (f < 0)
		rdb_fatal("fork: %s", strerror(errno));
	if (f == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		setpgid(0, 0);
		/* only the channel: not gdb's connection, not other replays' */
		for (int fd = 3; fd < 1024; fd++)
			if (fd != chan)
				close(fd);
		feed_skip = skip;
		struct rdb_feed *fe = rdb_feed_open(o->dir, &h->exit, o->from, o->to);
		int end = send_hello(chan, h, o) ? RDB_FEED_DEAD : rdb_feed_run(fe, feed_chan, &chan);
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
