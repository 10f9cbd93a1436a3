/* zstdmt.c: libzstd's multithreaded compressor on stdin, for
 * zstd-tests.sh to record and replay.
 *   zstdmt -c WORKERS   compress stdin to stdout, ZSTD_c_nbWorkers WORKERS
 *                       (1 MiB jobs, so a few MB of input is several jobs
 *                       the workers run at once)
 *   zstdmt -d           decompress stdin to stdout
 * zstd's frames do not depend on the number of workers once it is 1 or
 * more, so -c 1 and -c 3 must give the same bytes.  A library built
 * without ZSTD_MULTITHREAD refuses nbWorkers > 0: that is an error here,
 * not a silent fall back to one thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#define CHUNK (128 * 1024)

static int fail(const char *what, size_t r)
{
	fprintf(stderr, "zstdmt: %s: %s\n", what, ZSTD_getErrorName(r));
	return 1;
}

static int put(const void *p, size_t n)
{
	if (fwrite(p, 1, n, stdout) != n) {
		perror("zstdmt: write");
		return 0;
	}
	return 1;
}

static int compress(int workers)
{
	static char in[CHUNK], out[CHUNK];
	ZSTD_CCtx *c = ZSTD_createCCtx();
	ZSTD_bounds b = ZSTD_cParam_getBounds(ZSTD_c_nbWorkers);
	size_t r, n;
	int last = 0;

	if (!c)
		return fail("ZSTD_createCCtx", 0);
	if (ZSTD_isError(b.error) || b.upperBound < workers) {
		fprintf(stderr, "zstdmt: libzstd allows at most %d workers, not %d "
			"(built without ZSTD_MULTITHREAD?)\n", b.upperBound, workers);
		return 1;
	}
	if (ZSTD_isError(r = ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 3)) ||
	    ZSTD_isError(r = ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, workers)) ||
	    ZSTD_isError(r = ZSTD_CCtx_setParameter(c, ZSTD_c_jobSize, 1 << 20)) ||
	    ZSTD_isError(r = ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1)))
		return fail("ZSTD_CCtx_setParameter", r);
	while (!last) {
		ZSTD_inBuffer ib;
		n = fread(in, 1, CHUNK, stdin);
		if (ferror(stdin)) {
			perror("zstdmt: read");
			return 1;
		}
		last = n < CHUNK;
		ib = (ZSTD_inBuffer){ in, n, 0 };
		/* ZSTD_e_end returns 0 once the frame is complete; ZSTD_e_continue
		 * once the input is taken (the workers may still hold it) */
		do {
			ZSTD_outBuffer ob = { out, sizeof out, 0 };
			r = ZSTD_compressStream2(c, &ob, &ib, last ? ZSTD_e_end : ZSTD_e_continue);
			if (ZSTD_isError(r))
				return fail("ZSTD_compressStream2", r);
			if (!put(out, ob.pos))
				return 1;
		} while (last ? r != 0 : ib.pos < ib.size);
	}
	ZSTD_freeCCtx(c);
	return fflush(stdout) != 0;
}

static int decompress(void)
{
	static char in[CHUNK], out[CHUNK];
	ZSTD_DCtx *d = ZSTD_createDCtx();
	size_t r = 1, n;

	if (!d)
		return fail("ZSTD_createDCtx", 0);
	while ((n = fread(in, 1, CHUNK, stdin)) > 0) {
		ZSTD_inBuffer ib = { in, n, 0 };
		ZSTD_outBuffer ob;
		/* a full output buffer may leave more output inside d */
		do {
			ob = (ZSTD_outBuffer){ out, sizeof out, 0 };
			r = ZSTD_decompressStream(d, &ob, &ib);
			if (ZSTD_isError(r))
				return fail("ZSTD_decompressStream", r);
			if (!put(out, ob.pos))
				return 1;
		} while (ib.pos < ib.size || ob.pos == ob.size);
	}
	if (ferror(stdin)) {
		perror("zstdmt: read");
		return 1;
	}
	if (r != 0) {
		fprintf(stderr, "zstdmt: the input ends inside a frame\n");
		return 1;
	}
	ZSTD_freeDCtx(d);
	return fflush(stdout) != 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "-c") && atoi(argv[2]) > 0)
		return compress(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "-d"))
		return decompress();
	fprintf(stderr, "usage: zstdmt -c WORKERS < in > out.zst | zstdmt -d < in.zst > out\n");
	return 2;
}
