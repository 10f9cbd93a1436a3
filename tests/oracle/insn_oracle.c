/*
 * insn_oracle.c: cross-checks altr's instruction database against
 * capstone.  Reads .s files (or every .s under directories) with altr's
 * reader, keeps one instance of every distinct instruction form (mnemonic,
 * prefixes, operand shapes), assembles them all in one file with `as
 * --64`, a label before each, and disassembles each with capstone in
 * detail mode.  For every form it compares the explicit memory operand's
 * access and size and the flags read and written; a disagreement prints
 * the form and both answers and makes the exit status 1, unless the
 * exceptions table below excuses it with a reason.  Forms `as` rejects
 * (references to numeric labels that do not exist here, ...) are counted
 * and skipped.
 *
 * usage: insn_oracle [-v] PATH...
 */
#include "altr.h"

#include <capstone/capstone.h>
#include <ctype.h>
#include <dirent.h>
#include <elf.h>
#include <fnmatch.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ exceptions */

enum check { CK_UNKNOWN, CK_MEM, CK_ACC, CK_SIZE, CK_FREAD, CK_FWRITE };
static const char *const check_names[] = {
	"unknown", "memory operand", "memory access", "memory size",
	"flags read", "flags written",
};

/* Disagreements that are capstone 4's mistakes or altr's deliberate
 * choices, each checked against the Intel SDM.  rows: altr row names
 * (space-separated); key and theirs: fnmatch patterns on the form key
 * and on capstone's answer as printed. */
