/* rdb.h: the rdb tool's private header, one section per file.  The trace
 * format itself is runtime/trace_format.h, shared with the runtime. */
#ifndef RDB_TOOL_H
#define RDB_TOOL_H

#include <stddef.h>
#include <stdint.h>

#include "trace_format.h"

/* ---- util (main.c; tests/fuzz/fuzz_trace.c has its own) ----------------- */
_Noreturn void rdb_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rdb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *rdb_xmalloc(size_t n);
void *rdb_xrealloc(void *p, size_t n);
void rdb_free(void *p); /* what rdb_x* and rdb_path return */
char *rdb_xstrdup(const char *s);
char *rdb_path(const char *dir, const char *name); /* dir/name, malloc'd */

/* ---- trace.c: writing and reading a trace set ------------------------- */
struct rdb_tw; /* a trace set being written */
struct rdb_tw *rdb_tw_open(const char *dir);
void rdb_tw_header(struct rdb_tw *w, uint32_t type, const void *p, size_t n);
void rdb_tw_add(struct rdb_tw *w, int stream, uint32_t type, const void *p, size_t n,
                const void *q, size_t m);
void rdb_tw_flush(struct rdb_tw *w); /* every stream's pending records as frames */
void rdb_tw_exit(struct rdb_tw *w, const struct rdb_tf_exit *x);
void rdb_tw_close(struct rdb_tw *w);

struct rdb_header {
	char *exe;
	uint8_t buildid[64];
	size_t buildid_len;
	char **argv, **envp; /* NULL-terminated */
	size_t argc, envc;
	uint64_t *auxv;
	size_t nauxv;
	uint64_t random[2];
	int have_random;
	char *machine, *cwd;
	struct rdb_tf_hstart start;
	uint64_t rlimit_stack[2];
	int have_rlimit;
	struct rdb_tf_exit exit;
	int have_exit; /* the exit file exists */
};
void rdb_read_header(const char *dir, struct rdb_header *h);

struct rdb_tr; /* one stream being read */
struct rdb_tr *rdb_tr_open(const char *dir, int stream);
/* The next record: 1 (type, payload in *p, len), 0 at the end. */
int rdb_tr_next(struct rdb_tr *r, uint32_t *type, const void **p, size_t *len);
/* The replay reader: the syscalls, sysdata and nondet streams merged back
 * into program order (each TRAP, its DATA; NONDET by 'after'), each record
 * passed to emit; stops when emit returns nonzero, and returns that. */
int rdb_tr_merge(struct rdb_tr *sc, struct rdb_tr *sd, struct rdb_tr *nd,
                 int (*emit)(void *ctx, uint32_t type, const void *p, size_t n), void *ctx);
/* Where the last record came from, for messages: "file: offset N". */
const char *rdb_tr_where(struct rdb_tr *r);
void rdb_tr_stats(struct rdb_tr *r, uint64_t *frames, uint64_t *raw, uint64_t *file);
void rdb_tr_close(struct rdb_tr *r);
extern const char *const rdb_stream_names[RDB_TF_NSTREAMS];

/* ---- elf.c ------------------------------------------------------------ */
/* The NT_GNU_BUILD_ID descriptor of an ELF file: its length, 0 if none,
 * -1 if the file cannot be read as ELF (message in err). */
long rdb_elf_buildid(const char *path, uint8_t *out, size_t cap, char *err, size_t errcap);

/* ---- run.c ------------------------------------------------------------ */
int rdb_cmd_record(int argc, char **argv);
int rdb_cmd_replay(int argc, char **argv);

/* ---- show.c ----------------------------------------------------------- */
int rdb_cmd_info(int argc, char **argv);
int rdb_cmd_truss(int argc, char **argv);

#endif
