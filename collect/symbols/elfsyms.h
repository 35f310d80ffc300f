/* Symbols of an ELF executable or shared object (vmlinux, a binary, a .so)
 * read through libelf: function symbols (STT_FUNC, STT_GNU_IFUNC) and data
 * objects (STT_OBJECT) from .symtab, else .dynsym, kept at their ELF
 * virtual addresses (st_value); the symbols perf synthesizes for the
 * entries of the PLT (name@plt, collect/symbols/elf_plt.h), in a table of their
 * own; the PT_LOAD segments, to turn a sample ip in an MMAP2 mapping into
 * such an address; and the GNU build-id. Everything is copied out at open
 * time; no file stays open. */
#ifndef PERFDB_ELFSYMS_H
#define PERFDB_ELFSYMS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/symtab.h"

#define ELFSYMS_BUILD_ID_MAX 64

/* One PT_LOAD program header. */
struct elf_seg {
	uint64_t offset;  /* p_offset: where the segment starts in the file */
	uint64_t vaddr;   /* p_vaddr */
	uint64_t filesz;  /* p_filesz */
	uint64_t memsz;   /* p_memsz */
	uint32_t flags;   /* p_flags: PF_X 1, PF_W 2, PF_R 4 */
};

struct elfsyms;

/* elfsyms_open(path, err, errlen): reads the symbols, PLT entries,
 * PT_LOAD segments and build-id of the ELF file at path. Only ET_EXEC and
 * ET_DYN files are accepted; a file with no symbol table opens with no
 * symbols. Returns NULL with a one-line "elf: PATH: what" in err when the
 * file cannot be read or is malformed (truncated, headers or sections
 * past its end, PLT relocations naming symbols that are not there ...). */
struct elfsyms *elfsyms_open(const char *path, char *err, size_t errlen);

/* elfsyms_close(e): frees e; e may be NULL. */
void elfsyms_close(struct elfsyms *e);

/* elfsyms_symtab(e): e's finished symbol table (for iteration and lookups
 * by name), without the PLT entries; owned by e. */
const struct symtab *elfsyms_symtab(const struct elfsyms *e);

/* elfsyms_build_id(e, out, len): copies e's GNU build-id (from a
 * .note.gnu.build-id section, else a PT_NOTE segment) to out. On entry *len
 * is out's capacity, on success the id's length. Returns 0, or -1 when e
 * has no build-id or it does not fit (then *len is the size needed, or 0). */
int elfsyms_build_id(const struct elfsyms *e, uint8_t *out, size_t *len);

/* elfsyms_nsegments(e), elfsyms_segment(e, i): e's PT_LOAD segments in
 * program header order; elfsyms_segment returns NULL when i is out of range. */
size_t elfsyms_nsegments(const struct elfsyms *e);
const struct elf_seg *elfsyms_segment(const struct elfsyms *e, size_t i);

/* elfsyms_file_to_vaddr(e, file_off, okp): the ELF virtual address of the
 * byte at file offset file_off: file_off - p_offset + p_vaddr of the first
 * PT_LOAD segment whose file bytes contain it, else of the first whose
 * memory image does (p_offset + p_memsz: the .bss tail that a mapping's
 * last file page also shows). *okp (when okp is not NULL) says whether one
 * does; 0 is returned when none does. */
uint64_t elfsyms_file_to_vaddr(const struct elfsyms *e, uint64_t file_off, bool *okp);

/* elfsyms_map_ip(e, map_addr, map_len, map_pgoff, ip, okp): the ELF virtual
 * address of a sample ip that falls in a mapping of e's file described by
 * an MMAP2 record {addr, len, pgoff}: the file offset ip - addr + pgoff,
 * then elfsyms_file_to_vaddr. *okp is false when ip lies outside the
 * mapping or the offset is in no PT_LOAD segment. */
uint64_t elfsyms_map_ip(const struct elfsyms *e, uint64_t map_addr, uint64_t map_len,
			uint64_t map_pgoff, uint64_t ip, bool *okp);

/* elfsyms_find(e, vaddr, off): the symbol containing ELF virtual address
 * vaddr, as symtab_find on e's symbol table; where none does, and e has
 * symbols at all, the PLT entry containing it, as perf adds PLT symbols
 * after the table's own (whose size-0 symbols it has already extended to
 * the next one: _init over an unstripped binary's .plt) and only to a
 * file that has some. */
const struct sym *elfsyms_find(const struct elfsyms *e, uint64_t vaddr, uint64_t *off);

/* elfsyms_plt(e): e's finished table of PLT entry symbols (name@plt, each
 * the size of one entry); owned by e. */
const struct symtab *elfsyms_plt(const struct elfsyms *e);

/* elfsyms_find_plt(e, vaddr, off): the PLT entry of e containing vaddr,
 * as symtab_find; for a file whose symbols come from a separate debug
 * file, which has no PLT of its own (perf takes the PLT from the file
 * that has its .dynsym). */
const struct sym *elfsyms_find_plt(const struct elfsyms *e, uint64_t vaddr, uint64_t *off);
#endif
