/* ELF symbol, segment and build-id reader (see elfsyms.h) on libelf's
 * gelf_* interface, so 32/64-bit and foreign-endian files read alike. The
 * file is untrusted: before anything is read, every program header and
 * every section with file bytes must lie inside the file, and each libelf
 * call is checked, so a truncated or corrupt file is an error, never a
 * crash or a silently empty result. */
#include "collect/symbols/elfsyms.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/symbols/elf_plt.h"
#include "lib/alloc.h"
#include "lib/errf.h"
#include "lib/openreg.h"
#include "lib/strbuf.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

struct elfsyms {
	struct symtab *syms;
	struct symtab *plt;	/* the PLT entries' symbols, name@plt */
	struct elf_seg *segs;
	size_t nsegs, csegs;
	uint8_t build_id[ELFSYMS_BUILD_ID_MAX];
	size_t build_id_len;
};

/* One open: the libelf handle, the file size and where errors go. */
struct reader {
	Elf *elf;
	uint64_t size;
	GElf_Ehdr ehdr;
	const char *path;
	char *err;
	size_t errlen;
};

/* fail(r, fmt, ...): writes "elf: PATH: what" to r's err; returns -1. */
static int fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
	struct strbuf what = STRBUF_INIT;
	va_list ap;

	if (!r->err || !r->errlen)
		return -1;
	va_start(ap, fmt);
	sb_vprintf(&what, fmt, ap);
	va_end(ap);
	errf(r->err, r->errlen, "elf: %s: %s", r->path, sb_str(&what));
	sb_free(&what);
	return -1;
}

/* in_file(r, off, size): [off, off+size) lies inside the file. */
static bool in_file(const struct reader *r, uint64_t off, uint64_t size)
{
	return off <= r->size && size <= r->size - off;
}

/* table_in_file(r, off, n, entsize): n entries of entsize at off fit. */
static bool table_in_file(const struct reader *r, uint64_t off, size_t n, uint64_t entsize)
{
	uint64_t bytes;

	return !__builtin_mul_overflow((uint64_t)n, entsize, &bytes) &&
	       in_file(r, off, bytes);
}

/* header_counts(r, phnum, shnum): the program and section header counts
 * the ELF header claims (libelf clamps its own to what fits in the file,
 * which would hide a truncation), following the extended-numbering
 * escapes. 0, or -1 with the error set. */
static int header_counts(struct reader *r, size_t *phnum, size_t *shnum)
{
	size_t libelf_ph, libelf_sh;

	*phnum = r->ehdr.e_phnum;
	*shnum = r->ehdr.e_shnum;
	if (!*shnum && r->ehdr.e_shoff && !table_in_file(r, r->ehdr.e_shoff, 1,
							 r->ehdr.e_shentsize))
		return fail(r, "section headers past end of file (truncated?)");
	if (elf_getphdrnum(r->elf, &libelf_ph) || elf_getshdrnum(r->elf, &libelf_sh))
		return fail(r, "bad header counts: %s", elf_errmsg(-1));
	if (*phnum == PN_XNUM)
		*phnum = libelf_ph;
	if (!*shnum && r->ehdr.e_shoff)
		*shnum = libelf_sh;
	if (libelf_ph != *phnum || libelf_sh != *shnum)
		return fail(r, "header tables past end of file (truncated?)");
	return 0;
}

/* check_header(r): reads the ELF header and checks its kind, type and that
 * both header tables lie inside the file. 0, or -1 with the error set. */
static int check_header(struct reader *r)
{
	size_t phnum, shnum;

	if (elf_kind(r->elf) != ELF_K_ELF)
		return fail(r, "not an ELF file");
	if (!gelf_getehdr(r->elf, &r->ehdr))
		return fail(r, "bad ELF header: %s", elf_errmsg(-1));
	if (r->ehdr.e_type != ET_EXEC && r->ehdr.e_type != ET_DYN)
		return fail(r, "not an executable or shared object (e_type %u)",
			    (unsigned)r->ehdr.e_type);
	if (header_counts(r, &phnum, &shnum))
		return -1;
	if (phnum && (r->ehdr.e_phentsize != gelf_fsize(r->elf, ELF_T_PHDR, 1, EV_CURRENT) ||
		      !table_in_file(r, r->ehdr.e_phoff, phnum, r->ehdr.e_phentsize)))
		return fail(r, "bad program header table (truncated?)");
	if (shnum && (r->ehdr.e_shentsize != gelf_fsize(r->elf, ELF_T_SHDR, 1, EV_CURRENT) ||
		      !table_in_file(r, r->ehdr.e_shoff, shnum, r->ehdr.e_shentsize)))
		return fail(r, "bad section header table (truncated?)");
	return 0;
}