static struct exception {
	const char *rows;
	const char *key;
	enum check check;
	const char *theirs;
	const char *reason;
	uint64_t attrs;  /* and only when altr's decode has these */
} exceptions[] = {
	{"*", "*", CK_UNKNOWN, "cannot decode", "capstone 4.0 lacks many EVEX "
	 "(AVX-512) encodings that as produces; gas and the SDM accept them",
	 ATTR_AVX512},
	{"vbroadcasti128 prefetchwt1 prefetch", "*", CK_UNKNOWN, "cannot decode",
	 "capstone 4.0.2 cannot decode these (capstone issue 1648; objdump "
	 "and the SDM agree with as)", 0},
	{"movups movupd movaps movapd movdqa movdqu movq movd movss movsd "
	 "movhps movhpd movlps movlpd movntps movntpd movntdq movnti movbe "
	 "stmxcsr set# fst fstp fist fistp fisttp fnstcw fnstsw extractps "
	 "pextrb pextrw pextrd pextrq vmovups vmovupd vmovaps vmovapd vmovdqa "
	 "vmovdqu vmovdqu8 vmovdqu16 vmovdqu32 vmovdqu64 vmovdqa32 vmovdqa64 "
	 "vmovss vmovsd vmovq vmovd vmovntps vmovntpd vmovntdq vmaskmovps "
	 "vmaskmovpd vpmaskmovd vpmaskmovq vextracti128 vextractf128 "
	 "vextracti64x4 vextractf32x4 vcvtps2ph vmovhps vmovlps vstmxcsr",
	 "*,m*", CK_ACC, "1", "capstone 4 marks this store's destination as "
	 "read; the SDM defines it as written only", 0},
	{"fst fstp fist fistp fisttp fnstcw fstcw fnstsw fstsw fnstenv fstenv "
	 "fnsave fsave stmxcsr set# fxsave "
	 "fxsave64", "*", CK_ACC, "1", "as above (single-operand stores)", 0},
	{"test", "*$,m*", CK_ACC, "3", "capstone 4 marks test's memory operand "
	 "read and written; test only reads it (SDM: TEST computes an AND, sets "
	 "flags and discards the result)", 0},
	{"rol ror rcl rcr shl sal shr sar cmpxchg cmpxchg8b cmpxchg16b", "*",
	 CK_ACC, "1", "capstone 4 marks the destination read only; the SDM "
	 "writes it (cmpxchg writes it back even when the compare fails)", 0},
	{"cvtss2si cvtsd2si cvttss2si cvttsd2si vcvtss2si vcvtsd2si vmovdqu8 "
	 "vmovdqu16 vmovdqu32 vmovdqu64 vmovdqa32 vmovdqa64", "*", CK_ACC, "0",
	 "capstone 4 gives no access for this memory source; it is read", 0},
	{"fxsave64 fxrstor64 fxrstor fxsave", "*", CK_SIZE, "8",
	 "capstone 4 gives 8; the SDM's FXSAVE area is m512byte", 0},
	{"comiss comisd ucomiss ucomisd", "*", CK_SIZE, "16", "capstone 4 "
	 "gives 16; the SDM reads m32 (comiss) or m64 (comisd)", 0},
	{"lea nop prefetcht0 prefetcht1 prefetcht2 prefetchnta prefetchw "
	 "prefetch clflush clflushopt clwb", "*", CK_ACC, "1",
	 "altr: these compute an address but do not access memory "
	 "(ATTR_ADDR_ONLY, access 0)", 0},
	{"lea nop prefetcht0 prefetcht1 prefetcht2 prefetchnta prefetchw "
	 "prefetch clflush clflushopt clwb", "*", CK_SIZE, "*",
	 "altr: no access, so size 0", 0},
	{"xsave xsave64 xsavec xsavec64 xsaveopt xrstor xrstor64", "*", CK_SIZE,
	 "*", "altr: the XSAVE area's size depends on XCR0, unknown (0)", 0},
	{"xsave xsave64 xsaveopt", "*", CK_ACC, "2", "altr: XSAVE reads and "
	 "updates the header's XSTATE_BV (SDM 13.7), so read and written", 0},
	{"bt bts btr btc", "*|%r0.*,m", CK_SIZE, "*", "altr: a register bit "
	 "offset reaches -2^63..2^63-1 bits from the operand (SDM BT), so the "
	 "size is unknown (0)", 0},
	{"adc sbb rcl rcr cmc", "*", CK_FREAD, "-", "capstone 4 omits CF, "
	 "which the SDM reads", 0},
	{"lahf pushf", "*", CK_FREAD, "-", "capstone 4 omits the flags these "
	 "copy", 0},
	{"movs stos lods cmps scas", "*", CK_FREAD, "-", "capstone 4 omits DF, "
	 "which string instructions read", 0},
	{"movsd movss", "*", CK_FREAD, "DF", "capstone 4 mistakes SSE "
	 "movsd/movss for the string movsd: they read no flags", 0},
	{"cmp#ps cmp#pd cmp#ss cmp#sd", "*", CK_FWRITE, "*", "capstone 4 "
	 "mistakes SSE compares for cmp: they write no EFLAGS", 0},
	{"ptest vptest vtestps vtestpd kortestb kortestw kortestd kortestq "
	 "ktestw vucomiss vucomisd vcomiss vcomisd pcmpistri pcmpistrm "
	 "pcmpestri pcmpestrm vpcmpistri vpcmpistrm vpcmpestri vpcmpestrm",
	 "*", CK_FWRITE, "*", "capstone 4 omits flags the SDM sets or clears: "
	 "ptest/ktest/kortest/(v)comis all six, pcmp?str? all six", 0},
	{"lzcnt", "*", CK_FWRITE, "PF AF ZF SF OF", "capstone 4 omits CF, "
	 "which LZCNT sets for a zero source", 0},
	{"bextr", "*", CK_FWRITE, "CF PF AF ZF SF OF DF", "capstone 4 adds DF; "
	 "BEXTR leaves DF alone", 0},
	{"rdpid", "*", CK_FWRITE, "*", "capstone 4 adds flags; RDPID affects "
	 "none", 0},
	{"syscall", "*", CK_FWRITE, "*", "altr: the user-visible effect; "
	 "Linux restores RFLAGS from r11 on return", 0},
	{NULL, NULL, 0, NULL, NULL, 0},
};
static int exc_used[sizeof exceptions / sizeof exceptions[0]];

/* ------------------------------------------------------------ forms */

struct form {
	char *key;       /* "mnem|prefixes|shape,shape" */
	char *text;      /* one instance, prefixes included */
	char *where;     /* file:line of that instance */
	long offset;     /* in the assembled .text, -1 if not assembled */
	long end;
	unsigned hash;
	struct form *next;
};

