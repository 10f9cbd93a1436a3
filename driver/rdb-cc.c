/*
 * rdb-cc: a drop-in gcc that builds programs instrumented for rdb.
 *
 * The stages, per input:  .c --cc -S--> .s --altr--> .rdb.s --as--> .o
 * (.S is preprocessed first; .s goes straight to altr), then the link:
 * static-pie against our crt, librdb and the instrumented musl, then the
 * rdb-iot pass over the executable (docs/iot.md).  Every mode sees the
 * same world (sysroot.c): -E and -M preprocess with the sysroot's headers,
 * links find -l archives only in the sysroot, -L folders and gcc's own
 * folder, and -print-file-name, -print-search-dirs, -dumpmachine answer for
 * the sysroot; other questions about the compiler go to gcc untouched.
 * The compiler's messages and exit status reach the user unchanged;
 * rdb-cc's own errors start with "rdb-cc: ".
 *
 * Environment: RDB_CC (compiler, default gcc), RDB_CC_LIBC_BUILD=1 (building
 * musl itself: no musl headers, links passed through), RDB_CC_KEEP=1 (keep
 * temporaries), RDB_ALTR/RDB_RULES/RDB_MUSL/RDB_LIBRDB/RDB_CRT/RDB_IOT
 * (override paths, see paths.c), RDB_CC_ACTIVE (loop check, set by us).
 */
#include "driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RDBCC_VERSION "0.1"

/* Flags that keep the compiler's hands off rdb's registers (docs/hooks.md);
 * scripts/rdb-cc-flags.sh prints the same list (and -fPIE) for scripts. */
static const char *const reserve_flags[] = {
#include "reserve_flags.def"
};

enum lang { L_NONE, L_C, L_CPPOUT, L_ASM, L_ASMCPP, L_LINK, L_UNSUPPORTED };
enum stop { STOP_LINK, STOP_OBJ, STOP_ASM };

struct input {
	const char *path;
	enum lang lang;
	int link_pos;            /* index in link_items, -1 if none */
	char *obj;               /* object for the link */
};

struct cmdline {
	struct rdbcc_argv orig;  /* argv[1..] as given (for pass-through) */
	struct rdbcc_argv args;  /* after @file expansion */
	struct rdbcc_argv copts; /* options for the compile step */
	struct rdbcc_argv aopts; /* options for the assemble step */
	struct rdbcc_argv dopts; /* -MD/-MMD/-MF/-MT/-MQ/-MP/-MG */
	struct rdbcc_argv lopts; /* options for the link step, before items */
	struct rdbcc_argv items; /* link items in order: inputs, -l, -Wl, ... */
	struct input *in;
	int nin;
	enum stop stop;
	const char *out;
	bool preprocess_only, dep_gen, dep_mf, dep_mt, verbose, dry_run;
	bool syntax_only, relocatable, version, help, info_query;
	bool nostartfiles, nodefaultlibs, nolibc, pic_kept;
	const char *refuse;      /* reason to refuse, or NULL */
};

static const char *compiler(void)
{
	const char *c = getenv("RDB_CC");
	return c && *c ? c : "gcc";
}

static bool libc_build(void)
{
	const char *e = getenv("RDB_CC_LIBC_BUILD");
	return e && *e && strcmp(e, "0") != 0;
}

static bool has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static const char *suffix(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	return dot ? dot : "";
}

/* A word and the language it names: a file's suffix, or -x's argument. */
struct lang_word {
	const char *word;
	enum lang lang;
};

static enum lang lang_lookup(const struct lang_word *t, size_t n, const char *w,
                             enum lang other)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(w, t[i].word))
			return t[i].lang;
	return other;
}

#define U(s) {s, L_UNSUPPORTED}
/* What gcc takes for C and assembly, then its other languages' (refused):
 * any other file goes to the link. */
static const struct lang_word suffixes[] = {
	{".c", L_C}, {".i", L_CPPOUT}, {".s", L_ASM}, {".S", L_ASMCPP}, {".sx", L_ASMCPP},
	U(".cc"), U(".cp"), U(".cxx"), U(".cpp"), U(".CPP"), U(".c++"), U(".C"), U(".ii"),
	U(".m"), U(".mi"), U(".mm"), U(".M"), U(".f"), U(".f90"), U(".F"), U(".go"),
	U(".d"), U(".ads"), U(".adb"), U(".h"), U(".hh"), U(".H"), U(".hpp"),
};
#undef U

