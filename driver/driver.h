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
/* The same, all of stdout (NULL on failure or no output). */
char *rdbcc_capture_all(const struct rdbcc_argv *a);
/* Replaces the process with argv; only returns on failure (after a
 * message), with status 127 to use. */
int rdbcc_exec(const struct rdbcc_argv *a);
/* A private temporary directory, removed at exit and on SIGINT/TERM/HUP
 * unless RDB_CC_KEEP is set. */
const char *rdbcc_tmpdir(void);

/* ------------------------------------------------------------- sysroot.c */

/* What an instrumented link may use, and what rdb-cc answers when asked
 * about its world (-print-*, -dumpmachine): the instrumented sysroot, the
 * folders the command line names with -L, and gcc's own library folder
 * (libgcc); never the host's system library folders, whose code is not
 * instrumented. */

/* The machine rdb-cc builds for (-dumpmachine). */
#define RDBCC_MACHINE "x86_64-linux-musl"

/* gcc's own library folder (that of libgcc.a), or NULL. */
char *rdbcc_gcc_libdir(void);
/* Replaces every -lNAME / -l NAME / -l:FILE among the link items by the
 * archive's path, searched in the -L folders among them, then the sysroot's
 * lib/, then gcc's library folder (static archives only: the link is
 * static-pie).  Returns NULL, or a message naming what is missing. */
char *rdbcc_resolve_libs(struct rdbcc_argv *items, const struct rdbcc_paths *p);
/* A message if a link input path is a library rdb cannot link (a shared
 * object, or an archive from the host's system library folders), else NULL. */
char *rdbcc_refused_input(const char *path);
/* Whether rdb-cc answers an information query itself (-print-file-name=,
 * -print-search-dirs, -print-sysroot, -print-multiarch, -dumpmachine: the
 * sysroot changes their answer); others are gcc's to answer. */
bool rdbcc_own_query(const char *arg);
/* Prints the answer to a query rdbcc_own_query accepts. */
void rdbcc_answer_query(const char *arg, const struct rdbcc_paths *p);

#endif
