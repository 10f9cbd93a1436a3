/*
 * replay.h: the corpus walk shared by the fuzz harnesses' plain mains
 * (built with -DFUZZ_*_REPLAY, run by ctest without libFuzzer).  Each file
 * under the given paths, folders walked in sorted order, is fed to the
 * harness's LLVMFuzzerTestOneInput.  The harnesses of trace-format input
 * (fuzz_trace.c, fuzz_channel.c) share their main too: fuzz_replay_past.
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

/* The main of a harness whose corpus is of one format version:
 *   [--regress] [--min-past PCT] PATH...
 * With --min-past, fails unless at least PCT percent of the inputs get
 * past the format's check (*npast of them, counted by the harness): a
 * corpus of another version stops at that check, and the code behind it
 * would go untested.  --regress: the inputs are the regression inputs
 * (tests/fuzz/regress-*), which no script regenerates: each must be
 * brought to the new format by hand (PCT 100).  summary prints the
 * harness's line (files, percent past, whether some could not be read);
 * check names the check, for the "stale" message.  (Unused by the
 * harnesses of other input.) */
__attribute__((unused)) static int
fuzz_replay_past(const char *who, int argc, char **argv, const unsigned long *npast,
                 void (*summary)(int nfiles, long pct, int bad), const char *check)
{
	int n = 0, regress = 0;
	long min_past = -1;
	if (argc > 1 && !strcmp(argv[1], "--regress")) {
		regress = 1;
		argv[1] = argv[0];
		argc--, argv++;
	}
	if (argc > 2 && !strcmp(argv[1], "--min-past")) {
		min_past = strtol(argv[2], NULL, 10);
		argv[2] = argv[0];
		argc -= 2, argv += 2;
	}
	int bad = fuzz_replay_args(who, argc, argv, &n);
	long pct = n ? (long)(*npast * 100 / (unsigned long)n) : 0;
	summary(n, pct, bad);
	if (pct < min_past && regress) {
		fprintf(stderr, "%s: regression inputs stale: only %ld%% of them (minimum %ld%%) get "
		        "past %s: bring each to the current format by hand, and see it fail "
		        "again with its bug's fix reverted\n", who, pct, min_past, check);
		return 1;
	}
	if (pct < min_past) {
		fprintf(stderr, "%s: corpus stale: only %ld%% of the inputs (minimum %ld%%) get past "
		        "%s: regenerate with tests/fuzz/make-trace-corpus.sh BUILD\n", who, pct,
		        min_past, check);
		return 1;
	}
	return bad || n == 0;
}

#endif
