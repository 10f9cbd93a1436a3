/*
 * fuzz_asm.c: libFuzzer harness for the assembly reader, the analyses and
 * the emitter.  Each input is read as a .s file, analyzed, and rewritten
 * with rules/trace.rules (the rules with the most substitutions) into
 * /dev/null.  Any crash, sanitizer report or leak is a bug.
 *
 * Build by hand (clang -g -fsanitize=fuzzer,address,undefined ...) with
 * -DRULES_PATH=\"rules/trace.rules\"; with -DFUZZ_ASM_REPLAY it has its own
 * main that replays the files and folders given as arguments: the
 * regression test over tests/fuzz/corpus-asm/ that ctest runs.
 */
#include "altr.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct altr_ruleset rules;
static FILE *devnull;

static void setup(void)
{
	if (devnull)
		return;
	const char *p = getenv("ALTR_FUZZ_RULES");
	if (!p)
		p = RULES_PATH;
	altr_quiet_warnings = true;
	if (altr_rules_load(&rules, p) < 0)
		altr_die("cannot load %s", p);
	altr_rules_finish(&rules);
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		altr_die("cannot open /dev/null");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	setup();
	char *src = altr_xmalloc(size + 1);
	memcpy(src, data, size);
	src[size] = 0;
	struct altr_unit u;
	altr_asm_read(&u, "fuzz.s", src, size);
	altr_analyze(&u);
	struct altr_opts o = {.iot = true};
	struct altr_stats st = {0};
	altr_emit(&u, &rules, &o, devnull, &st);
	altr_asm_free(&u);
	return 0;
}

#ifdef FUZZ_ASM_REPLAY
static int replay(const char *path)
{
	struct stat st;
	if (stat(path, &st)) {
		fprintf(stderr, "fuzz_asm: cannot stat %s\n", path);
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
				char *p = altr_xmalloc(len);
				snprintf(p, len, "%s/%s", path, ents[i]->d_name);
				bad |= replay(p);
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
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0, n = 0;
	if (!getenv("FUZZ_ASM_VERBOSE") && !freopen("/dev/null", "w", stderr))
		return 1;
	for (int i = 1; i < argc; i++, n++)
		bad |= replay(argv[i]);
	printf("fuzz_asm: replayed %d path(s)%s\n", n, bad ? ", with errors" : "");
	return bad || n == 0;
}
#endif
