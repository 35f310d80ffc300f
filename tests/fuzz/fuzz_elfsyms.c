/* libFuzzer harness: an ELF file as a recording's MMAP2 records name it
 * (a binary, a shared object, a debug file) through perfdb's symbol
 * reader (collect/symbols/elfsyms.h): headers, segments, build-id, .symtab or
 * .dynsym, and the PLT entries synthesized from .rela.plt/.rel.plt and
 * .plt; then a lookup at the first and last byte of every symbol and PLT
 * entry, and the file-offset mapping of each segment's bounds. */
#include <stdint.h>
#include "collect/symbols/elfsyms.h"
#include "tests/fuzz/memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

/* probe(e, t): looks up both ends of each symbol of t. */
static void probe(const struct elfsyms *e, const struct symtab *t)
{
	uint64_t off;

	for (size_t i = 0; i < symtab_count(t); i++) {
		const struct sym *s = symtab_at(t, i);
		const struct sym *f = elfsyms_find(e, s->start, &off);
		sink += f ? off + f->size : 0;
		f = elfsyms_find_plt(e, s->start + (s->size ? s->size - 1 : 0), &off);
		sink += f ? off : 0;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	uint8_t id[ELFSYMS_BUILD_ID_MAX];
	size_t idn = sizeof(id);
	bool ok;
	struct elfsyms *e = elfsyms_open(memfile_path(0, data, size), err, sizeof(err));

	if (!e)
		return 0;
	probe(e, elfsyms_symtab(e));
	probe(e, elfsyms_plt(e));
	if (!elfsyms_build_id(e, id, &idn))
		sink += id[0];
	for (size_t i = 0; i < elfsyms_nsegments(e); i++) {
		const struct elf_seg *g = elfsyms_segment(e, i);
		sink += elfsyms_file_to_vaddr(e, g->offset + g->filesz, &ok) + ok;
		sink += elfsyms_map_ip(e, 0x10000, g->memsz, g->offset, 0x10000 + g->filesz, &ok);
	}
	elfsyms_close(e);
	return 0;
}
