/*
 * spawn.c: running the tools rdb-cc drives, and its private temporary
 * directory.  Children inherit stderr untouched so gcc's messages reach
 * the user as gcc wrote them; a child's exit status becomes rdb-cc's.
 */
#include "driver.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *tmpdir;

static void remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			struct stat st;
			if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
				remove_tree(path);
			else
				unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

static void cleanup(void)
{
	if (tmpdir && !getenv("RDB_CC_KEEP"))
		remove_tree(tmpdir);
}

static void on_signal(int sig)
{
	cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

const char *rdbcc_tmpdir(void)
{
	if (tmpdir)
		return tmpdir;
	const char *base = getenv("TMPDIR");
	if (!base || !*base)
		base = "/tmp";
	char *t = rdbcc_xasprintf("%s/rdb-cc.XXXXXX", base);
	if (!mkdtemp(t))
		rdbcc_die("cannot create a temporary directory in %s: %s", base,
		          strerror(errno));
	tmpdir = t;
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	if (getenv("RDB_CC_KEEP"))
		fprintf(stderr, "rdb-cc: keeping temporary files in %s\n", tmpdir);
	return tmpdir;
}

static int wait_status(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR)
			return 127;
	}
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 127;
}

int rdbcc_run(const struct rdbcc_argv *a, const char *out, bool verbose)
{
	if (verbose)
		rdbcc_argv_print(a, 2);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		rdbcc_die("fork: %s", strerror(errno));
	if (pid == 0) {
		if (out) {
			int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (fd < 0 || dup2(fd, 1) < 0) {
				fprintf(stderr, "rdb-cc: %s: %s\n", out, strerror(errno));
				_exit(127);
			}
		}
		execvp(a->v[0], a->v);
		fprintf(stderr, "rdb-cc: cannot run %s: %s\n", a->v[0], strerror(errno));
		_exit(127);
	}
	return wait_status(pid);
}

char *rdbcc_capture_all(const struct rdbcc_argv *a)
{
	int p[2];
	if (pipe(p) < 0)
		return NULL;
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return NULL;
	}
	if (pid == 0) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		execvp(a->v[0], a->v);
		_exit(127);
	}
	close(p[1]);
	size_t cap = 4096, n = 0;
	char *buf = rdbcc_xmalloc(cap);
	ssize_t r;
	while ((r = read(p[0], buf + n, cap - 1 - n)) > 0 || (r < 0 && errno == EINTR)) {
		if (r <= 0)
			continue;
		n += (size_t)r;
		if (n == cap - 1) {
			cap *= 2;
			buf = realloc(buf, cap);
			if (!buf)
				rdbcc_die("out of memory");
		}
	}
	close(p[0]);
	int st = wait_status(pid);
	buf[n] = 0;
	if (st != 0 || !buf[0]) {
		free(buf);
		return NULL;
	}
	return buf;
}

char *rdbcc_capture(const struct rdbcc_argv *a)
{
	char *out = rdbcc_capture_all(a);
	if (!out)
		return NULL;
	out[strcspn(out, "\n")] = 0;
	if (!out[0]) {
		free(out);
		return NULL;
	}
	return out;
}

int rdbcc_exec(const struct rdbcc_argv *a)
{
	fflush(NULL);
	cleanup();
	execvp(a->v[0], a->v);
	fprintf(stderr, "rdb-cc: cannot run %s: %s\n", a->v[0], strerror(errno));
	return 127;
}
