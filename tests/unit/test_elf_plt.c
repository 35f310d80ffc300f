/* Unit tests of the PLT entry symbols (collect/symbols/elf_plt.c through
 * elfsyms): small ELF files written here with libelf, whose .plt,
 * .rela.plt/.rel.plt and .dynsym are known, checked entry by entry
 * (name@plt in relocation order, "@plt" for a relocation without symbol,
 * the machine's header and entry sizes, lookups inside an entry), the
 * cases where perf synthesizes nothing, and corrupt tables, which must
 * fail with the file offset of the bad entry or give fewer entries,
 * never read out of bounds. Also sym_demangle of NAME@plt. */
#include <fcntl.h>
#include <stddef.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/symbols/demangle.h"
#include "collect/symbols/elfsyms.h"
#include "lib/symtab.h"
#include "tests/unit/tap.h"

#define BASE 0x400000u	/* the one PT_LOAD's p_vaddr; its p_offset is 0 */
#define NSYMS 4

/* What one test file holds. Symbols of .dynsym: 0 none, 1 "fn" (defined
 * in .text when defined_fn, else undefined), 2 "puts", 3 "_ZN2ns3fooEv"
 * (undefined). */
struct spec {
	int cls;		/* ELFCLASS64 (default) or ELFCLASS32 */
	unsigned machine;	/* EM_X86_64 when 0 */
	bool rel;		/* .rel.plt of SHT_REL instead of .rela.plt */
	size_t nrels;
	unsigned rel_sym[8];	/* the symbol of each relocation */
	uint64_t plt_entsize;	/* .plt's sh_entsize */
	size_t plt_size;	/* .plt's bytes */
	uint64_t set_plt_entsize, set_rel_entsize;	/* patched in after writing
							 * (libelf writes no bad ones) */
	bool bad_link, nobits_dynsym, defined_fn;
	unsigned bad_name;	/* a symbol whose name is past .dynstr, or 0 */
};

/* A written file: where its sections landed. */
struct built {
	char path[64];
	uint64_t plt_off, rel_off;
};

static const char dynstr[] = "\0fn\0puts\0_ZN2ns3fooEv";
static const unsigned name_at[NSYMS] = { 0, 1, 4, 9 };
static const char shstr[] = "\0.dynsym\0.dynstr\0.rela.plt\0.plt\0.text\0.shstrtab\0.rel.plt";
enum { N_DYNSYM = 1, N_DYNSTR = 9, N_RELA = 17, N_PLT = 27, N_TEXT = 32, N_SHSTR = 38,
       N_REL = 48 };

/* new_section(e, name, type, flags, buf, size, entsize): a section
 * holding size bytes of buf. */
static Elf_Scn *new_section(Elf *e, unsigned name, unsigned type, uint64_t flags,
			    void *buf, size_t size, uint64_t entsize, Elf_Type dtype)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = elf_newdata(scn);
	GElf_Shdr sh;

	d->d_buf = buf;
	d->d_size = size;
	d->d_type = dtype;
	d->d_align = 8;
	gelf_getshdr(scn, &sh);
	sh.sh_name = name;
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_entsize = entsize;
	gelf_update_shdr(scn, &sh);
	return scn;
}

/* fill_syms(scn, s): writes .dynsym's symbols for s into scn's data. */
static void fill_syms(Elf_Scn *scn, const struct spec *s)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	GElf_Sym g;

	for (int i = 0; i < NSYMS; i++) {
		memset(&g, 0, sizeof(g));
		g.st_name = s->bad_name && s->bad_name == (unsigned)i ? 4096 : name_at[i];
		g.st_info = i ? GELF_ST_INFO(STB_GLOBAL, STT_FUNC) : 0;
		if (i == 1 && s->defined_fn) {
			g.st_shndx = 5;	/* .text; st_value set after layout */
			g.st_size = 16;
		}
		gelf_update_sym(d, i, &g);
	}
}

