/* trace.c: writing and reading a trace set (runtime/trace_format.h).
 * Writer: records accumulate per stream and go out as whole frames, each
 * one write(2) of a frame header and a zstd frame; an interval's records
 * start a new frame, and its ivindex entry is written after the frames
 * before it: a recording killed at any point leaves complete frames and
 * entries behind.  A stream's first frame (its base) is compressed alone;
 * when it is small, every later frame is compressed with the base's
 * records as a zstd dictionary: the frames of one stream repeat each other
 * (each interval's context, stack, maps), and a frame per interval would
 * otherwise pay for that repetition every time.
 * Reader: frames are read with pread(2) as they are needed, so a reader
 * that starts at an interval (ivindex) costs the same wherever it starts.
 * Every size and offset is checked against the file; bad input stops with
 * the file name and offset, never a crash. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_decompressBound (zstd >= 1.4) */
#include <zstd.h>

#include "rdb.h"

#define STREAM_NAME(name, file) file,
const char *const rdb_stream_names[RDB_TF_NSTREAMS] = {RDB_TF_STREAMS(STREAM_NAME)};
#undef STREAM_NAME

#define FRAME_TARGET (1u << 20) /* raw bytes per frame, usually */
#define ZLEVEL 3
/* Frames above BIG_FRAME (sysdata of busy programs) at level 1, without
 * the dictionary: the recording's end waits for its last interval's
 * frames to be compressed.  Level 1 compresses them much faster and
 * nearly as small (docs/perf.md).  Big values frames: below. */
#define BIG_FRAME (128u << 10)
#define ZLEVEL_BIG 1
/* Big values frames at level 3 (as fast as level 1 on them, 4% smaller),
 * their VALUES payloads as lanes when a sample of the frame says that is
 * smaller (trace_format.h).  Frames of 4 MiB were smaller still when one
 * way suited the whole frame, and larger when it held an index array and
 * text (docs/perf.md). */
#define ZLEVEL_VALUES 3
#define LANES_SAMPLE (256u << 10)

/* Bytes every writer of this rdb wrote (rdb record --max-size). */
static uint64_t written_total;

uint64_t rdb_tw_written(void)
{
	return written_total;
}

