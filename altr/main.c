/*
 * main.c: altr's command line.  The stages, in order: load the rules, read
 * the assembly (decoding each instruction with the database), analyze
 * (functions, branches, flag liveness), apply the rules and emit.  Output
 * is written in one piece at the end, so a failed run writes nothing.
 */
#include "altr.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: altr -r RULES [-r MORE]... [options] [IN.s | -]\n"
	        "Rewrites x86-64 AT&T assembly according to a rules file.\n"
	        "\n"
	        "  -r, --rules FILE    rules to apply (repeatable; see docs/rules.md)\n"
	        "  -o, --output FILE   write here instead of stdout\n"
	        "  -D NAME=VALUE       set a rule variable (overrides 'var NAME')\n"
	        "      --check         parse the rules only, then exit\n"
	        "      --stats         print counts to stderr: instructions, matches\n"
	        "                      per rule, flags-live memory accesses\n"
	        "      --strict        unknown instructions are errors\n"
	        "      --no-iot        do not emit the .rdb_iot offset table\n"
	        "      --no-shortcuts  no regex prefilter, memos or shared plans (slow;\n"
	        "                      the output must be the same; also\n"
	        "                      ALTR_NO_SHORTCUTS=1)\n"
	        "  -q, --quiet         no warnings\n"
	        "  -h, --help          this text\n"
	        "      --version       altr's version\n");
}

static int write_output(const char *out, struct altr_unit *u,
                        struct altr_ruleset *rs, const struct altr_opts *o,
                        struct altr_stats *st)
{
	if (!out || strcmp(out, "-") == 0) {
		if (altr_emit(u, rs, o, stdout, st) < 0)
			return -1;
		return fflush(stdout) == 0 ? 0 : -1;
	}
	/* A device or fifo (-o /dev/null) is written in place: renaming a
	 * temporary file over it would replace the device node. */
	struct stat sb;
	if (stat(out, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		FILE *f = fopen(out, "w");
		if (!f) {
			altr_error_at(out, 0, 0, "cannot open output: %s", strerror(errno));
			return -1;
		}
		int rc = altr_emit(u, rs, o, f, st);
		return fclose(f) == 0 ? rc : -1;
	}
	/* Write beside the target, then rename: nothing half-written. */
	size_t n = strlen(out);
	char *tmp = altr_xmalloc(n + 16);
	snprintf(tmp, n + 16, "%s.altrXXXXXX", out);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		altr_error_at(out, 0, 0, "cannot create output: %s", strerror(errno));
		free(tmp);
		return -1;
	}
	/* mkstemp made it 0600: give it the mode a new file gets, as gcc's
	 * outputs have (the umask is read by setting it) */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	FILE *f = fdopen(fd, "w");
	if (!f) {
		altr_error_at(out, 0, 0, "cannot write output: %s", strerror(errno));
		close(fd);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	int rc = altr_emit(u, rs, o, f, st);
	if (fclose(f) != 0 && rc == 0) {
		altr_error_at(out, 0, 0, "write failed: %s", strerror(errno));
		rc = -1;
	}
	if (rc == 0 && rename(tmp, out) != 0) {
		altr_error_at(out, 0, 0, "cannot rename output: %s", strerror(errno));
		rc = -1;
	}
	if (rc != 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

static void print_stats(const struct altr_unit *u, const struct altr_ruleset *rs,
                        const struct altr_stats *st)
{
	fprintf(stderr, "altr: %s: %d lines, %lu instructions (%lu unknown, %lu "
	        "in opaque regions), %lu instrumented in %lu groups\n",
	        u->path, u->nlines, st->insns, st->unknown, st->opaque,
	        st->matched_insns, st->groups);
	fprintf(stderr, "altr: %s: %lu memory-access instructions with flags "
	        "live\n", u->path, st->flags_live_sites);
	for (const struct altr_rule *r = rs->rules; r; r = r->next)
		fprintf(stderr, "altr: rule %-24s %lu\n", r->name, r->nmatched);
}

int main(int argc, char **argv)
{
	enum { OPT_CHECK = 256, OPT_STATS, OPT_STRICT, OPT_NO_IOT, OPT_NO_SHORTCUTS,
	       OPT_VERSION };
	static const struct option longopts[] = {
		{"rules", required_argument, 0, 'r'},
		{"output", required_argument, 0, 'o'},
		{"check", no_argument, 0, OPT_CHECK},
		{"stats", no_argument, 0, OPT_STATS},
		{"strict", no_argument, 0, OPT_STRICT},
		{"no-iot", no_argument, 0, OPT_NO_IOT},
		{"no-shortcuts", no_argument, 0, OPT_NO_SHORTCUTS},
		{"quiet", no_argument, 0, 'q'},
		{"help", no_argument, 0, 'h'},
		{"version", no_argument, 0, OPT_VERSION},
		{0, 0, 0, 0},
	};
	struct altr_ruleset rs = {0};
	struct altr_opts o = {.iot = true};
	const char *out = NULL;
	const char *rules[64];
	int nrules = 0;
	bool check = false;
	const char *ns = getenv("ALTR_NO_SHORTCUTS");
	if (ns && *ns && strcmp(ns, "0") != 0)
		altr_shortcuts = false;
	int c;
	while ((c = getopt_long(argc, argv, "r:o:D:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (nrules == 64)
				altr_die("too many -r options (64 at most)");
			rules[nrules++] = optarg;
			break;
		case 'o': out = optarg; break;
		case 'D': {
			char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg)
				altr_die("-D wants NAME=VALUE, got '%s'", optarg);
			*eq = 0;
			altr_rules_define(&rs, optarg, eq + 1);
			break;
		}
		case OPT_CHECK: check = true; break;
		case OPT_STATS: o.stats = true; break;
		case OPT_STRICT: o.strict = true; break;
		case OPT_NO_IOT: o.iot = false; break;
		case OPT_NO_SHORTCUTS: altr_shortcuts = false; break;
		case 'q': altr_quiet_warnings = true; break;
		case 'h': usage(stdout); return 0;
		case OPT_VERSION: printf("altr %s\n", ALTR_VERSION); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!nrules) {
		fprintf(stderr, "altr: no rules given (-r RULES)\n");
		usage(stderr);
		return 2;
	}
	if (argc - optind > 1) {
		fprintf(stderr, "altr: one input file at most\n");
		return 2;
	}
	for (int i = 0; i < nrules; i++)
		if (altr_rules_load(&rs, rules[i]) < 0)
			return 1;
	altr_rules_finish(&rs);
	if (check) {
		altr_rules_free(&rs);
		return 0;
	}
	const char *in = optind < argc ? argv[optind] : "-";
	size_t len, mapped;
	char *src = altr_map_file(in, &len, &mapped);
	if (!src) {
		altr_error_at(in, 0, 0, "cannot read: %s", strerror(errno));
		return 1;
	}
	struct altr_unit u;
	altr_asm_read(&u, strcmp(in, "-") == 0 ? "<stdin>" : in, src, len);
	u.src_mapped = mapped;
	altr_analyze(&u);
	struct altr_stats st = {0};
	int rc = write_output(out, &u, &rs, &o, &st);
	if (o.stats)
		print_stats(&u, &rs, &st);
	altr_asm_free(&u);
	altr_rules_free(&rs);
	return rc == 0 ? 0 : 1;
}