/* check_sections(r): every section with file bytes lies inside the file. */
static int check_sections(struct reader *r)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(r->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			return fail(r, "bad section header: %s", elf_errmsg(-1));
		if (sh.sh_type != SHT_NOBITS && !in_file(r, sh.sh_offset, sh.sh_size))
			return fail(r, "section %zu past end of file (truncated?)",
				    elf_ndxscn(scn));
	}
	return 0;
}

/* add_segment(e, ph): appends the PT_LOAD ph to e->segs. */
static void add_segment(struct elfsyms *e, const GElf_Phdr *ph)
{
	ALLOC_GROW(e->segs, e->nsegs + 1, e->csegs);
	e->segs[e->nsegs++] = (struct elf_seg){
		.offset = ph->p_offset, .vaddr = ph->p_vaddr, .filesz = ph->p_filesz,
		.memsz = ph->p_memsz, .flags = ph->p_flags,
	};
}

/* read_segments(r, e): copies the PT_LOAD headers, which must lie inside
 * the file. */
static int read_segments(struct reader *r, struct elfsyms *e)
{
	size_t i, phnum;
	GElf_Phdr ph;

	if (elf_getphdrnum(r->elf, &phnum))
		return fail(r, "bad program header count: %s", elf_errmsg(-1));
	for (i = 0; i < phnum; i++) {
		if (!gelf_getphdr(r->elf, (int)i, &ph))
			return fail(r, "bad program header %zu: %s", i, elf_errmsg(-1));
		if (ph.p_type != PT_LOAD)
			continue;
		if (!in_file(r, ph.p_offset, ph.p_filesz))
			return fail(r, "segment %zu past end of file (truncated?)", i);
		add_segment(e, &ph);
	}
	return 0;
}

/* note_build_id(data, e): scans the notes in data for a GNU build-id and
 * stores it in e. True when found. */
static bool note_build_id(Elf_Data *data, struct elfsyms *e)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;
	const char *base = data->d_buf;

	while (off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(base + name_off, "GNU", 4) && nh.n_descsz > 0 &&
		    nh.n_descsz <= ELFSYMS_BUILD_ID_MAX) {
			memcpy(e->build_id, base + desc_off, nh.n_descsz);
			e->build_id_len = nh.n_descsz;
			return true;
		}
		off = next;
	}
	return false;
}

/* build_id_from_sections(r, e): looks in SHT_NOTE sections. */
static bool build_id_from_sections(struct reader *r, struct elfsyms *e)
{
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(r->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (d && d->d_buf && note_build_id(d, e))
			return true;
	}
	return false;
}

/* build_id_from_segments(r, e): looks in PT_NOTE segments. */
static bool build_id_from_segments(struct reader *r, struct elfsyms *e)
{
	size_t i, phnum;
	GElf_Phdr ph;
	Elf_Data *d;

	if (elf_getphdrnum(r->elf, &phnum))
		return false;
	for (i = 0; i < phnum; i++) {
		if (!gelf_getphdr(r->elf, (int)i, &ph) || ph.p_type != PT_NOTE ||
		    !in_file(r, ph.p_offset, ph.p_filesz) || !ph.p_filesz)
			continue;
		d = elf_getdata_rawchunk(r->elf, (int64_t)ph.p_offset, ph.p_filesz,
					 ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
		if (d && d->d_buf && note_build_id(d, e))
			return true;
	}
	return false;
}

/* find_symtab(r): the .symtab section when it has symbols, else .dynsym,
 * else NULL. */
static Elf_Scn *find_symtab(struct reader *r)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(r->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !sh.sh_size)
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			return scn;
		if (sh.sh_type == SHT_DYNSYM && !dyn)
			dyn = scn;
	}
	return dyn;
}

/* object_letter(r, shndx): nm's letter for a global data object in section
 * shndx: B (no file bytes), D (writable) or R (read-only). */
static char object_letter(struct reader *r, unsigned shndx)
{
	Elf_Scn *scn = shndx < SHN_LORESERVE ? elf_getscn(r->elf, shndx) : NULL;
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		return 'D';
	if (sh.sh_type == SHT_NOBITS)
		return 'B';
	return (sh.sh_flags & SHF_WRITE) ? 'D' : 'R';
}

/* is_code_label(r, s, name): a label in code (STT_NOTYPE in an executable
 * section, such as ld.so's _dl_start_user), which perf keeps as a
 * function; not ARM's mapping symbols ($a, $x, $d, ...). */
