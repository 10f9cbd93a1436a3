/* record.c: rdb record.  PROG runs with the channel (run.c); its runtime
 * streams raw records, rdb compresses them into the trace set (frames
 * flushed at least every half second, so a recording killed by SIGKILL
 * keeps what was sent).  Every other rdb-cc program below PROG joins the
 * recording through RDB_RECORD_SOCKET (tree.c, runtime/join.c) and gets a
 * recorder of its own, writing DIR/proc/ID: docs/process-trees.md. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "rdb.h"

extern char **environ;

static char *find_prog(const char *prog)
{
	char buf[PATH_MAX];
	if (strchr(prog, '/')) {
		if (!realpath(prog, buf))
			rdb_fatal("%s: %s", prog, strerror(errno));
		return rdb_xstrdup(buf);
	}
	char *exe = rdb_run_in_path(prog);
	if (!exe)
		rdb_fatal("%s: not found in PATH", prog);
	return exe;
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

static void record_usage(FILE *f)
{
	fputs("usage: rdb record [-o DIR] [-i MS | --every-sic N] [--slice N] [--chaos] [--checksum]\n"
	      "                  [--no-forks] [--no-stack-pages] [--gdb]\n"
	      "                  -- PROG ARGS...\n"
	      "Runs PROG (built with rdb-cc) with ASLR disabled and writes a trace set to\n"
	      "DIR (default rdb-trace/PROG-N, N increasing).  PROG's stdin, stdout, stderr\n"
	      "and exit status are its own: rdb exits with PROG's status or re-raises its\n"
	      "fatal signal.  Every rdb-cc program that runs below PROG (a fork child of a\n"
	      "recorded process, from its fork; a program under a shell or make PROG\n"
	      "runs; one exec'd by a recorded process) is recorded as a process of its own\n"
	      "in DIR/proc/ID: rdb ps DIR lists them, rdb replay --pid ID DIR replays one\n"
	      "(docs/process-trees.md).\n"
	      "  -o DIR              the trace set's folder (new, or an old trace set to replace)\n"
	      "  -i, --interval MS   CPU milliseconds per interval (default 1000; fractions\n"
	      "                      such as 2.5 allowed; 0: no intervals), plus the\n"
	      "                      kernel's time in the interval before (page faults).\n"
	      "                      Replay can start at any complete interval (--from).\n"
	      "  --stretch           where the boundaries' copy-on-write faults cost more\n"
	      "                      than a quarter of the program's time (a large heap\n"
	      "                      written all over, on a VM with slow page faults), make\n"
	      "                      the next interval longer, up to 8 times -i, and shorter\n"
	      "                      again below a sixteenth: the default without -i\n"
	      "  --no-stretch        intervals of -i (and the kernel's time) only: the\n"
	      "                      default with -i\n"
	      "  --every-sic N       instead of a timer, end an interval every N counts of\n"
	      "                      the software instruction counter (loops' backward\n"
	      "                      branches, calls): many intervals even for a run of a\n"
	      "                      few ms\n"
	      "  --only PATTERN      record only the processes whose argv[0], or its last\n"
	      "                      component, matches the shell PATTERN (fnmatch: 'test*',\n"
	      "                      '*/tests/*'); the others run unrecorded\n"
	      "  --max-size SIZE     once the trace set holds SIZE bytes (suffix K, M, G),\n"
	      "                      processes that start run unrecorded; those recorded\n"
	      "                      already are recorded to their end\n"
	      "  --slice N           threads run one at a time; each runs at most N counts\n"
	      "                      of the instruction counter before the next one waiting\n"
	      "                      runs (default 50000; docs/threads.md)\n"
	      "  --chaos             threads' interleavings at random, so rare ones show up\n"
	      "                      while recording: each time slice's length is drawn\n"
	      "                      (log-uniform, 1 to twice --slice) and so is the next\n"
	      "                      thread to run, at a slice's end or a syscall that may\n"
	      "                      block, among those waiting.  The switches are recorded\n"
	      "                      as always: replay makes the same ones\n"
	      "  --no-forks          a recorded process's fork children run untraced (what\n"
	      "                      they write to its stdout, stderr and MAP_SHARED\n"
	      "                      memory is still in its trace); --forks, the default,\n"
	      "                      records each from its fork\n"
	      "  --checksum          hash the program's memory and registers at every\n"
	      "                      interval boundary (rdb replay --verify compares)\n"
	      "  --no-stack-pages    do not ask the kernel which pages of the main stack\n"
	      "                      each interval wrote (saves a few microseconds per\n"
	      "                      page and interval; gdb's reverse-continue to a write\n"
	      "                      watch on the stack then replays every interval back)\n"
	      "  --gdb               once PROG has ended, start gdb on the replay of the new\n"
	      "                      trace set (rdb replay --gdb DIR), stopped before PROG's\n"
	      "                      first instruction; rdb then exits as PROG did\n"
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
	uint64_t interval; /* CPU microseconds, or with RDB_TF_HELLO_EVERY_SIC SIC counts */
	uint32_t flags;
	uint32_t slice; /* --slice: SIC counts per thread time slice (0: the runtime's) */
	int gdb;
	const char *gdb_script;
	const char *only;  /* --only PATTERN, or NULL */
	uint64_t max_size; /* --max-size, or 0 */
	char **argv; /* PROG ARGS... */
};

