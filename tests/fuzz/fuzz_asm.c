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

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
#include "replay.h"

int main(int argc, char **argv)
{
	int n = 0;
	if (!getenv("FUZZ_ASM_VERBOSE") && !freopen("/dev/null", "w", stderr))
		return 1;
	int bad = fuzz_replay_args("fuzz_asm", argc, argv, &n);
	printf("fuzz_asm: replayed %d file(s)%s\n", n, bad ? ", with errors" : "");
	return bad || n == 0;
}
#endif
