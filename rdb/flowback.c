/* flowback.c: `rdb flowback`, "when was this value last written?"
 * (docs/flowback.md).  Two steps, after the paper's flowback values:
 *   1. the `written` stream (the bytes each interval wrote, recorded at
 *      every boundary) names the last interval J before the query point
 *      that wrote any of the bytes, from the trace alone;
 *   2. a quiet replay of interval J alone, with the runtime's watchpoint on
 *      the bytes (runtime/watch.c), names the instruction or syscall that
 *      wrote them last, its SIC count, and the value it left.
 * Addresses are the program's (ASLR is off when recording); symbols and
 * source lines come from the executable's symbol table and DWARF. */
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rdb.h"
#include "symtab.h"

static const char usage_text[] =
	"usage: rdb flowback [--at K] [--size N] [--no-replay] [--pid ID] DIR WHAT\n"
	"When were these bytes last written?  WHAT is an address (0x...) or a global\n"
	"symbol of the program, optionally +OFFSET.  rdb finds the last interval that\n"
	"wrote them from the trace, then replays that interval alone to name the\n"
	"instruction (function, source line, SIC count) or the syscall that wrote them\n"
	"last, and the value it left.\n"
	"  --at K       the last write before interval K starts (default: the end of the run)\n"
	"  --size N     bytes to ask about (default: the symbol's size, or 1)\n"
	"  --no-replay  only the interval, from the trace (no replay)\n"
	"  --pid ID     process ID of a recorded tree (rdb ps DIR lists them)\n";

struct query {
	const char *dir, *what;
	uint64_t at, size;
	int replay;
	uint64_t addr;
	char label[256]; /* how to name the bytes in messages */
};

/* ---- the executable: symbols and lines ---------------------------------- */

struct image {
	int fd;
	Elf *elf;
	Dwarf *dw;
	uint64_t bias;     /* run-time address minus link address */
};

