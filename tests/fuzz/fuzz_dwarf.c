/* libFuzzer harness: an ELF file with DWARF (what --dwarf names: a
 * binary built with -g, a debug vmlinux) through libdw and perfdb's
 * layout reader: its file-scope variables, and the layout of the type of
 * each (the first 32), as perfdb layout --dwarf reads them. */
#include <stdint.h>
#include "collect/layout/dwarf_layout.h"
#include "tests/fuzz/memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = memfile_path(0, data, size);
	struct dwarf_var *v = NULL;
	struct layout l;
	char err[512];
	size_t n = 0;
	if (dwarf_vars(path, &v, &n, err, sizeof(err)))
		return 0;
	for (size_t i = 0; i < n && i < 32; i++) {
		sink += v[i].addr + v[i].size;
		if (v[i].type[0] && !dwarf_layout_of(path, v[i].type, &l, err, sizeof(err))) {
			sink += l.n;
			layout_free(&l);
		}
	}
	dwarf_vars_free(v, n);
	return 0;
}