/* --max-size: bytes, with an optional K, M or G (powers of 1024). */
static uint64_t parse_size(const char *s)
{
	char *e;
	errno = 0;
	unsigned long long v = strtoull(s, &e, 10);
	int shift = 0;
	switch (*e) {
	case 'K': case 'k': shift = 10; e++; break;
	case 'M': case 'm': shift = 20; e++; break;
	case 'G': case 'g': shift = 30; e++; break;
	}
	if (e == s || *e || errno || *s == '-' || *s == '+' || !v || v > (~0ull >> shift))
		rdb_fatal("--max-size %s: not a size in bytes (1 or more; suffix K, M or G)", s);
	return (uint64_t)v << shift;
}

/* --only: whether argv0, or its last component, matches. */
static int only_match(const struct record_opts *o, const char *argv0)
{
	if (!o->only)
		return 1;
	const char *base = strrchr(argv0, '/');
	return !fnmatch(o->only, argv0, 0) || (base && !fnmatch(o->only, base + 1, 0));
}

/* 0 and o filled, or the exit status for main. */
static int record_args(int argc, char **argv, struct record_opts *o)
{
	const char *v;
	int i = 1;
	o->dir = NULL;
	o->interval = 1000000;
	o->flags = RDB_TF_HELLO_FORKS; /* --no-forks clears it */
	int stretch = -1; /* --stretch, --no-stretch; -1: unless -i */
	o->slice = 0;
	o->gdb = 0;
	o->gdb_script = NULL;
	o->only = NULL;
	o->max_size = 0;
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			record_usage(stdout);
			return -1;
		}
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (rdb_run_opt_arg(argc, argv, &i, "-o", NULL, &v))
			o->dir = v;
		else if (rdb_run_opt_arg(argc, argv, &i, "--interval", "-i", &v)) {
			o->interval = parse_ms("--interval", v);
			if (stretch < 0)
				stretch = 0;
		} else if (rdb_run_opt_arg(argc, argv, &i, "--every-sic", NULL, &v)) {
			char *end;
			errno = 0;
			unsigned long long n = strtoull(v, &end, 10);
			if (errno || *end || !n || n >= (1ull << 40)) {
				rdb_warn("record: --every-sic wants a count from 1 to 2^40, not '%s'", v);
				return 2;
			}
			o->interval = n;
			o->flags |= RDB_TF_HELLO_EVERY_SIC;
		} else if (rdb_run_opt_arg(argc, argv, &i, "--slice", NULL, &v)) {
			char *end;
			errno = 0;
			unsigned long long n = strtoull(v, &end, 10);
			if (errno || *end || !n || n > 0xffffffffull) {
				rdb_warn("record: --slice wants a count from 1 to 2^32 - 1, not '%s'", v);
				return 2;
			}
			o->slice = (uint32_t)n;
		} else if (rdb_run_opt_arg(argc, argv, &i, "--only", NULL, &v))
			o->only = v;
		else if (rdb_run_opt_arg(argc, argv, &i, "--max-size", NULL, &v))
			o->max_size = parse_size(v);
		else if (!strcmp(argv[i], "--checksum"))
			o->flags |= RDB_TF_HELLO_CHECKSUM;
		else if (!strcmp(argv[i], "--chaos"))
			o->flags |= RDB_TF_HELLO_CHAOS;
		else if (!strcmp(argv[i], "--forks"))
			o->flags |= RDB_TF_HELLO_FORKS;
		else if (!strcmp(argv[i], "--no-forks"))
			o->flags &= ~RDB_TF_HELLO_FORKS;
		else if (!strcmp(argv[i], "--no-stack-pages"))
			o->flags |= RDB_TF_HELLO_NO_STACK_PAGES;
		else if (!strcmp(argv[i], "--stretch") || !strcmp(argv[i], "--no-stretch"))
			stretch = argv[i][2] == 's';
		else if (rdb_run_gdb_opt(argc, argv, &i, &o->gdb, &o->gdb_script))
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
	if (stretch > 0 && (o->flags & RDB_TF_HELLO_EVERY_SIC))
		rdb_warn("record: --stretch is for timed intervals: with --every-sic it does nothing");
	if (stretch && o->interval && !(o->flags & RDB_TF_HELLO_EVERY_SIC))
		o->flags |= RDB_TF_HELLO_STRETCH;
	if (o->gdb)
		rdb_gdb_server_check(o->gdb_script);
	return 0;
}