#define NBUCKET 65536
static struct form *buckets[NBUCKET];
static struct form **forms;
static int nforms, forms_cap;
static bool verbose;
static unsigned long nfiles, ninsns;

static unsigned hash_str(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Shape of an operand: what decides its access and size, not its value. */
static void shape(struct altr_buf *b, const struct altr_operand *op)
{
	if (op->star)
		altr_buf_putc(b, '*');
	switch (op->kind) {
	case OPK_REG: {
		const struct altr_reg *r = &altr_regs[op->reg];
		if (r->cls == RC_GPR && r->num == 1 && r->size == 1 && !r->high8)
			altr_buf_puts(b, "%cl");
		else if (r->cls == RC_GPR && r->num == ALTR_GPR_RSP)
			altr_buf_printf(b, "%%sp%d", r->size);
		else
			altr_buf_printf(b, "%%r%d.%d", (int)r->cls, r->size);
		break;
	}
	case OPK_IMM: altr_buf_putc(b, '$'); break;
	case OPK_MEM: altr_buf_putc(b, 'm'); break;
	case OPK_TARGET: altr_buf_putc(b, 't'); break;
	}
	if (op->deco_len)
		altr_buf_put(b, altr_op_deco(op).p, op->deco_len);
}

static char *form_key(const struct altr_insn *in)
{
	struct altr_buf b = {0};
	for (size_t i = 0; i < in->mnem.len; i++)
		altr_buf_putc(&b, (char)tolower((unsigned char)in->mnem.p[i]));
	altr_buf_printf(&b, "|%x|", in->prefixes);
	for (int i = 0; i < in->nops; i++) {
		if (i)
			altr_buf_putc(&b, ',');
		shape(&b, &in->ops[i]);
	}
	return b.p;
}

static bool is_prefix_word(struct altr_str w)
{
	static const char *const words[] = {
		"lock", "rep", "repe", "repz", "repne", "repnz", "data16",
		"addr32", "notrack", "rex64", "cs", "ds", "es", "fs", "gs", "ss",
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (w.len == strlen(words[i]) && strncasecmp(w.p, words[i], w.len) == 0)
			return true;
	return false;
}

static bool prefix_only(struct altr_str t)
{
	size_t i = 0;
	bool any = false;
	while (i < t.len) {
		while (i < t.len && (isspace((unsigned char)t.p[i]) || t.p[i] == ';'))
			i++;
		size_t b = i;
		while (i < t.len && !isspace((unsigned char)t.p[i]) && t.p[i] != ';')
			i++;
		if (i == b)
			break;
		if (!is_prefix_word((struct altr_str){t.p + b, i - b}))
			return false;
		any = true;
	}
	return any;
}

static void add_form(const struct altr_unit *u, int si)
{
	const struct altr_stmt *s = &u->stmts[si];
	char *key = form_key(s->insn);
	unsigned h = hash_str(key);
	for (struct form *f = buckets[h % NBUCKET]; f; f = f->next)
		if (f->hash == h && strcmp(f->key, key) == 0) {
			free(key);
			return;
		}
	struct form *f = altr_xcalloc(1, sizeof *f);
	f->key = key;
	f->hash = h;
	struct altr_buf t = {0};
	/* A prefix written as its own statement ("rep; stosq") joins it. */
	if (si > 0 && u->stmts[si - 1].kind == STMT_OTHER &&
	    prefix_only(altr_stmt_text(&u->stmts[si - 1]))) {
		altr_buf_put(&t, u->stmts[si - 1].text_p, u->stmts[si - 1].text_len);
		altr_buf_putc(&t, ' ');
	}
	altr_buf_put(&t, s->text_p, s->text_len);
	f->text = t.p;
	struct altr_buf w = {0};
	altr_buf_printf(&w, "%s:%d", u->path, s->line);
	f->where = w.p;
	f->offset = -1;
	f->next = buckets[h % NBUCKET];
	buckets[h % NBUCKET] = f;
	if (nforms == forms_cap) {
		forms_cap = forms_cap ? 2 * forms_cap : 1024;
		forms = altr_xrealloc(forms, forms_cap * sizeof *forms);
	}
	forms[nforms++] = f;
}

static void read_s_file(const char *path)
{
	size_t len;
	char *src = altr_read_file(path, &len);
	if (!src)
		altr_die("%s: %s", path, strerror(errno));
	struct altr_unit u = {0};
	altr_asm_read(&u, path, src, len);
	nfiles++;
	for (int i = 0; i < u.nstmts; i++) {
		const struct altr_stmt *s = &u.stmts[i];
		if (s->kind != STMT_INSN || (s->facts & SF_OPAQUE))
			continue;
		ninsns++;
		add_form(&u, i);
	}
	altr_asm_free(&u);
}

static void walk(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		altr_die("%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		read_s_file(path);
		return;
	}
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort);
	if (n < 0)
		altr_die("%s: %s", path, strerror(errno));
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		size_t l = strlen(nm);
		char *sub = altr_xmalloc(strlen(path) + l + 2);
		sprintf(sub, "%s/%s", path, nm);
		if (nm[0] != '.' && stat(sub, &st) == 0 &&
		    (S_ISDIR(st.st_mode) || (l > 2 && strcmp(nm + l - 2, ".s") == 0)))
			walk(sub);
		free(sub);
		free(names[i]);
	}
	free(names);
}

