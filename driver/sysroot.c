/*
 * sysroot.c: one view of the system for every rdb-cc mode.
 *
 * gcc alone would preprocess and link against the host's glibc world:
 * /usr/include, /usr/lib/x86_64-linux-gnu.  An instrumented program must
 * see only code that was built with rdb-cc, so a configure script that asks
 * "is there a zlib.h, a -lz?" has to hear "no" when only the host has them,
 * or it enables a feature whose build then fails (or links glibc-built code
 * that runs uninstrumented).  So the link names every archive by its path,
 * found where rdb-cc allows, and rdb-cc answers gcc's questions about its
 * search folders for that world.
 */
#include "driver.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *rdbcc_gcc_libdir(void)
{
	struct rdbcc_argv a = {0};
	rdbcc_argv_push(&a, "gcc");
	rdbcc_argv_push(&a, "-print-libgcc-file-name");
	char *f = rdbcc_capture(&a);
	rdbcc_argv_free(&a);
	if (!f)
		return NULL;
	char *slash = strrchr(f, '/');
	if (!slash) {
		free(f);
		return NULL;
	}
	*slash = 0;
	return f;
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The folders a -l is looked up in, in order. */
static void search_dirs(struct rdbcc_argv *dirs, const struct rdbcc_argv *items,
                        const struct rdbcc_paths *p)
{
	for (int i = 0; i < items->n; i++) {
		const char *s = items->v[i];
		if (!strcmp(s, "-L") && i + 1 < items->n)
			rdbcc_argv_push(dirs, items->v[++i]);
		else if (!strncmp(s, "-L", 2) && s[2])
			rdbcc_argv_push(dirs, s + 2);
		else if (!strcmp(s, "-l") || !strcmp(s, "-Xlinker") || !strcmp(s, "-T") ||
		         !strcmp(s, "-u") || !strcmp(s, "-z") || !strcmp(s, "-e"))
			i++;
	}
	if (p->musl)
		rdbcc_argv_pushf(dirs, "%s/lib", p->musl);
	char *gcc = rdbcc_gcc_libdir();
	if (gcc)
		rdbcc_argv_push(dirs, gcc);
	free(gcc);
}

static char *find_lib(const char *spec, const struct rdbcc_argv *dirs)
{
	char *name = spec[0] == ':' ? rdbcc_xstrdup(spec + 1)
	                            : rdbcc_xasprintf("lib%s.a", spec);
	char *found = NULL;
	for (int i = 0; i < dirs->n && !found; i++) {
		char *f = rdbcc_xasprintf("%s/%s", dirs->v[i], name);
		if (is_file(f))
			found = f;
		else
			free(f);
	}
	free(name);
	return found;
}

char *rdbcc_resolve_libs(struct rdbcc_argv *items, const struct rdbcc_paths *p)
{
	struct rdbcc_argv dirs = {0};
	search_dirs(&dirs, items, p);
	struct rdbcc_argv out = {0};
	char *msg = NULL;
	for (int i = 0; i < items->n && !msg; i++) {
		const char *s = items->v[i];
		const char *spec = NULL;
		if (!strcmp(s, "-l") && i + 1 < items->n)
			spec = items->v[++i];
		else if (!strncmp(s, "-l", 2) && s[2])
			spec = s + 2;
		else if (!strcmp(s, "-L") || !strcmp(s, "-Xlinker") || !strcmp(s, "-T") ||
		         !strcmp(s, "-u") || !strcmp(s, "-z") || !strcmp(s, "-e")) {
			rdbcc_argv_push(&out, s);
			if (i + 1 < items->n)
				rdbcc_argv_push(&out, items->v[++i]);
			continue;
		}
		if (!spec) {
			rdbcc_argv_push(&out, s);
			continue;
		}
		char *f = find_lib(spec, &dirs);
		if (f) {
			rdbcc_argv_push(&out, f);
			free(f);
			continue;
		}
		msg = rdbcc_xasprintf("cannot find -l%s: no %s%s%s in the instrumented "
		                      "sysroot (%s/lib), the -L folders or gcc's own "
		                      "folder; host libraries are not instrumented, so "
		                      "build the library with CC=rdb-cc and install it "
		                      "there (docs/rdb-cc.md)",
		                      spec, spec[0] == ':' ? "" : "lib",
		                      spec[0] == ':' ? spec + 1 : spec,
		                      spec[0] == ':' ? "" : ".a", p->musl ? p->musl : "?");
	}
	rdbcc_argv_free(&dirs);
	if (msg) {
		rdbcc_argv_free(&out);
		return msg;
	}
	rdbcc_argv_free(items);
	*items = out;
	return NULL;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), k = strlen(tail);
	return n >= k && !strcmp(s + n - k, tail);
}

