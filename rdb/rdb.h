/* rdb.h: the rdb tool's private header, one section per file.  The trace
 * format itself is runtime/trace_format.h, shared with the runtime. */
#ifndef RDB_TOOL_H
#define RDB_TOOL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace_format.h"

/* ---- util (main.c; tests/fuzz/fuzz_trace.c has its own) ----------------- */
_Noreturn void rdb_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rdb_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A progress line on stderr when it is a terminal (rate-limited). */
void rdb_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void rdb_progress_end(void);
extern int rdb_no_progress; /* gdb has the terminal */
extern uint64_t rdb_started_ns; /* when rdb started (CLOCK_MONOTONIC): replay --timing */
/* fn(ctx), where rdb_fatal comes back here instead of exiting (for one
 * damaged process of a listing): 0, or 1 and its message in msg.  What
 * fn allocated before is not freed. */
int rdb_try(void (*fn)(void *ctx), void *ctx, char *msg, size_t cap);
void *rdb_xmalloc(size_t n);
void *rdb_xrealloc(void *p, size_t n);
void rdb_free(void *p); /* what rdb_x* and rdb_path return */
/* strings.c (shared by both) */
char *rdb_xstrdup(const char *s);
char *rdb_path(const char *dir, const char *name); /* dir/name, malloc'd */

/* ---- trace.c: writing and reading a trace set ------------------------- */
struct rdb_tw; /* a trace set being written */
struct rdb_tw *rdb_tw_open(const char *dir);
void rdb_tw_header(struct rdb_tw *w, uint32_t type, const void *p, size_t n);
void rdb_tw_add(struct rdb_tw *w, int stream, uint32_t type, const void *p, size_t n,
                const void *q, size_t m);
void rdb_tw_flush(struct rdb_tw *w); /* every stream's pending records as frames */
/* Interval `interval` begins in `stream`: its pending records become a
 * frame, and the ivindex file gets the entry of the next one. */
void rdb_tw_mark(struct rdb_tw *w, int stream, uint64_t interval);
void rdb_tw_exit(struct rdb_tw *w, const struct rdb_tf_exit *x);
void rdb_tw_close(struct rdb_tw *w);
/* The bytes all trace sets this rdb writes hold so far (frames flushed). */
uint64_t rdb_tw_written(void);

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
	char *execfn; /* H_EXECFN: the path the exec was given, or NULL (exe) */
	char *image;  /* the file holding the executable: exe or the set's copy
	                 (rdb_replay_check_buildid), or NULL before */
	struct rdb_tf_hstart start;
	uint64_t rlimit_stack[2];
	int have_rlimit;
	uint32_t record_flags; /* the HELLO flags of rdb record (H_FLAGS), or 0 */
	struct rdb_tf_hproc proc; /* H_PROC: the process in a recorded tree */
	int have_proc;
	struct rdb_tf_exit exit;
	int have_exit; /* the exit file exists */
};
void rdb_read_header(const char *dir, struct rdb_header *h);
void rdb_header_free(struct rdb_header *h); /* what rdb_read_header allocated */

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
const char *rdb_tr_path(const struct rdb_tr *r);
/* The number of the record rdb_tr_next returns next (0: the stream's first). */
uint64_t rdb_tr_rec(const struct rdb_tr *r);
/* Reads on from the frame at offset, whose first record is number first:
 * NULL, or what is wrong (the offset is outside the file, no frame header
 * there, another first record). offset may be the file's end. */
const char *rdb_tr_seek(struct rdb_tr *r, uint64_t offset, uint64_t first);
/* From a frame's start (none of it read), on to the stream's last frame,
 * reading frame headers only (no frame is decompressed): 1 if r moved. */
int rdb_tr_last_frame(struct rdb_tr *r);
void rdb_tr_stats(struct rdb_tr *r, uint64_t *frames, uint64_t *raw, uint64_t *file);
void rdb_tr_close(struct rdb_tr *r);
extern const char *const rdb_stream_names[RDB_TF_NSTREAMS];

