/* Checks that a BTF file is safe to hand to libbpf 1.1's btf_dump,
 * btf__resolve_size and btf__align_of, which trust what they read: every
 * reference and name inside the file, declaration chains finite and
 * short, no struct inside itself, every member of a type with an
 * alignment, and a bounded amount of work to write out any declaration.
 * Each check names the first fault it finds; each takes time linear in
 * the file (every type weighed once). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <bpf/btf.h>
#include "collect/layout/btf_check.h"
#include "lib/alloc.h"

/* ref_ok / name_ok: whether type id ref exists in btf (n types), and
 * whether name offset off lies in its string section. */
static bool ref_ok(__u32 ref, __u32 n)
{
	return ref < n;
}

static bool name_ok(const struct btf *btf, __u32 off)
{
	return btf__name_by_offset(btf, off) != NULL;
}

/* type_ok(btf, t, n): whether every type t refers to exists and every
 * name it has is in the string section. */
static bool type_ok(const struct btf *btf, const struct btf_type *t, __u32 n)
{
	__u16 vlen = btf_vlen(t);
	if (!name_ok(btf, t->name_off))
		return false;
	switch (btf_kind(t)) {
	case BTF_KIND_INT: case BTF_KIND_FWD: case BTF_KIND_FLOAT:
		return true;
	case BTF_KIND_ENUM:
		for (__u16 i = 0; i < vlen; i++)
			if (!name_ok(btf, btf_enum(t)[i].name_off))
				return false;
		return true;
	case BTF_KIND_ENUM64:
		for (__u16 i = 0; i < vlen; i++)
			if (!name_ok(btf, btf_enum64(t)[i].name_off))
				return false;
		return true;
	case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT: case BTF_KIND_FUNC: case BTF_KIND_VAR: case BTF_KIND_TYPE_TAG:
	case BTF_KIND_DECL_TAG:
		return ref_ok(t->type, n);
	case BTF_KIND_ARRAY:
		return ref_ok(btf_array(t)->type, n) && ref_ok(btf_array(t)->index_type, n);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		for (__u16 i = 0; i < vlen; i++)
			if (!ref_ok(btf_members(t)[i].type, n) || !name_ok(btf, btf_members(t)[i].name_off))
				return false;
		return true;
	case BTF_KIND_FUNC_PROTO:
		for (__u16 i = 0; i < vlen; i++)
			if (!ref_ok(btf_params(t)[i].type, n) || !name_ok(btf, btf_params(t)[i].name_off))
				return false;
		return ref_ok(t->type, n);
	case BTF_KIND_DATASEC:
		for (__u16 i = 0; i < vlen; i++)
			if (!ref_ok(btf_var_secinfos(t)[i].type, n))
				return false;
		return true;
	default:
		return false;
	}
}

/* Longest chain of pointers, modifiers, typedefs, arrays and function
 * prototypes a type may be declared through (kernels: under 20). */
#define DECL_CHAIN_MAX 256

/* chain_height values besides a height + 1: not yet visited, on the
 * current path (a cycle when reached again), too long or cyclic. */
#define CHAIN_UNSEEN 0
#define CHAIN_ON_PATH 0xFFFF
#define CHAIN_BAD 0xFFFE

/* chain_height(btf, id, h, depth): 1 + the length of the longest
 * declaration chain from type id to a base, struct, union, enum or
 * forward type, through whatever it is declared with (a prototype: its
 * return and parameter types), or CHAIN_BAD when that passes through a
 * cycle or is longer than DECL_CHAIN_MAX. h[id] remembers each type's
 * answer, so each type and edge is followed once (a prototype whose
 * parameters share a type is not walked per parameter: exponential on
 * a chain of them); depth is the recursion's, bounded by DECL_CHAIN_MAX.
 * libbpf 1.1's btf_dump follows a cycle among those (a pointer to
 * itself) until it runs out of memory. */