/* rdb record --gdb, once the program has ended: gdb on the replay of
 * the trace set just written, as rdb replay --gdb DIR (the run recorded
 * first, then debugged, as rr does: the program ran with its stdio live
 * and undisturbed, and gdb gets every reverse command).  The replay
 * writes the program's output again as gdb runs it. */
static void debug_replay(const char *dir, const struct record_opts *o)
{
	struct rdb_replay_opts r;
	memset(&r, 0, sizeof r);
	r.dir = dir;
	r.from = 1;
	r.gdb = 1;
	r.gdb_script = o->gdb_script;
	fprintf(stderr, "rdb: recorded in %s; gdb on its replay\n", dir);
	rdb_gdb_serve(&r);
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
	pid_t pid, ppid;
	int joined;            /* came through RDB_RECORD_SOCKET: not rdb's child */
	int forked;            /* a recorded process's fork child (INIT_FORKED) */
	int let_go;            /* such a child that outlived PROG: its trace ends */
	int ended;             /* PROG reaped, or a joined process's TERM came */
	int busy;              /* read from since the last quiet check */
	struct rdb_tf_term term; /* the last TERM (got_term) */
	int cut_warn, cut_how, cut_value; /* PROG's: what record_report says */
};

/* Every process of the recording: r[0] is PROG's (its sockets -1 when
 * PROG is not an rdb-cc program), then one per process that joined. */
struct recset {
	const char *dir;
	int lfd;               /* the socket processes join by, or -1 */
	const struct record_opts *o;
	struct recorder **r;
	size_t n;
	int full;              /* the set reached --max-size */
	uint64_t left_out;     /* processes that ran unrecorded since */
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
	if (rc->joined && (in.flags & RDB_TF_INIT_FORKED)) {
		/* its recording starts at boundary 2: interval 1 has no values */
		rc->vdone = 1;
		rc->forked = 1;
		struct rdb_tf_hproc pr = {rc->pid, rc->ppid, 1, RDB_TF_PROC_FORKED};
		rdb_tw_header(rc->w, RDB_TF_H_PROC, &pr, sizeof pr);
	}
}