/* fill_rels(scn, s): writes the PLT relocations for s into scn's data. */
static void fill_rels(Elf_Scn *scn, const struct spec *s)
{
	Elf_Data *d = elf_getdata(scn, NULL);

	for (size_t i = 0; i < s->nrels; i++) {
		uint64_t info = GELF_R_INFO(s->rel_sym[i], 7);	/* gelf converts for ELFCLASS32 */
		GElf_Rela ra = { .r_offset = 0x1000 + 8 * i, .r_info = info };
		GElf_Rel r = { .r_offset = ra.r_offset, .r_info = info };
		if (s->rel)
			gelf_update_rel(d, (int)i, &r);
		else
			gelf_update_rela(d, (int)i, &ra);
	}
}

/* place(e, b): after layout: section addresses (BASE + offset), fn's
 * value, the PT_LOAD over the whole file. */
static void place(Elf *e, struct built *b, Elf_Scn *dynsym, uint64_t filesize)
{
	Elf_Scn *scn = NULL;
	Elf_Data *d = elf_getdata(dynsym, NULL);
	GElf_Shdr sh;
	GElf_Phdr ph = { .p_type = PT_LOAD, .p_vaddr = BASE, .p_paddr = BASE,
			 .p_filesz = filesize, .p_memsz = filesize, .p_flags = PF_R | PF_X,
			 .p_align = 0x1000 };
	GElf_Sym g;

	while ((scn = elf_nextscn(e, scn))) {
		gelf_getshdr(scn, &sh);
		sh.sh_addr = BASE + sh.sh_offset;
		if (sh.sh_name == N_PLT)
			b->plt_off = sh.sh_offset;
		if (sh.sh_name == N_RELA || sh.sh_name == N_REL)
			b->rel_off = sh.sh_offset;
		if (sh.sh_name == N_TEXT && d && d->d_buf && gelf_getsym(d, 1, &g) && g.st_shndx) {
			g.st_value = sh.sh_addr;
			gelf_update_sym(d, 1, &g);
		}
		gelf_update_shdr(scn, &sh);
	}
	gelf_update_phdr(e, 0, &ph);
}

/* sections(e, s, bufs): adds the six sections; returns .dynsym. */
static Elf_Scn *sections(Elf *e, const struct spec *s, void **bufs)
{
	Elf_Type rt = s->rel ? ELF_T_REL : ELF_T_RELA;
	size_t nsym = NSYMS * gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
	size_t nrel = s->nrels * gelf_fsize(e, rt, 1, EV_CURRENT);
	Elf_Scn *dynsym, *rel;
	GElf_Shdr sh;
	uint64_t relent = gelf_fsize(e, rt, 1, EV_CURRENT);

	bufs[0] = calloc(1, nsym);
	bufs[1] = calloc(1, nrel + 1);
	bufs[2] = calloc(1, s->plt_size + 1);
	bufs[3] = calloc(1, 64);
	dynsym = new_section(e, N_DYNSYM, s->nobits_dynsym ? SHT_NOBITS : SHT_DYNSYM, SHF_ALLOC,
			     bufs[0], nsym, gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT), ELF_T_SYM);
	new_section(e, N_DYNSTR, SHT_STRTAB, SHF_ALLOC, (void *)dynstr, sizeof(dynstr), 0, ELF_T_BYTE);
	rel = new_section(e, s->rel ? N_REL : N_RELA, s->rel ? SHT_REL : SHT_RELA, SHF_ALLOC,
			  bufs[1], nrel, relent, rt);
	new_section(e, N_PLT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, bufs[2], s->plt_size,
		    s->plt_entsize, ELF_T_BYTE);
	new_section(e, N_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, bufs[3], 64, 0, ELF_T_BYTE);
	new_section(e, N_SHSTR, SHT_STRTAB, 0, (void *)shstr, sizeof(shstr), 0, ELF_T_BYTE);
	fill_syms(dynsym, s);
	fill_rels(rel, s);
	gelf_getshdr(dynsym, &sh);
	sh.sh_link = 2;
	sh.sh_info = 1;
	gelf_update_shdr(dynsym, &sh);
	gelf_getshdr(rel, &sh);
	sh.sh_link = s->bad_link ? 2 : 1;
	gelf_update_shdr(rel, &sh);
	return dynsym;
}