/* -x's languages; any other is refused. */
static const struct lang_word x_words[] = {
	{"none", L_NONE}, {"c", L_C}, {"cpp-output", L_CPPOUT},
	{"assembler", L_ASM}, {"assembler-with-cpp", L_ASMCPP},
};

static enum lang lang_of_suffix(const char *path)
{
	return lang_lookup(suffixes, sizeof suffixes / sizeof *suffixes, suffix(path), L_LINK);
}

static enum lang lang_of_x(const char *x)
{
	return lang_lookup(x_words, sizeof x_words / sizeof *x_words, x, L_UNSUPPORTED);
}

/* Options whose argument may be the next word, for the compile step. */
static const char *const compile_arg_opts[] = {
	"-I", "-D", "-U", "-include", "-imacros", "-isystem", "-idirafter",
	"-iprefix", "-iwithprefix", "-iwithprefixbefore", "-iquote",
	"-isysroot", "-imultilib", "-aux-info", "--param", "-dumpbase",
	"-dumpdir", "-dumpbase-ext", "-Xclang", "-Xpreprocessor", "-G", "-A",
};
/* The same, for the link step (the item list, so order is kept). */
static const char *const link_arg_opts[] = {
	"-l", "-L", "-Xlinker", "-T", "-u", "-z", "-e",
};

static bool in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

/* Joined-form prefix of an argument-taking option ("-I" in "-Idir"). */
static bool joined(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(list[i]);
		if (k == 2 && !strncmp(s, list[i], 2) && s[2])
			return true;
	}
	return false;
}

#define N(a) (sizeof a / sizeof *a)

static bool is_query(const char *s)
{
	return has_prefix(s, "-print-") || has_prefix(s, "--print-") ||
	       !strcmp(s, "-dumpversion") || !strcmp(s, "-dumpfullversion") ||
	       !strcmp(s, "-dumpmachine") || !strcmp(s, "-dumpspecs");
}

static void add_input(struct cmdline *c, const char *path, enum lang lang)
{
	c->in = realloc(c->in, (size_t)(c->nin + 1) * sizeof *c->in);
	if (!c->in)
		rdbcc_die("out of memory");
	struct input *in = &c->in[c->nin++];
	in->path = path;
	in->lang = lang == L_NONE ? lang_of_suffix(path) : lang;
	in->link_pos = c->items.n;
	in->obj = NULL;
	rdbcc_argv_push(&c->items, path);  /* replaced by the object later */
}

/* Option a[*i] and its argument, the next word, onto v (*i moves on). */
static void push_opt(struct rdbcc_argv *v, char **a, int *i, const char *next)
{
	if (!next)
		rdbcc_die("missing argument to '%s'", a[*i]);
	rdbcc_argv_push(v, a[*i]);
	rdbcc_argv_push(v, a[++*i]);
}