static unsigned chain_height(const struct btf *btf, __u32 id, uint16_t *h, int depth)
{
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;
	unsigned best = 0;
	if (!t)
		return 1;	/* void (ids are checked by type_ok) */
	if (h[id] == CHAIN_ON_PATH)
		return CHAIN_BAD;
	if (h[id] != CHAIN_UNSEEN)
		return h[id];
	if (depth > DECL_CHAIN_MAX)
		return CHAIN_BAD;
	h[id] = CHAIN_ON_PATH;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR: case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT: case BTF_KIND_TYPE_TAG: case BTF_KIND_FUNC: case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		best = chain_height(btf, t->type, h, depth + 1);
		break;
	case BTF_KIND_ARRAY:
		best = chain_height(btf, btf_array(t)->type, h, depth + 1);
		break;
	case BTF_KIND_FUNC_PROTO:
		best = chain_height(btf, t->type, h, depth + 1);
		for (__u16 i = 0; i < btf_vlen(t) && best != CHAIN_BAD; i++) {
			unsigned p = chain_height(btf, btf_params(t)[i].type, h, depth + 1);
			best = p > best ? p : best;
		}
		break;
	default:
		break;
	}
	best = best == CHAIN_BAD || best >= DECL_CHAIN_MAX ? CHAIN_BAD : best + 1;
	h[id] = (uint16_t)best;
	return best;
}

/* by_value(btf, id): the type id holds by value: through typedefs,
 * modifiers and arrays (not pointers), or 0. */
static __u32 by_value(const struct btf *btf, __u32 id)
{
	for (int i = 0; id && i <= DECL_CHAIN_MAX; i++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (!t)
			return 0;
		if (btf_is_array(t))
			id = btf_array(t)->type;
		else if (btf_is_typedef(t) || btf_is_mod(t) || btf_is_type_tag(t))
			id = t->type;
		else
			return btf_is_composite(t) ? id : 0;
	}
	return 0;	/* too long: chain_height refuses it */
}

/* contains_ok(btf, id, st, depth): whether composite id never contains
 * itself by value, through its members' members (st[id]: 0 unseen, 1 on
 * the current path, 2 checked). libbpf 1.1's btf__align_of and
 * btf__resolve_size recurse along such a cycle until the stack overflows. */
static bool contains_ok(const struct btf *btf, __u32 id, uint8_t *st, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	if (st[id] == 2)
		return true;
	if (st[id] == 1 || depth > DECL_CHAIN_MAX)
		return false;
	st[id] = 1;
	for (__u16 i = 0; t && btf_is_composite(t) && i < btf_vlen(t); i++) {
		__u32 in = by_value(btf, btf_members(t)[i].type);
		if (in && !contains_ok(btf, in, st, depth + 1))
			return false;
	}
	st[id] = 2;
	return true;
}

/* aligned_pass(btf, path, err, errlen): 0 when the type section lies on a
 * 4-byte boundary in memory, as struct btf_type needs, else -1. libbpf
 * 1.1 checks the section's offset but not the header's length (a file
 * may say 13), so the types can start anywhere; every type's size is a
 * multiple of 4, so the first one tells. */
static int aligned_pass(const struct btf *btf, const char *path, char *err, size_t errlen)
{
	const void *first = btf__type_cnt(btf) > 1 ? btf__type_by_id(btf, 1) : NULL;
	if (!first || (uintptr_t)first % _Alignof(struct btf_type) == 0)
		return 0;
	snprintf(err, errlen, "%s: corrupt BTF: the type section is not on a 4-byte boundary "
		 "(the header's length is not a multiple of 4)", path);
	return -1;
}

/* refs_pass(btf, path, err, errlen): 0 when every type refers only to
 * types and names btf has, else -1 with the first bad type named.
 * libbpf 1.1 parses BTF without checking that, and its btf_dump then
 * reads through dangling type ids (a SIGSEGV on a corrupt file). */
static int refs_pass(const struct btf *btf, const char *path, char *err, size_t errlen)
{
	__u32 n = btf__type_cnt(btf);
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (!t || !type_ok(btf, t, n)) {
			snprintf(err, errlen, "%s: corrupt BTF: type %u (kind %u) refers to a type or name "
				 "the file does not have", path, id, t ? btf_kind(t) : 0);
			return -1;
		}
	}
	return 0;
}

/* chains_pass: 0 when no type is declared through a cycle or a chain
 * longer than DECL_CHAIN_MAX (see chain_height), else -1. */
