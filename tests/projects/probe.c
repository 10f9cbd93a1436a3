/* probe.c: proof that a real project's programs ran instrumented.  Linked
 * into every program of a project (LDFLAGS=-Wl,probe.o), it registers a
 * termination callback that, when the environment names a log file in
 * RDB_PROBE_LOG, appends one line per process:
 *     probe <progname> sic=<SIC at exit> s=<S shadow byte of __progname>
 * A non-zero SIC says the counting ran; S bit X (2) on __progname says the
 * write hook ran when musl's start-up (instrumented) stored it.
 * This is an instrumentation library (librdb.h): built by gcc with librdb's
 * flags, never instrumented, no libc, raw syscalls only.  Without
 * RDB_PROBE_LOG it does nothing, so the projects' own outputs are unchanged. */
#include <stdint.h>

#include "librdb.h"

enum { NR_READ = 0, NR_WRITE = 1, NR_OPEN = 2, NR_CLOSE = 3 };
enum { O_RDONLY_ = 0, O_WRONLY_ = 01, O_CREAT_ = 0100, O_APPEND_ = 02000 };

extern char *__progname; /* musl: set by __init_libc from argv[0] */

void rdb_projects_probe_init(void);
RDB_INIT(rdb_projects_probe_init);

static long sys3(long nr, long a, long b, long c)
{
	return rdb_syscall6(nr, a, b, c, 0, 0, 0);
}

static int has_prefix(const char *s, const char *p)
{
	while (*p)
		if (*s++ != *p++)
			return 0;
	return 1;
}

static char *put_str(char *o, const char *s, const char *end)
{
	while (s && *s && o < end)
		*o++ = *s++;
	return o;
}

static char *put_u(char *o, uint64_t v, const char *end)
{
	char d[24];
	int n = 0;
	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) && n < 24);
	while (n && o < end)
		*o++ = d[--n];
	return o;
}

static void probe_term(int status, int signo)
{
	static char env[1 << 16];
	static char line[512];
	uint64_t sic = rdb_sic();
	(void)status;
	(void)signo;

	/* The environment at exec time, NUL-separated, from the kernel. */
	long fd = sys3(NR_OPEN, (long)"/proc/self/environ", O_RDONLY_, 0);
	if (fd < 0)
		return;
	long n = 0, r;
	while (n < (long)sizeof env - 1 &&
	       (r = sys3(NR_READ, fd, (long)(env + n), (long)sizeof env - 1 - n)) > 0)
		n += r;
	sys3(NR_CLOSE, fd, 0, 0);
	env[n] = 0;
	const char *log = 0;
	for (long i = 0; i < n; i += 1) {
		if (has_prefix(env + i, "RDB_PROBE_LOG=")) {
			log = env + i + 14;
			break;
		}
		while (i < n && env[i])
			i++;
	}
	if (!log || !*log)
		return;

	char *o = line, *end = line + sizeof line - 1;
	o = put_str(o, "probe ", end);
	o = put_str(o, __progname ? __progname : "?", end);
	o = put_str(o, " sic=", end);
	o = put_u(o, sic, end);
	o = put_str(o, " s=", end);
	o = put_u(o, rdb_shadow_s(&__progname), end);
	*o++ = '\n';
	fd = sys3(NR_OPEN, (long)log, O_WRONLY_ | O_CREAT_ | O_APPEND_, 0644);
	if (fd < 0)
		return;
	sys3(NR_WRITE, fd, (long)line, o - line);
	sys3(NR_CLOSE, fd, 0, 0);
}

void rdb_projects_probe_init(void)
{
	rdb_on_term(probe_term);
}
