/*
 * fuzz_trace.c: libFuzzer harness for rdb's trace reader: each input is a
 * trace set, read as `rdb info`, `rdb truss` (whole and interval 2),
 * replay (rdb_feed: from interval 1, and from 2 to 3 through the ivindex)
 * and `rdb flowback --no-replay` (the written stream) read it.  Every malformed input must end in rdb_fatal with a message
 * naming a file of the set; a crash, sanitizer report, leak (memory or
 * file descriptor), hang or an allocation out of proportion to the input
 * (more than zstd's best ratio, 1 MiB per 32 bytes) is a bug.
 *
 * Input framing: a line "@@rdb:NAME\n" starts file NAME of the set (header,
 * exit, ivindex, a stream name); its bytes run to the next such
 * line.  A stream without a section gets a valid empty stream file, so
 * mutations reach the frames; without an ivindex section there is no
 * ivindex file.  The corpus (tests/fuzz/corpus-trace/) is made by one
 * command, to rerun whenever RDB_TF_VERSION changes (ctest's
 * fuzz_trace_corpus fails "corpus stale" until then):
 *   tests/fuzz/make-trace-corpus.sh BUILD [SECONDS]
 * which records test programs with BUILD's rdb and rdb-cc, frames each
 * trace set T as
 *   for f in $(fuzz_trace_replay --files); do
 *     printf '@@rdb:%s\n' $f; cat T/$f; done > seed
 * (the files: header, exit, ivindex, then trace_format.h's streams)
 * adds damaged variants, and with SECONDS fuzzes that long with this
 * harness and merges what it found.
 *
 * This file has its own rdb_fatal (longjmp back here) and allocator,
 * replacing rdb/main.c's.  The allocator tracks every block: after a
 * fatal error the blocks and files the readers abandoned are freed and
 * closed silently (rdb exits then); after a reader returned normally any
 * block still allocated or file of the set still open is a leak, reported
 * and abort()ed on.  Build by hand:
 *   clang -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
 *     -fno-sanitize-recover=undefined \
 *     -Irdb -Iruntime -Isyscallgen -I$B/syscallgen tests/fuzz/fuzz_trace.c \
 *     rdb/strings.c rdb/trace.c rdb/feed.c rdb/show.c rdb/writes.c \
 *     $B/syscallgen/rdb_syscalls_gen.c -lzstd \
 *     -o fuzz_trace
 * With -DFUZZ_TRACE_REPLAY it has its own main instead, which replays files
 * and folders given as arguments: the regression test over
 * tests/fuzz/corpus-trace/ that ctest runs without libFuzzer, built with
 * ASan and UBSan (rdb/CMakeLists.txt), with --min-past 50, and over
 * tests/fuzz/regress-trace/ with --regress --min-past 100; with --files it
 * prints the names of the files of the framing, for make-trace-corpus.sh.
 */
#include "rdb.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MARK "@@rdb:"

/* ---- rdb's helpers, caught: fatal errors jump back, blocks are tracked -- */

static jmp_buf *catcher;
static size_t alloc_max; /* for the current input */
static char dir[64];
static char realdir[PATH_MAX]; /* dir without symbolic links, as /proc shows it */
static unsigned long nfatal;
static unsigned long npast; /* inputs whose header rdb_read_header took */
static unsigned long ncurrent; /* inputs of the current version (current_version) */

_Noreturn void rdb_fatal(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fflush(stdout);
	/* a clear error names the file of the set it concerns */
	if (!strstr(msg, dir) || strstr(msg, "out of memory")) {
		fprintf(stderr, "fuzz_trace: unclear error: %s\n", msg);
		abort();
	}
	if (getenv("FUZZ_TRACE_VERBOSE"))
		fprintf(stderr, "rdb: %s\n", msg);
	nfatal++;
	if (!catcher)
		abort();
	longjmp(*catcher, 1);
}

/* No terminal here: no progress lines. */
void rdb_progress(const char *fmt, ...) { (void)fmt; }
void rdb_progress_end(void) {}

void rdb_warn(const char *fmt, ...)
{
	(void)fmt;
}

struct blk {
	struct blk *prev, *next;
	size_t n;
	max_align_t data[];
};
static struct blk live = {&live, &live, 0};

void *rdb_xmalloc(size_t n)
{
	if (n > alloc_max) {
		fprintf(stderr, "fuzz_trace: allocation of %zu bytes\n", n);
		abort();
	}
	struct blk *b = malloc(sizeof *b + n);
	if (!b)
		abort();
	b->n = n;
	b->prev = &live;
	b->next = live.next;
	live.next->prev = b;
	live.next = b;
	return b->data;
}

void rdb_free(void *p)
{
	if (!p)
		return;
	struct blk *b = (struct blk *)((char *)p - offsetof(struct blk, data));
	b->prev->next = b->next;
	b->next->prev = b->prev;
	free(b);
}

void *rdb_xrealloc(void *p, size_t n)
{
	void *q = rdb_xmalloc(n);
	if (p) {
		struct blk *b = (struct blk *)((char *)p - offsetof(struct blk, data));
		memcpy(q, p, b->n < n ? b->n : n);
		rdb_free(p);
	}
	return q;
}