static void parse(struct cmdline *c)
{
	enum lang xlang = L_NONE;
	char **a = c->args.v;
	for (int i = 0; i < c->args.n; i++) {
		const char *s = a[i];
		const char *next = i + 1 < c->args.n ? a[i + 1] : NULL;
		if (s[0] != '-' || !strcmp(s, "-")) {
			add_input(c, s, xlang);
			continue;
		}
		/* mode and output */
		if (!strcmp(s, "-c")) { c->stop = c->stop == STOP_ASM ? STOP_ASM : STOP_OBJ; continue; }
		if (!strcmp(s, "-S")) { c->stop = STOP_ASM; continue; }
		if (!strcmp(s, "-E") || !strcmp(s, "-M") || !strcmp(s, "-MM")) {
			c->preprocess_only = true;
			continue;
		}
		if (!strcmp(s, "-o")) {
			if (!next)
				rdbcc_die("missing filename after '-o'");
			c->out = a[++i];
			continue;
		}
		if (has_prefix(s, "-o")) { c->out = s + 2; continue; }
		if (!strcmp(s, "-x")) {
			if (!next)
				rdbcc_die("missing argument to '-x'");
			xlang = lang_of_x(a[++i]);
			continue;
		}
		if (has_prefix(s, "-x")) { xlang = lang_of_x(s + 2); continue; }
		if (!strcmp(s, "-v")) { c->verbose = true; continue; }
		if (!strcmp(s, "-###")) { c->dry_run = true; continue; }
		if (!strcmp(s, "--version")) { c->version = true; continue; }
		if (!strcmp(s, "--help")) { c->help = true; continue; }
		if (is_query(s)) {
			c->info_query = true;
			continue;
		}
		if (!strcmp(s, "-fsyntax-only")) { c->syntax_only = true; continue; }
		/* dependency generation during a compile */
		if (!strcmp(s, "-MD") || !strcmp(s, "-MMD")) {
			c->dep_gen = true;
			rdbcc_argv_push(&c->dopts, s);
			continue;
		}
		if (!strcmp(s, "-MF") || !strcmp(s, "-MT") || !strcmp(s, "-MQ")) {
			c->dep_mf |= s[2] == 'F';
			c->dep_mt |= s[2] != 'F';
			push_opt(&c->dopts, a, &i, next);
			continue;
		}
		if (has_prefix(s, "-MF") || has_prefix(s, "-MT") || has_prefix(s, "-MQ")) {
			c->dep_mf |= s[2] == 'F';
			c->dep_mt |= s[2] != 'F';
			rdbcc_argv_push(&c->dopts, s);
			continue;
		}
		if (!strcmp(s, "-MP") || !strcmp(s, "-MG")) {
			rdbcc_argv_push(&c->dopts, s);
			continue;
		}
		/* refused */
		if (!strcmp(s, "-shared")) {
			if (!libc_build())
				c->refuse = "-shared is not supported: rdb programs are linked "
				            "static-pie against the instrumented musl, so there "
				            "are no shared libraries";
			continue;
		}
		if (!strcmp(s, "-m32") || !strcmp(s, "-mx32") || !strcmp(s, "-m16")) {
			c->refuse = "only x86-64 code (-m64) can be instrumented";
			continue;
		}
		if (!strcmp(s, "-masm=intel")) {
			c->refuse = "-masm=intel is not supported: altr reads AT&T "
			            "syntax and would pass Intel syntax through "
			            "uninstrumented";
			continue;
		}
		if (has_prefix(s, "-flto") && !libc_build()) {
			c->refuse = "-flto is not supported: instrumentation works on the "
			            "assembly gcc emits, which -flto replaces with bytecode";
			continue;
		}
		/* dropped: rdb-cc links static-pie itself and keeps its own temps */
		if (!strcmp(s, "-pipe") || has_prefix(s, "-save-temps") ||
		    !strcmp(s, "-static") || !strcmp(s, "-static-pie") ||
		    !strcmp(s, "-pie") || !strcmp(s, "-no-pie") ||
		    !strcmp(s, "-rdynamic") || !strcmp(s, "-static-libgcc") ||
		    !strcmp(s, "-shared-libgcc") || !strcmp(s, "-nopie"))
			continue;
		if (!strcmp(s, "-nostdlib")) { c->nostartfiles = c->nodefaultlibs = true; continue; }
		if (!strcmp(s, "-nostartfiles")) { c->nostartfiles = true; continue; }
		if (!strcmp(s, "-nodefaultlibs")) { c->nodefaultlibs = true; continue; }
		if (!strcmp(s, "-nolibc")) { c->nolibc = true; continue; }
		if (!strcmp(s, "-r")) { c->relocatable = true; continue; }
		/* link items, in order */
		if (in_list(s, link_arg_opts, N(link_arg_opts))) {
			push_opt(&c->items, a, &i, next);
			continue;
		}
		if (joined(s, link_arg_opts, N(link_arg_opts)) || has_prefix(s, "-Wl,") ||
		    !strcmp(s, "-s") || has_prefix(s, "-fuse-ld=")) {
			rdbcc_argv_push(&c->items, s);
			continue;
		}
		/* assembler */
		if (has_prefix(s, "-Wa,")) {
			rdbcc_argv_push(&c->aopts, s);
			continue;
		}
		if (!strcmp(s, "-Xassembler")) {
			push_opt(&c->aopts, a, &i, next);
			continue;
		}
		/* compile, with the argument when separate */
		if (in_list(s, compile_arg_opts, N(compile_arg_opts))) {
			push_opt(&c->copts, a, &i, next);
			continue;
		}
		/* options every step needs */
		if (has_prefix(s, "-B") || has_prefix(s, "-specs=") ||
		    has_prefix(s, "--sysroot")) {
			rdbcc_argv_push(&c->copts, s);
			rdbcc_argv_push(&c->aopts, s);
			rdbcc_argv_push(&c->lopts, s);
			continue;
		}
		if (has_prefix(s, "-g") || has_prefix(s, "-fdebug-prefix-map=") ||
		    has_prefix(s, "-ffile-prefix-map="))
			rdbcc_argv_push(&c->aopts, s);
		if (!strcmp(s, "-fPIC") || !strcmp(s, "-fpic"))
			c->pic_kept = true;
		else if (has_prefix(s, "-fno-pic") || has_prefix(s, "-fno-PIC") ||
		         has_prefix(s, "-fpie") || has_prefix(s, "-fPIE") ||
		         has_prefix(s, "-fno-pie") || has_prefix(s, "-fno-PIE"))
			c->pic_kept = false;
		rdbcc_argv_push(&c->copts, s);
	}
	for (int i = 0; i < c->nin; i++)
		if (c->in[i].lang == L_UNSUPPORTED)
			c->refuse = "only C and assembly inputs can be instrumented "
			            "(C++ and other languages are not supported)";
}