static void image_open(struct image *im, const struct rdb_header *h)
{
	memset(im, 0, sizeof *im);
	elf_version(EV_CURRENT);
	im->fd = open(h->image, O_RDONLY | O_CLOEXEC);
	if (im->fd < 0)
		rdb_fatal("%s: %s", h->exe, strerror(errno));
	im->elf = elf_begin(im->fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	if (!im->elf || !gelf_getehdr(im->elf, &eh))
		rdb_fatal("%s: not an ELF file: %s", h->exe, elf_errmsg(-1));
	uint64_t entry = 0;
	for (size_t i = 0; i < h->nauxv; i++)
		if (h->auxv[2 * i] == 9 /* AT_ENTRY */)
			entry = h->auxv[2 * i + 1];
	if (!entry)
		rdb_fatal("%s: the header has no AT_ENTRY: cannot place the program's symbols",
		          h->exe);
	im->bias = entry - eh.e_entry;
	im->dw = dwarf_begin_elf(im->elf, DWARF_C_READ, NULL); /* NULL: no -g */
}

static void image_close(struct image *im)
{
	if (im->dw)
		dwarf_end(im->dw);
	elf_end(im->elf);
	close(im->fd);
}

/* A global (or weak) symbol wins; without one, exactly one local may
 * (libc has statics named like a program's globals: `buf`). */
struct by_name { const char *name; GElf_Sym sym; int globals, locals; };

static int match_name(void *ctx, const char *name, const GElf_Sym *s)
{
	struct by_name *b = ctx;
	int kind = GELF_ST_TYPE(s->st_info), local = GELF_ST_BIND(s->st_info) == STB_LOCAL;
	if (strcmp(name, b->name) || s->st_shndx == SHN_UNDEF ||
	    (kind != STT_OBJECT && kind != STT_FUNC && kind != STT_NOTYPE && kind != STT_TLS))
		return 0;
	if (!local && !b->globals++)
		b->sym = *s;
	if (local && !b->globals && !b->locals)
		b->sym = *s;
	b->locals += local;
	return 0;
}

struct by_addr { uint64_t vaddr; int func; const char *name; uint64_t value; };

static int match_addr(void *ctx, const char *name, const GElf_Sym *s)
{
	struct by_addr *b = ctx;
	int kind = GELF_ST_TYPE(s->st_info);
	if ((b->func ? kind != STT_FUNC : kind != STT_OBJECT) || s->st_shndx == SHN_UNDEF)
		return 0;
	if (b->vaddr >= s->st_value && b->vaddr < s->st_value + (s->st_size ? s->st_size : 1)) {
		b->name = name;
		b->value = s->st_value;
		return 1;
	}
	return 0;
}

/* "main+0x1b (prog.c:42)" for a link address; parts left out when unknown. */
static void describe_pc(struct image *im, uint64_t vaddr, char *out, size_t cap)
{
	struct by_addr b = {vaddr, 1, NULL, 0};
	rdb_symtab_each(im->elf, match_addr, &b);
	int n = b.name ? snprintf(out, cap, "%s+0x%llx", b.name, (unsigned long long)(vaddr - b.value))
	               : snprintf(out, cap, "link address 0x%llx", (unsigned long long)vaddr);
	Dwarf_Die cu;
	Dwarf_Line *line;
	int lineno;
	const char *src;
	if (im->dw && n > 0 && (size_t)n < cap && dwarf_addrdie(im->dw, vaddr, &cu) &&
	    (line = dwarf_getsrc_die(&cu, vaddr)) && (src = dwarf_linesrc(line, NULL, NULL)) &&
	    dwarf_lineno(line, &lineno) == 0)
		snprintf(out + n, cap - (size_t)n, " (%s:%d)", src, lineno);
}

/* ---- the arguments -------------------------------------------------------- */

static uint64_t number(const char *dir, const char *opt, const char *s)
{
	char *e;
	errno = 0;
	unsigned long long v = strtoull(s, &e, 0);
	if (!*s || *e || errno || *s == '-')
		rdb_fatal("%s: %s '%s': not a number", dir, opt, s);
	return v;
}

static void parse(int argc, char **argv, struct query *q)
{
	memset(q, 0, sizeof q[0]);
	q->replay = 1;
	const char *at = NULL, *size = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage_text, stdout);
			exit(0);
		} else if (!strcmp(a, "--no-replay"))
			q->replay = 0;
		else if ((!strcmp(a, "--at") || !strcmp(a, "--size")) && i + 1 < argc)
			*(a[2] == 'a' ? &at : &size) = argv[++i];
		else if (!strncmp(a, "--at=", 5))
			at = a + 5;
		else if (!strncmp(a, "--size=", 7))
			size = a + 7;
		else if (a[0] == '-' || (q->dir && q->what)) {
			rdb_warn("flowback: unexpected argument '%s'", a);
			fputs(usage_text, stderr);
			exit(2);
		} else
			*(q->dir ? &q->what : &q->dir) = a;
	}
	if (!q->what) {
		fputs(usage_text, stderr);
		exit(2);
	}
	if (at && !(q->at = number(q->dir, "--at", at)))
		rdb_fatal("%s: --at 0: intervals count from 1", q->dir);
	if (size && !(q->size = number(q->dir, "--size", size)))
		rdb_fatal("%s: --size 0: ask about at least one byte", q->dir);
}