/* The blocks still live: after a fatal error the readers abandoned them
 * (rdb exits then), so they are freed silently; after a reader returned
 * normally every one is a leak. */
static size_t live_blocks(size_t *bytes)
{
	size_t n = 0;
	*bytes = 0;
	for (struct blk *b = live.next; b != &live; b = b->next)
		n++, *bytes += b->n;
	return n;
}

static void free_all(void)
{
	while (live.next != &live)
		rdb_free(live.next->data);
}

/* ---- the trace set of one input --------------------------------------- */

static const char *const extra[] = {"header", "exit", "ivindex"};
#define NEXTRA 3
#define NFILES (NEXTRA + RDB_TF_NSTREAMS)

static const char *file_name(int i)
{
	return i < NEXTRA ? extra[i] : rdb_stream_names[i - NEXTRA];
}

static void cleanup(void)
{
	for (int i = 0; i < NFILES; i++) {
		char p[128];
		snprintf(p, sizeof p, "%s/%s", dir, file_name(i));
		unlink(p);
	}
	rmdir(dir);
}

static void setup(void)
{
	if (dir[0])
		return;
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/fuzztraceXXXXXX", t && strlen(t) < 40 ? t : "/tmp");
	if (!mkdtemp(dir)) {
		perror("fuzz_trace: mkdtemp");
		abort();
	}
	if (!realpath(dir, realdir)) {
		perror("fuzz_trace: realpath");
		abort();
	}
	atexit(cleanup);
	/* info and truss print; the output is not what is tested */
	if (!getenv("FUZZ_TRACE_VERBOSE") && !freopen("/dev/null", "w", stdout))
		abort();
}

static void put(const char *name, const void *p, size_t n)
{
	char path[128];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || (n && write(fd, p, n) != (ssize_t)n)) {
		perror(path);
		abort();
	}
	close(fd);
}

/* The first section of each file of the set in the input: its bytes
 * (body 0: no section). */
struct section {
	const uint8_t *body;
	size_t len;
};

static void sections(const uint8_t *data, size_t size, struct section sec[NFILES])
{
	memset(sec, 0, NFILES * sizeof *sec);
	const uint8_t *end = data + size, *m = memmem(data, size, MARK, strlen(MARK));
	while (m) {
		const uint8_t *name = m + strlen(MARK);
		const uint8_t *nl = memchr(name, '\n', (size_t)(end - name));
		if (!nl)
			break;
		const uint8_t *body = nl + 1;
		m = memmem(body, (size_t)(end - body), MARK, strlen(MARK));
		size_t len = (size_t)((m ? m : end) - body);
		for (int i = 0; i < NFILES; i++)
			if (!sec[i].body && strlen(file_name(i)) == (size_t)(nl - name) &&
			    !memcmp(name, file_name(i), (size_t)(nl - name))) {
				sec[i].body = body;
				sec[i].len = len;
			}
	}
}

/* Whether the input carries the format version the readers read: a
 * header section that starts with the magic record of RDB_TF_VERSION,
 * and no stream section with the stream magic and another version.  A
 * regression input that does not stops at the version check, short of
 * the path it once broke (fuzz_trace_regress). */
static int current_version(const struct section sec[NFILES])
{
	struct rdb_tf_rec r;
	struct rdb_tf_hmagic m;
	if (!sec[0].body || sec[0].len < sizeof r + sizeof m)
		return 0;
	memcpy(&r, sec[0].body, sizeof r);
	memcpy(&m, sec[0].body + sizeof r, sizeof m);
	if (r.type != RDB_TF_H_MAGIC || memcmp(m.magic, RDB_TF_MAGIC, 8) ||
	    m.version != RDB_TF_VERSION)
		return 0;
	for (int i = NEXTRA; i < NFILES; i++) {
		struct rdb_tf_shdr h;
		if (!sec[i].body || sec[i].len < sizeof h)
			continue;
		memcpy(&h, sec[i].body, sizeof h);
		if (!memcmp(h.magic, RDB_TF_SMAGIC, 8) && h.version != RDB_TF_VERSION)
			return 0;
	}
	return 1;
}

static void write_set(const struct section sec[NFILES])
{
	cleanup();
	if (mkdir(dir, 0700)) {
		perror(dir);
		abort();
	}
	for (int i = 0; i < NFILES; i++)
		if (sec[i].body)
			put(file_name(i), sec[i].body, sec[i].len);
	for (int i = NEXTRA; i < NFILES; i++)
		if (!sec[i].body) {
			struct rdb_tf_shdr h = {RDB_TF_SMAGIC, RDB_TF_VERSION,
			                        (uint32_t)(i - NEXTRA)};
			put(file_name(i), &h, sizeof h);
		}
}

/* ---- the readers ------------------------------------------------------ */

struct sink {
	uint64_t n, bytes, sum;
};

static int emit(void *ctx, uint32_t type, const void *p, size_t n)
{
	struct sink *s = ctx;
	s->n++;
	s->bytes += n;
	const uint8_t *c = p;
	s->sum += type + (n ? c[0] + c[n - 1] : 0); /* touch both ends */
	return 0;
}

