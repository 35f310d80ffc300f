/* PLT entry symbols as perf 6.1 synthesizes them (see elf_plt.h). The
 * sections are found by name, the first of each name, as perf finds them;
 * every count and index read from the file is bounded by the data libelf
 * returned for its section, so a corrupt file gives an error or fewer
 * entries, never a read out of bounds. */
#include "collect/symbols/elf_plt.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The sections the PLT symbols come from. */
struct plt_src {
	Elf *elf;
	Elf_Scn *dynsym, *rel, *plt;
	GElf_Shdr dynsym_sh, rel_sh, plt_sh;
	Elf_Data *syms, *rels;
	size_t nsyms, nrels, relsize;
	uint64_t header, entry;	/* PLT header and entry sizes */
	char *err;
	size_t errlen;
};

/* find_named(elf, shstrndx, name, sh): the first section called name
 * (its header in *sh), or NULL. */
static Elf_Scn *find_named(Elf *elf, size_t shstrndx, const char *name, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;
	const char *s;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && (s = elf_strptr(elf, shstrndx, sh->sh_name)) &&
		    !strcmp(s, name))
			return scn;
	return NULL;
}

/* find_sections(p): finds .dynsym, the PLT relocations linked to it and
 * .plt; false when the file lacks one (or, as a separate debug file does,
 * keeps only their headers: SHT_NOBITS). */
static bool find_sections(struct plt_src *p)
{
	size_t shstrndx;

	if (elf_getshdrstrndx(p->elf, &shstrndx))
		return false;
	p->dynsym = find_named(p->elf, shstrndx, ".dynsym", &p->dynsym_sh);
	if (!p->dynsym || p->dynsym_sh.sh_type != SHT_DYNSYM)
		return false;
	p->rel = find_named(p->elf, shstrndx, ".rela.plt", &p->rel_sh);
	if (!p->rel)
		p->rel = find_named(p->elf, shstrndx, ".rel.plt", &p->rel_sh);
	if (!p->rel || (p->rel_sh.sh_type != SHT_RELA && p->rel_sh.sh_type != SHT_REL) ||
	    p->rel_sh.sh_link != elf_ndxscn(p->dynsym))
		return false;
	p->plt = find_named(p->elf, shstrndx, ".plt", &p->plt_sh);
	return p->plt && p->plt_sh.sh_type != SHT_NOBITS;
}

/* entry_sizes(p, machine): the PLT header and entry sizes perf 6.1 uses
 * for machine; false when the entry size is 0 (no entries can be told). */
static bool entry_sizes(struct plt_src *p, unsigned machine)
{
	static const struct { unsigned machine; uint64_t header, entry; } fixed[] = {
		{ EM_ARM, 20, 12 }, { EM_AARCH64, 32, 16 },
		{ EM_SPARC, 48, 12 }, { EM_SPARCV9, 128, 32 },
	};

	p->header = p->entry = p->plt_sh.sh_entsize;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (fixed[i].machine == machine) {
			p->header = fixed[i].header;
			p->entry = fixed[i].entry;
		}
	return p->entry != 0;
}

/* section_fail(p, scn, what): the error "section N (header at file offset
 * X): what"; returns -1. */
static int section_fail(struct plt_src *p, Elf_Scn *scn, const char *what)
{
	GElf_Ehdr eh;
	uint64_t at = 0;

	if (gelf_getehdr(p->elf, &eh))
		at = eh.e_shoff + (uint64_t)elf_ndxscn(scn) * eh.e_shentsize;
	snprintf(p->err, p->errlen, "section %zu (header at file offset %#llx): %s",
		 elf_ndxscn(scn), (unsigned long long)at, what);
	return -1;
}

/* load_tables(p): the relocation and symbol data, their entry counts and
 * checked entry sizes. 1 when usable, 0 when there is nothing to read,
 * -1 with the error set. */