/* WHAT: an address, or SYMBOL[+OFFSET]. */
static void resolve(struct query *q, struct image *im)
{
	if (q->what[0] >= '0' && q->what[0] <= '9') {
		q->addr = number(q->dir, "address", q->what);
		if (!q->size)
			q->size = 1;
		if (q->addr + q->size < q->addr)
			rdb_fatal("%s: --size %llu runs past the end of the address space", q->dir,
			          (unsigned long long)q->size);
		struct by_addr b = {q->addr - im->bias, 0, NULL, 0};
		if (rdb_symtab_each(im->elf, match_addr, &b) && b.name)
			snprintf(q->label, sizeof q->label, "0x%llx (%s+%llu)",
			         (unsigned long long)q->addr, b.name,
			         (unsigned long long)(q->addr - im->bias - b.value));
		else
			snprintf(q->label, sizeof q->label, "0x%llx", (unsigned long long)q->addr);
		return;
	}
	char name[256];
	snprintf(name, sizeof name, "%s", q->what);
	uint64_t off = 0;
	char *plus = strchr(name, '+');
	if (plus) {
		*plus = 0;
		off = number(q->dir, "offset", plus + 1);
	}
	struct by_name b = {name, {0}, 0, 0};
	rdb_symtab_each(im->elf, match_name, &b);
	if (!b.globals && !b.locals)
		rdb_fatal("%s: no symbol '%s' in the recorded executable", q->dir, name);
	if (!b.globals && b.locals > 1)
		rdb_fatal("%s: %d static symbols are named '%s' and none is global: ask with "
		          "the address (nm shows them)", q->dir, b.locals, name);
	if (GELF_ST_TYPE(b.sym.st_info) == STT_TLS)
		rdb_fatal("%s: '%s' is thread-local: ask with its address", q->dir, name);
	q->addr = b.sym.st_value + im->bias + off;
	if (!q->size)
		q->size = b.sym.st_size > off ? b.sym.st_size - off : 1;
	if (q->addr + q->size < q->addr)
		rdb_fatal("%s: --size %llu runs past the end of the address space", q->dir,
		          (unsigned long long)q->size);
	snprintf(q->label, sizeof q->label, "%s (0x%llx, %llu byte%s)", q->what,
	         (unsigned long long)q->addr, (unsigned long long)q->size, q->size == 1 ? "" : "s");
}

/* ---- step 2: the replay of interval j ------------------------------------ */

static void print_value(const struct rdb_tf_watch_hit *e)
{
	printf("  value now:   ");
	uint64_t all = e->nvalue < 64 ? (1ull << e->nvalue) - 1 : ~0ull;
	for (uint32_t i = 0; i < e->nvalue; i++) {
		if (e->known >> i & 1)
			printf("%02x", e->value[i]);
		else
			printf("??");
		printf("%s", i + 1 < e->nvalue ? " " : "");
	}
	if (e->nvalue && (e->known & all) != all)
		printf(" (??: a byte interval %llu did not touch; its value is not in the trace "
		       "there)", (unsigned long long)e->interval);
	else if (e->nvalue && e->nvalue <= 8) {
		uint64_t v = 0;
		memcpy(&v, e->value, e->nvalue);
		printf(" (%llu as a little-endian integer)", (unsigned long long)v);
	}
	printf("%s\n", !e->nvalue ? "(unreadable: not mapped)"
	                : e->nvalue < e->len ? " (the first bytes only)" : "");
}

/* The TRAP of syscall id, from interval j's frames on. */
static int find_trap(const char *dir, const struct rdb_ivx *x, uint64_t j, uint64_t id,
                     struct rdb_tf_trap *out)
{
	struct rdb_tr *r = rdb_tr_open(dir, RDB_TF_S_SYSCALLS);
	int found = 0;
	if (j == 1 || rdb_tr_seek_interval(r, x, j)) {
		uint32_t t;
		const void *p;
		size_t n;
		while (!found && rdb_tr_next(r, &t, &p, &n)) {
			if (t != RDB_TF_TRAP || n != sizeof *out)
				continue;
			memcpy(out, p, sizeof *out);
			found = out->id == id;
			if (out->id > id)
				break;
		}
	}
	rdb_tr_close(r);
	return found;
}

/* Replays interval j with the watch and names the last write (before:
 * the last one it says is before the question's point, NULL: all): 0,
 * 1 (failed, said), or 2 (no write before the point: nothing said). */
