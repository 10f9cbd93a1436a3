/* symtab.h: one walk over an ELF file's .symtab, for the tools that name
 * code and data (flowback, the gdb target, the code-ran filter). */
#ifndef RDB_SYMTAB_H
#define RDB_SYMTAB_H

#include <gelf.h>

/* Calls fn for each symbol of every SHT_SYMTAB section that has a
 * non-empty name, until fn returns nonzero; returns that value, or 0. */
int rdb_symtab_each(Elf *e, int (*fn)(void *ctx, const char *name, const GElf_Sym *s),
                    void *ctx);

#endif