static void usage(void)
{
	printf("usage: rdb-cc [gcc options] FILE...\n"
	       "A drop-in replacement for gcc that builds programs instrumented for\n"
	       "rdb: C is compiled to assembly with %%r12-%%r15 reserved and no red\n"
	       "zone, rewritten by altr with the tracing rules, assembled, and linked\n"
	       "static-pie against rdb's crt, librdb and an instrumented musl.\n"
	       "\n"
	       "All gcc options are accepted.  Every mode sees the instrumented\n"
	       "sysroot: -E and -M use its headers, -lNAME finds only its archives,\n"
	       "-L folders' and gcc's own (libgcc); host libraries are refused.\n"
	       "-print-file-name, -print-search-dirs, -print-sysroot and -dumpmachine\n"
	       "answer for the sysroot; other -print-* and -dump* go to gcc.\n"
	       "-shared, -m32, -masm=intel and -flto are refused; -static, -pie,\n"
	       "-no-pie and -pipe are ignored (the output is always static-pie).\n"
	       "\n"
	       "  -v, --version   say what rdb-cc is and which compiler it drives\n"
	       "  -###            print the commands instead of running them\n"
	       "  --help          this text (then 'gcc --help' for gcc's options)\n"
	       "\n"
	       "Environment:\n"
	       "  RDB_CC=clang          compiler to drive (default gcc)\n"
	       "  RDB_RULES=FILE        altr rules instead of the shipped trace.rules\n"
	       "  RDB_CC_KEEP=1         keep the temporary directory\n"
	       "  RDB_CC_LIBC_BUILD=1   building musl itself: instrument compiles,\n"
	       "                        pass links through to the compiler\n"
	       "  RDB_ALTR, RDB_MUSL, RDB_LIBRDB, RDB_CRT, RDB_IOT\n"
	       "                        override where rdb-cc finds its parts\n");
}

static void print_version(const struct rdbcc_paths *p)
{
	printf("rdb-cc %s (rdb): instrumenting C compiler driver for x86-64 Linux\n"
	       "compiler: %s; altr: %s; rules: %s\nlibc: %s%s\n",
	       RDBCC_VERSION, compiler(), p->altr, p->rules, p->musl,
	       rdbcc_exists(p->musl) ? "" : " (not built)");
}

/* path with its suffix replaced by sfx; without its directory unless
 * keep_dir (gcc puts a.o for dir/a.c in the current directory). */
static char *renamed(const char *path, const char *sfx, bool keep_dir)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	const char *start = keep_dir ? path : base;
	size_t n = dot && dot != base ? (size_t)(dot - start) : strlen(start);
	return rdbcc_xasprintf("%.*s%s", (int)n, start, sfx);
}

struct plan {
	struct rdbcc_argv *cmds;
	char **stdout_to;       /* per command, NULL: inherit */
	int n;
};

static struct rdbcc_argv *plan_add(struct plan *pl)
{
	pl->cmds = realloc(pl->cmds, (size_t)(pl->n + 1) * sizeof *pl->cmds);
	pl->stdout_to = realloc(pl->stdout_to, (size_t)(pl->n + 1) * sizeof *pl->stdout_to);
	if (!pl->cmds || !pl->stdout_to)
		rdbcc_die("out of memory");
	memset(&pl->cmds[pl->n], 0, sizeof *pl->cmds);
	pl->stdout_to[pl->n] = NULL;
	return &pl->cmds[pl->n++];
}

static void push_reserve(struct rdbcc_argv *a, const struct cmdline *c)
{
	for (size_t i = 0; i < N(reserve_flags); i++)
		rdbcc_argv_push(a, reserve_flags[i]);
	if (!c->pic_kept)
		rdbcc_argv_push(a, "-fPIE");
}