static int replay_interval(const struct query *q, struct image *im, const struct rdb_ivx *x,
                           uint64_t j, rdb_flowback_before before, void *ctx)
{
	struct rdb_tf_watch w = {q->addr, q->size};
	struct rdb_tf_watch_hit hits[RDB_TF_WATCH_KEEP + 1];
	size_t n = 0;
	uint64_t complete = rdb_feed_last_complete(q->dir, x);
	struct rdb_replay_opts o = {q->dir, j <= complete ? j : complete, j, RDB_TF_HELLO_QUIET, &w,
	                             0, NULL, NULL, 0};
	if (!o.from)
		o.from = 1;
	rdb_replay(&o, hits, sizeof hits / sizeof *hits, &n);
	if (!n || hits[n - 1].kind != RDB_TF_WH_END) {
		printf("  the replay of interval %llu did not report its writes (it failed: see "
		       "above)\n", (unsigned long long)j);
		return 1;
	}
	const struct rdb_tf_watch_hit *e = &hits[n - 1], *last = NULL;
	size_t kept = 0;
	for (size_t i = 0; i + 1 < n; i++)
		if (hits[i].interval == j) {
			kept++;
			if (!before || before(ctx, &hits[i]))
				last = &hits[i];
		}
	if (!last && before && kept && e->total > kept) {
		printf("  interval %llu wrote them %llu times, the last %zu after here: the last "
		       "write before here is not known (ask from an earlier point)\n",
		       (unsigned long long)j, (unsigned long long)e->total, kept);
		return 1;
	}
	if (!last && before && kept)
		return 2;
	if (!last) {
		printf("  the replay of interval %llu saw no write to them: the written ranges "
		       "and the replay disagree\n", (unsigned long long)j);
		return 1;
	}
	char where[512];
	switch (last->kind) {
	case RDB_TF_WH_SYSCALL: {
		struct rdb_tf_trap t;
		printf("  by:          the kernel, in syscall ");
		if (find_trap(q->dir, x, j, last->sc_id, &t))
			rdb_show_trap(stdout, &t);
		else
			printf("#%llu\n", (unsigned long long)last->sc_id);
		break;
	}
	case RDB_TF_WH_PROGRAM:
		describe_pc(im, last->pc, where, sizeof where);
		printf("  by:          %s\n", where);
		break;
	case RDB_TF_WH_LATE:
		printf("  by:          an instruction rdb cannot name (the watchpoint's signal came "
		       "late)\n");
		break;
	default:
		printf("  by:          the runtime (rdb's own code, on the program's behalf)\n");
	}
	if (last->kind == RDB_TF_WH_SYSCALL)
		printf("  when:        interval %llu, SIC count %llu, in syscall #%llu\n",
		       (unsigned long long)j, (unsigned long long)last->sic,
		       (unsigned long long)last->sc_id);
	else
		printf("  when:        interval %llu, SIC count %llu (after syscall #%llu)\n",
		       (unsigned long long)j, (unsigned long long)last->sic,
		       (unsigned long long)last->sc_id);
	/* a run with threads: which one wrote (the one holding the token;
	 * named as gdb names it, by slot and birth) */
	struct rdb_births *b = rdb_births_read(q->dir);
	if (rdb_births_any(b)) {
		if (!last->slot)
			printf("  thread:      the main thread (slot 0)\n");
		else
			printf("  thread:      slot %u, born at syscall %llu\n", last->slot,
			       (unsigned long long)rdb_born_at(b, last->slot, j, last->sc_id));
	}
	rdb_births_free(b);
	printf("  bytes:       0x%llx..0x%llx of them\n", (unsigned long long)last->addr,
	       (unsigned long long)(last->addr + last->len - 1));
	printf("  writes to them in interval %llu: %llu\n", (unsigned long long)j,
	       (unsigned long long)e->total);
	if (!before) /* the value at the interval's end, not the point's */
		print_value(e);
	return 0;
}

/* The answer for the point before interval `at` (the last write before
 * it), the header line printed: rdb's exit status. */
