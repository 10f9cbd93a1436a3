/*
 * iot.c: reading, resolving and writing back the .rdb_iot table of a
 * linked executable (docs/iot.md).  libelf reads the headers; the entries
 * are written back with one pwrite over the section's bytes, so the rest
 * of the file is never re-laid out.  Nothing is written unless the whole
 * table resolved cleanly.
 */
#include "iot.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = snprintf(err, errlen, "%s: ", path);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

void rdb_iot_free(struct rdb_iot_table *t)
{
	free(t->path);
	free(t->e);
	free(t->exec);
	memset(t, 0, sizeof *t);
}

static int load_elf(Elf *elf, struct rdb_iot_table *t, char *err, size_t errlen)
{
	const char *path = t->path;
	if (elf_kind(elf) != ELF_K_ELF)
		return fail(err, errlen, path, "not an ELF file");
	GElf_Ehdr eh;
	if (!gelf_getehdr(elf, &eh))
		return fail(err, errlen, path, "bad ELF header: %s", elf_errmsg(-1));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_machine != EM_X86_64)
		return fail(err, errlen, path, "not an x86-64 ELF file");
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return fail(err, errlen, path, "not a linked executable (ELF type %u)",
		            (unsigned)eh.e_type);

	size_t nph;
	if (elf_getphdrnum(elf, &nph) != 0)
		return fail(err, errlen, path, "bad program headers: %s", elf_errmsg(-1));
	bool have_base = false;
	t->exec = calloc(nph ? nph : 1, sizeof *t->exec);
	if (!t->exec)
		return fail(err, errlen, path, "out of memory");
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(elf, (int)i, &ph))
			return fail(err, errlen, path, "bad program header %zu", i);
		if (ph.p_type != PT_LOAD)
			continue;
		uint64_t align = ph.p_align > 1 ? ph.p_align : 1;
		uint64_t page = ph.p_vaddr & ~(align - 1);
		if (!have_base || page < t->base)
			t->base = page;
		have_base = true;
	}
	if (!have_base)
		return fail(err, errlen, path, "no loadable segment");
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		gelf_getphdr(elf, (int)i, &ph);
		if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X))
			t->exec[t->nexec++] = (struct rdb_iot_range){
				ph.p_vaddr - t->base, ph.p_vaddr - t->base + ph.p_memsz};
	}

	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return fail(err, errlen, path, "no section name table: %s", elf_errmsg(-1));
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return fail(err, errlen, path, "bad section header: %s", elf_errmsg(-1));
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name || strcmp(name, RDB_IOT_SECTION) != 0)
			continue;
		if (t->present)
			return fail(err, errlen, path, "two %s sections", RDB_IOT_SECTION);
		t->present = true;
		if (sh.sh_type != SHT_PROGBITS)
			return fail(err, errlen, path, "%s is not PROGBITS (type %u)",
			            RDB_IOT_SECTION, (unsigned)sh.sh_type);
		if (!(sh.sh_flags & SHF_ALLOC))
			return fail(err, errlen, path, "%s is not allocated", RDB_IOT_SECTION);
		if (sh.sh_size % RDB_IOT_ENTRY_SIZE)
			return fail(err, errlen, path, "%s size %llu is not a multiple of %d",
			            RDB_IOT_SECTION, (unsigned long long)sh.sh_size,
			            RDB_IOT_ENTRY_SIZE);
		Elf_Data *d = elf_rawdata(scn, NULL);
		if (!d || d->d_size != sh.sh_size)
			return fail(err, errlen, path, "cannot read %s: %s", RDB_IOT_SECTION,
			            elf_errmsg(-1));
		t->n = sh.sh_size / RDB_IOT_ENTRY_SIZE;
		t->vaddr = sh.sh_addr;
		t->file_off = sh.sh_offset;
		t->e = calloc(t->n ? t->n : 1, sizeof *t->e);
		if (!t->e)
			return fail(err, errlen, path, "out of memory");
		const unsigned char *b = d->d_buf;
		size_t nres = 0;
		for (size_t i = 0; i < t->n; i++, b += RDB_IOT_ENTRY_SIZE) {
			memcpy(&t->e[i].start, b, 8);     /* x86-64: little-endian host */
			memcpy(&t->e[i].len, b + 8, 4);
			memcpy(&t->e[i].flags, b + 12, 4);
			nres += (t->e[i].flags & RDB_IOT_RESOLVED) != 0;
		}
		if (nres && nres != t->n)
			return fail(err, errlen, path, "%s mixes resolved and unresolved "
			            "entries (%zu of %zu resolved)", RDB_IOT_SECTION, nres, t->n);
		t->resolved = t->n > 0 && nres == t->n;
	}
	return 0;
}

