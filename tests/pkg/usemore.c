/* usemore.c: a program on six instrumented libraries from rdb-cc-pkg.
 * Reads stdin whole, then: compresses it with liblzma, zstd and libbz2 and
 * uncompresses each; counts the words of five or more letters with a pcre2
 * pattern and with an oniguruma one; sums the line lengths through a
 * libffi call of a C function.  Prints what it found (libs-more.sh checks
 * the counts against grep and awk). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <bzlib.h>
#include <ffi.h>
#include <lzma.h>
#include <oniguruma.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static long add_len(long acc, const char *line, int len)
{
	(void)line;
	return acc + len;
}

static int lzma_round_trip(const unsigned char *in, size_t len)
{
	size_t cap = lzma_stream_buffer_bound(len), zlen = 0, pos = 0, back = 0;
	unsigned char *z = malloc(cap), *u = malloc(len + 1);
	uint64_t limit = UINT64_MAX;
	if (!z || !u || lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, in, len, z, &zlen, cap) != LZMA_OK)
		return 0;
	if (lzma_stream_buffer_decode(&limit, 0, NULL, z, &pos, zlen, u, &back, len + 1) != LZMA_OK)
		return 0;
	return back == len && !memcmp(u, in, len);
}

static int bz2_round_trip(const unsigned char *in, size_t len)
{
	unsigned zlen = (unsigned)(len + len / 100 + 600), back = (unsigned)len + 1;
	char *z = malloc(zlen), *u = malloc(len + 1);
	if (!z || !u || BZ2_bzBuffToBuffCompress(z, &zlen, (char *)in, (unsigned)len, 9, 0, 0) != BZ_OK)
		return 0;
	if (BZ2_bzBuffToBuffDecompress(u, &back, z, zlen, 0, 0) != BZ_OK)
		return 0;
	return back == len && !memcmp(u, in, len);
}

static int zstd_round_trip(const unsigned char *in, size_t len)
{
	size_t cap = ZSTD_compressBound(len);
	unsigned char *z = malloc(cap), *u = malloc(len + 1);
	size_t zlen = z ? ZSTD_compress(z, cap, in, len, 3) : 0;
	if (!z || !u || ZSTD_isError(zlen))
		return 0;
	size_t back = ZSTD_decompress(u, len + 1, z, zlen);
	return !ZSTD_isError(back) && back == len && !memcmp(u, in, len);
}

static long pcre2_words(const char *text, size_t len)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR) "\\b[A-Za-z]{5,}\\b", PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
	pcre2_match_data *md = re ? pcre2_match_data_create_from_pattern(re, NULL) : NULL;
	long n = 0;
	PCRE2_SIZE at = 0;
	if (!md)
		return -1;
	while (at < len && pcre2_match(re, (PCRE2_SPTR)text, len, at, 0, md, NULL) > 0) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
		n++;
		at = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
	}
	return n;
}

static long onig_words(const char *text, size_t len)
{
	OnigEncoding enc = ONIG_ENCODING_ASCII;
	OnigErrorInfo einfo;
	regex_t *re;
	const UChar *pat = (const UChar *)"\\b[A-Za-z]{5,}\\b";
	const UChar *s = (const UChar *)text, *end = s + len, *at = s;
	OnigRegion *region = onig_region_new();
	long n = 0;
	onig_initialize(&enc, 1);
	if (onig_new(&re, pat, pat + strlen((const char *)pat), ONIG_OPTION_NONE, enc,
		     ONIG_SYNTAX_PERL, &einfo) != ONIG_NORMAL)
		return -1;
	while (at < end && onig_search(re, s, end, at, end, region, ONIG_OPTION_NONE) >= 0) {
		n++;
		at = s + (region->end[0] > region->beg[0] ? region->end[0] : region->beg[0] + 1);
	}
	onig_region_free(region, 1);
	onig_free(re);
	onig_end();
	return n;
}

static long ffi_line_sum(char *text)
{
	ffi_cif cif;
	ffi_type *args[3] = {&ffi_type_slong, &ffi_type_pointer, &ffi_type_sint};
	long acc = 0;
	if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, 3, &ffi_type_slong, args) != FFI_OK)
		return -1;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		int len = (int)strlen(line);
		long r;
		void *vals[3] = {&acc, &line, &len};
		ffi_call(&cif, FFI_FN(add_len), &r, vals);
		acc = r;
	}
	return acc;
}

int main(void)
{
	size_t cap = 1 << 16, len = 0, k;
	char *text = malloc(cap + 1);
	while (text && (k = fread(text + len, 1, cap - len, stdin)) > 0) {
		len += k;
		if (len == cap)
			text = realloc(text, (cap *= 2) + 1);
	}
	if (!text)
		return 1;
	text[len] = 0;
	printf("lzma round trip %s\n", lzma_round_trip((unsigned char *)text, len) ? "ok" : "BAD");
	printf("zstd round trip %s\n", zstd_round_trip((unsigned char *)text, len) ? "ok" : "BAD");
	printf("bzip2 round trip %s\n", bz2_round_trip((unsigned char *)text, len) ? "ok" : "BAD");
	printf("pcre2 words %ld\n", pcre2_words(text, len));
	printf("onig words %ld\n", onig_words(text, len));
	printf("ffi line bytes %ld\n", ffi_line_sum(text));
	return 0;
}