static int chains_pass(const struct btf *btf, const char *path, char *err, size_t errlen)
{
	__u32 n = btf__type_cnt(btf);
	uint16_t *h = xcalloc(n, sizeof(*h));
	int rc = 0;
	for (__u32 id = 1; id < n && !rc; id++)
		if (chain_height(btf, id, h, 0) == CHAIN_BAD) {
			snprintf(err, errlen, "%s: corrupt BTF: type %u (kind %u) is declared through a cycle "
				 "or a chain longer than %d types", path, id, btf_kind(btf__type_by_id(btf, id)),
				 DECL_CHAIN_MAX);
			rc = -1;
		}
	free(h);
	return rc;
}

/* nesting_pass: 0 when no struct or union contains itself by value (see
 * contains_ok), else -1. */
static int nesting_pass(const struct btf *btf, const char *path, char *err, size_t errlen)
{
	__u32 n = btf__type_cnt(btf);
	uint8_t *st = xcalloc(n, 1);
	int rc = 0;
	for (__u32 id = 1; id < n && !rc; id++)
		if (btf_is_composite(btf__type_by_id(btf, id)) && !contains_ok(btf, id, st, 0)) {
			snprintf(err, errlen, "%s: corrupt BTF: struct or union type %u contains itself "
				 "(or nests more than %d deep)", path, id, DECL_CHAIN_MAX);
			rc = -1;
		}
	free(st);
	return rc;
}

/* Most steps libbpf 1.1's btf__align_of may take on one type: it has no
 * memory, so it walks the members of members of a struct as often as they
 * are reached (kernel BTF needs a few thousand at the most);
 * types that share members fan out exponentially. */
#define ALIGN_STEPS_MAX 65536

/* Deepest recursion of the weighing below (align_of_steps, dump_work),
 * whatever the file: kernel types nest a few dozen deep at the most; a
 * chain of 60,000 anonymous structs each pointing to the next would
 * otherwise overflow the stack. */
#define WALK_DEPTH_MAX 1024

/* What align_of_steps found for a type: btf__align_of's steps on it
 * (ALIGN_STEPS_MAX + 1: more), and whether it has an alignment. */
struct align_info {
	uint32_t steps;
	bool aligned;
};

/* align_of_steps(btf, id, memo, depth): how btf__align_of fares on type
 * id, without its walk: it follows typedefs, modifiers and arrays, takes
 * a pointer's size, an integer's, enum's or float's own size (none when
 * 0), and a struct's or union's members' (none when any has none); any
 * other kind (void, a function, prototype, variable or forward
 * declaration) has none. memo[id] keeps each answer (steps + 1, 0:
 * unknown); depth bounds the recursion (WALK_DEPTH_MAX: past it, too
 * many steps). Runs after nesting_pass and
 * chains_pass: a struct never contains itself, chains are finite. */
static struct align_info align_of_steps(const struct btf *btf, __u32 id, struct align_info *memo,
					int depth)
{
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;
	struct align_info r = { 1, false }, in;
	uint64_t steps = 1;
	if (!t)
		return r;
	if (memo[id].steps)
		return (struct align_info){ memo[id].steps - 1, memo[id].aligned };
	if (depth > WALK_DEPTH_MAX)
		return (struct align_info){ ALIGN_STEPS_MAX + 1, false };
	switch (btf_kind(t)) {
	case BTF_KIND_INT: case BTF_KIND_ENUM: case BTF_KIND_ENUM64: case BTF_KIND_FLOAT:
		r.aligned = t->size > 0;
		break;
	case BTF_KIND_PTR:
		r.aligned = true;
		break;
	case BTF_KIND_TYPEDEF: case BTF_KIND_VOLATILE: case BTF_KIND_CONST: case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG: case BTF_KIND_ARRAY:
		in = align_of_steps(btf, btf_is_array(t) ? btf_array(t)->type : t->type, memo, depth + 1);
		steps += in.steps;
		r.aligned = in.aligned;
		break;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		r.aligned = true;
		for (__u16 i = 0; i < btf_vlen(t) && steps <= ALIGN_STEPS_MAX; i++) {
			in = align_of_steps(btf, btf_members(t)[i].type, memo, depth + 1);
			steps += in.steps;
			r.aligned &= in.aligned;
		}
		break;
	default:
		break;
	}
	r.steps = steps > ALIGN_STEPS_MAX ? ALIGN_STEPS_MAX + 1 : (uint32_t)steps;
	memo[id] = (struct align_info){ r.steps + 1, r.aligned };
	return r;
}