static void push_musl_includes(struct rdbcc_argv *a, const struct rdbcc_paths *p,
                               const char *gccinc)
{
	if (libc_build())
		return;
	rdbcc_argv_push(a, "-nostdinc");
	rdbcc_argv_push(a, "-isystem");
	rdbcc_argv_pushf(a, "%s/include", p->musl);
	if (gccinc) {
		rdbcc_argv_push(a, "-isystem");
		rdbcc_argv_push(a, gccinc);
	}
}

/* -MD/-MMD: name the dependency file and target as gcc would for the
 * object, since the compile step's own output is a temporary. */
static void push_deps(struct rdbcc_argv *a, const struct cmdline *c, const char *obj)
{
	rdbcc_argv_append(a, &c->dopts);
	if (!c->dep_gen)
		return;
	if (!c->dep_mf) {
		rdbcc_argv_push(a, "-MF");
		char *d = renamed(obj, ".d", true);
		rdbcc_argv_push(a, d);
		free(d);
	}
	if (!c->dep_mt) {
		rdbcc_argv_push(a, "-MT");
		rdbcc_argv_push(a, obj);
	}
}

/* The commands for one compilable input; returns the object (or .s) made. */
static void plan_compile(struct plan *pl, const struct cmdline *c,
                         const struct rdbcc_paths *p, const char *gccinc,
                         struct input *in, int k, const char *final)
{
	const char *tmp = rdbcc_tmpdir();
	char *pre = NULL;       /* assembly to instrument */
	/* the name make expects in the dependency file */
	char *depobj = c->stop == STOP_LINK && !c->out ? renamed(in->path, ".o", false)
	             : rdbcc_xstrdup(c->stop == STOP_LINK ? c->out : final);
	if (in->lang == L_C || in->lang == L_CPPOUT || in->lang == L_ASMCPP) {
		/* C compiled (-S, with the reserved registers), or .S preprocessed (-E) */
		bool asmcpp = in->lang == L_ASMCPP;
		pre = rdbcc_xasprintf("%s/%d.s", tmp, k);
		struct rdbcc_argv *a = plan_add(pl);
		rdbcc_argv_push(a, compiler());
		rdbcc_argv_push(a, asmcpp ? "-E" : "-S");
		rdbcc_argv_append(a, &c->copts);
		push_deps(a, c, depobj);
		if (!asmcpp)
			push_reserve(a, c);
		push_musl_includes(a, p, gccinc);
		rdbcc_argv_push(a, "-x");
		rdbcc_argv_push(a, asmcpp ? "assembler-with-cpp" : in->lang == L_C ? "c" : "cpp-output");
		rdbcc_argv_push(a, in->path);
		rdbcc_argv_push(a, "-o");
		rdbcc_argv_push(a, pre);
	} else {
		pre = rdbcc_xstrdup(in->path);
	}
	free(depobj);
	char *inst = c->stop == STOP_ASM ? rdbcc_xstrdup(final)
	                                 : rdbcc_xasprintf("%s/%d.rdb.s", tmp, k);
	struct rdbcc_argv *a = plan_add(pl);
	rdbcc_argv_push(a, p->altr);
	/* no -q: an instruction altr does not know escapes the hooks, and the
	 * user must hear of it */
	rdbcc_argv_push(a, "-r");
	rdbcc_argv_push(a, p->rules);
	if (in->lang == L_ASM || in->lang == L_ASMCPP) {
		/* hand-written assembly may use the red zone: hooks that push or
		 * call step over it (trace.rules, RZ_ENTER/RZ_LEAVE) */
		rdbcc_argv_push(a, "-D");
		rdbcc_argv_push(a, "RZ_ENTER=lea -128(%rsp), %rsp");
		rdbcc_argv_push(a, "-D");
		rdbcc_argv_push(a, "RZ_LEAVE=lea 128(%rsp), %rsp");
	}
	rdbcc_argv_push(a, pre);
	rdbcc_argv_push(a, "-o");
	rdbcc_argv_push(a, inst);
	if (c->stop != STOP_ASM) {
		a = plan_add(pl);
		rdbcc_argv_push(a, compiler());
		rdbcc_argv_push(a, "-c");
		rdbcc_argv_append(a, &c->aopts);
		rdbcc_argv_push(a, "-x");
		rdbcc_argv_push(a, "assembler");
		rdbcc_argv_push(a, inst);
		rdbcc_argv_push(a, "-o");
		rdbcc_argv_push(a, final);
	}
	free(pre);
	free(inst);
}

