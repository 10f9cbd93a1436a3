/* main.c: rdb's command line: record, replay, info, truss; shared helpers.
 * Messages go to stderr prefixed "rdb:". */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <string.h>

#include "rdb.h"

_Noreturn void rdb_fatal(const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	rdb_progress_end();
	fputs("rdb: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

void rdb_warn(const char *fmt, ...)
{
	va_list ap;
	fflush(stdout);
	rdb_progress_end();
	fputs("rdb: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* Progress on long work, only when stderr is a terminal: one line,
 * rewritten at most five times a second, erased by rdb_progress_end. */
static int progress_shown;
int rdb_no_progress;
uint64_t rdb_started_ns;

void rdb_progress(const char *fmt, ...)
{
	static struct timespec last;
	struct timespec now;
	if (rdb_no_progress || !isatty(2))
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (progress_shown &&
	    (now.tv_sec - last.tv_sec) * 1000000000L + (now.tv_nsec - last.tv_nsec) < 200000000L)
		return;
	last = now;
	va_list ap;
	fputs("\rrdb: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\033[K", stderr);
	progress_shown = 1;
}

void rdb_progress_end(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
	progress_shown = 0;
}

void *rdb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		rdb_fatal("out of memory (%zu bytes)", n);
	return p;
}

void *rdb_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		rdb_fatal("out of memory (%zu bytes)", n);
	return p;
}

void rdb_free(void *p) { free(p); }

static void usage(FILE *f)
{
	fputs("usage: rdb COMMAND ...\n"
	      "Record and replay programs built with rdb-cc.\n\n"
	      "  rdb record [-o DIR] [-i MS] -- PROG ARGS...  run PROG, writing a trace set\n"
	      "  rdb replay [--from K] [--to K] DIR         re-run the recorded run from the trace\n"
	      "  rdb info DIR                               what the trace holds\n"
	      "  rdb ps DIR                                 the processes of a recorded tree\n"
	      "  rdb truss DIR [K]                          the recorded syscalls, like strace\n"
	      "  rdb flowback [--at K] DIR ADDR|SYMBOL      when were these bytes last written?\n"
	      "  rdb gdb -- PROG ARGS...                    gdb on PROG (also: record/replay --gdb)\n\n"
	      "'rdb COMMAND --help' says more.  The trace format: docs/trace-format.md.\n",
	      f);
}

int main(int argc, char **argv)
{
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rdb_started_ns = (uint64_t)t0.tv_sec * 1000000000u + (uint64_t)t0.tv_nsec;
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *c = argv[1];
	if (!strcmp(c, "--help") || !strcmp(c, "-h") || !strcmp(c, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(c, "--version")) {
		printf("rdb (trace format %d)\n", RDB_TF_VERSION);
		return 0;
	}
	if (!strcmp(c, "record"))
		return rdb_cmd_record(argc - 1, argv + 1);
	if (!strcmp(c, "replay") || !strcmp(c, "info") || !strcmp(c, "truss") ||
	    !strcmp(c, "flowback"))
		argc = rdb_tree_pid_opt(argc - 1, argv + 1) + 1;
	if (!strcmp(c, "replay"))
		return rdb_cmd_replay(argc - 1, argv + 1);
	if (!strcmp(c, "info"))
		return rdb_cmd_info(argc - 1, argv + 1);
	if (!strcmp(c, "ps"))
		return rdb_cmd_ps(argc - 1, argv + 1);
	if (!strcmp(c, "truss"))
		return rdb_cmd_truss(argc - 1, argv + 1);
	if (!strcmp(c, "flowback"))
		return rdb_cmd_flowback(argc - 1, argv + 1);
	if (!strcmp(c, "gdb"))
		return rdb_cmd_gdb(argc - 1, argv + 1);
	rdb_warn("unknown command '%s'", c);
	usage(stderr);
	return 2;
}