/* The ivindex file: where each interval's records begin in each stream. */
struct rdb_ivx;
struct rdb_ivx *rdb_ivx_read(const char *dir); /* no file: no entries */
uint64_t rdb_ivx_last(const struct rdb_ivx *x, int stream); /* 0: no entry */
/* The greatest interval <= interval with an entry for stream, or 0. */
uint64_t rdb_ivx_at_or_before(const struct rdb_ivx *x, int stream, uint64_t interval);
const char *rdb_ivx_path(const struct rdb_ivx *x);
/* Adds to bytes[k - 1] the stream file's bytes that hold interval k's
 * records (k = 1..n; flen: the file's size), for rdb timeline. */
void rdb_ivx_bytes(const struct rdb_ivx *x, int stream, uint64_t flen, uint64_t n,
                   uint64_t *bytes);
/* Positions r at interval's first frame in its stream: 1, or 0 if the
 * ivindex has no entry for it (a bad entry is fatal). */
int rdb_tr_seek_interval(struct rdb_tr *r, const struct rdb_ivx *x, uint64_t interval);
void rdb_ivx_free(struct rdb_ivx *x);

/* A record type, as trace_format.h's RDB_TF_RECORDS has it. */
struct rdb_rec_type {
	const char *name;  /* "TRAP", ... */
	size_t size;       /* of the payload's struct */
	int stream, copy;  /* enum rdb_tf_stream, or RDB_TF_S_NONE */
	int len;           /* RDB_TF_LEN_*: what rdb_rec_ok checks */
};
/* The type's row, or NULL: no such type. */
const struct rdb_rec_type *rdb_rec_type(uint32_t type);
/* Whether records of the type go in stream (a copy too). */
int rdb_rec_in(uint32_t type, int stream);
/* Whether the payload size fits the record type, as its len column says
 * (any size for types it does not know). */
int rdb_rec_ok(uint32_t type, const void *p, size_t n);
/* The interval field of those records (their first): p holds 8 bytes. */
uint64_t rdb_rec_interval(const void *p);

/* ---- births.c: threads named by slot and birth ---------------------------- */
struct rdb_births;
struct rdb_births *rdb_births_read(const char *dir);
void rdb_births_free(struct rdb_births *s);
int rdb_births_any(const struct rdb_births *s); /* the run made threads */
/* The birth (its clone's syscall number; 0: the main thread) of the
 * thread in slot `slot` in interval `interval` after sc_id syscalls:
 * the latest made there by then. */
uint64_t rdb_born_at(const struct rdb_births *s, uint32_t slot, uint64_t interval, uint64_t sc_id);

/* ---- feed.c: what replay sends after HELLO ----------------------------- */
struct rdb_feed;
/* Checks from (>= 1, at most the last complete interval) and to (0: none,
 * else >= from) against the trace set: fatal with a message naming dir. */
struct rdb_feed *rdb_feed_open(const char *dir, const struct rdb_tf_exit *x, uint64_t from,
                               uint64_t to);
enum rdb_feed_end {
	RDB_FEED_END = 1, /* the whole trace, then END */
	RDB_FEED_STOP,    /* STOP after interval `to` */
	RDB_FEED_CUT,     /* an interval's values or context are missing: END (cut) there */
	RDB_FEED_DEAD,    /* emit returned nonzero: the channel is gone */
};
/* The last interval a replay can start at: rdb record writes each
 * interval's values whole and in interval order, so it is the last one in
 * the values stream if its VALUES_END is there, else the one before. */
uint64_t rdb_feed_last_complete(const char *dir, const struct rdb_ivx *x);
/* Passes each record for the runtime to emit, in channel order. */
int rdb_feed_run(struct rdb_feed *f, int (*emit)(void *ctx, uint32_t type, const void *p,
                                                 size_t n), void *ctx);
