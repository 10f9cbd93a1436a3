/* trace-edit.c: changes one field of one record of a trace set, for the
 * tests that damage a recording on purpose (verify-corrupt.sh).  Built for
 * tests only.
 *
 *   trace-edit DIR STREAM TYPE [-m OFF=VAL]... [-n N] [-a ADDR] -o OFF
 *              [-w WIDTH] (-x XOR | -s VALUE | -p)
 *
 * Picks the N-th (from 0) record of TYPE in STREAM whose u64 at payload
 * offset OFF equals VAL for every -m; with -a, the blob record (STACK,
 * VALUES: interval, addr, len, bytes) that holds ADDR, and -o is then
 * relative to ADDR's byte.  The WIDTH-byte little-endian field at payload
 * offset OFF (negative: from the payload's end) is xored (-x), set (-s) or
 * printed (-p).  Prints "old -> new".  The stream is decoded whole (the
 * base frame as every later frame's dictionary, docs/trace-format.md) and
 * written again with each frame compressed alone, which a reader decodes
 * the same with the dictionary loaded (values frames without lanes); the
 * ivindex entries of the stream move with their frames. */

#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_createDDict_advanced */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "trace_format.h"

#define STREAM_NAME(name, file) file,
static const char *const names[] = {RDB_TF_STREAMS(STREAM_NAME)};

static _Noreturn void die(const char *fmt, const char *a)
{
	fprintf(stderr, "trace-edit: ");
	fprintf(stderr, fmt, a);
	fprintf(stderr, "\n");
	exit(2);
}

static char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die("%s: cannot open", path);
	size_t cap = 1 << 16, len = 0;
	char *b = malloc(cap);
	for (size_t r; (r = fread(b + len, 1, cap - len, f)) > 0;) {
		len += r;
		if (len == cap)
			b = realloc(b, cap *= 2);
	}
	fclose(f);
	*n = len;
	return b;
}

static void spill(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		die("%s: cannot write", path);
}

struct frame {
	uint64_t old_off, new_off;
	struct rdb_tf_fhdr h;
	char *raw;
};

/* A values frame's VALUES payloads back from lanes (trace_format.h), and
 * the frame marked as without them. */
