/* btf_chain: writes a hostile BTF file for tests/integration/fuzz_regress.sh
 * to stdout: LEVELS function prototypes, each with FAN parameters that all
 * point to the previous prototype, and a struct mm_struct whose one field
 * points to the last. A check of declaration chains that walks each
 * parameter separately takes FAN^LEVELS steps on it.
 * Usage: btf_chain LEVELS FAN >FILE */
#include <stdio.h>
#include <stdlib.h>
#include <bpf/btf.h>

int main(int argc, char **argv)
{
	struct btf *b;
	const void *raw;
	__u32 size;
	int levels, fan, i32, prev;
	if (argc != 3 || (levels = atoi(argv[1])) < 0 || (fan = atoi(argv[2])) < 0) {
		fprintf(stderr, "usage: btf_chain LEVELS FAN >FILE\n");
		return 2;
	}
	b = btf__new_empty();
	if (!b)
		return 1;
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	prev = btf__add_func_proto(b, i32);
	for (int k = 0; k < levels; k++) {
		int p = btf__add_ptr(b, prev);
		prev = btf__add_func_proto(b, i32);
		for (int j = 0; j < fan; j++)
			btf__add_func_param(b, "", p);
	}
	btf__add_struct(b, "mm_struct", 8);
	btf__add_field(b, "f", btf__add_ptr(b, prev), 0, 0);
	raw = btf__raw_data(b, &size);
	if (!raw || fwrite(raw, 1, size, stdout) != size)
		return 1;
	btf__free(b);
	return 0;
}