/* set_entsize(fd, ndx, value): overwrites sh_entsize of section ndx of
 * the ELF64 file fd. */
static bool set_entsize(int fd, unsigned ndx, uint64_t value)
{
	Elf64_Ehdr eh;

	return pread(fd, &eh, sizeof(eh), 0) == sizeof(eh) &&
	       pwrite(fd, &value, sizeof(value), (off_t)(eh.e_shoff + ndx * sizeof(Elf64_Shdr) +
						   offsetof(Elf64_Shdr, sh_entsize))) == sizeof(value);
}

/* build(s, b): writes the file s describes to a temporary path in b. */
static bool build(const struct spec *s, struct built *b)
{
	void *bufs[4] = { 0 };
	int fd;
	Elf *e;
	GElf_Ehdr eh;
	off_t size;
	bool ok = false;

	snprintf(b->path, sizeof(b->path), "/tmp/perfdb-plt-XXXXXX");
	if (elf_version(EV_CURRENT) == EV_NONE || (fd = mkstemp(b->path)) < 0)
		return false;
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (e && gelf_newehdr(e, s->cls ? s->cls : ELFCLASS64) && gelf_newphdr(e, 1)) {
		gelf_getehdr(e, &eh);
		eh.e_ident[EI_DATA] = ELFDATA2LSB;
		eh.e_type = ET_DYN;
		eh.e_machine = s->machine ? s->machine : EM_X86_64;
		eh.e_version = EV_CURRENT;
		eh.e_shstrndx = 6;
		gelf_update_ehdr(e, &eh);
		Elf_Scn *dynsym = sections(e, s, bufs);
		if ((size = elf_update(e, ELF_C_NULL)) > 0) {
			place(e, b, dynsym, (uint64_t)size);
			ok = elf_update(e, ELF_C_WRITE) > 0;
		}
	}
	if (!ok)
		fprintf(stderr, "# building the test ELF: %s\n", elf_errmsg(-1));
	elf_end(e);
	if (ok && s->set_rel_entsize)
		ok = set_entsize(fd, 3, s->set_rel_entsize);
	if (ok && s->set_plt_entsize)
		ok = set_entsize(fd, 4, s->set_plt_entsize);
	close(fd);
	for (int i = 0; i < 4; i++)
		free(bufs[i]);
	return ok;
}

/* open_spec(s, b, err): builds and opens s (the file is removed). */
static struct elfsyms *open_spec(const struct spec *s, struct built *b, char *err, size_t errlen)
{
	struct elfsyms *e;

	err[0] = 0;
	if (!build(s, b))
		return NULL;
	e = elfsyms_open(b->path, err, errlen);
	unlink(b->path);
	return e;
}

/* found(e, vaddr, off): the name elfsyms_find gives vaddr, or "-". */
static const char *found(const struct elfsyms *e, uint64_t vaddr, uint64_t *off)
{
	const struct sym *s = elfsyms_find(e, vaddr, off);
	return s ? s->name : "-";
}

/* test_x86_64(): the entries of a plain x86-64 .rela.plt, in relocation order
 * (not address order of anything), looked up inside each entry. */
