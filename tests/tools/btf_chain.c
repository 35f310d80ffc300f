/* btf_chain: writes a hostile BTF file for tests/integration/fuzz_regress.sh
 * to stdout: LEVELS function prototypes, each with FAN parameters that all
 * point to the previous prototype, and a struct mm_struct whose one field
 * points to the last. A check of declaration chains that walks each
 * parameter separately takes FAN^LEVELS steps on it. With --anon: a struct
 * mm_struct of one anonymous member of DEPTH nested anonymous structs,
 * each of FAN anonymous members of the next (ints x0, x1, ... at the
 * bottom): DEPTH past the layout walk's bound on anonymous nesting. With
 * --named the same with members named f0, f1, ... of structs s0, s1, ...,
 * and FAN of them in mm_struct: FAN^(DEPTH+1) members to walk (past the
 * walk's bound; each struct below FAN^DEPTH, within perfdb's checks). With --inline, members named but the structs
 * anonymous: btf_dump writes out about FAN^DEPTH members declaring the
 * top one. With --selfptr: a struct mm_struct of one member x, an
 * anonymous struct { int a; T *next; } where T is that anonymous struct
 * itself (libbpf 1.1's btf_dump recurses until the stack overflows
 * declaring x). With --unaligned KIND: a struct mm_struct of
 * one member x, an anonymous struct { int a; T b; } with b at byte 8 and
 * T a type without an alignment (KIND: proto, var, fwd or void), which
 * libbpf 1.1's btf_dump divides by when it writes out x's type.
 * With --ptrchain N: struct mm_struct { struct {...} *x; }, where each of N
 * anonymous structs holds a pointer to the next (a recursion N deep for
 * whatever follows them). With --heavy N: struct mm_struct { struct {...}
 * *p; } pointing to an anonymous struct of N members of struct s13, a tree
 * of 2^14 ints that libbpf's btf__align_of walks whole each time. With
 * --pointers N K: an anonymous struct of N ints, and mm_struct of K
 * members p0, p1, ..., each of its own pointer type to it (each type
 * written out anew).
 * Usage: btf_chain [--anon|--named|--inline] LEVELS FAN >FILE
 *        btf_chain --ptrchain N | --heavy N | --pointers N K >FILE
 *        btf_chain --selfptr >FILE
 *        btf_chain --unaligned proto|var|fwd|void >FILE */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>

/* How nest names its structs and members. */
enum nest_mode { NEST_ANON, NEST_NAMED, NEST_INLINE };

/* nest(b, depth, fan, mode): struct mm_struct over depth levels of
 * structs of fan members each: anonymous members of anonymous structs
 * (NEST_ANON), members f0, f1, ... of structs s0, s1, ... (NEST_NAMED), or
 * members f0, f1, ... of anonymous structs (NEST_INLINE). */
static void nest(struct btf *b, int depth, int fan, enum nest_mode mode)
{
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED), prev = i32, size = 4;
	for (int k = 0; k < depth; k++) {
		char sname[16];
		int s;
		snprintf(sname, sizeof(sname), "s%d", k);
		s = btf__add_struct(b, mode == NEST_NAMED ? sname : "", (__u32)size);
		for (int j = 0; j < fan; j++) {
			char name[16];
			snprintf(name, sizeof(name), "%c%d", k ? 'f' : 'x', j);
			btf__add_field(b, k && mode == NEST_ANON ? "" : name, prev, 0, 0);
		}
		prev = s;
	}
	btf__add_struct(b, "mm_struct", (__u32)size);
	for (int j = 0; j < (mode == NEST_NAMED ? fan : 1); j++) {
		char name[16];
		snprintf(name, sizeof(name), "f%d", j);
		btf__add_field(b, mode != NEST_ANON ? name : "", prev, 0, 0);
	}
}

/* selfptr(b): the --selfptr struct mm_struct. */
static void selfptr(struct btf *b)
{
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	int an = btf__add_struct(b, "", 16);
	btf__add_field(b, "a", i32, 0, 0);
	btf__add_field(b, "next", an + 1, 64, 0);	/* the pointer added next */
	btf__add_ptr(b, an);
	btf__add_struct(b, "mm_struct", 16);
	btf__add_field(b, "x", an, 0, 0);
}

/* ptrchain(b, n): the --ptrchain struct mm_struct. */
static void ptrchain(struct btf *b, int n)
{
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED), first = i32 + 1;
	for (int k = 0; k < n; k++) {	/* struct k at i32 + 1 + 2k, its pointer after it */
		int s = btf__add_struct(b, "", 8);
		btf__add_field(b, "next", s + 1, 0, 0);
		btf__add_ptr(b, k + 1 < n ? s + 2 : i32);
	}
	btf__add_struct(b, "mm_struct", 8);
	btf__add_field(b, "x", first, 0, 0);
}

/* tree(b, levels): struct s0 { int a, b; } ... struct sK { struct sK-1 a, b; }
 * up to s{levels - 1}; returns the last. */