static int load_tables(struct plt_src *p)
{
	Elf_Type type = p->rel_sh.sh_type == SHT_RELA ? ELF_T_RELA : ELF_T_REL;
	size_t symsize = gelf_fsize(p->elf, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Scn *strs = elf_getscn(p->elf, p->dynsym_sh.sh_link);
	GElf_Shdr strs_sh;
	char what[128];

	p->relsize = gelf_fsize(p->elf, type, 1, EV_CURRENT);
	if (!p->relsize || !symsize || !strs || !gelf_getshdr(strs, &strs_sh) || !strs_sh.sh_size)
		return 0;	/* no names to give (perf gives none either) */
	if (p->rel_sh.sh_entsize != p->relsize) {
		snprintf(what, sizeof(what), "PLT relocation entry size %llu, not %zu",
			 (unsigned long long)p->rel_sh.sh_entsize, p->relsize);
		return section_fail(p, p->rel, what);
	}
	p->rels = elf_getdata(p->rel, NULL);
	p->syms = elf_getdata(p->dynsym, NULL);
	if (!p->rels || !p->syms || !p->rels->d_buf || !p->syms->d_buf) {
		snprintf(what, sizeof(what), "unreadable PLT relocations or .dynsym: %s",
			 elf_errmsg(-1));
		return section_fail(p, p->rels ? p->dynsym : p->rel, what);
	}
	p->nrels = p->rels->d_size / p->relsize;
	p->nsyms = p->syms->d_size / symsize;
	return 1;
}

/* rel_symbol(p, i, idx): the symbol index of relocation i; false when
 * libelf cannot read it. */
static bool rel_symbol(struct plt_src *p, size_t i, size_t *idx)
{
	GElf_Rela rela;
	GElf_Rel rel;

	if (p->rel_sh.sh_type == SHT_RELA) {
		if (!gelf_getrela(p->rels, (int)i, &rela))
			return false;
		*idx = GELF_R_SYM(rela.r_info);
	} else {
		if (!gelf_getrel(p->rels, (int)i, &rel))
			return false;
		*idx = GELF_R_SYM(rel.r_info);
	}
	return true;
}

/* entry_name(p, i, name): the name of relocation i's symbol ("" for
 * symbol 0). 0, or -1 with the error set (the offset of the relocation,
 * or of the symbol whose name is bad). */
static int entry_name(struct plt_src *p, size_t i, const char **name)
{
	char what[160];
	size_t idx = 0;
	GElf_Sym s;

	if (!rel_symbol(p, i, &idx) || idx >= p->nsyms) {
		snprintf(what, sizeof(what),
			 "PLT relocation %zu (file offset %#llx) names symbol %zu of %zu in .dynsym",
			 i, (unsigned long long)(p->rel_sh.sh_offset + i * p->relsize),
			 idx, p->nsyms);
		return section_fail(p, p->rel, what);
	}
	if (!gelf_getsym(p->syms, (int)idx, &s) ||
	    !(*name = elf_strptr(p->elf, p->dynsym_sh.sh_link, s.st_name))) {
		snprintf(what, sizeof(what),
			 ".dynsym symbol %zu (file offset %#llx): name %u is past its string table",
			 idx, (unsigned long long)(p->dynsym_sh.sh_offset +
						   idx * gelf_fsize(p->elf, ELF_T_SYM, 1, EV_CURRENT)),
			 (unsigned)s.st_name);
		return section_fail(p, p->dynsym, what);
	}
	return 0;
}

/* entries_in_plt(p): how many entries fit in .plt after its header, at
 * most one per relocation. */
static size_t entries_in_plt(const struct plt_src *p)
{
	uint64_t room;

	if (p->header > p->plt_sh.sh_size)
		return 0;
	room = (p->plt_sh.sh_size - p->header) / p->entry;
	return room < p->nrels ? (size_t)room : p->nrels;
}

/* elf_plt_read(elf, add, ctx, err, errlen): see elf_plt.h. */
long elf_plt_read(Elf *elf, plt_add_fn *add, void *ctx, char *err, size_t errlen)
{
	struct plt_src p = { .elf = elf, .err = err, .errlen = errlen };
	GElf_Ehdr eh;
	const char *name = NULL;
	size_t i, n;
	int rc;

	if (!gelf_getehdr(elf, &eh) || !find_sections(&p) || !entry_sizes(&p, eh.e_machine))
		return 0;
	if ((rc = load_tables(&p)) <= 0)
		return rc;
	n = entries_in_plt(&p);
	for (i = 0; i < n; i++) {
		if (entry_name(&p, i, &name))
			return -1;
		add(ctx, p.plt_sh.sh_offset + p.header + i * p.entry, p.entry, name);
	}
	return (long)n;
}