static void test_x86_64(void)
{
	struct spec s = { .nrels = 3, .rel_sym = { 2, 0, 3 }, .plt_entsize = 16, .plt_size = 64,
			  .defined_fn = true };
	struct built b;
	char err[256];
	struct elfsyms *e = open_spec(&s, &b, err, sizeof(err));
	uint64_t plt = BASE + b.plt_off, off = 99;
	const struct sym *y;

	ok(e != NULL, "x86-64: opens (%s)", err);
	if (!e)
		return;
	is_int(symtab_count(elfsyms_plt(e)), 3, "x86-64: one symbol per relocation");
	is_str(found(e, plt + 16, &off), "puts@plt", "x86-64: entry 0 after the 16-byte header");
	is_int(off, 0, "x86-64: at its start");
	is_str(found(e, plt + 16 + 15, &off), "puts@plt", "x86-64: its last byte");
	is_int(off, 15, "x86-64: offset 15");
	is_str(found(e, plt + 32 + 6, &off), "@plt", "x86-64: a relocation without symbol: @plt");
	is_str(found(e, plt + 48, &off), "_ZN2ns3fooEv@plt", "x86-64: entry 2, raw name");
	is_str(found(e, plt + 5, &off), "-", "x86-64: the header is no entry");
	y = symtab_find(elfsyms_plt(e), plt + 16, NULL);
	ok(y && y->size == 16 && sym_is_text(y), "x86-64: entries are 16-byte text symbols");
	ok(!elfsyms_find_plt(e, plt + 64, NULL), "x86-64: no entry past .plt");
	elfsyms_close(e);
}

/* test_no_own_symbols(): a file whose .dynsym defines nothing: perf adds
 * no PLT symbols (elfsyms_find), but they are there for a debug file's
 * symbols to use (elfsyms_find_plt). */
static void test_no_own_symbols(void)
{
	struct spec s = { .nrels = 2, .rel_sym = { 2, 3 }, .plt_entsize = 16, .plt_size = 48 };
	struct built b;
	char err[256];
	struct elfsyms *e = open_spec(&s, &b, err, sizeof(err));
	const struct sym *y;

	ok(e != NULL, "no own symbols: opens (%s)", err);
	if (!e)
		return;
	is_str(found(e, BASE + b.plt_off + 16, NULL), "-", "no own symbols: no PLT symbol found");
	y = elfsyms_find_plt(e, BASE + b.plt_off + 16, NULL);
	is_str(y ? y->name : "-", "puts@plt", "no own symbols: elfsyms_find_plt has it");
	elfsyms_close(e);
}

/* test_machines(): AArch64's 32-byte header and 16-byte entries; i386's
 * .rel.plt in a 32-bit file. */
static void test_machines(void)
{
	struct spec a = { .machine = EM_AARCH64, .nrels = 2, .rel_sym = { 3, 2 },
			  .plt_entsize = 0, .plt_size = 64, .defined_fn = true };
	struct spec x = { .cls = ELFCLASS32, .machine = EM_386, .rel = true, .nrels = 2,
			  .rel_sym = { 3, 2 }, .plt_entsize = 16, .plt_size = 48, .defined_fn = true };
	struct built b;
	char err[256];
	struct elfsyms *e = open_spec(&a, &b, err, sizeof(err));

	ok(e != NULL, "aarch64: opens (%s)", err);
	if (e) {
		is_str(found(e, BASE + b.plt_off + 32, NULL), "_ZN2ns3fooEv@plt", "aarch64: entry 0 at 32");
		is_str(found(e, BASE + b.plt_off + 48 + 15, NULL), "puts@plt", "aarch64: entry 1 at 48");
		is_str(found(e, BASE + b.plt_off + 31, NULL), "-", "aarch64: the header is none");
		elfsyms_close(e);
	}
	e = open_spec(&x, &b, err, sizeof(err));
	ok(e != NULL, "i386 .rel.plt: opens (%s)", err);
	if (e) {
		is_str(found(e, BASE + b.plt_off + 16, NULL), "_ZN2ns3fooEv@plt", "i386: entry 0");
		is_str(found(e, BASE + b.plt_off + 32, NULL), "puts@plt", "i386: entry 1");
		elfsyms_close(e);
	}
}

/* count_of(s, err, errlen, b): the number of PLT entries of s's file, or
 * -1 when it does not open (err says why). */