/* The stream a record of the stream socket goes to, or -1 (special or bad):
 * the values stream is the values socket's. */
static int stream_of(uint32_t type)
{
	const struct rdb_rec_type *t = rdb_rec_type(type);
	return t && t->stream != RDB_TF_S_VALUES ? t->stream : -1;
}

/* Into its stream, and its copy's. */
static void file_record(struct recorder *rc, int s, uint32_t type, const char *p, uint32_t len)
{
	rdb_tw_add(rc->w, s, type, p, len, NULL, 0);
	int copy = rdb_rec_type(type)->copy;
	if (copy >= 0)
		rdb_tw_add(rc->w, copy, type, p, len, NULL, 0);
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
	file_record(rc, stream_of(RDB_TF_BOUNDARY), RDB_TF_BOUNDARY, p, len);
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
	if (type == RDB_TF_TERM) {
		rc->got_term = 1;
		memcpy(&rc->term, p, sizeof rc->term); /* rdb_rec_ok checked the size */
	}
	if (type == RDB_TF_NOTE && len == sizeof(struct rdb_tf_note)) {
		struct rdb_tf_note no;
		memcpy(&no, p, sizeof no);
		rc->untraced |= no.kind == RDB_TF_NOTE_STOPPED; /* the runtime stopped it */
	}
	if (type == RDB_TF_TRAP || type == RDB_TF_EXEC)
		rc->exec_pending = type == RDB_TF_EXEC;
	file_record(rc, s, type, p, len);
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
	if (!rdb_rec_in(type, RDB_TF_S_VALUES) || !rdb_rec_ok(type, p, len))
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

static struct recorder *recorder_new(struct rdb_tw *w, int sfd, int vfd, pid_t pid)
{
	struct recorder *rc = rdb_xmalloc(sizeof *rc);
	memset(rc, 0, sizeof *rc);
	rc->w = w;
	rc->sfd = sfd;
	rc->vfd = vfd;
	rc->msg = rdb_xmalloc(VALUES_BUF);
	rc->iv = rc->vmarked = 1;
	rc->pid = pid;
	return rc;
}

/* HELLO, as every recorded process gets it first. */
static int send_hello(int fd, const struct record_opts *o, uint32_t flags)
{
	struct {
		struct rdb_tf_rec h;
		struct rdb_tf_hello m;
	} hello = {{RDB_TF_HELLO, sizeof(struct rdb_tf_hello)},
	           {RDB_TF_HELLO_VERSION, RDB_TF_MODE_RECORD, flags, 0, 0, {0},
	            {0}}};
	if (o->flags & RDB_TF_HELLO_EVERY_SIC)
		hello.m.every_sic = o->interval;
	else
		hello.m.interval_us = o->interval;
	hello.m.slice = o->slice;
	return rdb_run_send_all(fd, &hello, sizeof hello);
}

/* One byte carrying fd (SCM_RIGHTS): the values socket of a joined process. */
static int send_fd(int sock, int fd)
{
	char byte = 'J';
	struct iovec io = {&byte, 1};
	union {
		struct cmsghdr c;
		char b[CMSG_SPACE(sizeof(int))];
	} u;
	memset(&u, 0, sizeof u);
	struct msghdr mh;
	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &io;
	mh.msg_iovlen = 1;
	mh.msg_control = u.b;
	mh.msg_controllen = sizeof u.b;
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	ssize_t r;
	do
		r = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
	return r == 1 ? 0 : -1;
}

/* --max-size: whether the set holds that much, counting what the
 * recorders of processes that ended still buffer (what running ones
 * buffer is counted as it is flushed: they may take the set past it). */
static void check_full(struct recset *rs)
{
	if (!rs->o->max_size || rs->full)
		return;
	for (size_t i = 0; i < rs->n; i++)
		if (rs->r[i]->sfd < 0 && rs->r[i]->vfd < 0)
			rdb_tw_flush(rs->r[i]->w);
	if (rdb_tw_written() < rs->o->max_size)
		return;
	rs->full = 1;
	rdb_warn("the trace set reached --max-size (%llu bytes): processes that start from now "
	         "on run unrecorded; the ones recorded already are recorded to their end",
	         (unsigned long long)rs->o->max_size);
}

/* A process below PROG connected (runtime/join.c): it waits for its
 * answer while its header is read from /proc; then its own trace set
 * DIR/proc/ID, its values socket, HELLO. */
static void join(struct recset *rs)
{
	int c = accept4(rs->lfd, NULL, NULL, SOCK_CLOEXEC);
	if (c < 0)
		return;
	struct ucred cr;
	socklen_t cl = sizeof cr;
	int vv[2];
	if (getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &cl) || cr.pid <= 0) {
		close(c); /* it runs unrecorded */
		return;
	}
	char *a0 = rs->o->only ? rdb_tree_argv0(cr.pid) : NULL;
	int out = rs->o->only && (!a0 || !only_match(rs->o, a0));
	rdb_free(a0);
	check_full(rs);
	if (!out && rs->full) {
		rs->left_out++;
		out = 1;
	}
	if (out || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, vv)) {
		close(c); /* EOF: it runs unrecorded (runtime/join.c) */
		return;
	}
	char *d = rdb_tree_new_dir(rs->dir, cr.pid, rs->r[0]->pid);
	struct rdb_tw *w = rdb_tw_open(d);
	rdb_free(d);
	struct recorder *rc = recorder_new(w, c, vv[0], cr.pid);
	rc->joined = 1;
	rs->r = rdb_xrealloc(rs->r, (rs->n + 1) * sizeof *rs->r);
	rs->r[rs->n++] = rc;
	for (int s = 0; s < RDB_TF_NSTREAMS; s++)
		rdb_tw_mark(w, s, 1);
	if (rdb_tree_header(w, cr.pid, rs->o->flags, &rc->ppid) ||
	    send_fd(c, vv[1]) ||
	    send_hello(c, rs->o, rs->o->flags)) {
		close(c); /* gone already: an empty trace, cut */
		close(vv[0]);
		rc->sfd = rc->vfd = -1;
	}
	close(vv[1]);
}