static bool is_code_label(struct reader *r, const GElf_Sym *s, const char *name)
{
	Elf_Scn *scn;
	GElf_Shdr sh;
	if (GELF_ST_TYPE(s->st_info) != STT_NOTYPE || name[0] == '$' ||
	    s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE)
		return false;
	scn = elf_getscn(r->elf, s->st_shndx);
	return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

/* sym_letter(r, s, name): nm's letter for s, or 0 when s is not kept (not
 * a function, code label or object; undefined, absolute or common). */
static char sym_letter(struct reader *r, const GElf_Sym *s, const char *name)
{
	int type = GELF_ST_TYPE(s->st_info), bind = GELF_ST_BIND(s->st_info);
	bool func = type == STT_FUNC || type == STT_GNU_IFUNC || is_code_label(r, s, name);
	char c;

	if ((!func && type != STT_OBJECT) || s->st_shndx == SHN_UNDEF ||
	    s->st_shndx == SHN_ABS || s->st_shndx == SHN_COMMON)
		return 0;
	if (bind == STB_WEAK)
		return func ? 'W' : 'V';
	c = func ? 'T' : object_letter(r, s->st_shndx);
	return bind == STB_LOCAL ? (char)(c - 'A' + 'a') : c;
}

/* add_symbol(r, e, s, strndx): adds s to e->syms when kept. */
static void add_symbol(struct reader *r, struct elfsyms *e, const GElf_Sym *s,
		       size_t strndx)
{
	const char *name = elf_strptr(r->elf, strndx, s->st_name);
	uint64_t value = s->st_value;
	char letter;

	if (!name || !*name || !(letter = sym_letter(r, s, name)))
		return;
	if (r->ehdr.e_machine == EM_ARM && sym_is_text(&(struct sym){ .type = letter }))
		value &= ~(uint64_t)1; /* Thumb bit */
	/* a non-empty C string: the only names symtab refuses cannot occur */
	symtab_add_typed(e->syms, value, s->st_size, letter, name, strlen(name), NULL);
}

/* read_symbols(r, e): adds the kept symbols of .symtab (else .dynsym). */
static int read_symbols(struct reader *r, struct elfsyms *e)
{
	Elf_Scn *scn = find_symtab(r);
	Elf_Data *d;
	GElf_Shdr sh;
	GElf_Sym s;
	size_t i, n, entsize;

	if (!scn)
		return 0;
	if (!gelf_getshdr(scn, &sh) || !(d = elf_getdata(scn, NULL)))
		return fail(r, "bad symbol table: %s", elf_errmsg(-1));
	entsize = gelf_fsize(r->elf, ELF_T_SYM, 1, EV_CURRENT);
	n = entsize ? d->d_size / entsize : 0;
	for (i = 1; i < n; i++) {
		if (!gelf_getsym(d, (int)i, &s))
			return fail(r, "bad symbol %zu: %s", i, elf_errmsg(-1));
		add_symbol(r, e, &s, sh.sh_link);
	}
	return 0;
}

/* add_plt_entry(ctx, file_off, size, name): adds one PLT entry to the
 * elfsyms ctx's PLT table as "name@plt", at the virtual address of its
 * file offset (left out when no PT_LOAD segment holds it: no sample can
 * land there). */
static void add_plt_entry(void *ctx, uint64_t file_off, uint64_t size, const char *name)
{
	struct elfsyms *e = ctx;
	bool ok;
	uint64_t vaddr = elfsyms_file_to_vaddr(e, file_off, &ok);
	char *full;

	if (!ok)
		return;
	full = xasprintf("%s@plt", name);
	symtab_add_typed(e->plt, vaddr, size, 'T', full, strlen(full), NULL);
	free(full);
}

/* read_plt(r, e): e's PLT entry symbols (elf_plt.h). */
static int read_plt(struct reader *r, struct elfsyms *e)
{
	char why[256];

	if (elf_plt_read(r->elf, add_plt_entry, e, why, sizeof(why)) < 0)
		return fail(r, "%s", why);
	symtab_finish(e->plt);
	return 0;
}

/* read_all(r, e): fills e from the open ELF. 0, or -1 with the error set. */
static int read_all(struct reader *r, struct elfsyms *e)
{
	if (check_header(r) || check_sections(r) || read_segments(r, e))
		return -1;
	if (!build_id_from_sections(r, e))
		build_id_from_segments(r, e);
	if (read_symbols(r, e) || read_plt(r, e))
		return -1;
	symtab_finish(e->syms);
	return 0;
}

/* open_file(r): opens r->path read-only, without blocking, when it is
 * a regular file (a FIFO named in a recording would hang the open); the
 * fd, or -1 with the error set. */
static int open_file(struct reader *r)
{
	int fd = open_regular(r->path, &r->size);

	if (fd < 0)
		return fail(r, "%s", errno == EINVAL ? "not a regular file" : strerror(errno));
	return fd;
}

/* elfsyms_open(path, err, errlen): reads everything, closes the file;
 * NULL with err set on any failure. */
struct elfsyms *elfsyms_open(const char *path, char *err, size_t errlen)
{
	struct reader r = { .path = path, .err = err, .errlen = errlen };
	struct elfsyms *e;
	int fd, rc = -1;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		fail(&r, "libelf: %s", elf_errmsg(-1));
		return NULL;
	}
	if ((fd = open_file(&r)) < 0)
		return NULL;
	e = xcalloc(1, sizeof(*e));
	e->syms = symtab_new();
	e->plt = symtab_new();
	r.elf = elf_begin(fd, ELF_C_READ, NULL);
	rc = r.elf ? read_all(&r, e) : fail(&r, "%s", elf_errmsg(-1));
	elf_end(r.elf);
	close(fd);
	if (rc) {
		elfsyms_close(e);
		return NULL;
	}
	return e;
}

