/* Checking a BTF file before libbpf walks it (see btf_check.c). */
#ifndef PERFDB_BTF_CHECK_H
#define PERFDB_BTF_CHECK_H
#include <stddef.h>
#include <stdint.h>
#include <bpf/btf.h>

/* btf_check(btf, path, err, errlen): 0 when btf (read from path, named
 * in messages) is safe for libbpf's btf_dump, btf__resolve_size and
 * btf__align_of: its types lie on a 4-byte boundary (struct btf_type's
 * alignment); every type refers only to types and names the file has;
 * no type is declared through a cycle or a chain longer than 256 types; no
 * struct or union contains itself by value (or nests more than 256 deep);
 * every member of a struct or union has a type with an alignment (not
 * void, a function, a prototype, a variable, a forward declaration, or an
 * integer, enum or float of size 0), found in at most 65536 steps; and no
 * declaration makes btf_dump write out a cycle of anonymous structs or
 * more than 2^18 steps of members and alignments, or stack more than 16
 * types at once (libbpf's declaration stack moves under its feet when it
 * grows). Else -1 with
 * "PATH: corrupt BTF: ..." naming the first fault in err. */
int btf_check(const struct btf *btf, const char *path, char *err, size_t errlen);

/* The work libbpf's btf_dump does declaring a type, weighed once per type
 * (btf_check bounds it per type; a walk that declares many types bounds
 * their sum with it). */
struct btf_work;

/* btf_work_new(btf): weighs types of btf, which btf_check passed; never
 * NULL. btf_work_free: frees it (NULL: no-op). */
struct btf_work *btf_work_new(const struct btf *btf);
void btf_work_free(struct btf_work *bw);

/* btf_work_of(bw, id): the steps btf_dump takes declaring type id (the
 * members and padding it writes out, the alignments it looks up), more
 * than 2^18 when it takes more than that (or id is not a type). */
uint32_t btf_work_of(struct btf_work *bw, __u32 id);

#endif