/* ------------------------------------------------------------ assembling */

static char tmpdir[] = "/tmp/insn_oracle.XXXXXX";

static int *line_form; /* batch line number -> form index, or -1 */
static int nlines;

/* Writes one line of the batch, remembering which form it holds. */
static void put_line(FILE *f, int form, const char *text)
{
	fprintf(f, "%s\n", text);
	line_form = altr_xrealloc(line_form, (size_t)(nlines + 2) * sizeof *line_form);
	line_form[++nlines] = form;
}

/* Writes the batch; every numeric label 0..9 exists before and after each
 * line so "1f"/"2b" references assemble.  Skips forms marked bad. */
static void write_batch(const char *path, const bool *bad)
{
	static const char labels[] = "0:1:2:3:4:5:6:7:8:9:";
	char buf[64];
	FILE *f = fopen(path, "w");
	if (!f)
		altr_die("%s: %s", path, strerror(errno));
	nlines = 0;
	put_line(f, -1, "\t.text");
	for (int i = 0; i < nforms; i++) {
		if (bad[i])
			continue;
		put_line(f, -1, labels);
		snprintf(buf, sizeof buf, "__oracle_f%d:", i);
		put_line(f, -1, buf);
		fputc('\t', f);
		put_line(f, i, forms[i]->text);
	}
	put_line(f, -1, labels);
	put_line(f, -1, "__oracle_end:");
	fclose(f);
}

/* Runs as; marks the forms on lines it complains about.  True if it
 * produced an object. */
static bool assemble(const char *src, const char *obj, bool *bad)
{
	char cmd[512], line[1024];
	snprintf(cmd, sizeof cmd, "as --64 -o %s %s 2>&1", obj, src);
	FILE *p = popen(cmd, "r");
	if (!p)
		altr_die("popen: %s", strerror(errno));
	bool complained = false;
	size_t slen = strlen(src);
	while (fgets(line, sizeof line, p)) {
		if (strncmp(line, src, slen) != 0 || line[slen] != ':')
			continue;
		int ln = atoi(line + slen + 1);
		if (ln > 0 && ln <= nlines && line_form[ln] >= 0) {
			bad[line_form[ln]] = true;
			complained = true;
		}
	}
	int rc = pclose(p);
	if (rc != 0 && !complained)
		altr_die("as failed on %s without naming a form line", src);
	return rc == 0;
}

static unsigned char *read_all(const char *path, size_t *len)
{
	char *p = altr_read_file(path, len);
	if (!p)
		altr_die("%s: %s", path, strerror(errno));
	return (unsigned char *)p;
}