/* What `rdb replay --from K --to L` reads and sends after HELLO. */
static void replay_reader(uint64_t from, uint64_t to)
{
	struct rdb_header h;
	rdb_read_header(dir, &h);
	struct rdb_feed *f = rdb_feed_open(dir, &h.exit, from, to);
	struct sink s = {0, 0, 0};
	rdb_feed_run(f, emit, &s);
	rdb_feed_close(f);
	rdb_header_free(&h);
}

/* What `rdb flowback --no-replay` reads: the written stream, from the end
 * down to interval 1 (no range matches an empty query). */
static void flowback_reader(void)
{
	struct rdb_ivx *x = rdb_ivx_read(dir);
	uint64_t unknown, known, last = rdb_ivx_last(x, RDB_TF_S_WRITTEN);
	if (last)
		rdb_writes_last(dir, x, last + 1, 1, 1, &unknown, &known);
	rdb_ivx_free(x);
}

/* The readers keep their files open; rdb_fatal leaves them so.  Closes
 * them; how many there were. */
static int close_set_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char link[300], target[PATH_MAX];
	size_t n0 = strlen(realdir);
	int k = 0;
	while (d && (e = readdir(d))) {
		snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
		ssize_t n = readlink(link, target, sizeof target - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		if (!strncmp(target, realdir, n0) && target[n0] == '/')
			close(atoi(e->d_name)), k++;
	}
	if (d)
		closedir(d);
	return k;
}

/* Whether the header of the current input passed rdb_read_header (its
 * version check above all): the share of such inputs says whether the
 * corpus is of the format the readers read. */
static int past_header;

static void header_reader(void)
{
	struct rdb_header h;
	rdb_read_header(dir, &h);
	past_header = 1;
	rdb_header_free(&h);
}

static const char *const step_names[] = {"rdb_read_header", "rdb info", "rdb truss",
                                         "rdb truss DIR 2", "replay from 1",
                                         "replay --from 2 --to 3", "flowback's written"};
#define NSTEPS (int)(sizeof step_names / sizeof *step_names)

static void run(int which)
{
	jmp_buf jb;
	volatile int fatal = 1;
	catcher = &jb;
	if (!setjmp(jb)) {
		char *argv[] = {which == 1 ? "info" : "truss", dir, "2", NULL};
		if (which == 0)
			header_reader();
		else if (which == 1)
			rdb_cmd_info(2, argv);
		else if (which == 2)
			rdb_cmd_truss(2, argv);
		else if (which == 3)
			rdb_cmd_truss(3, argv);
		else if (which == 4)
			replay_reader(1, 0);
		else if (which == 5)
			replay_reader(2, 3);
		else
			flowback_reader();
		fatal = 0;
	}
	catcher = NULL;
	size_t bytes, blocks = live_blocks(&bytes);
	int fds = close_set_fds();
	if (!fatal && (blocks || fds)) {
		fprintf(stderr, "fuzz_trace: leak: %zu block(s) of %zu bytes and %d file(s) of the "
		        "trace set still open after %s returned\n", blocks, bytes, fds,
		        step_names[which]);
		abort();
	}
	free_all();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct section sec[NFILES];
	setup();
	alloc_max = (1u << 20) + (size / 32 + 1) * (1u << 20);
	sections(data, size, sec);
	write_set(sec);
	ncurrent += current_version(sec);
	past_header = 0;
	for (int which = 0; which < NSTEPS; which++)
		run(which);
	npast += past_header;
	return 0;
}

#ifdef FUZZ_TRACE_REPLAY
#include "replay.h"

static void summary(int n, long pct, int bad)
{
	(void)pct;
	fprintf(stderr, "fuzz_trace: replayed %d file(s), %lu fatal error(s) caught, %lu "
	        "input(s) (%ld%%) past the header, %lu (%ld%%) of format %d%s\n", n, nfatal, npast,
	        n ? (long)(npast * 100 / (unsigned long)n) : 0, ncurrent,
	        n ? (long)(ncurrent * 100 / (unsigned long)n) : 0, RDB_TF_VERSION,
	        bad ? ", with errors" : "");
}

/* fuzz_trace_replay [--regress] [--min-past PCT] PATH...: past means past
 * rdb_read_header, whose version check a corpus of another format stops
 * at; with --regress (the regression inputs, some of which break the
 * header on purpose), of the current version in every section
 * (current_version). */
int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--files")) {
		for (int i = 0; i < NFILES; i++)
			printf("%s%s", i ? " " : "", file_name(i));
		printf("\n");
		return 0;
	}
	int regress = argc > 1 && !strcmp(argv[1], "--regress");
	char check[80];
	snprintf(check, sizeof check,
	         regress ? "the version checks of trace format %d" :
	                   "the header check of trace format version %d",
	         RDB_TF_VERSION);
	return fuzz_replay_past("fuzz_trace", argc, argv, regress ? &ncurrent : &npast, summary,
	                        check);
}
#endif