/* elfsyms_close(e): frees e; NULL is fine. */
void elfsyms_close(struct elfsyms *e)
{
	if (!e)
		return;
	symtab_free(e->syms);
	symtab_free(e->plt);
	free(e->segs);
	free(e);
}

/* elfsyms_symtab(e): e's finished table. */
const struct symtab *elfsyms_symtab(const struct elfsyms *e)
{
	return e->syms;
}

/* elfsyms_build_id(e, out, len): copies the id; 0, or -1 (none/too small). */
int elfsyms_build_id(const struct elfsyms *e, uint8_t *out, size_t *len)
{
	if (!e->build_id_len || *len < e->build_id_len) {
		*len = e->build_id_len;
		return -1;
	}
	memcpy(out, e->build_id, e->build_id_len);
	*len = e->build_id_len;
	return 0;
}

/* elfsyms_nsegments(e): number of PT_LOAD segments. */
size_t elfsyms_nsegments(const struct elfsyms *e)
{
	return e->nsegs;
}

/* elfsyms_segment(e, i): i-th PT_LOAD segment, or NULL. */
const struct elf_seg *elfsyms_segment(const struct elfsyms *e, size_t i)
{
	return i < e->nsegs ? &e->segs[i] : NULL;
}

/* seg_at(e, file_off, mem): the first segment whose file bytes (mem:
 * whose memory image, file bytes plus the zero-filled .bss tail) hold
 * file_off, or NULL. */
static const struct elf_seg *seg_at(const struct elfsyms *e, uint64_t file_off, bool mem)
{
	size_t i;

	for (i = 0; i < e->nsegs; i++) {
		const struct elf_seg *s = &e->segs[i];
		uint64_t size = mem && s->memsz > s->filesz ? s->memsz : s->filesz;
		if (file_off >= s->offset && file_off - s->offset < size)
			return s;
	}
	return NULL;
}

/* elfsyms_file_to_vaddr(e, off, okp): file offset -> ELF vaddr. */
uint64_t elfsyms_file_to_vaddr(const struct elfsyms *e, uint64_t file_off, bool *okp)
{
	const struct elf_seg *s = seg_at(e, file_off, false);

	if (!s)
		s = seg_at(e, file_off, true);
	if (okp)
		*okp = s != NULL;
	return s ? file_off - s->offset + s->vaddr : 0;
}

/* elfsyms_map_ip(...): MMAP2 {addr, len, pgoff} + ip -> ELF vaddr. */
uint64_t elfsyms_map_ip(const struct elfsyms *e, uint64_t map_addr, uint64_t map_len,
			uint64_t map_pgoff, uint64_t ip, bool *okp)
{
	uint64_t off;

	if (ip < map_addr || ip - map_addr >= map_len ||
	    __builtin_add_overflow(ip - map_addr, map_pgoff, &off)) {
		if (okp)
			*okp = false;
		return 0;
	}
	return elfsyms_file_to_vaddr(e, off, okp);
}

/* elfsyms_find(e, vaddr, off): e's PLT entry when e has symbols at all
 * (in an unstripped binary a size-0 _init stretches over the whole .plt:
 * the entry is the more precise name; perf's pick between the two depends
 * on the shape of its symbol tree), else e's symbol. */
const struct sym *elfsyms_find(const struct elfsyms *e, uint64_t vaddr, uint64_t *off)
{
	const struct sym *s = symtab_count(e->syms) ? symtab_find(e->plt, vaddr, off) : NULL;

	return s ? s : symtab_find(e->syms, vaddr, off);
}

/* elfsyms_plt(e): e's PLT entry table. */
const struct symtab *elfsyms_plt(const struct elfsyms *e)
{
	return e->plt;
}

/* elfsyms_find_plt(e, vaddr, off): symtab_find on e's PLT entries. */
const struct sym *elfsyms_find_plt(const struct elfsyms *e, uint64_t vaddr, uint64_t *off)
{
	return symtab_find(e->plt, vaddr, off);
}