char *rdbcc_refused_input(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (ends_with(base, ".so") || strstr(base, ".so."))
		return rdbcc_xasprintf("%s is a shared library: rdb programs are linked "
		                       "static-pie, so link a static archive of it built "
		                       "with CC=rdb-cc", path);
	if (!ends_with(base, ".a"))
		return NULL;
	char real[PATH_MAX];
	if (!realpath(path, real))
		return NULL;            /* the link reports a missing file itself */
	char *gcc = rdbcc_gcc_libdir();
	char gccreal[PATH_MAX];
	bool in_gcc = gcc && realpath(gcc, gccreal) &&
	              !strncmp(real, gccreal, strlen(gccreal));
	free(gcc);
	static const char *const host[] = { "/usr/lib/", "/lib/", "/usr/lib64/", "/lib64/" };
	for (size_t i = 0; i < sizeof host / sizeof *host && !in_gcc; i++)
		if (!strncmp(real, host[i], strlen(host[i])))
			return rdbcc_xasprintf("%s is a host library, built without rdb's "
			                       "instrumentation; build it with CC=rdb-cc "
			                       "and link that archive", path);
	return NULL;
}

/* gcc -print-search-dirs with its "libraries:" line replaced. */
static void print_search_dirs(const struct rdbcc_paths *p)
{
	struct rdbcc_argv a = {0};
	rdbcc_argv_push(&a, "gcc");
	rdbcc_argv_push(&a, "-print-search-dirs");
	char *all = rdbcc_capture_all(&a);
	rdbcc_argv_free(&a);
	char *gcc = rdbcc_gcc_libdir();
	for (char *line = all, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		else
			next = line + strlen(line);
		if (!strncmp(line, "libraries:", 10))
			printf("libraries: =%s/lib/%s%s%s\n", p->musl ? p->musl : "",
			       gcc ? ":" : "", gcc ? gcc : "", gcc ? "/" : "");
		else
			printf("%s\n", line);
	}
	free(all);
	free(gcc);
}

/* -print-file-name=NAME: the sysroot's lib/ first, then gcc's folder (its
 * include/, libgcc.a); NAME alone when neither has it, as gcc answers. */
static void print_file_name(const char *name, const struct rdbcc_paths *p)
{
	char *gcc = rdbcc_gcc_libdir();
	const char *dirs[2] = { NULL, gcc };
	char *lib = p->musl ? rdbcc_xasprintf("%s/lib", p->musl) : NULL;
	dirs[0] = lib;
	const char *found = NULL;
	char *f = NULL;
	for (int i = 0; i < 2 && !found && !strchr(name, '/'); i++) {
		if (!dirs[i])
			continue;
		f = rdbcc_xasprintf("%s/%s", dirs[i], name);
		struct stat st;
		if (stat(f, &st) == 0)
			found = f;
		else {
			free(f);
			f = NULL;
		}
	}
	printf("%s\n", found ? found : name);
	free(f);
	free(lib);
	free(gcc);
}

static const char *const own_queries[] = {
	"-print-file-name=", "-print-search-dirs", "-print-sysroot",
	"-print-multiarch", "-dumpmachine",
};

/* The query in one spelling: gcc takes --print-X as -print-X. */
static const char *query_word(const char *arg)
{
	return !strncmp(arg, "--print-", 8) ? arg + 1 : arg;
}

bool rdbcc_own_query(const char *arg)
{
	arg = query_word(arg);
	for (size_t i = 0; i < sizeof own_queries / sizeof *own_queries; i++) {
		const char *q = own_queries[i];
		size_t k = strlen(q);
		if (q[k - 1] == '=' ? !strncmp(arg, q, k) : !strcmp(arg, q))
			return true;
	}
	return false;
}

void rdbcc_answer_query(const char *arg, const struct rdbcc_paths *p)
{
	arg = query_word(arg);
	if (!strncmp(arg, "-print-file-name=", 17))
		print_file_name(arg + 17, p);
	else if (!strcmp(arg, "-print-search-dirs"))
		print_search_dirs(p);
	else if (!strcmp(arg, "-print-sysroot"))
		printf("%s\n", p->musl ? p->musl : "");
	else if (!strcmp(arg, "-print-multiarch"))
		printf("\n");           /* no multiarch folders in the sysroot */
	else if (!strcmp(arg, "-dumpmachine"))
		printf("%s\n", RDBCC_MACHINE);
}
