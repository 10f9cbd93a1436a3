/* strings.c: string helpers built on rdb_xmalloc, shared by the rdb tool
 * (main.c's allocator) and the trace fuzz harness (its own allocator). */
#include <string.h>

#include "rdb.h"

char *rdb_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(rdb_xmalloc(n), s, n);
}

char *rdb_path(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = rdb_xmalloc(a + b + 2);
	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}
