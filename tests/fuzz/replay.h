/*
 * replay.h: the corpus walk shared by the fuzz harnesses' plain mains
 * (built with -DFUZZ_*_REPLAY, run by ctest without libFuzzer).  Each file
 * under the given paths, folders walked in sorted order, is fed to the
 * harness's LLVMFuzzerTestOneInput.
 */
#ifndef FUZZ_REPLAY_H
#define FUZZ_REPLAY_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Replays path (a file or a folder); counts files in *nfiles; non-zero
 * when something could not be read. */
static int fuzz_replay_path(const char *who, const char *path, int *nfiles)
{
	struct stat st;
	if (stat(path, &st)) {
		fprintf(stderr, "%s: cannot stat %s\n", who, path);
		return 1;
	}
	if (S_ISDIR(st.st_mode)) {
		struct dirent **ents;
		int n = scandir(path, &ents, NULL, alphasort), bad = 0;
		if (n < 0)
			return 1;
		for (int i = 0; i < n; i++) {
			if (ents[i]->d_name[0] != '.') {
				size_t len = strlen(path) + strlen(ents[i]->d_name) + 2;
				char *p = malloc(len);
				if (!p)
					return 1;
				snprintf(p, len, "%s/%s", path, ents[i]->d_name);
				bad |= fuzz_replay_path(who, p, nfiles);
				free(p);
			}
			free(ents[i]);
		}
		free(ents);
		return bad;
	}
	FILE *f = fopen(path, "rb");
	if (!f)
		return 1;
	uint8_t *buf = malloc((size_t)st.st_size + 1);
	size_t len = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
	fclose(f);
	if (!buf)
		return 1;
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	++*nfiles;
	return 0;
}

/* Replays every argument; non-zero when something could not be read. */
static int fuzz_replay_args(const char *who, int argc, char **argv, int *nfiles)
{
	int bad = 0;
	for (int i = 1; i < argc; i++)
		bad |= fuzz_replay_path(who, argv[i], nfiles);
	return bad;
}

#endif