int rdb_iot_load(const char *path, struct rdb_iot_table *t, char *err, size_t errlen)
{
	memset(t, 0, sizeof *t);
	t->path = strdup(path);
	if (!t->path)
		return fail(err, errlen, path, "out of memory");
	if (elf_version(EV_CURRENT) == EV_NONE)
		return fail(err, errlen, path, "libelf: %s", elf_errmsg(-1));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(err, errlen, path, "%s", strerror(errno));
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	int rc;
	if (!elf)
		rc = fail(err, errlen, path, "not an ELF file: %s", elf_errmsg(-1));
	else
		rc = load_elf(elf, t, err, errlen);
	if (elf)
		elf_end(elf);
	close(fd);
	return rc;
}

static int cmp_start(const void *a, const void *b)
{
	const struct rdb_iot_entry *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->len < y->len ? -1 : x->len > y->len;
}

int rdb_iot_resolve(struct rdb_iot_table *t, char *err, size_t errlen)
{
	const char *path = t->path ? t->path : "(table)";
	if (!t->resolved) {
		for (size_t i = 0; i < t->n; i++) {
			struct rdb_iot_entry *e = &t->e[i];
			if (e->flags & RDB_IOT_RESOLVED)
				return fail(err, errlen, path, "entry %zu is already resolved "
				            "but others are not", i);
			/* the entry's start field is at vaddr + 16 i */
			int64_t field = (int64_t)(t->vaddr - t->base) + (int64_t)(i * RDB_IOT_ENTRY_SIZE);
			int64_t off;
			if (__builtin_add_overflow(field, e->start, &off) || off < 0)
				return fail(err, errlen, path, "entry %zu: start %lld points "
				            "outside the image", i, (long long)e->start);
			e->start = off;
			e->flags |= RDB_IOT_RESOLVED;
		}
		t->resolved = t->n > 0;
	}
	qsort(t->e, t->n, sizeof *t->e, cmp_start);
	for (size_t i = 0; i < t->n; i++) {
		const struct rdb_iot_entry *e = &t->e[i];
		uint64_t lo = (uint64_t)e->start, hi = lo + e->len;
		if (e->len == 0)
			return fail(err, errlen, path, "entry at offset 0x%llx has length 0",
			            (unsigned long long)lo);
		bool inside = false;
		for (size_t k = 0; k < t->nexec && !inside; k++)
			inside = lo >= t->exec[k].lo && hi <= t->exec[k].hi;
		if (!inside)
			return fail(err, errlen, path, "entry [0x%llx, 0x%llx) is not inside "
			            "an executable segment", (unsigned long long)lo,
			            (unsigned long long)hi);
		if (i > 0) {
			const struct rdb_iot_entry *p = &t->e[i - 1];
			if ((uint64_t)p->start + p->len > lo)
				return fail(err, errlen, path, "entries [0x%llx, 0x%llx) and "
				            "[0x%llx, 0x%llx) overlap",
				            (unsigned long long)p->start,
				            (unsigned long long)p->start + p->len,
				            (unsigned long long)lo, (unsigned long long)hi);
		}
	}
	return 0;
}

int rdb_iot_store(const struct rdb_iot_table *t, char *err, size_t errlen)
{
	if (!t->present || t->n == 0)
		return 0;
	size_t size = t->n * RDB_IOT_ENTRY_SIZE;
	unsigned char *buf = malloc(size);
	if (!buf)
		return fail(err, errlen, t->path, "out of memory");
	for (size_t i = 0; i < t->n; i++) {
		memcpy(buf + i * 16, &t->e[i].start, 8);
		memcpy(buf + i * 16 + 8, &t->e[i].len, 4);
		memcpy(buf + i * 16 + 12, &t->e[i].flags, 4);
	}
	int fd = open(t->path, O_WRONLY | O_CLOEXEC);
	int rc = 0;
	if (fd < 0) {
		rc = fail(err, errlen, t->path, "cannot open for writing: %s", strerror(errno));
	} else {
		ssize_t w = pwrite(fd, buf, size, (off_t)t->file_off);
		if (w != (ssize_t)size)
			rc = fail(err, errlen, t->path, "write failed: %s",
			          w < 0 ? strerror(errno) : "short write");
		if (close(fd) != 0 && rc == 0)
			rc = fail(err, errlen, t->path, "close failed: %s", strerror(errno));
	}
	free(buf);
	return rc;
}
