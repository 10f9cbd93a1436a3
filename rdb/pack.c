/* pack.c: portable trace sets (docs/process-trees.md).  rdb pack DIR
 * copies into DIR/exe/BUILDID each recorded executable (by its build-id,
 * once for all processes of the set that ran it): the one file a replay
 * reads from outside the set (a file a process mapped is in the trace: its
 * bytes follow the mmap, trace-format.md).  A replay takes the recorded
 * path while it still holds the recorded build-id, else the set's copy,
 * else it refuses, saying why.  The copy is exec'd by the recorded path
 * string all the same, in a mount namespace of the replay's own where that
 * path is the copy: the string lies at the top of the stack, which
 * --verify hashes. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdb.h"

static void hex(char *out, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
	out[2 * n] = 0;
}

/* The set's copy of h's executable for the process in dir (the set
 * itself, or SET/proc/ID), if there is one; malloc'd. */
static char *packed(const char *dir, const struct rdb_header *h)
{
	char name[160], bid[129];
	hex(bid, h->buildid, h->buildid_len);
	static const char *const where[] = {"exe", "../../exe"};
	for (size_t i = 0; h->buildid_len && i < 2; i++) {
		snprintf(name, sizeof name, "%s/%s", where[i], bid);
		char *p = rdb_path(dir, name);
		if (access(p, F_OK) == 0)
			return p;
		rdb_free(p);
	}
	return NULL;
}

/* Whether file has build-id bid (n bytes); its own in got (hex) if not. */
static int same_build(const char *file, const uint8_t *bid, size_t n, char *got, size_t cap,
                      char *err, size_t errcap)
{
	uint8_t b[64];
	long nb = rdb_elf_buildid(file, b, sizeof b, err, errcap);
	if (nb < 0)
		return -1;
	if ((size_t)nb == n && !memcmp(b, bid, n))
		return 1;
	if (nb)
		hex(got, b, (size_t)nb);
	else
		snprintf(got, cap, "(none)");
	return 0;
}

void rdb_replay_check_buildid(const char *dir, struct rdb_header *h)
{
	char got[129], want[129], err[512];
	hex(want, h->buildid, h->buildid_len);
	int same = same_build(h->exe, h->buildid, h->buildid_len, got, sizeof got, err, sizeof err);
	rdb_free(h->image);
	h->image = NULL;
	if (same == 1) {
		h->image = rdb_xstrdup(h->exe);
		return;
	}
	char *p = packed(dir, h);
	if (p) {
		char pgot[129], perr[512];
		int ok = same_build(p, h->buildid, h->buildid_len, pgot, sizeof pgot, perr, sizeof perr);
		if (ok != 1)
			rdb_fatal("%s: the set's copy of the executable, %s, %s%s: the set was altered; "
			          "refusing to replay another executable", dir, p,
			          ok < 0 ? "cannot be read: " : "has build-id ", ok < 0 ? perr : pgot);
		h->image = p;
		return;
	}
	if (same < 0 && access(h->exe, F_OK))
		rdb_fatal("%s: cannot replay: the recorded executable %s (build-id %s) is gone, and "
		          "the set holds no copy of it (rdb pack DIR, run while it is there, puts "
		          "one in)", dir, h->exe, h->buildid_len ? want : "(none)");
	if (same < 0)
		rdb_fatal("%s: cannot replay: %s", dir, err);
	rdb_fatal("%s: recorded from %s with build-id %s, but that file now has build-id %s: "
	          "refusing to replay another executable (rdb pack DIR before a rebuild keeps "
	          "the recorded one in the set)", dir, h->exe, h->buildid_len ? want : "(none)", got);
}

/* ---- exec'ing the set's copy by the recorded path ------------------------ */

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/* path made to exist as a folder: below its deepest existing ancestor
 * (not "/"), a tmpfs, which hides what that folder held from this mount
 * namespace only; the rest made in it. */
