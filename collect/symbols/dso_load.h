/* One mapped object (dso) of a recording and where its symbols come from:
 * its ELF file when it is on disk and the build the recording saw, the
 * separate debug file when there is one, this kernel's vDSO. */
#ifndef PERFDB_DSO_LOAD_H
#define PERFDB_DSO_LOAD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "collect/perfdata/perf_data.h"
#include "lib/symtab.h"

struct elfsyms;

struct dso {
	char *path;
	int64_t row;			/* its row id (rows are written at the end) */
	int kernel;
	char *build_id_hex, *symbols;	/* the row's build_id and symbols */
	uint8_t build_id[20];		/* from MMAP2, when it had one */
	uint8_t build_id_size;
	int loaded;			/* 0 not tried, 1 loaded, -1 none */
	char *file;			/* the ELF file loaded (path or a cached
					 * copy), NULL for none or the own vDSO */
	struct elfsyms *elf;		/* the mapped file: its segments map ips */
	struct elfsyms *debug;		/* its separate debug file, or NULL */
};

/* dso_load: opens d's symbols: expected is the build id (hex) the
 * recording saw, or NULL; this_kernel says the recording was made on the
 * running kernel (then [vdso] is this process's own). Sets d->loaded, and
 * build_id_hex and symbols for d's row. */
void dso_load(struct dso *d, const char *expected, bool this_kernel);

/* dso_symbol: the symbol of d containing the ip that lies in a mapping
 * {start, len, pgoff} of d: from its debug file when it has one, else
 * from the file itself; where no symbol holds the ip, the PLT entry of
 * the mapped file that does (name@plt, collect/symbols/elfsyms.h); NULL when
 * none. d must be loaded. */
const struct sym *dso_symbol(const struct dso *d, uint64_t start, uint64_t len,
			     uint64_t pgoff, uint64_t ip, uint64_t *off);

/* dso_free: frees what d holds (not d itself). */
void dso_free(struct dso *d);

/* build_id_hex: n bytes of id as lower-case hex into out (2n+1 bytes). */
void build_id_hex(const uint8_t *id, size_t n, char *out);

/* recorded_here: whether r was recorded on the running kernel (same
 * release). */
bool recorded_here(const struct pd_reader *r);
#endif