/* Finds .text and the __oracle_f<N> symbols in the object; returns .text. */
static const unsigned char *load_object(const unsigned char *obj, size_t len,
                                        size_t *text_len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)obj;
	ALTR_ASSERT(len >= sizeof *eh && eh->e_shoff + eh->e_shnum *
	            sizeof(Elf64_Shdr) <= len);
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(obj + eh->e_shoff);
	const char *shstr = (const char *)obj + sh[eh->e_shstrndx].sh_offset;
	int text = -1, symtab = -1;
	for (int i = 0; i < eh->e_shnum; i++) {
		if (strcmp(shstr + sh[i].sh_name, ".text") == 0)
			text = i;
		if (sh[i].sh_type == SHT_SYMTAB)
			symtab = i;
	}
	ALTR_ASSERT(text >= 0 && symtab >= 0);
	const Elf64_Sym *sym = (const Elf64_Sym *)(obj + sh[symtab].sh_offset);
	const char *str = (const char *)obj + sh[sh[symtab].sh_link].sh_offset;
	size_t nsym = sh[symtab].sh_size / sizeof *sym;
	long end = (long)sh[text].sh_size;
	for (size_t i = 0; i < nsym; i++) {
		const char *nm = str + sym[i].st_name;
		if (strncmp(nm, "__oracle_f", 10) == 0) {
			int k = atoi(nm + 10);
			if (k >= 0 && k < nforms)
				forms[k]->offset = (long)sym[i].st_value;
		} else if (strcmp(nm, "__oracle_end") == 0) {
			end = (long)sym[i].st_value;
		}
	}
	/* Each form ends where the next assembled one starts. */
	long next = end;
	for (int i = nforms - 1; i >= 0; i--) {
		if (forms[i]->offset < 0)
			continue;
		forms[i]->end = next;
		next = forms[i]->offset;
	}
	*text_len = sh[text].sh_size;
	return obj + sh[text].sh_offset;
}

/* ------------------------------------------------------------ comparing */

/* capstone's ways of saying a flag is written: modified, reset, set or
 * left undefined. */
