/*
 * chan_seed.c: writes what `rdb replay` would send a program over the
 * channel for a trace set, as one file: a seed for fuzz_channel.c.
 *   chan_seed TRACE TO FLAGS OUT
 * HELLO as rdb/replay.c's send_hello builds it (replay from interval 1, the
 * recorded auxv and AT_RANDOM bytes, FLAGS: RDB_TF_HELLO_* bits), then
 * every record rdb_feed_run passes (--to TO, 0: none) with its header,
 * DATA moved into fuzz_channel.c's arena (channel_arena.h).
 * Its own rdb_fatal and allocator replace rdb/main.c's: any error exits 1.
 */
#include "rdb.h"
#include "channel_arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void rdb_fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "chan_seed: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

void rdb_warn(const char *fmt, ...) { (void)fmt; }
void rdb_progress(const char *fmt, ...) { (void)fmt; }
void rdb_progress_end(void) {}

void *rdb_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		rdb_fatal("out of memory");
	return p;
}

void *rdb_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		rdb_fatal("out of memory");
	return p;
}

void rdb_free(void *p) { free(p); }

/* DATA goes into the harness's arena, at the same offset in a 512 KiB
 * window, so the readers write it instead of diverging at once. */
static int put(void *ctx, uint32_t type, const void *p, size_t n)
{
	struct rdb_tf_rec h = {type, (uint32_t)n};
	struct rdb_tf_data d;
	char moved[sizeof d];
	if (type == RDB_TF_DATA && n >= sizeof d) {
		memcpy(&d, p, sizeof d);
		if (d.len <= FUZZ_ARENA_SIZE / 2) {
			d.addr = FUZZ_ARENA + (d.addr & (FUZZ_ARENA_SIZE / 2 - 1));
			memcpy(moved, &d, sizeof d);
			if (fwrite(&h, sizeof h, 1, ctx) != 1 || fwrite(moved, sizeof d, 1, ctx) != 1 ||
			    (n > sizeof d && fwrite((const char *)p + sizeof d, n - sizeof d, 1, ctx) != 1))
				rdb_fatal("write failed");
			return 0;
		}
	}
	if (fwrite(&h, sizeof h, 1, ctx) != 1 || (n && fwrite(p, n, 1, ctx) != 1))
		rdb_fatal("write failed");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: chan_seed TRACE TO FLAGS OUT\n");
		return 2;
	}
	const char *dir = argv[1];
	uint64_t to = strtoull(argv[2], NULL, 10);
	uint32_t flags = (uint32_t)strtoul(argv[3], NULL, 0);
	FILE *out = fopen(argv[4], "wb");
	if (!out)
		rdb_fatal("%s: cannot create", argv[4]);
	struct rdb_header h;
	rdb_read_header(dir, &h);
	size_t hl = sizeof(struct rdb_tf_hello) + h.nauxv * 16 + 16;
	char *hb = rdb_xmalloc(hl);
	struct rdb_tf_hello m = {RDB_TF_HELLO_VERSION, RDB_TF_MODE_REPLAY, flags,
	                         (uint32_t)h.nauxv, h.start.pid, {1}, {0}};
	memcpy(hb, &m, sizeof m);
	memcpy(hb + sizeof m, h.auxv, h.nauxv * 16);
	memcpy(hb + sizeof m + h.nauxv * 16, h.random, 16);
	put(out, RDB_TF_HELLO, hb, hl);
	rdb_free(hb);
	struct rdb_feed *f = rdb_feed_open(dir, &h.exit, 1, to);
	rdb_feed_run(f, put, out);
	rdb_feed_close(f);
	rdb_header_free(&h);
	if (fclose(out))
		rdb_fatal("%s: write failed", argv[4]);
	return 0;
}