/* member_align_ok(btf, t, id, memo, ...): 0 when every member of
 * composite t (type id) has a type with an alignment, found in at most
 * ALIGN_STEPS_MAX steps, else -1 with the member named in err. */
static int member_align_ok(const struct btf *btf, const struct btf_type *t, __u32 id,
			   struct align_info *memo, const char *path, char *err, size_t errlen)
{
	for (__u16 i = 0; i < btf_vlen(t); i++) {
		__u32 m = btf_members(t)[i].type;
		struct align_info a = align_of_steps(btf, m, memo, 0);
		if (a.steps > ALIGN_STEPS_MAX) {
			snprintf(err, errlen, "%s: corrupt BTF: member %u of struct or union type %u has "
				 "type %u, whose alignment takes over %d steps to find (members sharing "
				 "types fan out)", path, i, id, m, ALIGN_STEPS_MAX);
			return -1;
		}
		if (!a.aligned) {
			snprintf(err, errlen, "%s: corrupt BTF: member %u of struct or union type %u has "
				 "type %u (kind %u), which has no alignment (not a data type, or of size 0)",
				 path, i, id, m, m ? btf_kind(btf__type_by_id(btf, m)) : 0);
			return -1;
		}
	}
	return 0;
}

/* align_pass: 0 when every member of every struct and union has a type
 * with an alignment that libbpf's btf__align_of finds in at most
 * ALIGN_STEPS_MAX steps (see align_of_steps), else -1 with the first
 * member that has none: void, a function, a variable, a forward
 * declaration, or an integer, enum or float of size 0. libbpf 1.1's
 * btf_dump divides by that alignment when it writes out an anonymous
 * struct holding such a member (a SIGFPE on a corrupt file), and calls
 * btf__align_of for every member it writes out. memo (one per type) is
 * inline_pass's to use afterwards. */
static int align_pass(const struct btf *btf, struct align_info *memo, const char *path,
		      char *err, size_t errlen)
{
	__u32 n = btf__type_cnt(btf);
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		if (btf_is_composite(t) && member_align_ok(btf, t, id, memo, path, err, errlen))
			return -1;
	}
	return 0;
}

/* Most work libbpf 1.1's btf_dump may do declaring one type: members and
 * padding it writes out (those of the anonymous structs and unions it
 * inlines, and theirs) and the steps of the btf__align_of calls it makes
 * on them (kernel BTF needs some thousands at the most). */
#define DUMP_WORK_MAX (1u << 18)

/* dump_work memo values besides a work + 1: unseen, on the current path. */
#define DUMP_UNSEEN 0
#define DUMP_ON_PATH UINT32_MAX

/* btf_work (btf_check.h): dump_work's answers so far and
 * align_of_steps' memo, one entry per type. */
struct btf_work {
	const struct btf *btf;
	uint32_t *memo;
	struct align_info *align;
};

/* padding_lines(btf, t): at most how many padding lines btf_dump writes
 * into the gaps of composite t: one per 32 bits (its "long" padding is 32
 * or 64 bits, shorter ones only end a gap) up to its end or its farthest
 * member's end, whichever is more (a corrupt file's member may lie far
 * beyond the end), and two per member; UINT64_MAX when an offset or end
 * passes 2^31 - 1 bits (256 MiB): btf_dump keeps offsets in an int, and a
 * wrapped one makes a gap of up to 2^32 bits. */
static uint64_t padding_lines(const struct btf *btf, const struct btf_type *t)
{
	uint64_t end = (uint64_t)t->size * 8;
	for (__u16 i = 0; i < btf_vlen(t); i++) {
		__s64 size = btf__resolve_size(btf, btf_members(t)[i].type);
		uint64_t off = btf_member_bit_offset(t, i) + (size > 0 ? (uint64_t)size * 8 : 0);
		end = off > end ? off : end;
	}
	if (end > INT32_MAX)
		return UINT64_MAX;
	return end / 32 + 2 * (uint64_t)btf_vlen(t) + 1;
}

