/*
 * fuzz_rules.c: libFuzzer harness for the rules parser.  Each input is
 * written to in.rules in a private temporary folder (next to inc.rules, a
 * small valid file, so include paths get exercised) and loaded twice into
 * one ruleset, with a -D variable defined first; the ruleset is then sorted
 * and freed.  Any crash, sanitizer report or leak is a bug.
 *
 * Build by hand (see docs/rules.md, "Testing"):
 *   clang -g -fsanitize=fuzzer,address,undefined -Ialtr -I$GEN ...
 * With -DFUZZ_RULES_REPLAY it has its own main instead, which replays
 * files and folders given as arguments: the regression test over
 * tests/fuzz/corpus-rules/ that ctest runs without libFuzzer.
 */
#include "altr.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[64], in_path[96];

static void cleanup(void)
{
	char p[96];
	snprintf(p, sizeof p, "%s/inc.rules", dir);
	unlink(p);
	unlink(in_path);
	rmdir(dir);
}

static void setup(void)
{
	if (dir[0])
		return;
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/fuzzrulesXXXXXX",
	         t && strlen(t) < 40 ? t : "/tmp");
	if (!mkdtemp(dir))
		altr_die("mkdtemp %s failed", dir);
	snprintf(in_path, sizeof in_path, "%s/in.rules", dir);
	char p[96];
	snprintf(p, sizeof p, "%s/inc.rules", dir);
	FILE *f = fopen(p, "w");
	if (!f)
		altr_die("cannot write %s", p);
	fputs("var INC = \"%r13\"\n"
	      "rule inc priority 3 { match load && base != %rsp\n"
	      "  before { lea ${addr}, ${INC} } }\n", f);
	fclose(f);
	atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	FILE *f = fopen(in_path, "wb");
	if (!f)
		altr_die("cannot write %s", in_path);
	fwrite(data, 1, size, f);
	fclose(f);
	struct altr_ruleset rs = {0};
	altr_rules_define(&rs, "SHADOW", "%r14");
	if (altr_rules_load(&rs, in_path) == 0)
		altr_rules_load(&rs, in_path); /* a second load: duplicates */
	altr_rules_finish(&rs);
	altr_rules_free(&rs);
	return 0;
}

#ifdef FUZZ_RULES_REPLAY
static int replay(const char *path, int *nfiles)
{
	struct stat st;
	if (stat(path, &st)) {
		fprintf(stderr, "fuzz_rules: cannot stat %s\n", path);
		return 1;
	}
	if (S_ISDIR(st.st_mode)) {
		struct dirent **ents;
		int n = scandir(path, &ents, NULL, alphasort), bad = 0;
		if (n < 0)
			return 1;
		for (int i = 0; i < n; i++) {
			if (ents[i]->d_name[0] != '.') {
				char *p = malloc(strlen(path) + strlen(ents[i]->d_name) + 2);
				sprintf(p, "%s/%s", path, ents[i]->d_name);
				bad |= replay(p, nfiles);
				free(p);
			}
			free(ents[i]);
		}
		free(ents);
		return bad;
	}
	size_t len;
	char *buf = altr_read_file(path, &len);
	if (!buf)
		return 1;
	LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
	free(buf);
	++*nfiles;
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0, n = 0;
	/* the corpus is full of deliberate errors: keep their messages out */
	if (!getenv("FUZZ_RULES_VERBOSE") && !freopen("/dev/null", "w", stderr))
		return 1;
	for (int i = 1; i < argc; i++)
		bad |= replay(argv[i], &n);
	printf("fuzz_rules: replayed %d file(s)%s\n", n, bad ? ", with errors" : "");
	return bad || n == 0;
}
#endif
