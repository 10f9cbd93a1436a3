/* main.c: rdb's command line: record, replay, info, truss, flowback; shared
 * helpers.
 * Messages go to stderr prefixed "rdb:". */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <string.h>

#include "rdb.h"

/* One message line on stderr, after what stdout holds and in place of a
 * progress line. */
static void vmessage(const char *fmt, va_list ap)
{
	fflush(stdout);
	rdb_progress_end();
	fputs("rdb: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* rdb_try's: where rdb_fatal goes back to, and its message. */
static jmp_buf *catcher;
static char *caught;
static size_t caught_cap;

int rdb_try(void (*fn)(void *ctx), void *ctx, char *msg, size_t cap)
{
	jmp_buf here, *outer = catcher;
	char *omsg = caught;
	size_t ocap = caught_cap;
	int failed = setjmp(here);
	if (!failed) {
		catcher = &here;
		caught = msg;
		caught_cap = cap;
		fn(ctx);
	}
	catcher = outer;
	caught = omsg;
	caught_cap = ocap;
	return failed;
}

_Noreturn void rdb_fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (catcher) {
		vsnprintf(caught, caught_cap, fmt, ap);
		va_end(ap);
		longjmp(*catcher, 1);
	}
	vmessage(fmt, ap);
	va_end(ap);
	exit(2);
}

void rdb_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
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
	      "  rdb check [--jobs N] DIR                   replay every interval alone, verified\n"
	      "  rdb pack DIR                               copy the executables into the set\n"
	      "  rdb truss DIR [K]                          the recorded syscalls, like strace\n"
	      "  rdb timeline [-o FILE.html] DIR            the recording as a page to look at\n"
	      "  rdb flowback [--at K] DIR ADDR|SYMBOL      when were these bytes last written?\n"
	      "  rdb replay --gdb DIR                       gdb on a replay (docs/gdb.md)\n"
	      "  rdb record --gdb -- PROG ARGS...           record, then gdb on the replay\n\n"
	      "'rdb COMMAND --help' says more.  The trace format: docs/trace-format.md.\n",
	      f);
}

/* The commands, each run with its own argv (argv[0]: its name); those
 * that read one process of a set take --pid ID (rdb_tree_pid_opt). */
static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
	bool pid_opt;
} commands[] = {
	{"record", rdb_cmd_record, false},
	{"replay", rdb_cmd_replay, true},
	{"info", rdb_cmd_info, true},
	{"ps", rdb_cmd_ps, false},
	{"check", rdb_cmd_check, false},
	{"pack", rdb_cmd_pack, false},
	{"truss", rdb_cmd_truss, true},
	{"timeline", rdb_cmd_timeline, false}, /* --pid: its own (the page names it) */
	{"flowback", rdb_cmd_flowback, true},
};

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
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
		if (strcmp(c, commands[i].name))
			continue;
		int n = argc - 1;
		if (commands[i].pid_opt)
			n = rdb_tree_pid_opt(n, argv + 1);
		return commands[i].run(n, argv + 1);
	}
	if (!strcmp(c, "gdb")) {
		/* The one way to debug is on a replay, where gdb has rdb's
		 * server as its target (an unrecorded run under a plain gdb
		 * cannot go on from a breakpoint: docs/gdb.md). */
		rdb_warn("there is no 'rdb gdb': gdb runs on replays.  Record and debug: "
		         "rdb record --gdb [-o DIR] -- PROG ARGS...; a trace set: rdb replay --gdb DIR");
		return 2;
	}
	rdb_warn("unknown command '%s'", c);
	usage(stderr);
	return 2;
}