static int tree(struct btf *b, int levels)
{
	int prev = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	for (int k = 0; k < levels; k++) {
		char name[16];
		snprintf(name, sizeof(name), "s%d", k);
		int s = btf__add_struct(b, name, 4u << k);
		btf__add_field(b, "a", prev, 0, 0);
		btf__add_field(b, "b", prev, (32u << k) / 2, 0);
		prev = s;
	}
	return prev;
}

/* heavy(b, n): the --heavy struct mm_struct. */
static void heavy(struct btf *b, int n)
{
	int top = tree(b, 14), an = btf__add_struct(b, "", 4u << 13);
	for (int j = 0; j < n; j++) {
		char name[16];
		snprintf(name, sizeof(name), "m%d", j);
		btf__add_field(b, name, top, 0, 0);
	}
	int p = btf__add_ptr(b, an);
	btf__add_struct(b, "mm_struct", 8);
	btf__add_field(b, "p", p, 0, 0);
}

/* pointers(b, n, k): the --pointers struct mm_struct. */
static void pointers(struct btf *b, int n, int k)
{
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED), an = btf__add_struct(b, "", 4);
	for (int j = 0; j < n; j++) {
		char name[16];
		snprintf(name, sizeof(name), "m%d", j);
		btf__add_field(b, name, i32, 0, 0);
	}
	for (int j = 0; j < k; j++)
		btf__add_ptr(b, an);
	btf__add_struct(b, "mm_struct", 8);
	for (int j = 0; j < k; j++) {
		char name[16];
		snprintf(name, sizeof(name), "p%d", j);
		btf__add_field(b, name, an + 1 + j, 0, 0);
	}
}

/* unaligned(b, kind): the --unaligned struct mm_struct; -1 for an
 * unknown kind. */
static int unaligned(struct btf *b, const char *kind)
{
	int i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED), bad, an;
	if (!strcmp(kind, "proto"))
		bad = btf__add_func_proto(b, i32);
	else if (!strcmp(kind, "var"))
		bad = btf__add_var(b, "v", BTF_VAR_STATIC, i32);
	else if (!strcmp(kind, "fwd"))
		bad = btf__add_fwd(b, "undefined", BTF_FWD_STRUCT);
	else if (!strcmp(kind, "void"))
		bad = 0;
	else
		return -1;
	an = btf__add_struct(b, "", 16);
	btf__add_field(b, "a", i32, 0, 0);
	btf__add_field(b, "b", bad, 64, 0);
	btf__add_struct(b, "mm_struct", 16);
	btf__add_field(b, "x", an, 0, 0);
	return 0;
}

int main(int argc, char **argv)
{
	struct btf *b;
	const void *raw;
	__u32 size;
	int levels, fan, i32, prev;
	enum nest_mode mode = argc == 4 && !strcmp(argv[1], "--named") ? NEST_NAMED :
			      argc == 4 && !strcmp(argv[1], "--inline") ? NEST_INLINE : NEST_ANON;
	int anon = argc == 4 && (mode != NEST_ANON || !strcmp(argv[1], "--anon"));
	if ((argc == 3 && (!strcmp(argv[1], "--ptrchain") || !strcmp(argv[1], "--heavy"))) ||
	    (argc == 4 && !strcmp(argv[1], "--pointers"))) {
		int n = atoi(argv[2]);
		if (!(b = btf__new_empty()) || n < 0)
			return 2;
		if (argv[1][2] == 'p' && argv[1][3] == 't')
			ptrchain(b, n);
		else if (argv[1][2] == 'h')
			heavy(b, n);
		else
			pointers(b, n, atoi(argv[3]));
		goto out;
	}
	if (argc == 2 && !strcmp(argv[1], "--selfptr")) {
		if (!(b = btf__new_empty()))
			return 1;
		selfptr(b);
		goto out;
	}
	if (argc == 3 && !strcmp(argv[1], "--unaligned")) {
		b = btf__new_empty();
		if (!b || unaligned(b, argv[2]) < 0) {
			fprintf(stderr, "btf_chain: --unaligned proto|var|fwd|void\n");
			return 2;
		}
		goto out;
	}
	if (argc != 3 + anon || (levels = atoi(argv[1 + anon])) < 0 || (fan = atoi(argv[2 + anon])) < 0) {
		fprintf(stderr, "usage: btf_chain [--anon|--named|--inline] LEVELS FAN >FILE\n"
			"       btf_chain --ptrchain N | --heavy N | --pointers N K >FILE\n"
			"       btf_chain --selfptr >FILE\n"
			"       btf_chain --unaligned proto|var|fwd|void >FILE\n");
		return 2;
	}
	b = btf__new_empty();
	if (!b)
		return 1;
	if (anon) {
		nest(b, levels, fan, mode);
		goto out;
	}
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
out:
	raw = btf__raw_data(b, &size);
	if (!raw || fwrite(raw, 1, size, stdout) != size)
		return 1;
	btf__free(b);
	return 0;
}
