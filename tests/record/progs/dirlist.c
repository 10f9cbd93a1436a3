/* rr: a directory listing (sorted), of a directory removed before replay.
 * rr-setup: mkdir -p d && touch d/a d/b d/c-$$
 * rr-args: d
 * rr-before-replay: rm -rf d
 * rr-expect-out: ^b$
 * rr-expect-out: ^c-[0-9]*$ */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmp(const void *a, const void *b) { return strcmp(*(char **)a, *(char **)b); }
int main(int argc, char **argv)
{
	DIR *d = opendir(argc > 1 ? argv[1] : ".");
	if (!d)
		return 1;
	char *names[1000];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 1000)
		names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof *names, cmp);
	for (int i = 0; i < n; i++)
		printf("%s\n", names[i]);
	return 0;
}
