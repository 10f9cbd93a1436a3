/* elf.c: the build-id of an executable (NT_GNU_BUILD_ID in a PT_NOTE
 * segment), read defensively: every offset is checked against the file. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rdb.h"

static int pread_all(int fd, void *p, size_t n, off_t off)
{
	return pread(fd, p, n, off) == (ssize_t)n ? 0 : -1;
}

long rdb_elf_buildid(const char *path, uint8_t *out, size_t cap, char *err, size_t errcap)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errcap, "%s: %s", path, strerror(errno));
		return -1;
	}
	Elf64_Ehdr eh;
	long res = 0;
	if (pread_all(fd, &eh, sizeof eh, 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    eh.e_phnum > 4096) {
		snprintf(err, errcap, "%s: not a 64-bit ELF file", path);
		close(fd);
		return -1;
	}
	for (unsigned i = 0; i < eh.e_phnum && !res; i++) {
		Elf64_Phdr ph;
		if (pread_all(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + i * sizeof ph)))
			break;
		if (ph.p_type != PT_NOTE || ph.p_filesz > (1u << 20))
			continue;
		uint8_t *buf = malloc(ph.p_filesz ? ph.p_filesz : 1);
		if (!buf || pread_all(fd, buf, ph.p_filesz, (off_t)ph.p_offset)) {
			free(buf);
			continue;
		}
		size_t o = 0;
		while (o + sizeof(Elf64_Nhdr) <= ph.p_filesz) {
			Elf64_Nhdr nh;
			memcpy(&nh, buf + o, sizeof nh);
			size_t name = o + sizeof nh, desc = name + ((nh.n_namesz + 3u) & ~3u);
			size_t next = desc + ((nh.n_descsz + 3u) & ~3u);
			if (desc > ph.p_filesz || next > ph.p_filesz || next <= o)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp(buf + name, "GNU", 4) && nh.n_descsz <= cap) {
				memcpy(out, buf + desc, nh.n_descsz);
				res = nh.n_descsz;
				break;
			}
			o = next;
		}
		free(buf);
	}
	close(fd);
	return res;
}

int rdb_elf_is_rdb(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	Elf64_Ehdr eh;
	Elf64_Shdr str;
	int found = 0;
	if (pread_all(fd, &eh, sizeof eh, 0) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shnum > 65000 || eh.e_shstrndx >= eh.e_shnum ||
	    pread_all(fd, &str, sizeof str, (off_t)(eh.e_shoff + eh.e_shstrndx * sizeof str))) {
		close(fd);
		return 0;
	}
	static const char want[] = ".rdb_iot";
	for (unsigned i = 0; i < eh.e_shnum && !found; i++) {
		Elf64_Shdr sh;
		char name[sizeof want];
		if (pread_all(fd, &sh, sizeof sh, (off_t)(eh.e_shoff + i * sizeof sh)) ||
		    sh.sh_name >= str.sh_size || str.sh_size - sh.sh_name < sizeof want)
			continue;
		if (!pread_all(fd, name, sizeof want, (off_t)(str.sh_offset + sh.sh_name)) &&
		    !memcmp(name, want, sizeof want))
			found = 1;
	}
	close(fd);
	return found;
}
