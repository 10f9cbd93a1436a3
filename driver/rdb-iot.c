/*
 * rdb-iot: the link-time pass over .rdb_iot (docs/iot.md).  rdb-cc runs it
 * on every executable it links: PC-relative entries become image offsets,
 * sorted, checked (inside executable segments, no overlap) and marked
 * resolved, in place.  Running it again on a resolved table only checks.
 */
#include "iot.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: rdb-iot [--dump] [--check] EXECUTABLE...\n"
	        "Resolves the instrumentation offset table (.rdb_iot) of executables\n"
	        "linked by rdb-cc: entries become image offsets, sorted and checked\n"
	        "(each inside an executable segment, none overlapping), in place.\n"
	        "\n"
	        "  --dump    print the table (resolved in memory if it is not yet)\n"
	        "  --check   check only, write nothing\n"
	        "  --help    this text\n");
}

static void dump(const struct rdb_iot_table *t, bool was_resolved)
{
	printf("%s: %s: %zu entries, %s, section at 0x%llx, image base 0x%llx\n",
	       t->path, RDB_IOT_SECTION, t->n,
	       was_resolved ? "resolved" : "not resolved (shown as resolved)",
	       (unsigned long long)t->vaddr, (unsigned long long)t->base);
	for (size_t i = 0; i < t->n; i++)
		printf("%6zu  0x%08llx-0x%08llx  len %-4u flags 0x%08x\n", i,
		       (unsigned long long)t->e[i].start,
		       (unsigned long long)t->e[i].start + t->e[i].len, t->e[i].len,
		       t->e[i].flags);
}

int main(int argc, char **argv)
{
	enum { OPT_DUMP = 256, OPT_CHECK, OPT_HELP };
	static const struct option longopts[] = {
		{"dump", no_argument, 0, OPT_DUMP},
		{"check", no_argument, 0, OPT_CHECK},
		{"help", no_argument, 0, OPT_HELP},
		{0, 0, 0, 0},
	};
	bool do_dump = false, check = false;
	int c;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_DUMP: do_dump = true; break;
		case OPT_CHECK: check = true; break;
		case 'h':
		case OPT_HELP: usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	int status = 0;
	for (int i = optind; i < argc; i++) {
		struct rdb_iot_table t;
		char err[512];
		bool was_resolved = false;
		if (rdb_iot_load(argv[i], &t, err, sizeof err) < 0)
			goto bad;
		was_resolved = t.resolved;
		if (!t.present) {
			if (do_dump)
				printf("%s: no %s section\n", argv[i], RDB_IOT_SECTION);
			rdb_iot_free(&t);
			continue;
		}
		if (rdb_iot_resolve(&t, err, sizeof err) < 0)
			goto bad;
		if (do_dump)
			dump(&t, was_resolved);
		else if (!check && rdb_iot_store(&t, err, sizeof err) < 0)
			goto bad;
		rdb_iot_free(&t);
		continue;
	bad:
		fprintf(stderr, "rdb-iot:%s\n", err);
		rdb_iot_free(&t);
		status = 1;
	}
	return status;
}