static void lanes_join(struct frame *f, const char *path)
{
	if (!RDB_TF_LANES_OK(f->h.first_id))
		die("%s: a values frame in lanes of a bad width", path);
	for (size_t p = 0; p + 8 <= f->h.raw_size;) {
		struct rdb_tf_rec h;
		memcpy(&h, f->raw + p, sizeof h);
		if (h.len > f->h.raw_size - p - 8)
			die("%s: a record runs past its frame", path);
		if (h.type == RDB_TF_VALUES && h.len > sizeof(struct rdb_tf_blob)) {
			size_t n = h.len - sizeof(struct rdb_tf_blob);
			char *v = f->raw + p + 8 + sizeof(struct rdb_tf_blob), *tmp = malloc(n);
			memcpy(tmp, v, n);
			rdb_tf_lanes_join(v, tmp, n, (unsigned)f->h.first_id);
			free(tmp);
		}
		p += 8 + h.len;
	}
	f->h.first_id = 0;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		die("%s", "usage: trace-edit DIR STREAM TYPE [-m OFF=VAL]... [-n N] [-a ADDR] -o OFF "
		          "[-w WIDTH] (-x XOR | -s VALUE | -p)");
	const char *dir = argv[1];
	int stream = -1;
	for (int i = 0; i < RDB_TF_NSTREAMS; i++)
		if (!strcmp(argv[2], names[i]))
			stream = i;
	if (stream < 0)
		die("no stream %s", argv[2]);
	uint32_t type = (uint32_t)strtoul(argv[3], 0, 0);
	long moff[8];
	uint64_t mval[8];
	int nm = 0, width = 8, op = 0, have_a = 0;
	long nth = 0, off = 0;
	uint64_t val = 0, addr = 0;
	for (int i = 4; i + 1 < argc || (i < argc && !strcmp(argv[i], "-p")); i += 2) {
		const char *o = argv[i], *v = argv[i + 1];
		if (!strcmp(o, "-p")) {
			op = 'p';
			i--;
		} else if (!strcmp(o, "-m") && nm < 8) {
			char *e;
			moff[nm] = strtol(v, &e, 0);
			if (*e != '=')
				die("-m %s: OFF=VAL", v);
			mval[nm++] = strtoull(e + 1, 0, 0);
		} else if (!strcmp(o, "-n"))
			nth = strtol(v, 0, 0);
		else if (!strcmp(o, "-a"))
			addr = strtoull(v, 0, 0), have_a = 1;
		else if (!strcmp(o, "-o"))
			off = strtol(v, 0, 0);
		else if (!strcmp(o, "-w"))
			width = atoi(v);
		else if (!strcmp(o, "-x") || !strcmp(o, "-s"))
			op = o[1], val = strtoull(v, 0, 0);
		else
			die("unknown option %s", o);
	}
	if (!op || (width != 1 && width != 2 && width != 4 && width != 8))
		die("%s", "say -x, -s or -p, and a width of 1, 2, 4 or 8");

	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, names[stream]);
	size_t n;
	char *file = slurp(path, &n);
	if (n < sizeof(struct rdb_tf_shdr))
		die("%s: no stream header", path);
	struct frame *fr = 0;
	size_t nf = 0;
	ZSTD_DDict *dict = 0;
	for (size_t at = sizeof(struct rdb_tf_shdr); at < n; nf++) {
		fr = realloc(fr, (nf + 1) * sizeof *fr);
		struct frame *f = &fr[nf];
		if (n - at < sizeof f->h)
			die("%s: a frame header is cut", path);
		memcpy(&f->h, file + at, sizeof f->h);
		if (f->h.magic != RDB_TF_FMAGIC || n - at - sizeof f->h < f->h.csize)
			die("%s: bad frame", path);
		f->old_off = at;
		f->raw = malloc(f->h.raw_size + 1);
		const char *z = file + at + sizeof f->h;
		ZSTD_DCtx *d = ZSTD_createDCtx();
		size_t got = dict ? ZSTD_decompress_usingDDict(d, f->raw, f->h.raw_size, z, f->h.csize, dict)
		                  : ZSTD_decompressDCtx(d, f->raw, f->h.raw_size, z, f->h.csize);
		ZSTD_freeDCtx(d);
		if (ZSTD_isError(got) || got != f->h.raw_size)
			die("%s: a frame does not decode", path);
		if (stream == RDB_TF_S_VALUES && f->h.first_id) /* lanes: written back without */
			lanes_join(f, path);
		if (!nf && f->h.raw_size <= RDB_TF_DICT_MAX)
			dict = ZSTD_createDDict_advanced(f->raw, f->h.raw_size, ZSTD_dlm_byCopy,
			                                 ZSTD_dct_rawContent, ZSTD_defaultCMem);
		at += sizeof f->h + f->h.csize;
	}

	/* the record */
	char *field = 0;
	long seen = 0;
	for (size_t i = 0; i < nf && !field; i++)
		for (size_t p = 0; p + 8 <= fr[i].h.raw_size && !field;) {
			struct rdb_tf_rec h;
			memcpy(&h, fr[i].raw + p, sizeof h);
			char *pl = fr[i].raw + p + 8;
			p += 8 + h.len;
			if (h.type != type)
				continue;
			int ok = 1;
			for (int k = 0; k < nm && ok; k++) {
				uint64_t w = 0;
				ok = moff[k] >= 0 && moff[k] + 8 <= (long)h.len;
				if (ok)
					memcpy(&w, pl + moff[k], 8);
				ok = ok && w == mval[k];
			}
			long o = off < 0 ? (long)h.len + off : off;
			if (ok && have_a) {
				struct rdb_tf_blob b;
				ok = h.len >= sizeof b;
				if (ok)
					memcpy(&b, pl, sizeof b);
				ok = ok && addr >= b.addr && addr < b.addr + b.len;
				o = (long)(sizeof b + addr - b.addr) + off;
			}
			if (!ok || seen++ != nth)
				continue;
			if (o < 0 || o + width > (long)h.len)
				die("%s", "the offset is outside the record");
			field = pl + o;
		}
	if (!field)
		die("%s", "no such record");
	uint64_t old = 0, now;
	memcpy(&old, field, (size_t)width);
	now = op == 'x' ? old ^ val : op == 's' ? val : old;
	printf("0x%llx -> 0x%llx\n", (unsigned long long)old, (unsigned long long)now);
	if (op == 'p')
		return 0;
	memcpy(field, &now, (size_t)width);

	/* the stream again, every frame alone */
	size_t cap = sizeof(struct rdb_tf_shdr), len = cap;
	for (size_t i = 0; i < nf; i++)
		cap += sizeof(struct rdb_tf_fhdr) + ZSTD_compressBound(fr[i].h.raw_size);
	char *out = malloc(cap);
	memcpy(out, file, sizeof(struct rdb_tf_shdr));
	for (size_t i = 0; i < nf; i++) {
		struct frame *f = &fr[i];
		f->new_off = len;
		size_t c = ZSTD_compress(out + len + sizeof f->h, cap - len - sizeof f->h, f->raw,
		                         f->h.raw_size, 3);
		if (ZSTD_isError(c))
			die("%s", "zstd");
		f->h.csize = (uint32_t)c;
		memcpy(out + len, &f->h, sizeof f->h);
		len += sizeof f->h + c;
	}
	spill(path, out, len);

	snprintf(path, sizeof path, "%s/ivindex", dir);
	size_t xn;
	char *x = slurp(path, &xn);
	for (size_t p = 0; p + sizeof(struct rdb_tf_ivindex) <= xn; p += sizeof(struct rdb_tf_ivindex)) {
		struct rdb_tf_ivindex e;
		memcpy(&e, x + p, sizeof e);
		if (e.stream != (uint32_t)stream)
			continue;
		uint64_t to = e.offset == n ? len : e.offset; /* the end: no frame yet */
		for (size_t i = 0; i < nf; i++)
			if (fr[i].old_off == e.offset)
				to = fr[i].new_off;
		e.offset = to;
		memcpy(x + p, &e, sizeof e);
	}
	spill(path, x, xn);
	return 0;
}