static long count_of(const struct spec *s, char *err, size_t errlen, struct built *b)
{
	struct elfsyms *e = open_spec(s, b, err, errlen);
	long n = e ? (long)symtab_count(elfsyms_plt(e)) : -1;

	elfsyms_close(e);
	return n;
}

/* test_none(): the files perf synthesizes nothing for. */
static void test_none(void)
{
	struct spec s = { .nrels = 2, .rel_sym = { 2, 3 }, .plt_entsize = 16, .plt_size = 48,
			  .defined_fn = true };
	struct built b;
	char err[256];

	s.bad_link = true;
	is_int(count_of(&s, err, sizeof(err), &b), 0, "relocations not linked to .dynsym: none (%s)", err);
	s.bad_link = false;
	s.nobits_dynsym = true;
	is_int(count_of(&s, err, sizeof(err), &b), 0, "a debug file's NOBITS .dynsym: none (%s)", err);
	s.nobits_dynsym = false;
	s.plt_entsize = 0;
	is_int(count_of(&s, err, sizeof(err), &b), 0, "x86 .plt with sh_entsize 0: none (%s)", err);
}

/* test_bounds(): counts and sizes from the file never reach past .plt. */
static void test_bounds(void)
{
	struct spec s = { .nrels = 6, .rel_sym = { 2, 3, 2, 3, 2, 3 }, .plt_entsize = 16,
			  .plt_size = 48, .defined_fn = true };
	struct built b;
	char err[256];

	is_int(count_of(&s, err, sizeof(err), &b), 2, "6 relocations, room for 2: 2 entries (%s)", err);
	s.set_plt_entsize = (uint64_t)1 << 62;
	is_int(count_of(&s, err, sizeof(err), &b), 0, "a huge .plt sh_entsize: none (%s)", err);
	s.set_plt_entsize = UINT64_MAX;
	is_int(count_of(&s, err, sizeof(err), &b), 0, "sh_entsize 2^64-1: none (%s)", err);
}

/* test_corrupt(): corrupt tables fail the open with the bad entry's file
 * offset. */
static void test_corrupt(void)
{
	struct spec s = { .nrels = 3, .rel_sym = { 2, 3, 200 }, .plt_entsize = 16, .plt_size = 64,
			  .defined_fn = true };
	struct built b;
	char err[256], want[64];

	is_int(count_of(&s, err, sizeof(err), &b), -1, "a relocation naming symbol 200 of 4 fails");
	snprintf(want, sizeof(want), "file offset %#llx", (unsigned long long)(b.rel_off + 2 * 24));
	ok(strstr(err, want) && strstr(err, "symbol 200 of 4"), "... saying where (%s): %s", want, err);
	s.rel_sym[2] = 3;
	s.bad_name = 3;
	is_int(count_of(&s, err, sizeof(err), &b), -1, "a symbol name past .dynstr fails");
	ok(strstr(err, "symbol 3") && strstr(err, "past its string table"), "... saying which: %s", err);
	s.bad_name = 0;
	s.set_rel_entsize = 16;
	is_int(count_of(&s, err, sizeof(err), &b), -1, ".rela.plt sh_entsize 16 fails");
	ok(strstr(err, "entry size 16, not 24") != NULL, "... saying so: %s", err);
}

/* test_demangle_plt(): NAME@plt demangles as NAME, then @plt. */
static void test_demangle_plt(void)
{
	char *d = sym_demangle("_ZN2ns3fooEv@plt");

	is_str(d, "ns::foo@plt", "demangle: C++ NAME@plt");
	free(d);
	d = sym_demangle("puts@plt");
	ok(d == NULL, "demangle: a C name@plt stays as it is");
	free(d);
	d = sym_demangle("_Z@plt");
	ok(d == NULL, "demangle: no name before @plt");
	free(d);
}

int main(void)
{
	test_x86_64();
	test_no_own_symbols();
	test_machines();
	test_none();
	test_bounds();
	test_corrupt();
	test_demangle_plt();
	return tap_done();
}
