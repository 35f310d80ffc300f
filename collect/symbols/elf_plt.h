/* The symbols perf 6.1 synthesizes for the entries of an ELF file's
 * procedure linkage table (.plt), which no symbol table describes: entry i
 * after the PLT header is named after the .dynsym symbol of relocation i
 * of .rela.plt (else .rel.plt) plus "@plt" ("@plt" alone for a relocation
 * with no symbol, such as an IRELATIVE one), in relocation order. Read
 * from an open libelf handle whose section headers the caller has checked
 * to lie inside the file (collect/symbols/elfsyms.c does). */
#ifndef PERFDB_ELF_PLT_H
#define PERFDB_ELF_PLT_H
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

/* plt_add_fn(ctx, file_off, size, name): called once per PLT entry, in
 * relocation order: the entry's file offset, its size in bytes and the
 * name of its relocation's symbol ("" for none; without "@plt"; owned by
 * libelf, valid until elf_end). */
typedef void plt_add_fn(void *ctx, uint64_t file_off, uint64_t size, const char *name);

/* elf_plt_read(elf, add, ctx, err, errlen): calls add for each entry of
 * elf's .plt as perf 6.1 synthesizes them: when the file has a .dynsym
 * (SHT_DYNSYM), a .rela.plt or else .rel.plt (SHT_RELA/SHT_REL) linked to
 * it and a .plt with file bytes; the header and entry sizes are those of
 * the machine (ARM 20/12, AArch64 32/16, SPARC 48/12, SPARC V9 128/32
 * bytes) and otherwise (x86 among them) both .plt's sh_entsize. Entries
 * that would lie past the end of .plt are left out (perf places them over
 * whatever follows). Returns the number of entries (0 when the file has
 * no such PLT, or an entry size of 0), or -1 with a one-line message in
 * err when the tables are corrupt: a relocation entry size that is not
 * the ELF class's, a relocation naming a symbol past the end of .dynsym,
 * a symbol name past the end of its string table; the message gives the
 * file offset of the bad entry. */
long elf_plt_read(Elf *elf, plt_add_fn *add, void *ctx, char *err, size_t errlen);
#endif
