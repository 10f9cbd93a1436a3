/* treeid.c: the process IDs of a recorded tree (docs/process-trees.md
 * "The set"): PID, or PID.N for the Nth image of that pid, N >= 2; the
 * set's own process is image 1 of its pid.  Apart from tree.c so that the
 * trace readers (show.c, and the fuzzer built on it) need no /proc or ELF
 * code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdb.h"

/* ID: digits, or digits "." digits. */
int rdb_tree_is_id(const char *s)
{
	const char *p = s;
	while (*p >= '0' && *p <= '9')
		p++;
	if (p == s)
		return 0;
	if (*p == '.') {
		const char *q = ++p;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p == q)
			return 0;
	}
	return !*p;
}

char *rdb_tree_next_image(const char *dir, int pid, char **set_out)
{
	/* DIR is SET/proc/ID, or SET itself (image 1 of its pid) */
	char *set = NULL, *id = NULL;
	const char *slash = strrchr(dir, '/');
	if (slash && slash - dir >= 5 && !strncmp(slash - 5, "/proc", 5) && rdb_tree_is_id(slash + 1)) {
		set = rdb_xstrdup(dir);
		set[slash - 5 - dir] = 0;
		id = rdb_xstrdup(slash + 1);
	} else if (slash && slash - dir == 4 && !strncmp(dir, "proc", 4) && rdb_tree_is_id(slash + 1)) {
		set = rdb_xstrdup(".");
		id = rdb_xstrdup(slash + 1);
	} else {
		set = rdb_xstrdup(dir);
	}
	const char *dot = id ? strchr(id, '.') : NULL;
	char next[32];
	snprintf(next, sizeof next, "%d.%d", pid, dot ? atoi(dot + 1) + 1 : 2);
	rdb_free(id);
	char *procs = rdb_path(set, "proc");
	char *d = rdb_path(procs, next);
	char *hp = rdb_path(d, "header");
	int there = access(hp, F_OK) == 0;
	rdb_free(hp), rdb_free(d), rdb_free(procs);
	if (!there) {
		rdb_free(set);
		return NULL;
	}
	*set_out = set;
	return rdb_xstrdup(next);
}