static uint8_t cs_written(uint64_t e)
{
	uint8_t fl = 0;
#define W(x, extra)                                                          \
	if (e & (X86_EFLAGS_MODIFY_##x | X86_EFLAGS_RESET_##x | extra))        \
		fl |= FL_##x;
	W(OF, X86_EFLAGS_UNDEFINED_OF | X86_EFLAGS_SET_OF)
	W(SF, X86_EFLAGS_UNDEFINED_SF | X86_EFLAGS_SET_SF)
	W(ZF, X86_EFLAGS_UNDEFINED_ZF | X86_EFLAGS_SET_ZF)
	W(AF, X86_EFLAGS_UNDEFINED_AF | X86_EFLAGS_SET_AF)
	W(PF, X86_EFLAGS_UNDEFINED_PF | X86_EFLAGS_SET_PF)
	W(CF, X86_EFLAGS_UNDEFINED_CF | X86_EFLAGS_SET_CF)
	W(DF, X86_EFLAGS_SET_DF)
#undef W
	return fl;
}

static uint8_t cs_read(uint64_t e)
{
	uint8_t fl = 0;
	if (e & (X86_EFLAGS_TEST_OF | X86_EFLAGS_PRIOR_OF)) fl |= FL_OF;
	if (e & (X86_EFLAGS_TEST_SF | X86_EFLAGS_PRIOR_SF)) fl |= FL_SF;
	if (e & (X86_EFLAGS_TEST_ZF | X86_EFLAGS_PRIOR_ZF)) fl |= FL_ZF;
	if (e & (X86_EFLAGS_TEST_AF | X86_EFLAGS_PRIOR_AF)) fl |= FL_AF;
	if (e & (X86_EFLAGS_TEST_PF | X86_EFLAGS_PRIOR_PF)) fl |= FL_PF;
	if (e & (X86_EFLAGS_TEST_CF | X86_EFLAGS_PRIOR_CF)) fl |= FL_CF;
	if (e & (X86_EFLAGS_TEST_DF | X86_EFLAGS_PRIOR_DF)) fl |= FL_DF;
	return fl;
}

static bool in_list(const char *list, const char *row)
{
	size_t n = strlen(row);
	if (strcmp(list, "*") == 0)
		return true;
	for (const char *p = list; (p = strstr(p, row)); p += n)
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

static struct exception *excused(const char *row, uint64_t attrs,
                                 const char *key, enum check c,
                                 const char *theirs)
{
	for (struct exception *e = exceptions; e->rows; e++)
		if (e->check == c && in_list(e->rows, row) &&
		    (attrs & e->attrs) == e->attrs &&
		    fnmatch(e->key, key, 0) == 0 &&
		    fnmatch(e->theirs, theirs, 0) == 0)
			return e;
	return NULL;
}

static unsigned long nchecked, ndisagree, nexcused;

static void flags_str(char *b, uint8_t fl)
{
	static const char names[][3] = {"CF", "PF", "AF", "ZF", "SF", "OF", "DF"};
	b[0] = 0;
	for (int i = 0; i < 7; i++)
		if (fl & (1 << i)) {
			if (b[0])
				strcat(b, " ");
			strcat(b, names[i]);
		}
	if (!b[0])
		strcpy(b, "-");
}

/* Reports one disagreement (or counts it as excused); ours and theirs are
 * already formatted. */
static void disagree(const struct form *f, const cs_insn *ci,
                     const struct altr_insn *in, enum check c,
                     const char *ours, const char *theirs)
{
	const char *row = altr_idesc_name(in->desc);
	struct exception *e = excused(row, in->info.attrs, f->key, c, theirs);
	if (e) {
		exc_used[e - exceptions]++;
		nexcused++;
		if (verbose)
			printf("excused: %s  [%s] %s: altr %s, capstone %s (%s)\n",
			       f->text, row, check_names[c], ours, theirs, e->reason);
		return;
	}
	ndisagree++;
	printf("DISAGREE %s: %s  (%s %s; form %s)\n  %s: altr %s, capstone %s\n",
	       f->where, f->text, ci ? ci->mnemonic : "", ci ? ci->op_str : "",
	       f->key, check_names[c], ours, theirs);
}

static const cs_x86_op *cs_mem(const cs_x86 *x)
{
	for (int i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM)
			return &x->operands[i];
	return NULL;
}

static void compare_mem(const struct form *f, const struct altr_insn *in,
                        const cs_insn *ci)
{
	const cs_x86_op *m = cs_mem(&ci->detail->x86);
	const struct altr_iinfo *info = &in->info;
	char a[64], b[64];
	if (info->attrs & ATTR_STRING)
		return; /* altr models string operands as implicit accesses */
	if ((info->mem >= 0) != (m != NULL)) {
		disagree(f, ci, in, CK_MEM, info->mem >= 0 ? "has one" : "none",
		         m ? "has one" : "none");
		return;
	}
	if (!m)
		return;
	if (info->mem_acc != (m->access & (CS_AC_READ | CS_AC_WRITE))) {
		snprintf(a, sizeof a, "%d", info->mem_acc);
		snprintf(b, sizeof b, "%d", m->access);
		disagree(f, ci, in, CK_ACC, a, b);
	}
	if (info->mem_size != m->size) {
		snprintf(a, sizeof a, "%d", info->mem_size);
		snprintf(b, sizeof b, "%d", m->size);
		disagree(f, ci, in, CK_SIZE, a, b);
	}
}

static bool cs_is_fpu(csh cs, const cs_insn *ci)
{
	return cs_insn_group(cs, ci, X86_GRP_FPU);
}

static void compare_flags(csh cs, const struct form *f,
                          const struct altr_insn *in, const cs_insn *ci)
{
	char a[64], b[64];
	/* capstone 4 reports x87 instructions' C0-C3 in the same union as
	 * EFLAGS, with no way to tell which (not all are in X86_GRP_FPU):
	 * x87 flags are left to the unit tests. */
	if (cs_is_fpu(cs, ci) || (in->info.attrs & ATTR_X87))
		return;
	uint64_t e = ci->detail->x86.eflags;
	uint8_t r = cs_read(e), w = cs_written(e);
	uint8_t ow = in->info.flags_written | in->info.flags_maybe;
	if (in->info.flags_read != r) {
		flags_str(a, in->info.flags_read);
		flags_str(b, r);
		disagree(f, ci, in, CK_FREAD, a, b);
	}
	if (ow != w) {
		flags_str(a, ow);
		flags_str(b, w);
		disagree(f, ci, in, CK_FWRITE, a, b);
	}
}

static void check_form(csh cs, const struct form *f, const unsigned char *text)
{
	struct altr_insn in;
	struct altr_operand ops[ALTR_MAXOPS];
	if (!altr_asm_parse_insn((struct altr_str){f->text, strlen(f->text)},
	                         &in, ops))
		altr_die("%s: cannot parse again: %s", f->where, f->text);
	nchecked++;
	cs_insn *ci = NULL;
	size_t n = cs_disasm(cs, text + f->offset, (size_t)(f->end - f->offset),
	                     (uint64_t)f->offset, 1, &ci);
	/* fstcw, fstsw, fstenv, fsave, fclex, finit are fwait + the fn...
	 * form: compare the second instruction. */
	if (n && ci->id == X86_INS_WAIT && f->offset + ci->size < f->end) {
		long at = f->offset + ci->size;
		cs_free(ci, n);
		n = cs_disasm(cs, text + at, (size_t)(f->end - at), (uint64_t)at, 1,
		              &ci);
	}
	if (!in.desc) {
		disagree(f, n ? ci : NULL, &in, CK_UNKNOWN,
		         "unknown mnemonic or form", n ? "knows it" : "-");
		if (n)
			cs_free(ci, n);
		return;
	}
	if (n == 0) {
		disagree(f, NULL, &in, CK_UNKNOWN, "knows it", "cannot decode");
		return;
	}
	compare_mem(f, &in, ci);
	compare_flags(cs, f, &in, ci);
	cs_free(ci, n);
}

static void cleanup(void)
{
	char path[sizeof tmpdir + 16];
	snprintf(path, sizeof path, "%s/batch.s", tmpdir);
	unlink(path);
	snprintf(path, sizeof path, "%s/batch.o", tmpdir);
	unlink(path);
	rmdir(tmpdir);
}

int main(int argc, char **argv)
{
	altr_progname = "insn_oracle";
	altr_quiet_warnings = true;
	int i = 1;
	if (i < argc && strcmp(argv[i], "-v") == 0) {
		verbose = true;
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: insn_oracle [-v] FILE.s|DIR...\n");
		return 2;
	}
	for (; i < argc; i++)
		walk(argv[i]);
	if (!mkdtemp(tmpdir))
		altr_die("mkdtemp: %s", strerror(errno));
	atexit(cleanup);
	char src[sizeof tmpdir + 16], obj[sizeof tmpdir + 16];
	snprintf(src, sizeof src, "%s/batch.s", tmpdir);
	snprintf(obj, sizeof obj, "%s/batch.o", tmpdir);
	bool *bad = altr_xcalloc((size_t)nforms + 1, sizeof *bad);
	int tries = 0;
	do {
		write_batch(src, bad);
		if (++tries > 20)
			altr_die("as keeps failing on %s", src);
	} while (!assemble(src, obj, bad));
	size_t olen, tlen;
	unsigned char *o = read_all(obj, &olen);
	const unsigned char *text = load_object(o, olen, &tlen);

	csh cs;
	if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		altr_die("cs_open failed");
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	int nbad = 0;
	for (int k = 0; k < nforms; k++) {
		if (bad[k] || forms[k]->offset < 0) {
			nbad++;
			if (verbose)
				printf("not assembled: %s: %s\n", forms[k]->where,
				       forms[k]->text);
			continue;
		}
		check_form(cs, forms[k], text);
	}
	cs_close(&cs);
	for (struct exception *e = exceptions; e->rows; e++)
		if (verbose && !exc_used[e - exceptions])
			printf("exception unused: %s: %s\n", check_names[e->check],
			       e->rows);
	printf("insn_oracle: %lu files, %lu instructions, %d forms, %lu checked, "
	       "%d not assembled, %lu disagreements, %lu excused\n", nfiles,
	       ninsns, nforms, nchecked, nbad, ndisagree, nexcused);
	free(o);
	free(bad);
	return ndisagree ? 1 : 0;
}
