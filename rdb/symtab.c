/* symtab.c: the walk symtab.h declares. */
#include <stddef.h>

#include "symtab.h"

int rdb_symtab_each(Elf *e, int (*fn)(void *ctx, const char *name, const GElf_Sym *s),
                    void *ctx)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;
			int r;
			if (!gelf_getsym(d, (int)i, &s) || !(name = elf_strptr(e, sh.sh_link, s.st_name)) ||
			    !*name)
				continue;
			if ((r = fn(ctx, name, &s)))
				return r;
		}
	}
	return 0;
}