/* Only instrumented code goes into the link: archives found in the
 * sysroot's world (sysroot.c), no host or shared library. */
static void check_link_inputs(struct cmdline *c, const struct rdbcc_paths *p)
{
	for (int i = 0; i < c->nin; i++) {
		if (c->in[i].lang != L_LINK)
			continue;
		char *msg = rdbcc_refused_input(c->in[i].path);
		if (msg)
			rdbcc_die("%s", msg);
	}
	char *msg = rdbcc_resolve_libs(&c->items, p);
	if (msg)
		rdbcc_die("%s", msg);
}

static char *ask_compiler(const char *what)
{
	struct rdbcc_argv a = {0};
	rdbcc_argv_push(&a, "gcc");
	rdbcc_argv_push(&a, what);
	char *r = rdbcc_capture(&a);
	rdbcc_argv_free(&a);
	return r;
}

static void plan_link(struct plan *pl, const struct cmdline *c, const struct rdbcc_paths *p)
{
	const char *out = c->out ? c->out : "a.out";
	struct rdbcc_argv *a = plan_add(pl);
	/* gcc links whatever compiled the objects: the link takes no code
	 * generation flags, and clang may lack libgcc's paths. */
	rdbcc_argv_push(a, "gcc");
	rdbcc_argv_append(a, &c->lopts);
	if (c->relocatable) {
		rdbcc_argv_push(a, "-r");
		rdbcc_argv_push(a, "-nostdlib");
		rdbcc_argv_push(a, "-o");
		rdbcc_argv_push(a, out);
		rdbcc_argv_append(a, &c->items);
		return;
	}
	rdbcc_argv_push(a, "-static-pie");
	/* rdb replay refuses a trace from another build: it needs the id,
	 * whatever the system gcc's defaults are. */
	rdbcc_argv_push(a, "-Wl,--build-id=sha1");
	rdbcc_argv_push(a, "-nostdlib");
	rdbcc_argv_push(a, "-nostartfiles");
	rdbcc_argv_push(a, "-o");
	rdbcc_argv_push(a, out);
	if (!c->nostartfiles) {
		rdbcc_argv_push(a, p->crt);
		rdbcc_argv_pushf(a, "%s/lib/rcrt1.o", p->musl);
		rdbcc_argv_pushf(a, "%s/lib/crti.o", p->musl);
	}
	/* musl's lib/ first, so -lm -lpthread -lrt ... find musl's (empty) ones */
	rdbcc_argv_pushf(a, "-L%s/lib", p->musl);
	rdbcc_argv_append(a, &c->items);
	rdbcc_argv_push(a, "-Wl,--start-group");
	rdbcc_argv_push(a, p->librdb);
	if (!c->nodefaultlibs) {
		if (!c->nolibc)
			rdbcc_argv_pushf(a, "%s/lib/libc.a", p->musl);
		char *libgcc = ask_compiler("-print-libgcc-file-name");
		char *libgcc_eh = ask_compiler("-print-file-name=libgcc_eh.a");
		if (libgcc)
			rdbcc_argv_push(a, libgcc);
		if (libgcc_eh && libgcc_eh[0] == '/')
			rdbcc_argv_push(a, libgcc_eh);
		free(libgcc);
		free(libgcc_eh);
	}
	rdbcc_argv_push(a, "-Wl,--end-group");
	if (!c->nostartfiles)
		rdbcc_argv_pushf(a, "%s/lib/crtn.o", p->musl);
	a = plan_add(pl);
	rdbcc_argv_push(a, p->iot);
	rdbcc_argv_push(a, out);
}

/* What the link needs and is missing: a message, or NULL. */
static char *missing_setup(const struct cmdline *c, const struct rdbcc_paths *p,
                           bool compiling, bool linking)
{
	if (compiling && !rdbcc_exists(p->altr))
		return rdbcc_xasprintf("altr not found at %s; build it with 'cmake --build "
		                       "BUILD --target altr'", p->altr);
	if (compiling && !rdbcc_exists(p->rules))
		return rdbcc_xasprintf("rules file %s not found", p->rules);
	if (libc_build())
		return NULL;
	char *inc = rdbcc_xasprintf("%s/include/stdio.h", p->musl);
	char *lib = rdbcc_xasprintf("%s/lib/libc.a", p->musl);
	bool have_musl = rdbcc_exists(inc) && (!linking || rdbcc_exists(lib));
	free(inc);
	free(lib);
	if ((compiling || (linking && !c->nodefaultlibs)) && !have_musl)
		return rdbcc_xasprintf("the instrumented musl is not built (looked in %s); %s",
		                       p->musl, rdbcc_setup_hint(p));
	if (linking && !c->relocatable) {
		if (!rdbcc_exists(p->librdb))
			return rdbcc_xasprintf("librdb not found at %s; build rdb first "
			                       "('cmake --build BUILD')", p->librdb);
		if (!c->nostartfiles && !rdbcc_exists(p->crt))
			return rdbcc_xasprintf("rdb's start object not found at %s; build rdb "
			                       "first ('cmake --build BUILD')", p->crt);
		if (!rdbcc_exists(p->iot))
			return rdbcc_xasprintf("rdb-iot not found at %s", p->iot);
	}
	return NULL;
}

