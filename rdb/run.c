/* run.c: what rdb record (record.c) and rdb replay (replay.c) share.  Both
 * start PROG with ASLR disabled and one end of a socketpair as fd
 * RDB_CHAN_FD; the first record says the mode.  Here: finding and starting
 * PROG, their options' parsing, whole reads and writes on the channel, and
 * ending as PROG ended. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <unistd.h>

#include "rdb.h"

char *rdb_run_in_path(const char *prog)
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

/* In the child: ASLR off, the channel at RDB_CHAN_FD (and, recording, the
 * values socket at RDB_VALUES_FD; neither when chan is -1), exec. */
_Noreturn void rdb_run_start_child(int chan, int values, const char *exe, char **argv,
                                   char **envp, const uint64_t *rlim)
{
	if (personality(ADDR_NO_RANDOMIZE) < 0)
		rdb_warn("personality(ADDR_NO_RANDOMIZE): %s", strerror(errno));
	if (rlim) {
		struct rlimit rl = {rlim[0], rlim[1]};
		if (setrlimit(RLIMIT_STACK, &rl))
			rdb_warn("cannot set the recorded stack limit: %s", strerror(errno));
	}
	if ((chan >= 0 && dup2(chan, RDB_CHAN_FD) < 0) ||
	    (values >= 0 && dup2(values, RDB_VALUES_FD) < 0)) {
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
int rdb_run_opt_arg(int argc, char **argv, int *i, const char *name, const char *alias,
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
int rdb_run_gdb_opt(int argc, char **argv, int *i, int *gdb, const char **script)
{
	if (!strcmp(argv[*i], "--gdb"))
		return *gdb = 1;
	if (!rdb_run_opt_arg(argc, argv, i, "--gdb-batch", NULL, script))
		return 0;
	return *gdb = 1;
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

int rdb_run_send_all(int fd, const void *p, size_t n) { return move_all(fd, (void *)p, n, 1); }
int rdb_run_read_all(int fd, void *p, size_t n) { return move_all(fd, p, n, 0); }

/* rdb ends as PROG ended: its status, or its fatal signal re-raised. */
int rdb_run_end_like(int how, int value)
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
