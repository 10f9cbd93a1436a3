/* show.c: rdb info (what a trace set holds) and rdb truss (its syscalls,
 * like strace, named by syscallgen's table). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rdb.h"
#include "rdb_syscalls.h"

static const char *one_dir(int argc, char **argv, const char *usage)
{
	const char *dir = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(usage, stdout);
			exit(0);
		}
		if (argv[i][0] == '-' || dir) {
			rdb_warn("unexpected argument '%s'", argv[i]);
			fputs(usage, stderr);
			exit(2);
		}
		dir = argv[i];
	}
	if (!dir) {
		fputs(usage, stderr);
		exit(2);
	}
	return dir;
}

static const char *exit_text(const struct rdb_tf_exit *x, char *buf, size_t n)
{
	if (x->how == RDB_TF_EXIT_SIGNAL)
		snprintf(buf, n, "killed by signal %d (%s)", x->value, strsignal(x->value));
	else
		snprintf(buf, n, "exit status %d", x->value);
	return buf;
}

int rdb_cmd_info(int argc, char **argv)
{
	const char *dir = one_dir(argc, argv,
	                          "usage: rdb info DIR\n"
	                          "What the trace set DIR holds: the program, its syscalls, how "
	                          "it ended,\nbytes per stream, what was not traced.\n");
	struct rdb_header h;
	rdb_read_header(dir, &h);
	printf("trace:      %s (format %d)\n", dir, RDB_TF_VERSION);
	char bid[129] = "(none)";
	for (size_t i = 0; i < h.buildid_len; i++)
		sprintf(bid + 2 * i, "%02x", h.buildid[i]);
	printf("program:    %s\nbuild-id:   %s\n", h.exe, bid);
	printf("argv:      ");
	for (size_t i = 0; i < h.argc; i++)
		printf(" %s", h.argv[i]);
	printf("\nenvironment: %zu variables\n", h.envc);
	if (h.machine)
		printf("machine:    %s\n", h.machine);
	time_t t0 = (time_t)h.start.sec;
	struct tm tm;
	char tb[64];
	if (!localtime_r(&t0, &tm) || !strftime(tb, sizeof tb, "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(tb, sizeof tb, "%lld s after the epoch", (long long)h.start.sec);
	printf("started:    %s, pid %d\n", tb, h.start.pid);

	uint64_t traps = 0, forks = 0, spawns = 0, execs = 0, terms = 0;
	struct rdb_tr *sc = rdb_tr_open(dir, RDB_TF_S_SYSCALLS);
	uint32_t type;
	const void *p;
	size_t n;
	while (rdb_tr_next(sc, &type, &p, &n)) {
		if (type == RDB_TF_TRAP)
			traps++;
		else if (type == RDB_TF_EXEC)
			execs++;
		else if (type == RDB_TF_TERM)
			terms++;
		else if (type == RDB_TF_NOTE && n == sizeof(struct rdb_tf_note)) {
			struct rdb_tf_note no;
			memcpy(&no, p, sizeof no);
			forks += no.kind == RDB_TF_NOTE_FORK;
			spawns += no.kind == RDB_TF_NOTE_SPAWN;
		}
	}
	rdb_tr_close(sc);
	printf("syscalls:   %llu\n", (unsigned long long)traps);
	uint64_t nds = 0;
	struct rdb_tr *nd = rdb_tr_open(dir, RDB_TF_S_NONDET);
	while (rdb_tr_next(nd, &type, &p, &n))
		nds += type == RDB_TF_NONDET;
	rdb_tr_close(nd);
	printf("nondeterministic instructions: %llu\n", (unsigned long long)nds);
	char eb[128];
	if (h.have_exit) {
		printf("ended:      %s\n", exit_text(&h.exit, eb, sizeof eb));
		double secs = ((double)h.exit.end_sec - (double)h.start.sec) +
		              ((double)h.exit.end_nsec - (double)h.start.nsec) / 1e9;
		printf("wall time:  %.3f s\n", secs);
		if (h.exit.cut)
			printf("cut short:  yes: the program ended without its runtime's last "
			       "record (%s); the trace holds what was sent until then\n",
			       exit_text(&h.exit, eb, sizeof eb));
		else
			printf("cut short:  no\n");
	} else {
		printf("ended:      unknown\n");
		printf("cut short:  yes: no exit file (rdb record itself was killed)\n");
	}
	printf("not traced:");
	int none = 1;
	if (forks)
		printf(" %llu fork child%s (ran untraced, their own output is not replayed);",
		       (unsigned long long)forks, forks == 1 ? "" : "ren"), none = 0;
	if (spawns)
		printf(" %llu clone call%s of a thread refused with ENOSYS;",
		       (unsigned long long)spawns, spawns == 1 ? "" : "s"), none = 0;
	if (h.have_exit && h.exit.execd)
		printf(" the program exec'd another program, which ran untraced;"), none = 0;
	printf("%s\n", none ? " nothing" : "");
	printf("streams:    %-10s %8s %12s %12s\n", "name", "frames", "raw bytes", "file bytes");
	for (int i = 0; i < RDB_TF_NSTREAMS; i++) {
		struct rdb_tr *r = rdb_tr_open(dir, i);
		uint64_t fr, raw, file;
		rdb_tr_stats(r, &fr, &raw, &file);
		printf("            %-10s %8llu %12llu %12llu\n", rdb_stream_names[i],
		       (unsigned long long)fr, (unsigned long long)raw, (unsigned long long)file);
		rdb_tr_close(r);
	}
	(void)execs;
	(void)terms;
	return 0;
}

static void print_arg(const struct rdb_sys_info *si, int k, int64_t v)
{
	switch (si ? si->arg_kind[k] : RDB_ARG_LONG) {
	case RDB_ARG_INT: printf("%d", (int)v); break;
	case RDB_ARG_UINT: printf("%u", (unsigned)v); break;
	case RDB_ARG_ULONG: printf("%llu", (unsigned long long)v); break;
	case RDB_ARG_PTR:
	case RDB_ARG_STR:
		if (v)
			printf("0x%llx", (unsigned long long)v);
		else
			printf("NULL");
		break;
	default: printf("%lld", (long long)v);
	}
}

int rdb_cmd_truss(int argc, char **argv)
{
	const char *dir = one_dir(argc, argv,
	                          "usage: rdb truss DIR\n"
	                          "Every recorded syscall: id, name, arguments, return value "
	                          "and the bytes\nthe kernel wrote (like strace).\n");
	struct rdb_header h;
	rdb_read_header(dir, &h);
	struct rdb_tr *sc = rdb_tr_open(dir, RDB_TF_S_SYSCALLS);
	uint32_t type;
	const void *p;
	size_t n;
	while (rdb_tr_next(sc, &type, &p, &n)) {
		if (type == RDB_TF_TERM && n == sizeof(struct rdb_tf_term)) {
			struct rdb_tf_term t;
			memcpy(&t, p, sizeof t);
			if (t.signo)
				printf("+++ killed by signal %d (%s) +++\n", t.signo, strsignal(t.signo));
			else
				printf("+++ exited with %d +++\n", t.status);
			continue;
		}
		if (type == RDB_TF_NOTE && n == sizeof(struct rdb_tf_note)) {
			struct rdb_tf_note no;
			memcpy(&no, p, sizeof no);
			if (no.kind == RDB_TF_NOTE_FORK)
				printf("--- child %lld runs untraced ---\n", (long long)no.value);
			continue;
		}
		if (type != RDB_TF_TRAP)
			continue;
		struct rdb_tf_trap t;
		if (n != sizeof t)
			rdb_fatal("%s: TRAP record of %zu bytes", rdb_tr_where(sc), n);
		memcpy(&t, p, sizeof t);
		const struct rdb_sys_info *si = rdb_sys_info(t.nr);
		const char *name = rdb_sys_name(t.nr);
		int nargs = si && si->name ? si->nargs : 6;
		printf("#%llu ", (unsigned long long)t.id);
		if (name)
			printf("%s(", name);
		else
			printf("syscall_%lld(", (long long)t.nr);
		for (int k = 0; k < nargs; k++) {
			if (k)
				printf(", ");
			print_arg(si, k, t.args[k]);
		}
		if (t.ret < 0 && t.ret > -4096) {
			const char *en = strerrorname_np((int)-t.ret);
			printf(") = -1 %s (%s)", en ? en : "?", strerror((int)-t.ret));
		} else if (t.ret > 0xffff || t.ret < -0xffff)
			printf(") = 0x%llx", (unsigned long long)t.ret);
		else
			printf(") = %lld", (long long)t.ret);
		if (t.ndata)
			printf(" <%u region%s written>", t.ndata, t.ndata == 1 ? "" : "s");
		printf("\n");
	}
	if (h.have_exit && h.exit.cut)
		printf("+++ cut short +++\n");
	rdb_tr_close(sc);
	return 0;
}