static int answer(struct query *q, struct image *im, struct rdb_ivx *x, uint64_t at,
                  const struct rdb_header *h)
{
	uint64_t unknown, known;
	uint64_t j = rdb_writes_last(q->dir, x, at, q->addr, q->addr + q->size, &unknown, &known);
	if (at > 1 && !known)
		rdb_fatal("%s: the trace has no written ranges before interval %llu (recorded "
		          "without intervals, -i 0, or cut short at once)", q->dir,
		          (unsigned long long)at);
	/* An interval without records may have written them: never claim it
	 * did not. */
	if (unknown)
		printf("  interval %llu%s is not described by the trace (%s): it may have "
		       "written them\n", (unsigned long long)unknown,
		       unknown > 1 && unknown > j + 1 ? " (and maybe others before it)" : "",
		       h->have_exit && !h->exit.cut ? "no interval data was kept for it"
		                                    : "the recording was cut short");
	int res = 0;
	if (!j && unknown)
		printf("  not written in the intervals the trace describes\n");
	else if (!j)
		printf("  not written since the program started: the value comes from the "
		       "executable or the kernel's start-up\n");
	else {
		printf("  last %swritten in interval %llu", unknown ? "known to be " : "",
		       (unsigned long long)j);
		if (j + 1 < at && !unknown)
			printf(" (intervals %llu to %llu did not write them)", (unsigned long long)j + 1,
			       (unsigned long long)at - 1);
		printf("\n");
		if (q->replay)
			res = replay_interval(q, im, x, j, NULL, NULL);
	}
	return res;
}

/* The trace's written ranges, at least up to interval `upto`. */
static struct rdb_ivx *written_index(const char *dir, uint64_t *last)
{
	struct rdb_ivx *x = rdb_ivx_read(dir);
	*last = rdb_ivx_last(x, RDB_TF_S_WRITTEN);
	if (!*last)
		rdb_fatal("%s: the trace has no written ranges (recorded by an rdb without "
		          "flowback)", dir);
	return x;
}

int rdb_cmd_flowback(int argc, char **argv)
{
	struct query q;
	parse(argc, argv, &q);
	struct rdb_header h;
	rdb_read_header(q.dir, &h);
	rdb_replay_check_buildid(q.dir, &h); /* symbols of another build would lie */
	struct image im;
	image_open(&im, &h);
	resolve(&q, &im);
	uint64_t last;
	struct rdb_ivx *x = written_index(q.dir, &last);
	uint64_t at = q.at ? q.at : last + 1;
	if (at > last + 1)
		rdb_fatal("%s: --at %llu: the trace has %llu intervals", q.dir,
		          (unsigned long long)at, (unsigned long long)last);
	if (q.at)
		printf("%s, before interval %llu:\n", q.label, (unsigned long long)at);
	else
		printf("%s, at the end of the run (interval %llu):\n", q.label,
		       (unsigned long long)last);
	int res = answer(&q, &im, x, at, &h);
	rdb_ivx_free(x);
	image_close(&im);
	return res;
}

int rdb_flowback_here(const char *dir, const char *what, uint64_t size, uint64_t interval,
                      const char *here, rdb_flowback_before before, void *ctx)
{
	struct query q;
	memset(&q, 0, sizeof q);
	q.dir = dir;
	q.what = what;
	q.size = size;
	q.replay = 1;
	struct rdb_header h;
	rdb_read_header(q.dir, &h);
	rdb_replay_check_buildid(q.dir, &h);
	struct image im;
	image_open(&im, &h);
	resolve(&q, &im);
	uint64_t last;
	struct rdb_ivx *x = written_index(q.dir, &last);
	printf("%s, before %s:\n", q.label, here);
	int res = 2;
	/* the current interval first: its writes before here */
	uint64_t unknown, known;
	if (interval <= last &&
	    rdb_writes_last(q.dir, x, interval + 1, q.addr, q.addr + q.size, &unknown, &known) ==
	        interval && !unknown)
		res = replay_interval(&q, &im, x, interval, before, ctx);
	if (res == 2) {
		printf("  not written in interval %llu before here\n", (unsigned long long)interval);
		res = interval > 1 ? answer(&q, &im, x, interval, &h) : 0;
		if (interval == 1)
			printf("  not written since the program started: the value comes from the "
			       "executable or the kernel's start-up\n");
	}
	rdb_ivx_free(x);
	image_close(&im);
	return res;
}