static int make_dir(const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : -1;
	char a[PATH_MAX];
	snprintf(a, sizeof a, "%s", path);
	for (;;) {
		char *s = strrchr(a, '/');
		if (!s || s == a)
			return -1;
		*s = 0;
		if (stat(a, &st) == 0)
			break;
	}
	if (!S_ISDIR(st.st_mode) || mount("rdb-pack", a, "tmpfs", 0, "mode=0755"))
		return -1;
	char b[PATH_MAX];
	snprintf(b, sizeof b, "%s", path);
	for (char *s = b + strlen(a) + 1; (s = strchr(s, '/')); *s++ = '/') {
		*s = 0;
		if (mkdir(b, 0755) && errno != EEXIST)
			return -1;
	}
	return mkdir(b, 0755) && errno != EEXIST ? -1 : 0;
}

/* The absolute path of the string the process was exec'd by. */
static void exec_target(const struct rdb_header *h, char *out, size_t cap)
{
	const char *s = h->execfn ? h->execfn : h->exe;
	if (s[0] == '/' || !h->cwd)
		snprintf(out, cap, "%s", s);
	else
		snprintf(out, cap, "%s/%s", h->cwd, s[0] == '.' && s[1] == '/' ? s + 2 : s);
}

const char *rdb_pack_exec_path(const struct rdb_header *h)
{
	char t[PATH_MAX], dir[PATH_MAX], src[64];
	exec_target(h, t, sizeof t);
	int fd = -1;
	uid_t uid = getuid();
	gid_t gid = getgid();
	char map[64];
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS))
		goto fail;
	snprintf(map, sizeof map, "%u %u 1", (unsigned)uid, (unsigned)uid);
	if (write_file("/proc/self/setgroups", "deny") || write_file("/proc/self/uid_map", map))
		goto fail;
	snprintf(map, sizeof map, "%u %u 1", (unsigned)gid, (unsigned)gid);
	if (write_file("/proc/self/gid_map", map) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		goto fail;
	/* opened in the new namespace (a bind mount's source must be in it),
	 * before a tmpfs may hide it */
	if ((fd = open(h->image, O_PATH | O_CLOEXEC)) < 0)
		goto fail;
	snprintf(dir, sizeof dir, "%s", t);
	*strrchr(dir, '/') = 0;
	/* each tmpfs may hide what an earlier one made: until both are there */
	for (int i = 0; i < 8; i++) {
		if ((h->cwd && make_dir(h->cwd)) || (dir[0] && make_dir(dir)))
			goto fail;
		struct stat st;
		if ((!h->cwd || stat(h->cwd, &st) == 0) && (!dir[0] || stat(dir, &st) == 0))
			break;
	}
	struct stat st;
	if (stat(t, &st)) {
		/* never a file made in the real file system: a tmpfs on its folder */
		if (mount("rdb-pack", dir, "tmpfs", 0, "mode=0755"))
			goto fail;
		int f = open(t, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0755);
		if (f < 0)
			goto fail;
		close(f);
		if ((h->cwd && make_dir(h->cwd)) || stat(t, &st))
			goto fail;
	}
	snprintf(src, sizeof src, "/proc/self/fd/%d", fd);
	if (mount(src, t, NULL, MS_BIND, NULL) || (h->cwd && chdir(h->cwd)))
		goto fail;
	close(fd);
	return h->execfn ? h->execfn : h->exe;
fail:
	rdb_warn("cannot exec the set's copy %s by the recorded path %s (%s): exec'd by its own "
	         "path, the strings at the stack's top differ from the recording's, which --verify "
	         "of a replay from interval 1 may see", h->image, t, strerror(errno));
	return h->image;
}

/* ---- rdb pack ------------------------------------------------------------ */

static const char pack_help[] =
	"usage: rdb pack DIR\n"
	"Copies into the trace set DIR what its replays read from outside it: each\n"
	"recorded executable, as DIR/exe/BUILDID (one copy per build-id for all the\n"
	"set's processes).  The files the processes mapped are in the trace already.\n"
	"A replay of a packed set runs after the executables were rebuilt or deleted,\n"
	"in another folder or on another machine with the same kernel ABI.  Run it\n"
	"before rebuilding: an executable whose build-id is no longer the recorded\n"
	"one is not copied (rdb says which).\n";

