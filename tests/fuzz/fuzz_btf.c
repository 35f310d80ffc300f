/* libFuzzer harness: a BTF file (what --btf names: raw BTF or an ELF
 * file with a .BTF section) through libbpf and perfdb's layout
 * flattening: the layout of every named struct and union (the first 256),
 * as perfdb layout --btf computes them. */
#include <bpf/btf.h>
#include <stdint.h>
#include "collect/layout/btf_layout.h"
#include "tests/fuzz/memfile.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct btf *btf = btf_layout_open(memfile_path(0, data, size), err, sizeof(err));
	__u32 n, done = 0;
	if (!btf)
		return 0;
	n = btf__type_cnt(btf);
	for (__u32 id = 1; id < n && done < 256; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
		struct layout l;
		if (!t || !(btf_is_struct(t) || btf_is_union(t)) || !name || !*name)
			continue;
		done++;
		if (!btf_layout_of(btf, name, &l, err, sizeof(err))) {
			sink += l.n;
			layout_free(&l);
		}
	}
	btf_layout_close(btf);
	return 0;
}