/* dump_work(btf, id, bw, depth): btf_dump's work declaring type id:
 * through pointers, modifiers, arrays and prototypes to a terminal type;
 * an anonymous struct or union is written out whole (each member, 1 + its
 * type's work, and about 3 btf__align_of walks over it: its own alignment,
 * whether it is packed, each member's; and the padding lines it writes
 * into its gaps: padding_lines), an anonymous enum counts its
 * values, anything named nothing. DUMP_WORK_MAX + 1 when that is more than
 * DUMP_WORK_MAX, when an anonymous struct's alignment alone takes over
 * ALIGN_STEPS_MAX steps (saturated, its cost would hide), when it nests
 * deeper than WALK_DEPTH_MAX, or goes round a cycle (an anonymous struct
 * reached again from inside itself through a pointer: libbpf 1.1 then
 * recurses until the stack overflows; a DAG of them sharing members grows
 * exponentially). Each type is weighed once. Runs after align_pass (every
 * member then has an alignment found in ALIGN_STEPS_MAX steps). */
static uint32_t dump_work(const struct btf *btf, __u32 id, struct btf_work *dw, int depth)
{
	const struct btf_type *t = id ? btf__type_by_id(btf, id) : NULL;
	uint64_t w = 0;
	if (!t)
		return 0;
	if (dw->memo[id] == DUMP_ON_PATH || depth > WALK_DEPTH_MAX)
		return DUMP_WORK_MAX + 1;
	if (dw->memo[id] != DUMP_UNSEEN)
		return dw->memo[id] - 1;
	dw->memo[id] = DUMP_ON_PATH;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR: case BTF_KIND_VOLATILE: case BTF_KIND_CONST: case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG: case BTF_KIND_ARRAY:
		w = dump_work(btf, btf_is_array(t) ? btf_array(t)->type : t->type, dw, depth + 1);
		break;
	case BTF_KIND_FUNC_PROTO:
		w = dump_work(btf, t->type, dw, depth + 1);
		for (__u16 i = 0; i < btf_vlen(t) && w <= DUMP_WORK_MAX; i++)
			w += dump_work(btf, btf_params(t)[i].type, dw, depth + 1);
		break;
	case BTF_KIND_STRUCT: case BTF_KIND_UNION:
		if (!t->name_off) {	/* the alignment walks, the padding lines */
			uint64_t pad = padding_lines(btf, t);
			uint32_t steps = align_of_steps(btf, id, dw->align, 0).steps;
			w = pad > DUMP_WORK_MAX || steps > ALIGN_STEPS_MAX ? DUMP_WORK_MAX + 1 :
			    3 * (uint64_t)steps + pad;
		}
		for (__u16 i = 0; !t->name_off && i < btf_vlen(t) && w <= DUMP_WORK_MAX; i++)
			w += 1 + (uint64_t)dump_work(btf, btf_members(t)[i].type, dw, depth + 1);
		break;
	case BTF_KIND_ENUM: case BTF_KIND_ENUM64:
		w = t->name_off ? 0 : btf_vlen(t);
		break;
	default:
		break;
	}
	w = w > DUMP_WORK_MAX ? DUMP_WORK_MAX + 1 : w;
	dw->memo[id] = (uint32_t)w + 1;
	return (uint32_t)w;
}

/* btf_work_new: see btf_check.h. */
struct btf_work *btf_work_new(const struct btf *btf)
{
	struct btf_work *bw = xcalloc(1, sizeof(*bw));
	__u32 n = btf__type_cnt(btf);
	bw->btf = btf;
	bw->memo = xcalloc(n, sizeof(*bw->memo));
	bw->align = xcalloc(n, sizeof(*bw->align));
	return bw;
}

/* btf_work_of: see btf_check.h. */
uint32_t btf_work_of(struct btf_work *bw, __u32 id)
{
	return id < btf__type_cnt(bw->btf) ? dump_work(bw->btf, id, bw, 0) : DUMP_WORK_MAX + 1;
}

/* btf_work_free: see btf_check.h. */
void btf_work_free(struct btf_work *bw)
{
	if (!bw)
		return;
	free(bw->memo);
	free(bw->align);
	free(bw);
}

/* dump_pass: 0 when btf_dump's work declaring any type is at most
 * DUMP_WORK_MAX (see dump_work), else -1. bw holds align_pass's memo. */
