/* tree.c: the processes of a recorded tree (docs/process-trees.md).  rdb
 * record listens on an abstract AF_UNIX socket named by RDB_RECORD_SOCKET
 * in the environment of everything it starts; an rdb-cc program that rdb
 * did not start itself connects there (runtime/join.c) and is recorded
 * into DIR/proc/ID, a trace set of its own.  Here: the socket, the new
 * process's folder and header (from /proc/PID, read while the process
 * waits for its HELLO), removing an old set's processes, and finding a
 * process of a set by its id (rdb replay --pid). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "rdb.h"

int rdb_tree_listen(char *name, size_t cap)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	/* pid and time: unique on this machine while rdb runs */
	snprintf(name, cap, "rdb-record-%d-%lx", (int)getpid(),
	         (unsigned long)(t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec));
	struct sockaddr_un a;
	memset(&a, 0, sizeof a);
	a.sun_family = AF_UNIX;
	size_t n = strlen(name);
	memcpy(a.sun_path + 1, name, n); /* abstract: sun_path[0] is 0 */
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n)) ||
	    listen(fd, 128))
		rdb_fatal("the socket processes below the recording join it by: %s", strerror(errno));
	return fd;
}

/* The whole file /proc/PID/what (cmdline, environ: NUL-separated), or NULL. */
static char *proc_file(pid_t pid, const char *what, size_t *len)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, what);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 4096, n = 0;
	char *b = rdb_xmalloc(cap);
	for (;;) {
		if (n == cap)
			b = rdb_xrealloc(b, cap *= 2);
		ssize_t r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return b;
}

/* Each NUL-terminated string of /proc/PID/what as a header entry. */
static void proc_strings(struct rdb_tw *w, pid_t pid, const char *what, uint32_t type)
{
	size_t n;
	char *b = proc_file(pid, what, &n);
	if (!b)
		return;
	for (size_t o = 0; o < n;) {
		size_t k = strnlen(b + o, n - o);
		rdb_tw_header(w, type, b + o, k);
		o += k + 1;
	}
	rdb_free(b);
}

char *rdb_tree_argv0(pid_t pid)
{
	size_t n;
	char *b = proc_file(pid, "cmdline", &n);
	if (!b)
		return NULL;
	if (!n || b[n - 1]) { /* argv[0] ends at its NUL; none: all of it */
		b = rdb_xrealloc(b, n + 1);
		b[n] = 0;
	}
	return b;
}

static char *proc_link(pid_t pid, const char *what)
{
	char path[64], buf[PATH_MAX];
	snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, what);
	ssize_t n = readlink(path, buf, sizeof buf - 1);
	if (n < 0)
		return NULL;
	buf[n] = 0;
	return rdb_xstrdup(buf);
}

/* The parent pid from /proc/PID/stat ("pid (comm) S ppid ..."), or 0. */
static pid_t proc_ppid(pid_t pid)
{
	size_t n;
	char *b = proc_file(pid, "stat", &n);
	if (!b)
		return 0;
	int pp = 0;
	char *e = n ? memrchr(b, ')', n) : NULL; /* comm may hold ')' */
	if (e && e + 4 < b + n) {
		b[n - 1] = 0;
		sscanf(e + 2, "%*c %d", &pp);
	}
	rdb_free(b);
	return pp;
}

/* The string at AT_EXECFN (the path its execve was given), or NULL. */
static char *proc_execfn(pid_t pid)
{
	size_t n;
	uint64_t *a = (uint64_t *)proc_file(pid, "auxv", &n);
	uint64_t at = 0;
	for (size_t i = 0; a && i + 1 < n / 8 && a[i]; i += 2)
		if (a[i] == 31 /* AT_EXECFN */)
			at = a[i + 1];
	rdb_free(a);
	char buf[PATH_MAX];
	struct iovec l = {buf, sizeof buf}, r = {(void *)at, sizeof buf};
	/* the string may end less than PATH_MAX before the stack's top */
	for (size_t k = sizeof buf; at && k >= 64; k /= 2) {
		l.iov_len = r.iov_len = k;
		ssize_t got = process_vm_readv(pid, &l, 1, &r, 1, 0);
		if (got > 0 && memchr(buf, 0, (size_t)got))
			return rdb_xstrdup(buf);
	}
	return NULL;
}

