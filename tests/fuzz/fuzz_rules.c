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

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
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
#include "replay.h"

int main(int argc, char **argv)
{
	int n = 0;
	/* the corpus is full of deliberate errors: keep their messages out */
	if (!getenv("FUZZ_RULES_VERBOSE") && !freopen("/dev/null", "w", stderr))
		return 1;
	int bad = fuzz_replay_args("fuzz_rules", argc, argv, &n);
	printf("fuzz_rules: replayed %d file(s)%s\n", n, bad ? ", with errors" : "");
	return bad || n == 0;
}
#endif
