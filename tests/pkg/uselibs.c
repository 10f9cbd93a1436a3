/* uselibs.c: a program on two instrumented libraries from rdb-cc-pkg.
 * Reads lines with readline (stdin need not be a terminal), keeps them in
 * its history, then compresses everything read with zlib, uncompresses
 * it, and prints the history count, whether the round trip gave the input
 * back, and the input's CRC-32 (libs.sh compares it with gzip's). */
#include <stdio.h>             /* before readline.h, which uses FILE */
#include <readline/history.h>
#include <readline/readline.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int main(void)
{
	size_t cap = 1 << 16, len = 0;
	char *text = malloc(cap);
	char *line;
	int n = 0;
	if (!text)
		return 1;
	while ((line = readline("")) != NULL) {
		size_t k = strlen(line);
		if (len + k + 2 > cap) {
			cap = 2 * (len + k + 2);
			text = realloc(text, cap);
			if (!text)
				return 1;
		}
		memcpy(text + len, line, k);
		text[len + k] = '\n';
		len += k + 1;
		if (*line)
			add_history(line);
		n++;
		free(line);
	}
	uLongf zlen = compressBound(len), back = len;
	unsigned char *z = malloc(zlen), *u = malloc(len + 1);
	if (!z || !u || compress2(z, &zlen, (unsigned char *)text, len, 9) != Z_OK ||
	    uncompress(u, &back, z, zlen) != Z_OK)
		return 2;
	printf("lines %d history %d\n", n, history_length);
	printf("round trip %s\n", back == len && !memcmp(u, text, len) ? "ok" : "BAD");
	printf("crc32 %08lx\n", crc32(0L, (unsigned char *)text, (uInt)len));
	return 0;
}