/* Copies src to dst (through a temporary name): bytes copied. */
static uint64_t copy_file(const char *src, const char *dst)
{
	int in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		rdb_fatal("%s: %s", src, strerror(errno));
	char *tmp = rdb_xmalloc(strlen(dst) + 8);
	sprintf(tmp, "%s.part", dst);
	int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (out < 0)
		rdb_fatal("%s: %s", tmp, strerror(errno));
	char b[1 << 16];
	uint64_t total = 0;
	for (;;) {
		ssize_t n = read(in, b, sizeof b);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rdb_fatal("%s: %s", src, strerror(errno));
		if (!n)
			break;
		for (ssize_t o = 0; o < n;) {
			ssize_t w = write(out, b + o, (size_t)(n - o));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				rdb_fatal("%s: write: %s", tmp, strerror(errno));
			o += w;
		}
		total += (uint64_t)n;
	}
	close(in);
	if (close(out) || rename(tmp, dst))
		rdb_fatal("%s: %s", dst, strerror(errno));
	rdb_free(tmp);
	return total;
}

/* The executable of the process in dir into store: 1 copied, 0 there
 * already or nothing to copy, -1 it cannot be (said why). */
static int pack_one(const char *dir, const char *store, uint64_t *bytes)
{
	struct rdb_header h;
	rdb_read_header(dir, &h);
	int r = 0;
	char want[129], got[129], err[512];
	if (!h.have_random) /* not an rdb-cc program: nothing replays it */
		goto out;
	if (!h.buildid_len) {
		rdb_warn("%s: %s has no build-id: not packed (replay could not tell it from "
		         "another build)", dir, h.exe);
		r = -1;
		goto out;
	}
	hex(want, h.buildid, h.buildid_len);
	char *dst = rdb_path(store, want);
	if (same_build(dst, h.buildid, h.buildid_len, got, sizeof got, err, sizeof err) == 1) {
		rdb_free(dst);
		goto out;
	}
	int same = same_build(h.exe, h.buildid, h.buildid_len, got, sizeof got, err, sizeof err);
	if (same != 1) {
		rdb_warn("%s: cannot pack %s: %s", dir, h.exe,
		         same < 0 ? err : "it now has another build-id than the recorded one (rebuilt?)");
		r = -1;
	} else {
		*bytes += copy_file(h.exe, dst);
		r = 1;
	}
	rdb_free(dst);
out:
	rdb_header_free(&h);
	return r;
}

/* What rdb pack has done so far, over the set's processes. */
struct packed {
	const char *store;
	uint64_t bytes;
	int copied, bad;
};

static void pack_into(void *ctx, const char *dir, const char *id)
{
	(void)id;
	struct packed *k = ctx;
	int r = pack_one(dir, k->store, &k->bytes);
	k->copied += r > 0, k->bad += r < 0;
}

int rdb_cmd_pack(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(pack_help, stdout);
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fputs(pack_help, stderr);
		return 2;
	}
	const char *set = argv[1];
	struct rdb_header h;
	rdb_read_header(set, &h); /* a trace set, or a clear message */
	rdb_header_free(&h);
	char *store = rdb_path(set, "exe");
	if (mkdir(store, 0755) && errno != EEXIST)
		rdb_fatal("%s: %s", store, strerror(errno));
	struct packed k = {store, 0, 0, 0};
	pack_into(&k, set, NULL);
	rdb_tree_each(set, pack_into, &k);
	printf("%s: %d executables copied (%llu bytes) into %s%s\n", set, k.copied,
	       (unsigned long long)k.bytes, store, k.bad ? "; some could not be (above)" : "");
	rdb_free(store);
	return k.bad ? 1 : 0;
}