/* Exec the compiler with the original arguments, untouched. */
static int pass_through(const struct cmdline *c)
{
	struct rdbcc_argv a = {0};
	rdbcc_argv_push(&a, compiler());
	rdbcc_argv_append(&a, &c->orig);
	return rdbcc_exec(&a);
}

/* -E, -M, -MM: gcc with the compile step's view of the headers, so that a
 * configure check of a header agrees with the compile that follows. */
static int preprocess(const struct cmdline *c, const struct rdbcc_paths *p)
{
	struct rdbcc_argv a = {0};
	rdbcc_argv_push(&a, compiler());
	rdbcc_argv_append(&a, &c->orig);
	push_reserve(&a, c);
	char *gccinc = ask_compiler("-print-file-name=include");
	push_musl_includes(&a, p, gccinc);
	free(gccinc);
	return rdbcc_exec(&a);
}

/* Each -print-* / -dump* in order: rdb-cc's answer where the sysroot
 * changes it, gcc's otherwise. */
static int answer_queries(const struct cmdline *c, const struct rdbcc_paths *p)
{
	bool ours = false;
	for (int i = 0; i < c->args.n && !ours; i++)
		ours = is_query(c->args.v[i]) && rdbcc_own_query(c->args.v[i]);
	if (!ours)
		return pass_through(c);
	for (int i = 0; i < c->args.n; i++) {
		const char *s = c->args.v[i];
		if (!is_query(s))
			continue;
		if (rdbcc_own_query(s)) {
			rdbcc_answer_query(s, p);
			continue;
		}
		fflush(stdout);
		struct rdbcc_argv a = {0};
		rdbcc_argv_push(&a, compiler());
		rdbcc_argv_push(&a, s);
		int st = rdbcc_run(&a, NULL, false);
		rdbcc_argv_free(&a);
		if (st)
			return st;
	}
	return 0;
}

/* clang 14 has no -ffixed-r12..r15 on x86-64: without them the code it
 * emits may use rdb's registers, so refuse rather than build wrong code. */
static void check_compiler_reserves(void)
{
	const char *cc = compiler();
	const char *base = strrchr(cc, '/');
	base = base ? base + 1 : cc;
	if (!strncmp(base, "gcc", 3) || strstr(base, "-gcc"))
		return;
	struct rdbcc_argv a = {0};
	rdbcc_argv_push(&a, cc);
	for (size_t i = 0; i < N(reserve_flags); i++)
		rdbcc_argv_push(&a, reserve_flags[i]);
	rdbcc_argv_push(&a, "-fsyntax-only");
	rdbcc_argv_push(&a, "-x");
	rdbcc_argv_push(&a, "c");
	rdbcc_argv_push(&a, "/dev/null");
	struct rdbcc_argv sh = {0};
	rdbcc_argv_push(&sh, "sh");
	rdbcc_argv_push(&sh, "-c");
	rdbcc_argv_push(&sh, "\"$@\" >/dev/null 2>&1 && echo ok");
	rdbcc_argv_push(&sh, "sh");
	rdbcc_argv_append(&sh, &a);
	char *ok = rdbcc_capture(&sh);
	rdbcc_argv_free(&a);
	rdbcc_argv_free(&sh);
	if (!ok)
		rdbcc_die("%s cannot reserve %%r12-%%r15 (it rejects -ffixed-r12 ... "
		          "-ffixed-r15 on x86-64), so code it emits could clobber rdb's "
		          "registers; use gcc (unset RDB_CC)", cc);
	free(ok);
}