void rdb_feed_close(struct rdb_feed *f);
uint32_t rdb_boundary_holder(struct rdb_tr *r, uint64_t k);

/* ---- elf.c ------------------------------------------------------------ */
/* The NT_GNU_BUILD_ID descriptor of an ELF file: its length, 0 if none,
 * -1 if the file cannot be read as ELF (message in err). */
long rdb_elf_buildid(const char *path, uint8_t *out, size_t cap, char *err, size_t errcap);
/* Whether path is an ELF file built with rdb-cc (an .rdb_iot section). */
int rdb_elf_is_rdb(const char *path);

/* ---- hwbp.c ----------------------------------------------------------- */
/* Whether a write breakpoint the kernel grants also fires (some virtual
 * machines never trigger one): asked once. */
int rdb_hw_watch_works(void);

/* ---- run.c: what record.c and replay.c share ------------------------- */
/* The real path of the executable named prog (no '/') in PATH, or NULL. */
char *rdb_run_in_path(const char *prog);
/* In the child: ASLR off, the channel at RDB_CHAN_FD (and, recording, the
 * values socket at RDB_VALUES_FD), exec. */
_Noreturn void rdb_run_start_child(int chan, int values, const char *exe, char **argv,
                                   char **envp, const uint64_t *rlim);
/* "--name V" or "--name=V" (also a short alias "-x V"): 1 and *val, or 0. */
int rdb_run_opt_arg(int argc, char **argv, int *i, const char *name, const char *alias,
                    const char **val);
/* --gdb and --gdb-batch FILE, of record and replay: 1 when argv[*i] is one. */
int rdb_run_gdb_opt(int argc, char **argv, int *i, int *gdb, const char **script);
/* All n bytes written or read: 0, or -1 at an error or the end of the stream. */
int rdb_run_send_all(int fd, const void *p, size_t n);
int rdb_run_read_all(int fd, void *p, size_t n);
/* rdb ends as PROG ended: its status, or its fatal signal re-raised. */
int rdb_run_end_like(int how, int value);

/* ---- record.c --------------------------------------------------------- */
int rdb_cmd_record(int argc, char **argv);

/* ---- tree.c: the processes of a recorded tree --------------------------- */
/* rdb record's socket for processes that join (runtime/join.c): its fd
 * (listening, non-blocking), its abstract name (no leading NUL) in name. */
int rdb_tree_listen(char *name, size_t cap);
/* The header of a joined process (from /proc/PID): 0 (*ppid its parent's
 * pid), or -1 if it is gone. */
int rdb_tree_header(struct rdb_tw *w, pid_t pid, uint32_t flags, pid_t *ppid);
/* Its argv[0] (from /proc/PID/cmdline), malloc'd, or NULL if it is gone. */
char *rdb_tree_argv0(pid_t pid);
/* A new folder set/proc/ID for pid (ID: "PID", else "PID.N"; never
 * "PID" for top, the pid of the set's own process). */
char *rdb_tree_new_dir(const char *set, pid_t pid, pid_t top);
/* Removes set/proc (an old recording's processes), if there. */
void rdb_tree_clear(const char *set);
/* The folder of process id (rdb ps's ID column) in set; fatal if none. */
char *rdb_tree_find(const char *set, const char *id);
/* fn(ctx, folder, id) for each process of set/proc (in no order; none
 * when set has no proc folder); fatal if set/proc cannot be read. */
void rdb_tree_each(const char *set, void (*fn)(void *ctx, const char *dir, const char *id),
                   void *ctx);
/* <0, 0, >0 as process a started before, with, after b: rdb ps's order. */
/* treeid.c: ID is PID or PID.N */
int rdb_tree_is_id(const char *id);
/* The process image that process folder DIR (of pid PID, its header's)
 * exec'd, as recorded in its set (ID "PID.N+1"), with *set_out the set's
 * folder (both malloc'd), or NULL: none is in the set (it ran untraced). */