int rdb_tree_header(struct rdb_tw *w, pid_t pid, uint32_t flags, pid_t *ppid)
{
	char *exe = proc_link(pid, "exe");
	if (!exe)
		return -1;
	uint8_t bid[64];
	char err[512];
	long nbid = rdb_elf_buildid(exe, bid, sizeof bid, err, sizeof err);
	rdb_tw_header(w, RDB_TF_H_EXE, exe, strlen(exe));
	rdb_tw_header(w, RDB_TF_H_BUILDID, bid, nbid > 0 ? (size_t)nbid : 0);
	proc_strings(w, pid, "cmdline", RDB_TF_H_ARG);
	proc_strings(w, pid, "environ", RDB_TF_H_ENV);
	struct utsname u;
	if (uname(&u) == 0) {
		char m[4 * 65 + 4];
		snprintf(m, sizeof m, "%s %s %s %s", u.sysname, u.release, u.version, u.machine);
		rdb_tw_header(w, RDB_TF_H_MACHINE, m, strlen(m));
	}
	char *cwd = proc_link(pid, "cwd");
	if (cwd)
		rdb_tw_header(w, RDB_TF_H_CWD, cwd, strlen(cwd));
	struct rlimit rl;
	if (prlimit(pid, RLIMIT_STACK, NULL, &rl) == 0) {
		uint64_t v[2] = {rl.rlim_cur, rl.rlim_max};
		rdb_tw_header(w, RDB_TF_H_RLIMIT_STACK, v, sizeof v);
	}
	rdb_tw_header(w, RDB_TF_H_FLAGS, &flags, sizeof flags);
	char *fn = proc_execfn(pid);
	if (fn && strcmp(fn, exe))
		rdb_tw_header(w, RDB_TF_H_EXECFN, fn, strlen(fn));
	rdb_free(fn);
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	struct rdb_tf_hstart st = {t.tv_sec, t.tv_nsec, pid, 0};
	rdb_tw_header(w, RDB_TF_H_START, &st, sizeof st);
	*ppid = proc_ppid(pid);
	struct rdb_tf_hproc pr = {pid, *ppid, 1, 0};
	rdb_tw_header(w, RDB_TF_H_PROC, &pr, sizeof pr);
	rdb_free(cwd);
	rdb_free(exe);
	return 0;
}

char *rdb_tree_new_dir(const char *set, pid_t pid, pid_t top)
{
	char *procs = rdb_path(set, "proc");
	if (mkdir(procs, 0755) && errno != EEXIST)
		rdb_fatal("%s: %s", procs, strerror(errno));
	/* ID "top" is the set itself: an image PROG execs is "top.2" */
	for (int n = pid == top ? 2 : 1;; n++) {
		char id[32];
		if (n == 1)
			snprintf(id, sizeof id, "%d", (int)pid);
		else
			snprintf(id, sizeof id, "%d.%d", (int)pid, n);
		char *d = rdb_path(procs, id);
		if (mkdir(d, 0755) == 0) {
			rdb_free(procs);
			return d;
		}
		if (errno != EEXIST)
			rdb_fatal("%s: %s", d, strerror(errno));
		rdb_free(d);
	}
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	if (remove(p))
		rdb_fatal("%s: %s", p, strerror(errno));
	return 0;
}

void rdb_tree_clear(const char *set)
{
	char *procs = rdb_path(set, "proc");
	struct stat st;
	if (lstat(procs, &st) == 0 && nftw(procs, rm_one, 16, FTW_DEPTH | FTW_PHYS))
		rdb_fatal("%s: cannot remove the old recording's processes", procs);
	rdb_free(procs);
}

char *rdb_tree_find(const char *set, const char *id)
{
	if (!rdb_tree_is_id(id))
		rdb_fatal("--pid %s: not a process id (PID, or PID.N as rdb ps shows it)", id);
	struct rdb_header h;
	char *hp = rdb_path(set, "header");
	int top = access(hp, F_OK) == 0;
	rdb_free(hp);
	if (top) {
		rdb_read_header(set, &h);
		int match = !strchr(id, '.') && h.start.pid == atoi(id);
		rdb_header_free(&h);
		if (match)
			return rdb_xstrdup(set);
	}
	char *procs = rdb_path(set, "proc");
	char *d = rdb_path(procs, id);
	rdb_free(procs);
	struct stat st;
	if (stat(d, &st) || !S_ISDIR(st.st_mode))
		rdb_fatal("%s: no process %s in this trace set (rdb ps %s lists them)", set, id, set);
	return d;
}

void rdb_tree_each(const char *set, void (*fn)(void *ctx, const char *dir, const char *id),
                   void *ctx)
{
	char *procs = rdb_path(set, "proc");
	DIR *d = opendir(procs);
	if (!d && errno != ENOENT)
		rdb_fatal("%s: %s", procs, strerror(errno));
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char *pd = rdb_path(procs, e->d_name);
		fn(ctx, pd, e->d_name);
		rdb_free(pd);
	}
	if (d)
		closedir(d);
	rdb_free(procs);
}

int rdb_tree_start_cmp(const struct rdb_tf_hstart *a, const struct rdb_tf_hstart *b)
{
	if (a->sec != b->sec)
		return a->sec < b->sec ? -1 : 1;
	return a->nsec < b->nsec ? -1 : a->nsec > b->nsec;
}

int rdb_tree_pid_opt(int argc, char **argv)
{
	const char *id = NULL;
	int na = 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) { /* the rest is not ours */
			while (i < argc)
				argv[na++] = argv[i++];
			break;
		}
		if (!strcmp(argv[i], "--pid") && i + 1 < argc)
			id = argv[++i];
		else if (!strncmp(argv[i], "--pid=", 6))
			id = argv[i] + 6;
		else if (!strcmp(argv[i], "--pid"))
			rdb_fatal("--pid needs a process id (rdb ps DIR lists them)");
		else
			argv[na++] = argv[i];
	}
	if (!id)
		return argc;
	argv[na] = NULL;
	for (int i = 1; i < na; i++) {
		if (argv[i][0] == '-')
			continue;
		char *hp = rdb_path(argv[i], "header");
		int set = access(hp, F_OK) == 0;
		rdb_free(hp);
		if (set) {
			argv[i] = rdb_tree_find(argv[i], id); /* lives as long as rdb */
			return na;
		}
	}
	rdb_fatal("--pid %s: no trace set among the arguments", id);
}