static void write_all(int fd, const void *p, size_t n, const char *path)
{
	written_total += n;
	const char *c = p;
	while (n) {
		ssize_t r = write(fd, c, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			rdb_fatal("%s: write: %s", path, strerror(errno));
		c += r;
		n -= (size_t)r;
	}
}

/* ---- writer ----------------------------------------------------------- */

struct wstream {
	int fd;
	char *path;
	char *buf;
	size_t n, cap;
	uint64_t off;     /* file size */
	uint64_t nrec;    /* records written or pending */
	uint64_t first;   /* index of the pending frame's first record */
	uint64_t first_id;
	uint32_t frame_nrec;
	ZSTD_CDict *dict; /* the base frame's records, once it is written */
	ZSTD_CCtx *cctx;
};

struct rdb_tw {
	char *dir;
	int hfd, vfd;
	char *hpath, *vpath; /* header, ivindex */
	struct wstream s[RDB_TF_NSTREAMS];
};

static int create(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		rdb_fatal("%s: %s", path, strerror(errno));
	return fd;
}

struct rdb_tw *rdb_tw_open(const char *dir)
{
	struct rdb_tw *w = rdb_xmalloc(sizeof *w);
	memset(w, 0, sizeof *w);
	w->dir = rdb_xstrdup(dir);
	w->hpath = rdb_path(dir, "header");
	w->vpath = rdb_path(dir, "ivindex");
	w->hfd = create(w->hpath);
	w->vfd = create(w->vpath);
	struct rdb_tf_hmagic m = {RDB_TF_MAGIC, RDB_TF_VERSION, 0};
	rdb_tw_header(w, RDB_TF_H_MAGIC, &m, sizeof m);
	for (int i = 0; i < RDB_TF_NSTREAMS; i++) {
		struct wstream *s = &w->s[i];
		s->path = rdb_path(dir, rdb_stream_names[i]);
		s->fd = create(s->path);
		struct rdb_tf_shdr h;
		memcpy(h.magic, RDB_TF_SMAGIC, 8);
		h.version = RDB_TF_VERSION;
		h.stream = (uint32_t)i;
		write_all(s->fd, &h, sizeof h, s->path);
		s->off = sizeof h;
	}
	return w;
}

void rdb_tw_header(struct rdb_tw *w, uint32_t type, const void *p, size_t n)
{
	struct rdb_tf_rec h = {type, (uint32_t)n};
	char *b = rdb_xmalloc(sizeof h + n);
	memcpy(b, &h, sizeof h);
	if (n)
		memcpy(b + sizeof h, p, n);
	write_all(w->hfd, b, sizeof h + n, w->hpath);
	rdb_free(b);
}

/* The records buf[0..n) again in dst, each VALUES payload as w lanes. */
static void lanes_split(char *dst, const char *buf, size_t n, unsigned w)
{
	for (size_t p = 0; p < n;) {
		struct rdb_tf_rec h;
		memcpy(&h, buf + p, sizeof h);
		int v = h.type == RDB_TF_VALUES && h.len >= sizeof(struct rdb_tf_blob);
		size_t head = sizeof h + (v ? sizeof(struct rdb_tf_blob) : h.len);
		memcpy(dst + p, buf + p, head);
		if (v)
			rdb_tf_lanes_split(dst + p + head, buf + p + head,
			                   h.len - sizeof(struct rdb_tf_blob), w);
		p += sizeof h + h.len;
	}
}

/* The lanes a values frame compresses best in (0, 4 or 8), by
 * compressing a sample of it each way at level 1: the records that start
 * at four points spread over the frame (VALUES records from the snapshot
 * children are at most RDB_TF_VALUES_MSG, so the sample is about
 * LANES_SAMPLE).  bzip2's index arrays want 4, mesh's doubles 8, text and
 * pointers none. */
static unsigned pick_lanes(struct wstream *s)
{
	size_t stride = s->n / 4, next = stride / 2, m = 0;
	char *sample = rdb_xmalloc(s->n);
	for (size_t p = 0; p < s->n;) {
		struct rdb_tf_rec h;
		memcpy(&h, s->buf + p, sizeof h);
		if (p >= next && m + sizeof h + h.len <= 2 * LANES_SAMPLE) {
			memcpy(sample + m, s->buf + p, sizeof h + h.len);
			m += sizeof h + h.len;
			next += stride;
		}
		p += sizeof h + h.len;
	}
	static const unsigned ways[] = {0, 4, 8};
	unsigned best = 0;
	size_t least = (size_t)-1, bound = ZSTD_compressBound(m);
	char *split = rdb_xmalloc(m ? m : 1), *z = rdb_xmalloc(bound);
	for (size_t i = 0; i < sizeof ways / sizeof ways[0]; i++) {
		if (ways[i])
			lanes_split(split, sample, m, ways[i]);
		size_t c = ZSTD_compressCCtx(s->cctx, z, bound, ways[i] ? split : sample, m, 1);
		if (!ZSTD_isError(c) && c < least)
			least = c, best = ways[i];
	}
	rdb_free(sample);
	rdb_free(split);
	rdb_free(z);
	return best;
}

static void frame(struct rdb_tw *w, int i)
{
	struct wstream *s = &w->s[i];
	if (!s->n)
		return;
	int base = s->off == sizeof(struct rdb_tf_shdr);
	size_t bound = ZSTD_compressBound(s->n);
	char *out = rdb_xmalloc(sizeof(struct rdb_tf_fhdr) + bound);
	char *z = out + sizeof(struct rdb_tf_fhdr);
	size_t c;
	uint64_t id = s->first_id;
	if (!s->cctx && !(s->cctx = ZSTD_createCCtx()))
		rdb_fatal("out of memory (zstd)");
	if (s->n > BIG_FRAME && i == RDB_TF_S_VALUES) {
		unsigned lanes = pick_lanes(s);
		char *split = lanes ? rdb_xmalloc(s->n) : NULL;
		if (lanes)
			lanes_split(split, s->buf, s->n, lanes);
		c = ZSTD_compressCCtx(s->cctx, z, bound, lanes ? split : s->buf, s->n, ZLEVEL_VALUES);
		rdb_free(split);
		id = lanes;
	} else if (s->n > BIG_FRAME) /* decodes the same with the dictionary loaded */
		c = ZSTD_compressCCtx(s->cctx, z, bound, s->buf, s->n, ZLEVEL_BIG);
	else if (s->dict)
		c = ZSTD_compress_usingCDict(s->cctx, z, bound, s->buf, s->n, s->dict);
	else
		c = ZSTD_compressCCtx(s->cctx, z, bound, s->buf, s->n, ZLEVEL);
	if (ZSTD_isError(c))
		rdb_fatal("%s: zstd: %s", s->path, ZSTD_getErrorName(c));
	struct rdb_tf_fhdr fh = {RDB_TF_FMAGIC, (uint32_t)c, (uint32_t)s->n, s->frame_nrec,
	                         s->first, id};
	memcpy(out, &fh, sizeof fh);
	write_all(s->fd, out, sizeof fh + c, s->path);
	rdb_free(out);
	if (base && s->n <= RDB_TF_DICT_MAX &&
	    !(s->dict = ZSTD_createCDict_advanced(s->buf, s->n, ZSTD_dlm_byCopy,
	                                          ZSTD_dct_rawContent,
	                                          ZSTD_getCParams(ZLEVEL, 0, s->n),
	                                          ZSTD_defaultCMem)))
		rdb_fatal("out of memory (zstd)");
	s->off += sizeof fh + c;
	s->first += s->frame_nrec;
	s->frame_nrec = 0;
	s->n = 0;
}

void rdb_tw_add(struct rdb_tw *w, int i, uint32_t type, const void *p, size_t n,
                const void *q, size_t m)
{
	struct wstream *s = &w->s[i];
	size_t all = sizeof(struct rdb_tf_rec) + n + m;
	if (s->n && s->n + all > FRAME_TARGET)
		frame(w, i);
	if (all > RDB_TF_FRAME_MAX)
		rdb_fatal("%s: a %zu-byte record is too large for one frame", s->path, all);
	if (s->n + all > s->cap) {
		s->cap = s->n + all > 2 * s->cap ? s->n + all : 2 * s->cap;
		s->buf = rdb_xrealloc(s->buf, s->cap);
	}
	struct rdb_tf_rec h = {type, (uint32_t)(n + m)};
	memcpy(s->buf + s->n, &h, sizeof h);
	memcpy(s->buf + s->n + sizeof h, p, n);
	if (m)
		memcpy(s->buf + s->n + sizeof h + n, q, m);
	if (!s->frame_nrec) {
		uint64_t id = 0;
		if (n >= 8 && (type == RDB_TF_TRAP || type == RDB_TF_DATA || type == RDB_TF_EXEC))
			memcpy(&id, p, 8);
		s->first_id = id;
	}
	s->n += all;
	s->nrec++;
	s->frame_nrec++;
}

void rdb_tw_mark(struct rdb_tw *w, int stream, uint64_t interval)
{
	frame(w, stream);
	struct wstream *s = &w->s[stream];
	struct rdb_tf_ivindex e = {(uint32_t)stream, 0, interval, s->off, s->first};
	write_all(w->vfd, &e, sizeof e, w->vpath);
}

void rdb_tw_flush(struct rdb_tw *w)
{
	for (int i = 0; i < RDB_TF_NSTREAMS; i++)
		frame(w, i);
}

void rdb_tw_exit(struct rdb_tw *w, const struct rdb_tf_exit *x)
{
	rdb_tw_flush(w);
	char *p = rdb_path(w->dir, "exit");
	int fd = create(p);
	struct rdb_tf_rec h = {RDB_TF_X_EXIT, sizeof *x};
	char b[sizeof h + sizeof *x];
	memcpy(b, &h, sizeof h);
	memcpy(b + sizeof h, x, sizeof *x);
	write_all(fd, b, sizeof b, p);
	close(fd);
	rdb_free(p);
}

void rdb_tw_close(struct rdb_tw *w)
{
	rdb_tw_flush(w);
	for (int i = 0; i < RDB_TF_NSTREAMS; i++) {
		close(w->s[i].fd);
		rdb_free(w->s[i].path);
		rdb_free(w->s[i].buf);
		ZSTD_freeCDict(w->s[i].dict);
		ZSTD_freeCCtx(w->s[i].cctx);
	}
	close(w->hfd);
	close(w->vfd);
	rdb_free(w->hpath);
	rdb_free(w->vpath);
	rdb_free(w->dir);
	rdb_free(w);
}

/* ---- reader ----------------------------------------------------------- */

static char *slurp(const char *path, size_t *len, int must)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (!must && errno == ENOENT)
			return NULL;
		rdb_fatal("%s: %s", path, strerror(errno));
	}
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		rdb_fatal("%s: not a regular file", path);
	size_t n = (size_t)st.st_size, got = 0;
	char *b = rdb_xmalloc(n + 1);
	while (got < n) {
		ssize_t r = read(fd, b + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			rdb_fatal("%s: %s", path, strerror(errno));
		if (r == 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	b[got] = 0;
	*len = got;
	return b;
}

static char *strndup_x(const char *p, size_t n)
{
	char *s = rdb_xmalloc(n + 1);
	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

static void push_str(char ***v, size_t *n, const char *p, size_t len)
{
	*v = rdb_xrealloc(*v, (*n + 2) * sizeof **v);
	(*v)[(*n)++] = strndup_x(p, len);
	(*v)[*n] = NULL;
}

/* A header entry of a fixed size: its n bytes into dst, or a fatal error
 * naming it (what) when it has another size. */
static void fixed_entry(const char *path, size_t o, uint32_t len, const char *p, void *dst,
                        size_t n, const char *what)
{
	if (len != n)
		rdb_fatal("%s: offset %zu: %s of %u bytes", path, o, what, len);
	memcpy(dst, p, n);
}

void rdb_read_header(const char *dir, struct rdb_header *h)
{
	memset(h, 0, sizeof *h);
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		rdb_fatal("%s: not a trace set (a folder written by 'rdb record')", dir);
	char *path = rdb_path(dir, "header");
	size_t n;
	char *b = slurp(path, &n, 1);
	h->argv = rdb_xmalloc(sizeof(char *));
	h->envp = rdb_xmalloc(sizeof(char *));
	h->argv[0] = h->envp[0] = NULL;
	size_t o = 0;
	int first = 1;
	while (o < n) {
		struct rdb_tf_rec r;
		if (n - o < sizeof r)
			rdb_fatal("%s: offset %zu: truncated record header", path, o);
		memcpy(&r, b + o, sizeof r);
		if (r.len > n - o - sizeof r)
			rdb_fatal("%s: offset %zu: record of %u bytes runs past the end of the "
			          "file (%zu bytes)", path, o, r.len, n);
		const char *p = b + o + sizeof r;
		if (first) {
			struct rdb_tf_hmagic m;
			if (r.type != RDB_TF_H_MAGIC || r.len != sizeof m)
				rdb_fatal("%s: offset 0: not an rdb trace header", path);
			memcpy(&m, p, sizeof m);
			if (memcmp(m.magic, RDB_TF_MAGIC, 8))
				rdb_fatal("%s: offset 0: bad magic: not an rdb trace header", path);
			if (m.version != RDB_TF_VERSION)
				rdb_fatal("%s: offset 8: trace format version %u; this rdb reads "
				          "version %d", path, m.version, RDB_TF_VERSION);
			first = 0;
		}
		switch (r.type) {
		case RDB_TF_H_EXE: rdb_free(h->exe); h->exe = strndup_x(p, r.len); break;
		case RDB_TF_H_BUILDID:
			if (r.len > sizeof h->buildid)
				rdb_fatal("%s: offset %zu: build-id of %u bytes", path, o, r.len);
			memcpy(h->buildid, p, r.len);
			h->buildid_len = r.len;
			break;
		case RDB_TF_H_ARG: push_str(&h->argv, &h->argc, p, r.len); break;
		case RDB_TF_H_ENV: push_str(&h->envp, &h->envc, p, r.len); break;
		case RDB_TF_H_AUXV:
			if (r.len % 16)
				rdb_fatal("%s: offset %zu: auxv of %u bytes", path, o, r.len);
			rdb_free(h->auxv);
			h->auxv = rdb_xmalloc(r.len);
			memcpy(h->auxv, p, r.len);
			h->nauxv = r.len / 16;
			break;
		case RDB_TF_H_RANDOM:
			fixed_entry(path, o, r.len, p, h->random, sizeof h->random, "AT_RANDOM");
			h->have_random = 1;
			break;
		case RDB_TF_H_MACHINE: rdb_free(h->machine); h->machine = strndup_x(p, r.len); break;
		case RDB_TF_H_CWD: rdb_free(h->cwd); h->cwd = strndup_x(p, r.len); break;
		case RDB_TF_H_EXECFN: rdb_free(h->execfn); h->execfn = strndup_x(p, r.len); break;
		case RDB_TF_H_START:
			fixed_entry(path, o, r.len, p, &h->start, sizeof h->start, "start record");
			break;
		case RDB_TF_H_RLIMIT_STACK:
			fixed_entry(path, o, r.len, p, h->rlimit_stack, sizeof h->rlimit_stack,
			            "rlimit record");
			h->have_rlimit = 1;
			break;
		case RDB_TF_H_FLAGS:
			fixed_entry(path, o, r.len, p, &h->record_flags, sizeof h->record_flags,
			            "flags record");
			break;
		case RDB_TF_H_PROC:
			if (r.len != sizeof h->proc)
				rdb_fatal("%s: offset %zu: process record of %u bytes", path, o, r.len);
			memcpy(&h->proc, p, sizeof h->proc);
			h->have_proc = 1;
			break;
		default:
			break; /* newer entries of this version: skipped */
		}
		o += sizeof r + r.len;
	}
	if (first)
		rdb_fatal("%s: offset 0: empty file: not an rdb trace header", path);
	if (!h->exe || !h->argc)
		rdb_fatal("%s: offset %zu (the end): no executable path or argv: the trace "
		          "header is incomplete", path, n);
	rdb_free(b);
	rdb_free(path);
	path = rdb_path(dir, "exit");
	b = slurp(path, &n, 0);
	if (b) {
		struct rdb_tf_rec r;
		if (n != sizeof r + sizeof h->exit)
			rdb_fatal("%s: offset 0: %zu bytes, expected %zu", path, n,
			          sizeof r + sizeof h->exit);
		memcpy(&r, b, sizeof r);
		if (r.type != RDB_TF_X_EXIT || r.len != sizeof h->exit)
			rdb_fatal("%s: offset 0: not an exit record", path);
		memcpy(&h->exit, b + sizeof r, sizeof h->exit);
		h->have_exit = 1;
		rdb_free(b);
	}
	rdb_free(path);
}

void rdb_header_free(struct rdb_header *h)
{
	for (size_t i = 0; h->argv && i < h->argc; i++)
		rdb_free(h->argv[i]);
	for (size_t i = 0; h->envp && i < h->envc; i++)
		rdb_free(h->envp[i]);
	rdb_free(h->argv);
	rdb_free(h->envp);
	rdb_free(h->exe);
	rdb_free(h->auxv);
	rdb_free(h->machine);
	rdb_free(h->cwd);
	rdb_free(h->execfn);
	rdb_free(h->image);
	memset(h, 0, sizeof *h);
}

struct rdb_tr {
	char *path;
	int fd, stream;
	uint64_t flen, off;    /* the file's size when opened; next frame header at off */
	char *cbuf;            /* the current frame's compressed bytes */
	size_t ccap;
	char *raw;
	size_t rawn, pos;      /* records of the current frame: raw[pos..rawn) */
	uint64_t frame_off;
	uint64_t rec;          /* number of the next record in the stream */
	uint64_t frames, rawtotal;
	int dict_known;        /* whether dict is what the base frame says */
	ZSTD_DDict *dict;      /* the base frame's records, if small (trace_format.h) */
	/* where the last record read lies, made text only when asked
	 * (rdb_tr_where): an snprintf a record cost replays (docs/perf.md) */
	int at_rec;
	uint64_t rec_frame;
	size_t rec_pos;
	char where[512];
};

/* One decompression context for every reader: a frame decodes alone or
 * with its stream's dictionary, the same for every frame after the base. */
static ZSTD_DCtx *dctx(void)
{
	static ZSTD_DCtx *z;
	if (!z && !(z = ZSTD_createDCtx()))
		rdb_fatal("out of memory (zstd)");
	return z;
}

/* n bytes at off, which the caller checked are inside the file as opened. */
static void read_at(struct rdb_tr *r, void *p, size_t n, uint64_t off)
{
	char *c = p;
	while (n) {
		ssize_t k = pread(r->fd, c, n, (off_t)off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			rdb_fatal("%s: offset %llu: %s", r->path, (unsigned long long)off,
			          k ? strerror(errno) : "the file shrank while being read");
		c += k;
		n -= (size_t)k;
		off += (uint64_t)k;
	}
}

struct rdb_tr *rdb_tr_open(const char *dir, int stream)
{
	struct rdb_tr *r = rdb_xmalloc(sizeof *r);
	memset(r, 0, sizeof *r);
	r->stream = stream;
	r->path = rdb_path(dir, rdb_stream_names[stream]);
	snprintf(r->where, sizeof r->where, "%s", r->path);
	r->fd = open(r->path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (r->fd < 0)
		rdb_fatal("%s: %s", r->path, strerror(errno));
	if (fstat(r->fd, &st) || !S_ISREG(st.st_mode))
		rdb_fatal("%s: not a regular file", r->path);
	r->flen = (uint64_t)st.st_size;
	struct rdb_tf_shdr h;
	if (r->flen < sizeof h)
		rdb_fatal("%s: offset 0: truncated stream header (%llu bytes)", r->path,
		          (unsigned long long)r->flen);
	read_at(r, &h, sizeof h, 0);
	if (memcmp(h.magic, RDB_TF_SMAGIC, 8))
		rdb_fatal("%s: offset 0: bad magic: not an rdb trace stream", r->path);
	if (h.version != RDB_TF_VERSION)
		rdb_fatal("%s: offset 8: trace format version %u; this rdb reads version %d",
		          r->path, h.version, RDB_TF_VERSION);
	if (h.stream != (uint32_t)stream)
		rdb_fatal("%s: offset 12: stream %u, expected %d (%s)", r->path, h.stream, stream,
		          rdb_stream_names[stream]);
	r->off = sizeof h;
	return r;
}

/* The frame header at o: NULL, or what is wrong with it. */
static const char *frame_header(struct rdb_tr *r, uint64_t o, struct rdb_tf_fhdr *fh)
{
	static char why[128];
	if (r->flen - o < sizeof *fh) {
		snprintf(why, sizeof why, "truncated frame header (%llu bytes left)",
		         (unsigned long long)(r->flen - o));
		return why;
	}
	read_at(r, fh, sizeof *fh, o);
	return fh->magic == RDB_TF_FMAGIC ? NULL : "bad frame magic";
}

/* Each VALUES payload of the records raw[0..n) back from w lanes, as far
 * as the records are whole (a record that runs past the frame is left to
 * rdb_tr_next to report). */
static void lanes_join(char *raw, size_t n, unsigned w)
{
	char *tmp = NULL;
	size_t cap = 0;
	for (size_t p = 0; n - p >= sizeof(struct rdb_tf_rec);) {
		struct rdb_tf_rec h;
		memcpy(&h, raw + p, sizeof h);
		if (h.len > n - p - sizeof h)
			break;
		if (h.type == RDB_TF_VALUES && h.len > sizeof(struct rdb_tf_blob)) {
			char *v = raw + p + sizeof h + sizeof(struct rdb_tf_blob);
			size_t len = h.len - sizeof(struct rdb_tf_blob);
			if (len > cap) {
				rdb_free(tmp);
				tmp = rdb_xmalloc(cap = len);
			}
			memcpy(tmp, v, len);
			rdb_tf_lanes_join(v, tmp, len, w);
		}
		p += sizeof h + h.len;
	}
	rdb_free(tmp);
}

/* The records of the frame at o, checked against its header and the file
 * (the caller frees them). */
static char *decode(struct rdb_tr *r, uint64_t o, struct rdb_tf_fhdr *fh, const ZSTD_DDict *dict)
{
	uint64_t left;
	const char *why = frame_header(r, o, fh);
	if (why)
		rdb_fatal("%s: offset %llu: %s", r->path, (unsigned long long)o, why);
	left = r->flen - o - sizeof *fh;
	if (fh->csize > left)
		rdb_fatal("%s: offset %llu: truncated frame: %u compressed bytes announced, %llu "
		          "left in the file", r->path, (unsigned long long)o, fh->csize,
		          (unsigned long long)left);
	if (fh->raw_size > RDB_TF_FRAME_MAX)
		rdb_fatal("%s: offset %llu: frame of %u bytes is too large", r->path,
		          (unsigned long long)o, fh->raw_size);
	if (!r->cbuf || fh->csize > r->ccap) {
		rdb_free(r->cbuf);
		r->cbuf = rdb_xmalloc(fh->csize);
		r->ccap = fh->csize;
	}
	read_at(r, r->cbuf, fh->csize, o + sizeof *fh);
	unsigned long long want = ZSTD_getFrameContentSize(r->cbuf, fh->csize);
	if (want != fh->raw_size)
		rdb_fatal("%s: offset %llu: the zstd frame's size disagrees with the frame header",
		          r->path, (unsigned long long)o);
	/* Allocate no more than the frame's blocks can produce: a few corrupt
	 * bytes must not cost a gigabyte. */
	unsigned long long most = ZSTD_decompressBound(r->cbuf, fh->csize);
	if (most == ZSTD_CONTENTSIZE_ERROR || most < fh->raw_size)
		rdb_fatal("%s: offset %llu: corrupt frame: its zstd blocks cannot hold the %u "
		          "bytes announced", r->path, (unsigned long long)o, fh->raw_size);
	char *raw = rdb_xmalloc(fh->raw_size ? fh->raw_size : 1);
	size_t d = dict ? ZSTD_decompress_usingDDict(dctx(), raw, fh->raw_size, r->cbuf,
	                                             fh->csize, dict)
	                : ZSTD_decompressDCtx(dctx(), raw, fh->raw_size, r->cbuf, fh->csize);
	if (ZSTD_isError(d) || d != fh->raw_size)
		rdb_fatal("%s: offset %llu: corrupt frame (%s)", r->path, (unsigned long long)o,
		          ZSTD_isError(d) ? ZSTD_getErrorName(d) : "short");
	if (r->stream == RDB_TF_S_VALUES && fh->first_id) {
		if (!RDB_TF_LANES_OK(fh->first_id))
			rdb_fatal("%s: offset %llu: a values frame in %llu lanes (0, 4 or 8)", r->path,
			          (unsigned long long)o, (unsigned long long)fh->first_id);
		lanes_join(raw, fh->raw_size, (unsigned)fh->first_id);
	}
	return raw;
}

/* zstd allocates the dictionary through rdb's allocator, like every
 * other block a reader holds (the fuzz harness frees them all after a
 * fatal error). */
static void *zalloc(void *opaque, size_t n)
{
	(void)opaque;
	return rdb_xmalloc(n);
}

static void zfree(void *opaque, void *p)
{
	(void)opaque;
	rdb_free(p);
}

/* The dictionary of the frames after the base, from the base's records
 * (raw, n bytes): those records when they are at most RDB_TF_DICT_MAX
 * bytes, else none.  (Raw content: the records are never taken for a zstd
 * dictionary of their own format.) */
static void set_dict(struct rdb_tr *r, const char *raw, size_t n)
{
	ZSTD_customMem mem = {zalloc, zfree, NULL};
	if (n <= RDB_TF_DICT_MAX &&
	    !(r->dict = ZSTD_createDDict_advanced(raw, n, ZSTD_dlm_byCopy, ZSTD_dct_rawContent,
	                                          mem)))
		rdb_fatal("out of memory (zstd)");
	r->dict_known = 1;
}

/* The dictionary, decoding the base for it when the reader started past
 * it (at an interval: ivindex). */
static const ZSTD_DDict *base_dict(struct rdb_tr *r)
{
	if (!r->dict_known) {
		struct rdb_tf_fhdr fh;
		char *raw = decode(r, sizeof(struct rdb_tf_shdr), &fh, NULL);
		set_dict(r, raw, fh.raw_size);
		rdb_free(raw);
	}
	return r->dict;
}

static int next_frame(struct rdb_tr *r)
{
	if (r->off == r->flen)
		return 0;
	struct rdb_tf_fhdr fh;
	uint64_t o = r->off;
	int base = o == sizeof(struct rdb_tf_shdr);
	char *raw = decode(r, o, &fh, base ? NULL : base_dict(r));
	if (base && !r->dict_known) /* read from the start: the base is here */
		set_dict(r, raw, fh.raw_size);
	rdb_free(r->raw);
	r->raw = raw;
	r->rawn = fh.raw_size;
	r->pos = 0;
	r->frame_off = o;
	r->off = o + sizeof fh + fh.csize;
	r->frames++;
	r->rawtotal += fh.raw_size;
	return 1;
}

int rdb_tr_next(struct rdb_tr *r, uint32_t *type, const void **p, size_t *len)
{
	while (r->pos == r->rawn)
		if (!next_frame(r))
			return 0;
	struct rdb_tf_rec h;
	r->at_rec = 1;
	r->rec_frame = r->frame_off;
	r->rec_pos = r->pos;
	if (r->rawn - r->pos < sizeof h)
		rdb_fatal("%s: truncated record header", rdb_tr_where(r));
	memcpy(&h, r->raw + r->pos, sizeof h);
	if (h.len > r->rawn - r->pos - sizeof h)
		rdb_fatal("%s: record of %u bytes runs past its frame", rdb_tr_where(r), h.len);
	*type = h.type;
	*p = r->raw + r->pos + sizeof h;
	*len = h.len;
	r->pos += sizeof h + h.len;
	r->rec++;
	return 1;
}

const char *rdb_tr_seek(struct rdb_tr *r, uint64_t offset, uint64_t first)
{
	static char why[256];
	struct rdb_tf_fhdr fh;
	if (offset < sizeof(struct rdb_tf_shdr) || offset > r->flen) {
		snprintf(why, sizeof why, "offset %llu is outside %s (%llu bytes)",
		         (unsigned long long)offset, r->path, (unsigned long long)r->flen);
		return why;
	}
	const char *bad = offset < r->flen ? frame_header(r, offset, &fh) : NULL;
	if (bad) {
		snprintf(why, sizeof why, "%s: offset %llu: %s", r->path,
		         (unsigned long long)offset, bad);
		return why;
	}
	if (offset < r->flen && fh.first != first) {
		snprintf(why, sizeof why, "%s: the frame at offset %llu starts at record %llu, "
		         "not %llu", r->path, (unsigned long long)offset,
		         (unsigned long long)fh.first, (unsigned long long)first);
		return why;
	}
	r->off = offset;
	r->rawn = r->pos = 0;
	r->rec = first;
	return NULL;
}

uint64_t rdb_tr_rec(const struct rdb_tr *r) { return r->rec; }

int rdb_tr_last_frame(struct rdb_tr *r)
{
	if (r->pos != r->rawn)
		return 0;
	uint64_t o = r->off, last = 0, first = 0;
	struct rdb_tf_fhdr fh;
	while (o < r->flen && !frame_header(r, o, &fh) && fh.csize <= r->flen - o - sizeof fh) {
		last = o;
		first = fh.first;
		o += sizeof fh + fh.csize;
	}
	if (!last || last == r->off)
		return 0;
	r->off = last;
	r->rawn = r->pos = 0;
	r->rec = first;
	return 1;
}

const char *rdb_tr_path(const struct rdb_tr *r) { return r->path; }

/* ---- ivindex ---------------------------------------------------------- */

struct ivstream {
	struct rdb_tf_ivindex *e; /* intervals increasing */
	uint64_t *at;             /* each entry's offset in the ivindex file */
	size_t n;
};

struct rdb_ivx {
	char *path;
	struct ivstream s[RDB_TF_NSTREAMS];
};

static void ivx_check(const struct rdb_ivx *x, const struct rdb_tf_ivindex *e, size_t o)
{
	if (e->stream >= RDB_TF_NSTREAMS)
		rdb_fatal("%s: offset %zu: stream %u (there are %d)", x->path, o, e->stream,
		          RDB_TF_NSTREAMS);
	const struct ivstream *s = &x->s[e->stream];
	if (e->interval == 0)
		rdb_fatal("%s: offset %zu: interval 0 (they count from 1)", x->path, o);
	if (s->n && e->interval <= s->e[s->n - 1].interval)
		rdb_fatal("%s: offset %zu: interval %llu of stream %s after interval %llu",
		          x->path, o, (unsigned long long)e->interval, rdb_stream_names[e->stream],
		          (unsigned long long)s->e[s->n - 1].interval);
}

struct rdb_ivx *rdb_ivx_read(const char *dir)
{
	struct rdb_ivx *x = rdb_xmalloc(sizeof *x);
	memset(x, 0, sizeof *x);
	x->path = rdb_path(dir, "ivindex");
	size_t n;
	char *b = slurp(x->path, &n, 0);
	if (!b)
		return x;
	if (n % sizeof(struct rdb_tf_ivindex))
		rdb_fatal("%s: offset %zu: truncated entry (the file has %zu bytes, entries are "
		          "%zu)", x->path, n - n % sizeof(struct rdb_tf_ivindex), n,
		          sizeof(struct rdb_tf_ivindex));
	size_t cap = n / sizeof(struct rdb_tf_ivindex);
	for (int i = 0; i < RDB_TF_NSTREAMS; i++) {
		x->s[i].e = rdb_xmalloc(cap * sizeof *x->s[i].e);
		x->s[i].at = rdb_xmalloc(cap * sizeof *x->s[i].at);
	}
	for (size_t o = 0; o < n; o += sizeof(struct rdb_tf_ivindex)) {
		struct rdb_tf_ivindex e;
		memcpy(&e, b + o, sizeof e);
		ivx_check(x, &e, o);
		struct ivstream *s = &x->s[e.stream];
		s->e[s->n] = e;
		s->at[s->n++] = o;
	}
	rdb_free(b);
	return x;
}

/* The entry of (stream, interval): its position in x->s[stream], or -1. */
static long ivx_find(const struct rdb_ivx *x, int stream, uint64_t interval)
{
	const struct ivstream *s = &x->s[stream];
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->e[mid].interval < interval)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->e[lo].interval == interval ? (long)lo : -1;
}

uint64_t rdb_ivx_at_or_before(const struct rdb_ivx *x, int stream, uint64_t interval)
{
	const struct ivstream *s = &x->s[stream];
	size_t lo = 0, hi = s->n; /* the first entry after interval */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->e[mid].interval <= interval)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? s->e[lo - 1].interval : 0;
}

uint64_t rdb_ivx_last(const struct rdb_ivx *x, int stream)
{
	const struct ivstream *s = &x->s[stream];
	return s->n ? s->e[s->n - 1].interval : 0;
}

const char *rdb_ivx_path(const struct rdb_ivx *x) { return x->path; }

void rdb_ivx_bytes(const struct rdb_ivx *x, int stream, uint64_t flen, uint64_t n,
                   uint64_t *bytes)
{
	/* Each entry's frames run to the next entry's (or the file's end): an
	 * interval without an entry has no records in the stream.  What comes
	 * before the first entry is interval 1's (and the stream header). */
	const struct ivstream *s = &x->s[stream];
	for (size_t j = 0; j < s->n; j++) {
		uint64_t iv = s->e[j].interval, o = s->e[j].offset;
		uint64_t end = j + 1 < s->n ? s->e[j + 1].offset : flen;
		if (j == 0 && iv > 1 && n >= 1 && o <= flen)
			bytes[0] += o;
		if (iv >= 1 && iv <= n && end >= o)
			bytes[iv - 1] += end - o;
	}
	if (!s->n && n >= 1)
		bytes[0] += flen;
}

int rdb_tr_seek_interval(struct rdb_tr *r, const struct rdb_ivx *x, uint64_t interval)
{
	long k = ivx_find(x, r->stream, interval);
	if (k < 0)
		return 0;
	const struct ivstream *s = &x->s[r->stream];
	const char *why = rdb_tr_seek(r, s->e[k].offset, s->e[k].first);
	if (why)
		rdb_fatal("%s: offset %llu: the entry for interval %llu of stream %s does not "
		          "match the stream: %s", x->path, (unsigned long long)s->at[k],
		          (unsigned long long)interval, rdb_stream_names[r->stream], why);
	return 1;
}

void rdb_ivx_free(struct rdb_ivx *x)
{
	if (!x)
		return;
	for (int i = 0; i < RDB_TF_NSTREAMS; i++) {
		rdb_free(x->s[i].e);
		rdb_free(x->s[i].at);
	}
	rdb_free(x->path);
	rdb_free(x);
}

/* ---- records ---------------------------------------------------------- */

/* trace_format.h's table, by type number. */
#define REC_TYPE(name, num, payload, stream, copy, len)                         \
	[num] = {#name, sizeof(payload), RDB_TF_S_##stream, RDB_TF_S_##copy, RDB_TF_LEN_##len},
static const struct rdb_rec_type rec_types[] = {RDB_TF_RECORDS(REC_TYPE)};
#undef REC_TYPE

const struct rdb_rec_type *rdb_rec_type(uint32_t type)
{
	if (type >= sizeof rec_types / sizeof *rec_types || !rec_types[type].name)
		return NULL;
	return &rec_types[type];
}

int rdb_rec_in(uint32_t type, int stream)
{
	const struct rdb_rec_type *t = rdb_rec_type(type);
	return t && stream >= 0 && (t->stream == stream || t->copy == stream);
}

/* The part after the payload's struct (len TAIL): as long as it says. */
static int tail_ok(uint32_t type, const void *p, size_t n)
{
	uint64_t len;
	uint32_t k;
	switch (type) {
	case RDB_TF_CONTEXT:
		memcpy(&k, (const char *)p + offsetof(struct rdb_tf_context, fpsize), 4);
		memcpy(&len, (const char *)p + offsetof(struct rdb_tf_context, nqueued), 8);
		return len <= (n - sizeof(struct rdb_tf_context)) / sizeof(struct rdb_tf_queued) &&
		       n - sizeof(struct rdb_tf_context) == len * sizeof(struct rdb_tf_queued) + k;
	case RDB_TF_MAPS:
		memcpy(&k, (const char *)p + offsetof(struct rdb_tf_maps, n), 4);
		return n - sizeof(struct rdb_tf_maps) == (uint64_t)k * sizeof(struct rdb_tf_map);
	case RDB_TF_WRITTEN:
	case RDB_TF_STACK_WRITTEN:
	case RDB_TF_RAN:
		memcpy(&k, (const char *)p + offsetof(struct rdb_tf_written, n), 4);
		return n - sizeof(struct rdb_tf_written) == (uint64_t)k * sizeof(struct rdb_tf_range);
	case RDB_TF_CHILD_OUTPUT: return 1; /* the bytes */
	case RDB_TF_SHARED:
		memcpy(&len, (const char *)p + offsetof(struct rdb_tf_shared, len), 8);
		return n - sizeof(struct rdb_tf_shared) == len;
	case RDB_TF_THSTATE:
		memcpy(&len, (const char *)p + offsetof(struct rdb_tf_thstate, fpsize), 8);
		return n - sizeof(struct rdb_tf_thstate) == len;
	case RDB_TF_STACK:
	case RDB_TF_VALUES:
		memcpy(&len, (const char *)p + offsetof(struct rdb_tf_blob, len), 8);
		return n - sizeof(struct rdb_tf_blob) == len;
	}
	/* a broken invariant: every TAIL row has a case above */
	fprintf(stderr, "rdb: %s:%d: record type %u has len TAIL but no tail check\n", __FILE__,
	        __LINE__, type);
	abort();
}

int rdb_rec_ok(uint32_t type, const void *p, size_t n)
{
	const struct rdb_rec_type *t = rdb_rec_type(type);
	if (!t || t->len == RDB_TF_LEN_ANY)
		return 1;
	if (t->len == RDB_TF_LEN_EQ)
		return n == t->size;
	return n >= t->size && tail_ok(type, p, n);
}

uint64_t rdb_rec_interval(const void *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

/* ---- the replay merge ------------------------------------------------- */

struct merge {
	struct rdb_tr *sc, *sd, *nd;
	int (*emit)(void *ctx, uint32_t type, const void *p, size_t n);
	void *ctx;
	int have;         /* a NONDET record is pending: */
	uint32_t t;
	const void *p;
	size_t n;
	uint64_t rec;     /* its record number */
	struct rdb_tf_nondet v;
};

static void nd_next(struct merge *m)
{
	m->have = rdb_tr_next(m->nd, &m->t, &m->p, &m->n);
	if (!m->have)
		return;
	if (m->t != RDB_TF_NONDET || m->n != sizeof m->v)
		rdb_fatal("%s: not a NONDET record (type %u, %zu bytes)", rdb_tr_where(m->nd), m->t,
		          m->n);
	memcpy(&m->v, m->p, sizeof m->v);
	m->rec = rdb_tr_rec(m->nd) - 1;
}

/* The pending NONDET records with after < id (by_count: numbered < id). */
static int nd_before(struct merge *m, int by_count, uint64_t id)
{
	int dead = 0;
	while (!dead && m->have && (by_count ? m->rec : m->v.after) < id) {
		dead = m->emit(m->ctx, m->t, m->p, m->n);
		nd_next(m);
	}
	return dead;
}

static int trap_and_data(struct merge *m, const void *p, size_t n)
{
	struct rdb_tf_trap tr;
	if (n != sizeof tr)
		rdb_fatal("%s: TRAP record of %zu bytes", rdb_tr_where(m->sc), n);
	memcpy(&tr, p, sizeof tr);
	int dead = nd_before(m, 0, tr.id) || m->emit(m->ctx, RDB_TF_TRAP, p, n);
	for (uint32_t k = 0; k < tr.ndata && !dead; k++) {
		uint32_t dt;
		const void *dp;
		size_t dn;
		struct rdb_tf_data dd;
		if (!rdb_tr_next(m->sd, &dt, &dp, &dn))
			rdb_fatal("%s: syscall #%llu: its data is missing from the sysdata stream",
			          rdb_tr_where(m->sc), (unsigned long long)tr.id);
		if (dt != RDB_TF_DATA || dn < sizeof dd)
			rdb_fatal("%s: not a DATA record", rdb_tr_where(m->sd));
		memcpy(&dd, dp, sizeof dd);
		if (dd.id != tr.id || dd.len != dn - sizeof dd)
			rdb_fatal("%s: DATA record for syscall #%llu, expected #%llu",
			          rdb_tr_where(m->sd), (unsigned long long)dd.id,
			          (unsigned long long)tr.id);
		dead = m->emit(m->ctx, dt, dp, dn);
	}
	return dead;
}

/* BOUNDARY, SIGNAL and SWITCH: after the NONDET records numbered below their
 * 'nondets' (at the same offset in both). */
static int event(struct merge *m, uint32_t t, const void *p, size_t n)
{
	_Static_assert(offsetof(struct rdb_tf_boundary, nondets) ==
	                   offsetof(struct rdb_tf_signal, nondets) &&
	               offsetof(struct rdb_tf_boundary, nondets) ==
	                   offsetof(struct rdb_tf_switch, nondets), "nondets");
	if (!rdb_rec_ok(t, p, n))
		rdb_fatal("%s: %s record of %zu bytes", rdb_tr_where(m->sc), rdb_rec_type(t)->name, n);
	uint64_t nds;
	memcpy(&nds, (const char *)p + offsetof(struct rdb_tf_boundary, nondets), 8);
	return nd_before(m, 1, nds) || m->emit(m->ctx, t, p, n);
}

int rdb_tr_merge(struct rdb_tr *sc, struct rdb_tr *sd, struct rdb_tr *nd,
                 int (*emit)(void *ctx, uint32_t type, const void *p, size_t n), void *ctx)
{
	/* Program order: each TRAP, then its ndata DATA records; NONDET records
	 * before the first TRAP whose id is greater than their 'after', and
	 * before the first BOUNDARY or SIGNAL that counts them. */
	struct merge m = {sc, sd, nd, emit, ctx, 0, 0, NULL, 0, 0, {0}};
	int dead = 0;
	uint32_t t;
	const void *p;
	size_t n;
	nd_next(&m);
	while (!dead && rdb_tr_next(sc, &t, &p, &n)) {
		if (t == RDB_TF_TRAP)
			dead = trap_and_data(&m, p, n);
		else if (t == RDB_TF_BOUNDARY || t == RDB_TF_SIGNAL || t == RDB_TF_SWITCH)
			dead = event(&m, t, p, n);
		else if (t == RDB_TF_TERM) /* remaining NONDET records come before it */
			dead = nd_before(&m, 1, UINT64_MAX) || emit(ctx, t, p, n);
		else
			dead = emit(ctx, t, p, n);
	}
	return dead;
}

const char *rdb_tr_where(struct rdb_tr *r)
{
	if (r->at_rec)
		snprintf(r->where, sizeof r->where, "%s: frame at offset %llu, byte %zu", r->path,
		         (unsigned long long)r->rec_frame, r->rec_pos);
	return r->where;
}

void rdb_tr_stats(struct rdb_tr *r, uint64_t *frames, uint64_t *raw, uint64_t *file)
{
	while (next_frame(r))
		;
	*frames = r->frames;
	*raw = r->rawtotal;
	*file = r->flen;
}

void rdb_tr_close(struct rdb_tr *r)
{
	if (!r)
		return;
	close(r->fd);
	rdb_free(r->cbuf);
	rdb_free(r->raw);
	rdb_free(r->path);
	ZSTD_freeDDict(r->dict);
	rdb_free(r);
}