static bool regular_file(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int main(int argc, char **argv)
{
	if (getenv("RDB_CC_ACTIVE"))
		rdbcc_die("RDB_CC_ACTIVE is set: rdb-cc would be calling itself "
		          "(does RDB_CC, or 'gcc' in PATH, name rdb-cc?)");
	setenv("RDB_CC_ACTIVE", "1", 1);

	struct cmdline c = {.stop = STOP_LINK};
	for (int i = 1; i < argc; i++)
		rdbcc_argv_push(&c.orig, argv[i]);
	if (rdbcc_expand_atfiles(argc - 1, argv + 1, &c.args) < 0)
		return 1;
	parse(&c);

	struct rdbcc_paths p;
	rdbcc_find_paths(&p);

	if (c.help) {
		usage();
		return 0;
	}
	if (c.version || (c.verbose && c.nin == 0 && !c.info_query && !c.preprocess_only)) {
		print_version(&p);
		fflush(stdout);
		/* then gcc's own answer, which configure scripts parse */
		return pass_through(&c);
	}
	if (c.refuse)
		rdbcc_die("%s", c.refuse);
	if (libc_build() && (c.preprocess_only || c.info_query))
		return pass_through(&c);
	if (c.info_query)
		return answer_queries(&c, &p);
	if (c.preprocess_only)
		return preprocess(&c, &p);
	if (c.nin == 0)
		return pass_through(&c);
	if (libc_build() && c.stop == STOP_LINK && !c.syntax_only)
		return pass_through(&c);

	/* what will run */
	bool linking = c.stop == STOP_LINK && !c.syntax_only;
	int ncompile = 0;
	for (int i = 0; i < c.nin; i++)
		if (c.in[i].lang != L_LINK)
			ncompile++;
	if (c.out && c.stop != STOP_LINK && ncompile > 1)
		rdbcc_die("fatal error: cannot specify '-o' with '-c', '-S' or '-E' "
		          "with multiple files");
	if (!c.dry_run) {
		char *msg = missing_setup(&c, &p, ncompile > 0, linking);
		if (msg)
			rdbcc_die("%s", msg);
	}
	if (ncompile > 0)
		check_compiler_reserves();
	char *gccinc = ask_compiler("-print-file-name=include");

	struct plan pl = {0};
	if (c.syntax_only) {
		struct rdbcc_argv *a = plan_add(&pl);
		rdbcc_argv_push(a, compiler());
		rdbcc_argv_append(a, &c.copts);
		rdbcc_argv_push(a, "-fsyntax-only");
		push_reserve(a, &c);
		push_musl_includes(a, &p, gccinc);
		for (int i = 0; i < c.nin; i++)
			if (c.in[i].lang != L_LINK)
				rdbcc_argv_push(a, c.in[i].path);
	} else {
		int k = 0;
		for (int i = 0; i < c.nin; i++) {
			struct input *in = &c.in[i];
			if (in->lang == L_LINK) {
				if (c.stop != STOP_LINK)
					fprintf(stderr, "rdb-cc: warning: %s: linker input file "
					        "unused because linking not done\n", in->path);
				continue;
			}
			if (c.stop == STOP_ASM && in->lang != L_C && in->lang != L_CPPOUT)
				continue;   /* gcc -S makes nothing of assembly either */
			char *final;
			if (c.stop == STOP_LINK)
				final = rdbcc_xasprintf("%s/%d.o", rdbcc_tmpdir(), k);
			else if (c.out)
				final = rdbcc_xstrdup(c.out);
			else
				final = renamed(in->path, c.stop == STOP_ASM ? ".s" : ".o", false);
			plan_compile(&pl, &c, &p, gccinc, in, k, final);
			if (c.stop == STOP_LINK) {
				free(c.items.v[in->link_pos]);
				c.items.v[in->link_pos] = final;
			} else {
				free(final);
			}
			k++;
		}
		if (linking && !libc_build())
			check_link_inputs(&c, &p);
		if (linking)
			plan_link(&pl, &c, &p);
	}

	for (int i = 0; i < pl.n; i++) {
		if (c.dry_run) {
			rdbcc_argv_print(&pl.cmds[i], 2);  /* gcc -### writes to stderr */
			continue;
		}
		const char *exe = c.out ? c.out : "a.out";
		bool iot_step = linking && !c.relocatable && i == pl.n - 1;
		/* rdb-iot rewrites regular files only (not -o /dev/null) */
		if (iot_step && !regular_file(exe))
			continue;
		int st = rdbcc_run(&pl.cmds[i], pl.stdout_to[i], c.verbose);
		if (st != 0) {
			/* like gcc, leave no half-made executable behind */
			if (iot_step && regular_file(exe))
				unlink(exe);
			return st;
		}
	}
	return 0;
}
