/* stdio: buffered I/O.  fprintf to a file, fgets/fscanf/fread back,
 * fseek/ftell/rewind, ungetc, setvbuf (unbuffered, line, full), fputs/
 * fputc/putc, tmpfile, freopen-free append mode, feof/ferror, a binary
 * fwrite/fread round trip; then scanf from stdin (input.txt, given by
 * run.sh) for numbers, a name, a point, hex values. */
#include "prog.h"
#include <sys/stat.h>

int main(void)
{
	char dir[256], path[300];
	prog_tmpdir(dir, sizeof dir, "stdio");
	snprintf(path, sizeof path, "%s/text.txt", dir);

	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	for (int i = 0; i < 500; i++)
		fprintf(f, "line %03d: %s %5.2f %x\n", i, i % 3 ? "odd" : "even", i / 7.0, i * 97);
	fputs("no newline at the end", f);
	CHECK(fclose(f) == 0);
	struct stat st;
	CHECK(stat(path, &st) == 0);
	printf("file size %lld\n", (long long)st.st_size);

	f = fopen(path, "r");
	char line[128];
	int lines = 0;
	uint64_t h = 0;
	while (fgets(line, sizeof line, f)) {
		lines++;
		h = fnv(line, strlen(line), h);
	}
	printf("fgets: %d lines, hash %016llx, eof %d, error %d\n", lines, (unsigned long long)h, !!feof(f),
	       !!ferror(f));
	rewind(f);
	int n, x;
	char word[16];
	double d;
	CHECK(fscanf(f, "line %d: %15s %lf %x\n", &n, word, &d, &x) == 4);
	printf("fscanf: %d %s %.2f %x\n", n, word, d, x);
	CHECK(fseek(f, -21, SEEK_END) == 0);
	printf("ftell after fseek: %ld, ", ftell(f));
	CHECK(fgets(line, sizeof line, f) != NULL);
	printf("tail: %s\n", line);
	CHECK(fseek(f, 5, SEEK_SET) == 0);
	int c = fgetc(f);
	CHECK(ungetc('#', f) == '#');
	printf("ungetc: %c then %c", c, fgetc(f));
	printf(" then %c\n", fgetc(f));
	fclose(f);

	/* append mode and buffering modes */
	f = fopen(path, "a");
	CHECK(setvbuf(f, NULL, _IOFBF, 64) == 0);
	for (int i = 0; i < 100; i++)
		putc('a' + i % 26, f);
	fputc('\n', f);
	fclose(f);
	CHECK(stat(path, &st) == 0);
	printf("after append %lld\n", (long long)st.st_size);

	/* binary round trip through tmpfile() */
	FILE *t = tmpfile();
	CHECK(t != NULL);
	double vals[100];
	for (int i = 0; i < 100; i++)
		vals[i] = i * 1.5 - 20;
	CHECK(fwrite(vals, sizeof *vals, 100, t) == 100);
	rewind(t);
	double back[100];
	CHECK(fread(back, sizeof *back, 100, t) == 100);
	size_t extra = fread(back, 1, 1, t);
	printf("binary round trip: %d, extra read %zu, eof %d\n", memcmp(vals, back, sizeof vals) == 0,
	       extra, !!feof(t));
	fclose(t);
	CHECK(unlink(path) == 0 && rmdir(dir) == 0);
	CHECK(fopen(path, "r") == NULL);
	printf("fopen missing: %s\n", errname(errno));

	/* stdout line-buffered through setvbuf: output order is unchanged */
	fflush(stdout);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("line buffered\n");

	/* scanf from stdin (input.txt) */
	char comment[128];
	CHECK(fgets(comment, sizeof comment, stdin) != NULL);
	int nums[16], k = 0;
	CHECK(scanf(" numbers:") == 0);
	while (k < 16 && scanf("%d", &nums[k]) == 1)
		k++;
	printf("scanf numbers (%d):", k);
	for (int i = 0; i < k; i++)
		printf(" %d", nums[i]);
	printf("\n");
	char first[32], last[32];
	CHECK(scanf(" name: %31s %31s", first, last) == 2);
	double px, py;
	CHECK(scanf(" point: %lf %lf", &px, &py) == 2);
	unsigned hx[3];
	CHECK(scanf(" hex: %x %x %x", &hx[0], &hx[1], &hx[2]) == 3);
	printf("name %s %s, point (%g, %g), hex %u %u %u\n", first, last, px, py, hx[0], hx[1], hx[2]);
	char rest[64];
	CHECK(scanf(" %63[^\n]", rest) == 1);
	printf("next line: %s\n", rest);
	return prog_done("stdio");
}