char *rdb_tree_next_image(const char *dir, int pid, char **set_out);
int rdb_tree_start_cmp(const struct rdb_tf_hstart *a, const struct rdb_tf_hstart *b);
/* --pid ID of replay, info, truss, flowback: taken out of argv, and the
 * trace set argument replaced by process ID's folder.  The new argc. */
int rdb_tree_pid_opt(int argc, char **argv);

/* ---- check.c: rdb check, every interval replayed on its own ----------- */
int rdb_cmd_check(int argc, char **argv);

/* ---- ps.c ------------------------------------------------------------- */
int rdb_cmd_ps(int argc, char **argv);

/* ---- replay.c --------------------------------------------------------- */
int rdb_cmd_replay(int argc, char **argv);
/* ---- pack.c: portable trace sets ------------------------------------------ */
int rdb_cmd_pack(int argc, char **argv);
/* h->image: the recorded executable's path while it holds the recorded
 * build-id, else the set's copy (rdb pack); fatal, saying why, if neither. */
void rdb_replay_check_buildid(const char *dir, struct rdb_header *h);
/* In a replay's child, when h->image is the set's copy: a mount namespace
 * where the path the process was exec'd by is that copy; the string to
 * exec (the copy's own path, said, if that cannot be). */
const char *rdb_pack_exec_path(const struct rdb_header *h);
struct rdb_replay_opts {
	const char *dir;
	uint64_t from, to; /* as rdb replay's --from (>= 1) and --to (0: none) */
	uint32_t flags;    /* RDB_TF_HELLO_QUIET, _VERIFY */
	const struct rdb_tf_watch *watch; /* rdb flowback: NULL, or the watched bytes */
	int gdb;            /* --gdb: start gdb on the replay */
	const char *gdb_script; /* --gdb-batch FILE: gdb runs FILE, in batch mode */
	const char *gdbserver; /* --gdbserver [HOST:]PORT: rdb serves gdb there */
	int check;          /* rdb check: status 0 when it ended as recorded, no notes */
};
/* Runs a replay; rdb's exit status.  With o->watch, the runtime's reports
 * (at most cap, the last one of kind END) go to hits, their number to
 * *nhits. */
int rdb_replay(const struct rdb_replay_opts *o, struct rdb_tf_watch_hit *hits, size_t cap,
               size_t *nhits);
/* The program of a replay, started for rdb's gdb server: traced, stopped
 * at its exec; *chan: rdb's end of its channel, for rdb_replay_feeder.
 * o->dir's header is h (its exit filled in for a trace cut short). */
pid_t rdb_replay_spawn(const struct rdb_replay_opts *o, const struct rdb_header *h, int *chan);
/* A fork child's recording starts at interval 2: o->from moved there. */
void rdb_replay_fork_child_from(const struct rdb_header *h, struct rdb_replay_opts *o);
/* A process that feeds replay o on chan, its first skip bytes left out
 * (a copy of a replay that had read them): its pid. */
pid_t rdb_replay_feeder(const struct rdb_replay_opts *o, const struct rdb_header *h, int chan,
                        uint64_t skip);

/* ---- show.c ----------------------------------------------------------- */
int rdb_cmd_info(int argc, char **argv);
int rdb_cmd_truss(int argc, char **argv);
/* One syscall, as truss prints it ("#id name(args) = ret ...\n"). */
void rdb_show_trap(FILE *f, const struct rdb_tf_trap *t);
/* One record of the syscalls stream as truss prints it (nothing for the
 * types truss leaves out: EXEC, VALUES, ...); sc names the place of a bad one. */
void rdb_show_record(FILE *f, struct rdb_tr *sc, uint32_t type, const void *p, size_t n);

/* ---- ranfn.c: a breakpoint's function, for RAN records -------------- */
#define RDB_FNSET_MAX 8
struct rdb_fnset {
	uint64_t lo[RDB_FNSET_MAX], hi[RDB_FNSET_MAX]; /* run-time addresses */
	int n;
};
/* The code of the function holding pc (its symbol and its NAME.cold
 * parts) in h's executable (h->image): 1, or 0 (f->n 0) when it has no
 * symbol or altr did not mark its entry (RAN records cannot tell
 * whether it ran). */