static void close_fd(int *fd)
{
	close(*fd);
	*fd = -1;
}

/* Until every process's sockets reach EOF and PROG is reaped (*status
 * set); frames of a process are flushed when its sockets were quiet for
 * half a second, so a recording killed by SIGKILL keeps what was sent.
 * A process's fork children hold its stream socket too (their output):
 * once the process is gone (reaped here, or its TERM came) and the socket
 * quiet, a child that lives on is not waited for; nor, once PROG is gone,
 * a quiet fork child that records itself. */
static void record_loop(struct recset *rs, pid_t pid, int *status, int *reaped)
{
	struct pollfd *pf = NULL;
	int after_reap = 0; /* quiet checks since PROG was reaped */
	struct timespec last;
	clock_gettime(CLOCK_MONOTONIC, &last);
	for (;;) {
		if (!*reaped && waitpid(pid, status, WNOHANG) == pid)
			*reaped = rs->r[0]->ended = 1;
		size_t n = rs->n, live = 0;
		pf = rdb_xrealloc(pf, (1 + 2 * n) * sizeof *pf);
		pf[0] = (struct pollfd){rs->lfd, POLLIN, 0};
		for (size_t i = 0; i < n; i++) {
			pf[1 + 2 * i] = (struct pollfd){rs->r[i]->sfd, POLLIN, 0};
			pf[2 + 2 * i] = (struct pollfd){rs->r[i]->vfd, POLLIN, 0};
			live += rs->r[i]->sfd >= 0 || rs->r[i]->vfd >= 0;
		}
		if (!live && *reaped)
			break;
		int k = poll(pf, 1 + 2 * n, 500);
		if (k < 0 && errno != EINTR)
			rdb_fatal("poll: %s", strerror(errno));
		for (size_t i = 0; k > 0 && i < n; i++) {
			struct recorder *rc = rs->r[i];
			if (pf[1 + 2 * i].revents && !read_stream(rc))
				close_fd(&rc->sfd);
			if (pf[2 + 2 * i].revents && !read_values(rc, pf[2 + 2 * i].revents & POLLHUP))
				close_fd(&rc->vfd);
			rc->busy |= pf[1 + 2 * i].revents || pf[2 + 2 * i].revents;
			if (rc->joined && rc->got_term)
				rc->ended = 1;
		}
		if (k > 0 && pf[0].revents)
			join(rs);
		struct timespec now;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (k && (now.tv_sec - last.tv_sec) * 1000000000ll + now.tv_nsec - last.tv_nsec <
		             500000000ll)
			continue;
		last = now;
		after_reap += *reaped;
		check_full(rs);
		for (size_t i = 0; i < rs->n; i++) {
			struct recorder *rc = rs->r[i];
			if (!rc->busy) {
				rdb_tw_flush(rc->w);
				if (rc->ended && rc->sfd >= 0)
					close_fd(&rc->sfd);
			}
			/* a fork child that outlives PROG is not waited for, as
			 * before it recorded itself: once quiet, or busy a second
			 * after PROG ended, its trace ends here and it runs on
			 * untraced (runtime/chan.c) */
			if (*reaped && rc->forked && !rc->got_term && (!rc->busy || after_reap >= 2) &&
			    (rc->sfd >= 0 || rc->vfd >= 0)) {
				rc->let_go = 1;
				if (rc->sfd >= 0)
					close_fd(&rc->sfd);
				if (rc->vfd >= 0)
					close_fd(&rc->vfd);
			}
			rc->busy = 0;
		}
	}
	rdb_free(pf);
}

