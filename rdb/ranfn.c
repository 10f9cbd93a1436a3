/* ranfn.c: the code a breakpoint's function is made of, for leaving out
 * intervals going back (RAN records, runtime/ran.c; docs/gdb.md
 * "Breakpoints").  A function's code runs in an interval only if it was
 * entered there or had a frame live at the interval's start
 * (ranlive.c).  The set is
 * the ELF function symbol holding the address and its gcc-split parts
 * (NAME.cold...: jumps go between the two, past no mark).  It is tracked
 * only when altr marked its entry (an rdb_ranmap entry at its start):
 * else (the runtime, code altr saw no function in) nothing is left out. */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rdb.h"
#include "symtab.h"

struct scan {
	uint64_t vaddr;            /* the breakpoint, a link address */
	char base[256];            /* its function's name, without .cold... */
	struct rdb_fnset *out;
	uint64_t bias;
};

static void base_name(const char *name, char *out, size_t cap)
{
	snprintf(out, cap, "%s", name);
	char *c = strstr(out, ".cold");
	if (c)
		*c = 0;
}

/* A defined function symbol with a size. */
static int is_func(const GElf_Sym *s)
{
	return GELF_ST_TYPE(s->st_info) == STT_FUNC && s->st_shndx != SHN_UNDEF && s->st_size;
}

static int find_base(void *ctx, const char *name, const GElf_Sym *s)
{
	struct scan *sc = ctx;
	if (is_func(s) && sc->vaddr >= s->st_value && sc->vaddr < s->st_value + s->st_size) {
		base_name(name, sc->base, sizeof sc->base);
		return 1;
	}
	return 0;
}

static int add_parts(void *ctx, const char *name, const GElf_Sym *s)
{
	struct scan *sc = ctx;
	char b[256];
	if (!is_func(s))
		return 0;
	base_name(name, b, sizeof b);
	struct rdb_fnset *f = sc->out;
	if (strcmp(b, sc->base) || f->n >= RDB_FNSET_MAX)
		return 0;
	for (int i = 0; i < f->n; i++) /* an alias of a part already in */
		if (f->lo[i] == s->st_value + sc->bias)
			return 0;
	f->lo[f->n] = s->st_value + sc->bias;
	f->hi[f->n] = s->st_value + s->st_size + sc->bias;
	f->n++;
	return 0;
}

/* Whether rdb_ranmap (pairs of 32-bit offsets, each from its own field)
 * has the entry mark of the function at link address a (altr's
 * func_entry, past the frame set-up gdb reads). */
static int marked(Elf *e, uint64_t a)
{
	size_t shstr;
	if (elf_getshdrstrndx(e, &shstr))
		return 0;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstr, sh.sh_name)) ||
		    strcmp(name, "rdb_ranmap"))
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t o = 0; d && o + 8 <= d->d_size; o += 8) {
			int32_t code;
			memcpy(&code, (const char *)d->d_buf + o, 4);
			uint64_t at = sh.sh_addr + o + (uint64_t)(int64_t)code;
			/* past push %rbp (1 byte) and mov %rsp, %rbp (3), if any */
			if (code && (at == a || at == a + 1 || at == a + 4))
				return 1;
		}
	}
	return 0;
}

int rdb_fn_of(const struct rdb_header *h, uint64_t pc, struct rdb_fnset *out)
{
	memset(out, 0, sizeof *out);
	int ok = 0, fd = h->image ? open(h->image, O_RDONLY | O_CLOEXEC) : -1;
	elf_version(EV_CURRENT);
	Elf *e = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	uint64_t entry = 0;
	for (size_t i = 0; i < h->nauxv; i++)
		if (h->auxv[2 * i] == 9 /* AT_ENTRY */)
			entry = h->auxv[2 * i + 1];
	if (e && gelf_getehdr(e, &eh) && entry) {
		struct scan sc = {.out = out, .bias = entry - eh.e_entry};
		sc.vaddr = pc - sc.bias;
		rdb_symtab_each(e, find_base, &sc);
		if (sc.base[0])
			rdb_symtab_each(e, add_parts, &sc);
		ok = out->n > 0;
		for (int i = 0; ok && i < out->n; i++)
			ok = marked(e, out->lo[i] - sc.bias);
	}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	if (!ok)
		out->n = 0;
	return ok;
}

int rdb_fn_holds(const struct rdb_fnset *f, uint64_t lo, uint64_t hi)
{
	for (int i = 0; i < f->n; i++)
		if (lo < f->hi[i] && f->lo[i] < hi)
			return 1;
	return 0;
}