int rdb_fn_of(const struct rdb_header *h, uint64_t pc, struct rdb_fnset *f);
/* Whether [lo, hi) meets f's code. */
int rdb_fn_holds(const struct rdb_fnset *f, uint64_t lo, uint64_t hi);

/* ---- ranlive.c: whether a breakpoint's function may have run --------- */
struct rdb_ranq { /* the trace's streams it reads, and the index */
	struct rdb_ivx *x;
	struct rdb_tr *w, *c, *s, *sc; /* written, context, stack, syscalls */
};
/* Whether code of one of the nf sets f may have run in interval j: it
 * was entered or returned to from a syscall or handler there (RAN), the
 * interval began in it, or it had a frame live at the start (a word of
 * the saved stack points into it): 1; 0 when provably not; -1 when the
 * trace cannot tell (records missing, other threads parked). */
int rdb_fn_may_run(struct rdb_ranq *q, uint64_t j, const struct rdb_fnset *f, int nf);

/* ---- tlpage.c -------------------------------------------------------- */
int rdb_cmd_timeline(int argc, char **argv);

/* ---- writes.c: flowback's step 1 ---------------------------------------- */
/* The last interval before `at` whose written ranges touch [lo, hi), or 0;
 * *unknown: the last interval after it without WRITTEN records (it may
 * have written them too), or 0; *known: intervals with records seen. */
uint64_t rdb_writes_last(const char *dir, const struct rdb_ivx *x, uint64_t at, uint64_t lo,
                         uint64_t hi, uint64_t *unknown, uint64_t *known);
/* Whether interval j's WRITTEN records (r: the written stream) touch
 * [lo, hi): 1 or 0, -1 when it has none. */
/* The same for the main stack's written pages (STACK_WRITTEN). */
int rdb_stack_written_in(struct rdb_tr *r, const struct rdb_ivx *x, uint64_t j, uint64_t lo,
                         uint64_t hi);
int rdb_written_in(struct rdb_tr *r, const struct rdb_ivx *x, uint64_t j, uint64_t lo,
                   uint64_t hi);
/* The same for the code it ran (RAN: function entries and return points,
 * each a range of length 1). */
int rdb_ran_in(struct rdb_tr *r, const struct rdb_ivx *x, uint64_t j, uint64_t lo,
               uint64_t hi);
/* Whether interval j read bytes of [lo, hi) (its VALUES records; r: the
 * values stream): 1 or 0, -1 when they are not all there. */
int rdb_values_in(struct rdb_tr *r, const struct rdb_ivx *x, uint64_t j, uint64_t lo,
                  uint64_t hi);

/* ---- flowback.c ------------------------------------------------------- */
int rdb_cmd_flowback(int argc, char **argv);
/* Whether a write the replay reports came before the question's point. */
typedef int (*rdb_flowback_before)(void *ctx, const struct rdb_tf_watch_hit *h);
/* rdb flowback from a point in interval `interval` (here: how to name it):
 * the writes of that interval the replay reports that `before` says came
 * before it, else the last write before the interval (on stdout; bad
 * input is fatal).  rdb's exit status. */
int rdb_flowback_here(const char *dir, const char *what, uint64_t size, uint64_t interval,
                      const char *here, rdb_flowback_before before, void *ctx);

/* ---- gdb.c ------------------------------------------------------------ */
/* rdb replay --gdb, --gdb-batch, --gdbserver, and rdb record --gdb after
 * the recording: rdb is gdb's target (the gdb server, gdbserver.c);
 * the replay's exit status. */
int rdb_gdb_serve(const struct rdb_replay_opts *o);
/* gdb and script (NULL: none) are there: fatal if not (before a
 * recording starts, too). */
void rdb_gdb_server_check(const char *script);

#endif