/* The exit file: how PROG ended, and whether its runtime said so.  A
 * joined process is not rdb's child: its TERM says how it ended, and
 * without one it died by a signal it could not catch (SIGKILL, assumed)
 * or lost its channel. */
static struct rdb_tf_exit record_exit(struct recorder *rc, int status)
{
	struct rdb_tf_exit x;
	memset(&x, 0, sizeof x);
	if (rc->joined)
		status = !rc->got_term ? (rc->exec_pending ? 0 : SIGKILL)
		         : rc->term.signo ? rc->term.signo & 0x7f
		                          : (rc->term.status & 0xff) << 8;
	if (rc->let_go && !rc->got_term && !rc->exec_pending)
		status = 0; /* it ran on, untraced */
	x.how = WIFSIGNALED(status) ? RDB_TF_EXIT_SIGNAL : RDB_TF_EXIT_STATUS;
	x.value = WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
	x.execd = rc->got_term ? 0 : rc->untraced || rc->let_go ? 2 : rc->exec_pending;
	x.cut = !rc->got_term && !x.execd;
	x.nsyscalls = rc->nsys;
	struct timespec t1;
	clock_gettime(CLOCK_REALTIME, &t1);
	x.end_sec = t1.tv_sec;
	x.end_nsec = t1.tv_nsec;
	rdb_tw_exit(rc->w, &x);
	return x;
}

/* What rdb says at the end: PROG's recording (if PROG is an rdb-cc
 * program) as before; else whether any process below was recorded. */