static int dump_pass(const struct btf *btf, struct btf_work *bw, const char *path,
		     char *err, size_t errlen)
{
	__u32 n = btf__type_cnt(btf);
	for (__u32 id = 1; id < n; id++)
		if (btf_work_of(bw, id) > DUMP_WORK_MAX) {
			snprintf(err, errlen, "%s: corrupt BTF: type %u (kind %u) is declared through an "
				 "anonymous struct or union that is inside itself, or that takes libbpf over "
				 "%u steps to write out", path, id, btf_kind(btf__type_by_id(btf, id)),
				 DUMP_WORK_MAX);
			return -1;
		}
	return 0;
}

/* Most type ids libbpf 1.1's btf_dump may hold on its declaration stack
 * at once: the stack starts with room for 16 and grows by realloc while
 * the emission of an enclosing declaration still reads it through a
 * pointer into the old block (a use after free: a chain of 10 anonymous
 * structs each pointing to the next crashes it). Kernel BTF needs 10 at
 * the most. */
#define DECL_STACK_MAX 16

/* decl_need(btf, id, memo, depth): how many ids btf_dump stacks at once
 * declaring type id: one per type along its declaration chain (pointers,
 * modifiers, arrays, prototypes, down to the terminal type or void), plus
 * the most any declaration nested inside needs (an anonymous struct's or
 * union's members, a prototype's parameters). memo[id] keeps answers + 1
 * (saturated at 255); past WALK_DEPTH_MAX, 255. Runs after dump_pass: no
 * anonymous struct is inside itself. */
static unsigned decl_need(const struct btf *btf, __u32 id, uint8_t *memo, int depth)
{
	unsigned len = 0, nested = 0, n;
	__u32 cur = id;
	if (memo[id])
		return memo[id] - 1u;
	if (depth > WALK_DEPTH_MAX)
		return 255;
	for (;;) {
		const struct btf_type *t = btf__type_by_id(btf, cur);
		len++;
		if (!cur || !t)
			break;
		for (__u16 i = 0; btf_is_func_proto(t) && i < btf_vlen(t); i++)
			if ((n = decl_need(btf, btf_params(t)[i].type, memo, depth + 1)) > nested)
				nested = n;
		if (btf_is_ptr(t) || btf_is_mod(t) || btf_is_type_tag(t) || btf_is_func_proto(t) ||
		    btf_is_array(t)) {
			cur = btf_is_array(t) ? btf_array(t)->type : t->type;
			continue;
		}
		for (__u16 i = 0; btf_is_composite(t) && !t->name_off && i < btf_vlen(t); i++)
			if ((n = decl_need(btf, btf_members(t)[i].type, memo, depth + 1)) > nested)
				nested = n;
		break;
	}
	n = len + nested > 254 ? 254 : len + nested;
	memo[id] = (uint8_t)(n + 1);
	return n;
}

/* stack_pass: 0 when btf_dump stacks at most DECL_STACK_MAX ids declaring
 * any type (see decl_need), else -1. */
static int stack_pass(const struct btf *btf, const char *path, char *err, size_t errlen)
{
	__u32 n = btf__type_cnt(btf);
	uint8_t *memo = xcalloc(n, 1);
	int rc = 0;
	for (__u32 id = 1; id < n && !rc; id++)
		if (decl_need(btf, id, memo, 0) > DECL_STACK_MAX) {
			snprintf(err, errlen, "%s: corrupt BTF: type %u (kind %u) is declared through more "
				 "than %d types at once (anonymous structs nested through pointers)", path,
				 id, btf_kind(btf__type_by_id(btf, id)), DECL_STACK_MAX);
			rc = -1;
		}
	free(memo);
	return rc;
}

/* btf_check: see btf_check.h. */
int btf_check(const struct btf *btf, const char *path, char *err, size_t errlen)
{
	struct btf_work *bw;
	int rc;
	if (aligned_pass(btf, path, err, errlen) || refs_pass(btf, path, err, errlen) ||
	    chains_pass(btf, path, err, errlen) ||
	    nesting_pass(btf, path, err, errlen))
		return -1;
	bw = btf_work_new(btf);
	rc = align_pass(btf, bw->align, path, err, errlen) || dump_pass(btf, bw, path, err, errlen) ||
	     stack_pass(btf, path, err, errlen) ? -1 : 0;
	btf_work_free(bw);
	return rc;
}
