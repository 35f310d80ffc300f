/* A sorted address -> symbol name table, shared by the kallsyms and ELF
 * loaders: symbols are added in any order, symtab_finish() sorts them,
 * drops exact duplicates and infers unknown sizes, then symtab_find()
 * answers "which symbol contains this address" by binary search.
 * Names and module names are copied into the table's own string arena.
 * Also the symbol-name normalizer used for call-graph keys. */
#ifndef PERFDB_SYMTAB_H
#define PERFDB_SYMTAB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One symbol. type is the nm/kallsyms letter: T t W w are text (code),
 * D d B b R r V v are data; upper case is global, lower case local, W/w
 * and V/v weak. Several symbols may share a start address (aliases);
 * after symtab_finish() the preferred alias comes first in its group. */
struct sym {
	uint64_t start;
	uint64_t size;      /* bytes; 0 = unknown (only left on the last symbol) */
	const char *name;   /* owned by the table, never NULL */
	const char *module; /* owned by the table; NULL = main image (vmlinux) */
	char type;          /* nm letter, see above */
	uint32_t seq;       /* order of addition */
};

struct symtab;

/* sym_is_text(s): true when s is code (type T, t, W or w). */
static inline bool sym_is_text(const struct sym *s)
{
	return s->type == 'T' || s->type == 't' || s->type == 'W' || s->type == 'w';
}

/* symtab_new(): an empty table (never NULL). */
struct symtab *symtab_new(void);

/* symtab_free(t): frees t, its symbols and its strings; t may be NULL. */
void symtab_free(struct symtab *t);

/* symtab_add(t, start, size, name, module): adds a global text symbol
 * (type 'T'); size 0 means unknown, module NULL means the main image.
 * name and module are copied. Returns 0, or -1 (nothing added) when name
 * is NULL/empty. The table is unsorted until the next symtab_finish(). */
int symtab_add(struct symtab *t, uint64_t start, uint64_t size,
	       const char *name, const char *module);

/* symtab_add_typed(t, start, size, type, name, namelen, module): as
 * symtab_add with an explicit nm type letter and a name given as namelen
 * bytes (need not be NUL-terminated; -1 when it is empty or contains
 * NUL). */
int symtab_add_typed(struct symtab *t, uint64_t start, uint64_t size, char type,
		     const char *name, size_t namelen, const char *module);

/* symtab_reserve(t, n): makes room for n more symbols at once (a loader
 * that can count them saves the array's regrowth). */
void symtab_reserve(struct symtab *t, size_t n);

/* symtab_prefer_last_alias(t): among symbols sharing a start address,
 * make the one added last the preferred one (what perf does with kallsyms,
 * where it gives earlier aliases zero length), instead of the order
 * described at symtab_finish. */
void symtab_prefer_last_alias(struct symtab *t);

/* symtab_finish(t): sorts by start address, removes exact duplicates
 * (same start, name and module; the larger size is kept), orders each
 * group of aliases best first (text before data, global before weak before
 * local, sized before unsized, fewer leading underscores, then by name)
 * and gives every size-0 symbol the largest size among its aliases, else
 * the distance to the next higher start. Call it after adding and
 * before any lookup; calling it again after more adds is fine. */
void symtab_finish(struct symtab *t);

/* symtab_find(t, addr, off): the symbol containing addr (start <= addr <
 * start+size; a size-0 symbol contains only its start), preferring the
 * innermost start and, among aliases, the first; NULL when none or when
 * t is not finished. When found and off is not NULL, *off = addr - start. */
const struct sym *symtab_find(const struct symtab *t, uint64_t addr, uint64_t *off);

/* symtab_find_name(t, name, module): the first symbol (in address order)
 * called name in module (NULL = main image), or NULL. Linear scan. */
const struct sym *symtab_find_name(const struct symtab *t, const char *name,
				   const char *module);

/* symtab_count(t): the number of symbols, aliases included. */
size_t symtab_count(const struct symtab *t);

/* symtab_at(t, i): the i-th symbol in address order, or NULL when i is
 * out of range. Pointers stay valid until the next add, finish or free. */
const struct sym *symtab_at(const struct symtab *t, size_t i);

/* sym_normalize(in, out, outlen): copies in to out without the compiler's
 * clone suffixes .isra.N, .constprop.N, .part.N, .cold, .cold.N and
 * .llvm.DIGITS, and demangled C++'s " [clone .isra.0]" notes, stripped
 * repeatedly from the end (foo.isra.0.cold -> foo;
 * a name is never stripped to nothing). out is always NUL-terminated when
 * outlen > 0 and truncated to fit. Returns the normalized length (which may
 * be >= outlen, as snprintf does). in and out may be the same buffer. */
size_t sym_normalize(const char *in, char *out, size_t outlen);
#endif