static void record_report(const struct recset *rs, const char *exe, int top_rdb)
{
	const struct recorder *top = rs->r[0];
	if (rs->left_out)
		rdb_warn("%llu processes started after the trace set reached --max-size and ran "
		         "unrecorded", (unsigned long long)rs->left_out);
	if (!top_rdb && rs->n == 1 && rs->o->only)
		rdb_warn("no process matched --only %s: the trace set is empty", rs->o->only);
	else if (top_rdb && !top->got_init)
		rdb_warn("%s never answered on the channel: was it built with rdb-cc? "
		         "The trace is empty", exe);
	else if (!top_rdb && rs->n == 1)
		rdb_warn("%s was not built with rdb-cc, and no program below it that was ran: "
		         "the trace set is empty", exe);
	else if (top_rdb && top->cut_warn)
		rdb_warn("the recording was cut short (%s %d): the trace holds what was "
		         "sent until then", top->cut_how == RDB_TF_EXIT_SIGNAL ? "signal" : "status",
		         top->cut_value);
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
	/* Only an rdb-cc program gets the channel: another (a shell) would
	 * pass it to its children, the first of which took the HELLO while
	 * the next waited for one (issue 22).  They join instead. */
	int top_rdb = rdb_elf_is_rdb(exe) && only_match(&o, o.argv[0]);
	char *d;
	if (o.dir) {
		out_dir(o.dir);
		d = rdb_xstrdup(o.dir);
	} else {
		d = default_dir(o.argv[0]);
	}
	rdb_tree_clear(d);
	char name[64];
	int lfd = rdb_tree_listen(name, sizeof name);
	if (setenv("RDB_RECORD_SOCKET", name, 1))
		rdb_fatal("setenv: %s", strerror(errno));
	struct rlimit nf; /* a recorder holds a dozen files per live process */
	if (getrlimit(RLIMIT_NOFILE, &nf) == 0 && nf.rlim_cur < nf.rlim_max) {
		nf.rlim_cur = nf.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nf);
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
	/* HELLO waits in the socket before PROG starts: its runtime never
	 * finds the channel empty. */
	send_hello(sv[0], &o, o.flags);
	struct timespec t0;
	clock_gettime(CLOCK_REALTIME, &t0);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN); /* the terminal's ^C is PROG's to handle */
	signal(SIGQUIT, SIG_IGN);
	pid_t pid = fork();
	if (pid < 0)
		rdb_fatal("fork: %s", strerror(errno));
	if (pid == 0)
		rdb_run_start_child(top_rdb ? sv[1] : -1, top_rdb ? vv[1] : -1, exe, o.argv, environ,
		                    NULL);
	close(sv[1]);
	close(vv[1]); /* EOF on vv[0] once the program and its snapshot children are gone */
	struct rdb_tf_hstart st = {t0.tv_sec, t0.tv_nsec, pid, 0};
	rdb_tw_header(w, RDB_TF_H_START, &st, sizeof st);
	struct rdb_tf_hproc pr = {pid, getpid(), 0, 0};
	rdb_tw_header(w, RDB_TF_H_PROC, &pr, sizeof pr);
	if (!top_rdb) {
		close(sv[0]);
		close(vv[0]);
		sv[0] = vv[0] = -1;
	}

	struct recset rs = {d, lfd, &o, NULL, 0, 0, 0};
	rs.r = rdb_xmalloc(sizeof *rs.r);
	rs.r[rs.n++] = recorder_new(w, sv[0], vv[0], pid);
	int status, reaped = 0;
	record_loop(&rs, pid, &status, &reaped);
	close(lfd); /* a process starting now runs unrecorded */
	rdb_progress_end();
	while (!reaped && waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			rdb_fatal("waitpid: %s", strerror(errno));
	struct rdb_tf_exit top_x = {0};
	for (size_t i = 0; i < rs.n; i++) {
		struct recorder *rc = rs.r[i];
		if (rc->vpn)
			rdb_warn("values of intervals after %llu came, but not all of interval %llu's: "
			         "the later ones are left out", (unsigned long long)rc->vdone + 1,
			         (unsigned long long)rc->vdone + 1);
		struct rdb_tf_exit x = record_exit(rc, status);
		if (i == 0) {
			top_x = x;
			rc->cut_warn = x.cut;
			rc->cut_how = (int)x.how;
			rc->cut_value = x.value;
		}
		rdb_tw_close(rc->w);
	}
	record_report(&rs, exe, top_rdb);
	if (o.gdb && rs.r[0]->got_init)
		debug_replay(d, &o);
	return rdb_run_end_like((int)top_x.how, top_x.value);
}
