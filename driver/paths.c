/*
 * paths.c: where rdb-cc finds altr, the rules, rdb-iot, the instrumented
 * musl, librdb and our crt object.  Everything is found relative to the
 * rdb-cc executable, in one of two layouts:
 *   installed:  PREFIX/bin/{rdb-cc,altr,rdb-iot}, PREFIX/share/rdb/rules/,
 *               PREFIX/lib/rdb/{librdb.a,rdb_crt1.o,musl/}
 *   build tree: the RDBCC_BUILD_* paths below, relative to build/driver/,
 *               set by driver/CMakeLists.txt.
 * so a build tree or a prefix can be moved whole.  Environment variables
 * override each path (for tests and for trying other rules).
 */
#include "driver.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef RDBCC_BUILD_ALTR
#define RDBCC_BUILD_ALTR "../altr/altr"
#define RDBCC_BUILD_RULES "../../rules/trace.rules"
#define RDBCC_BUILD_MUSL "../libc-wrap/sysroot"
#define RDBCC_BUILD_LIBRDB "../runtime/librdb.a"
#define RDBCC_BUILD_CRT "../crt/rdb_crt1.o"
#define RDBCC_BUILD_DIR "."
#endif

bool rdbcc_exists(const char *path)
{
	return path && access(path, R_OK) == 0;
}

static char *self_dir(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		rdbcc_die("cannot find my own executable (/proc/self/exe)");
	buf[n] = 0;
	char *slash = strrchr(buf, '/');
	if (slash)
		*slash = 0;
	return rdbcc_xstrdup(buf);
}

/* dir/rel normalised with realpath when it exists, else as joined. */
static char *join(const char *dir, const char *rel)
{
	char *p = rel[0] == '/' ? rdbcc_xstrdup(rel) : rdbcc_xasprintf("%s/%s", dir, rel);
	char buf[PATH_MAX];
	if (realpath(p, buf)) {
		free(p);
		return rdbcc_xstrdup(buf);
	}
	return p;
}

static char *pick(const char *env, const char *dir, const char *rel)
{
	const char *e = getenv(env);
	if (e && *e)
		return rdbcc_xstrdup(e);
	return join(dir, rel);
}

void rdbcc_find_paths(struct rdbcc_paths *p)
{
	memset(p, 0, sizeof *p);
	p->self_dir = self_dir();
	char *probe = join(p->self_dir, "../share/rdb/rules/trace.rules");
	p->installed = rdbcc_exists(probe);
	free(probe);
	const char *d = p->self_dir;
	if (p->installed) {
		p->altr = pick("RDB_ALTR", d, "altr");
		p->rules = pick("RDB_RULES", d, "../share/rdb/rules/trace.rules");
		p->iot = pick("RDB_IOT", d, "rdb-iot");
		p->musl = pick("RDB_MUSL", d, "../lib/rdb/musl");
		p->librdb = pick("RDB_LIBRDB", d, "../lib/rdb/librdb.a");
		p->crt = pick("RDB_CRT", d, "../lib/rdb/rdb_crt1.o");
	} else {
		p->altr = pick("RDB_ALTR", d, RDBCC_BUILD_ALTR);
		p->rules = pick("RDB_RULES", d, RDBCC_BUILD_RULES);
		p->iot = pick("RDB_IOT", d, "rdb-iot");
		p->musl = pick("RDB_MUSL", d, RDBCC_BUILD_MUSL);
		p->librdb = pick("RDB_LIBRDB", d, RDBCC_BUILD_LIBRDB);
		p->crt = pick("RDB_CRT", d, RDBCC_BUILD_CRT);
	}
}

const char *rdbcc_setup_hint(const struct rdbcc_paths *p)
{
	static char buf[PATH_MAX + 256];
	if (p->installed) {
		snprintf(buf, sizeof buf,
		         "build rdb with 'cmake --build BUILD && cmake --build BUILD "
		         "--target musl', then 'cmake --install BUILD' again");
	} else {
		char *b = join(p->self_dir, RDBCC_BUILD_DIR);
		snprintf(buf, sizeof buf,
		         "run 'cmake --build %s --target musl' (or "
		         "'libc-wrap/build-musl.sh %s')", b, b);
		free(b);
	}
	return buf;
}
