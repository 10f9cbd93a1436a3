/*
 * driver.h: the private header of rdb-cc, one section per file.
 *
 * rdb-cc turns one gcc command line into a list of commands (compile to
 * assembly, altr, assemble, link, rdb-iot), each an argv vector, and runs
 * them in order, stopping at the first that fails and returning its status.
 */
#ifndef RDB_DRIVER_H
#define RDB_DRIVER_H

#include <stdbool.h>
#include <stddef.h>

/* ---------------------------------------------------------------- argv.c */

/* A growable NULL-terminated vector of strings (owned copies). */
struct rdbcc_argv {
	char **v;
	int n, cap;
};

void rdbcc_argv_push(struct rdbcc_argv *a, const char *s);
void rdbcc_argv_pushf(struct rdbcc_argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rdbcc_argv_append(struct rdbcc_argv *a, const struct rdbcc_argv *b);
void rdbcc_argv_free(struct rdbcc_argv *a);
/* Expands @FILE arguments as gcc does (whitespace-separated, with '' ""
 * and backslash quoting; nested @file allowed; an unreadable @file is kept
 * as a literal argument, as gcc does).  Returns 0, or -1 after a message. */
int rdbcc_expand_atfiles(int argc, char **argv, struct rdbcc_argv *out);
/* Writes argv shell-quoted on one line, as gcc's -### does. */
void rdbcc_argv_print(const struct rdbcc_argv *a, int fd);

void *rdbcc_xmalloc(size_t n);
char *rdbcc_xstrdup(const char *s);
char *rdbcc_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rdbcc_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* --------------------------------------------------------------- paths.c */

/* Where rdb-cc finds its companions.  Each is an absolute path or NULL
 * when not found; the environment (RDB_ALTR, RDB_RULES, RDB_MUSL, RDB_LIBRDB,
 * RDB_CRT, RDB_IOT) overrides each. */
struct rdbcc_paths {
	char *self_dir;   /* directory of the rdb-cc executable */
	bool installed;   /* found in an installed layout (PREFIX/bin) */
	char *altr, *rules, *iot;
	char *musl;       /* instrumented musl sysroot: include/ and lib/ */
	char *librdb;     /* runtime archive */
	char *crt;        /* our _start object */
};

void rdbcc_find_paths(struct rdbcc_paths *p);
/* The command that builds what is missing, for error messages. */
const char *rdbcc_setup_hint(const struct rdbcc_paths *p);
bool rdbcc_exists(const char *path);

/* --------------------------------------------------------------- spawn.c */

/* Runs argv (argv[0] looked up in PATH), waits, returns the exit status
 * (128 + signal number when killed).  With `out`, stdout goes to that file.
 * `verbose` echoes the command to stderr first. */
int rdbcc_run(const struct rdbcc_argv *a, const char *out, bool verbose);
/* Runs argv and returns its first line of stdout (trailing newline
 * removed), or NULL on failure. */
char *rdbcc_capture(const struct rdbcc_argv *a);
/* Replaces the process with argv; only returns on failure (after a
 * message), with status 127 to use. */
int rdbcc_exec(const struct rdbcc_argv *a);
/* A private temporary directory, removed at exit and on SIGINT/TERM/HUP
 * unless RDB_CC_KEEP is set. */
const char *rdbcc_tmpdir(void);

#endif
