/* The sorted address -> symbol table (see symtab.h): a growable array of
 * struct sym, a chunked string arena that owns every name (chunks never
 * move, so name pointers stay valid), and, once finished, a prefix maximum
 * of symbol ends so lookups also find symbols that enclose later ones. */
#include "lib/symtab.h"

#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/search.h"

#define ARENA_CHUNK (256 * 1024)

struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap;
	char data[];
};

struct symtab {
	struct sym *v;
	size_t n, cap;
	uint64_t *maxend;       /* maxend[i] = max end of v[0..i]; when finished */
	bool finished, prefer_last;
	struct arena_chunk *chunks;
	const char *last_module; /* interning cache: modules come in runs */
};

/* arena_copy(t, s, len): a NUL-terminated copy of s[0..len) in t's arena. */
static char *arena_copy(struct symtab *t, const char *s, size_t len)
{
	struct arena_chunk *c = t->chunks;
	char *p;

	if (!c || c->cap - c->used < len + 1) {
		size_t cap = len + 1 > ARENA_CHUNK ? len + 1 : ARENA_CHUNK;
		c = xmalloc(sizeof(*c) + cap);
		c->used = 0;
		c->cap = cap;
		c->next = t->chunks;
		t->chunks = c;
	}
	p = c->data + c->used;
	memcpy(p, s, len);
	p[len] = '\0';
	c->used += len + 1;
	return p;
}

/* intern_module(t, module): the arena copy of module (NULL stays NULL),
 * reusing the previous copy when the same module is added again. */
static const char *intern_module(struct symtab *t, const char *module)
{
	if (!module)
		return NULL;
	if (t->last_module && !strcmp(t->last_module, module))
		return t->last_module;
	t->last_module = arena_copy(t, module, strlen(module));
	return t->last_module;
}

/* symtab_new(): an empty table (see symtab.h). */
struct symtab *symtab_new(void)
{
	return xcalloc(1, sizeof(struct symtab));
}

/* symtab_free(t): frees t, its chunks and arrays; NULL is fine. */
void symtab_free(struct symtab *t)
{
	struct arena_chunk *c, *next;

	if (!t)
		return;
	for (c = t->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(t->v);
	free(t->maxend);
	free(t);
}

/* symtab_add_typed(...): copies one symbol in; 0, or -1 for a bad name. */
int symtab_add_typed(struct symtab *t, uint64_t start, uint64_t size, char type,
		     const char *name, size_t namelen, const char *module)
{
	struct sym *s;

	if (!name || !namelen || memchr(name, '\0', namelen))
		return -1;
	ALLOC_GROW(t->v, t->n + 1, t->cap);
	s = &t->v[t->n];
	s->name = arena_copy(t, name, namelen);
	s->module = intern_module(t, module);
	s->start = start;
	s->size = size;
	s->type = type;
	s->seq = (uint32_t)t->n;
	t->n++;
	t->finished = false;
	return 0;
}

/* symtab_reserve(t, n): room for n more symbols. */
void symtab_reserve(struct symtab *t, size_t n)
{
	ALLOC_GROW(t->v, t->n + n, t->cap);
}

/* symtab_add(...): symtab_add_typed with type 'T' and a C-string name. */
int symtab_add(struct symtab *t, uint64_t start, uint64_t size,
	       const char *name, const char *module)
{
	return symtab_add_typed(t, start, size, 'T', name, name ? strlen(name) : 0, module);
}

/* strcmp_null(a, b): strcmp where NULL sorts before every string. */
static int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return a == b ? 0 : strcmp(a, b);
}

/* cmp_identity: qsort order by start, name, module, then larger size
 * first, so exact duplicates are adjacent and the first one is kept; the
 * order of addition last, so the order is total and any sort gives it. */
static int cmp_identity(const void *pa, const void *pb)
{
	const struct sym *a = pa, *b = pb;
	int c;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if ((c = strcmp(a->name, b->name)))
		return c;
	if ((c = strcmp_null(a->module, b->module)))
		return c;
	if (a->size != b->size)
		return a->size > b->size ? -1 : 1;
	if (a->type != b->type)
		return (unsigned char)a->type - (unsigned char)b->type;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* is_weak / is_local: the binding an nm letter says. */
static bool is_weak(char type)
{
	return type == 'W' || type == 'w' || type == 'V' || type == 'v';
}

static bool is_local(char type)
{
	return !is_weak(type) && type >= 'a' && type <= 'z';
}

/* underscores(name): the number of leading '_' in name. */
static size_t underscores(const char *name)
{
	return strspn(name, "_");
}

/* cmp_alias: qsort order within one start address, best alias first, as
 * perf chooses among ELF aliases: code before data, then sized, non-weak,
 * global, fewer leading underscores, longer name, and the one listed first
 * (pthread_create@GLIBC_2.2.5 before pthread_create@@GLIBC_2.34). */
static int cmp_alias(const void *pa, const void *pb)
{
	const struct sym *a = pa, *b = pb;
	size_t ua = underscores(a->name), ub = underscores(b->name);
	size_t la = strlen(a->name), lb = strlen(b->name);

	if (sym_is_text(a) != sym_is_text(b))
		return sym_is_text(a) ? -1 : 1;
	if ((a->size != 0) != (b->size != 0))
		return a->size ? -1 : 1;
	if (is_weak(a->type) != is_weak(b->type))
		return is_weak(a->type) ? 1 : -1;
	if (is_local(a->type) != is_local(b->type))
		return is_local(a->type) ? 1 : -1;
	if (ua != ub)
		return ua < ub ? -1 : 1;
	if (la != lb)
		return la > lb ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* cmp_alias_last: the alias added last first. */
static int cmp_alias_last(const void *pa, const void *pb)
{
	const struct sym *a = pa, *b = pb;
	return a->seq > b->seq ? -1 : a->seq < b->seq;
}

void symtab_prefer_last_alias(struct symtab *t)
{
	t->prefer_last = true;
}

/* same_identity(a, b): a and b are exact duplicates. */
static bool same_identity(const struct sym *a, const struct sym *b)
{
	return a->start == b->start && !strcmp(a->name, b->name) &&
	       !strcmp_null(a->module, b->module);
}

/* dedupe(t): drops exact duplicates (the array is in cmp_identity order,
 * so the kept first copy has the largest size). */
static void dedupe(struct symtab *t)
{
	size_t i, w = 0;

	for (i = 0; i < t->n; i++) {
		if (w && same_identity(&t->v[w - 1], &t->v[i]))
			continue;
		t->v[w++] = t->v[i];
	}
	t->n = w;
}

/* group_end(t, i): the index after the last symbol sharing v[i]'s start. */
static size_t group_end(const struct symtab *t, size_t i)
{
	size_t j = i + 1;

	while (j < t->n && t->v[j].start == t->v[i].start)
		j++;
	return j;
}

/* infer_sizes(t, i, j): gives the size-0 symbols of the group v[i..j) the
 * largest size among their aliases, else the distance to v[j] (none for
 * the last group). */
static void infer_sizes(struct symtab *t, size_t i, size_t j)
{
	uint64_t size = 0;
	size_t k;

	for (k = i; k < j; k++)
		size = t->v[k].size > size ? t->v[k].size : size;
	if (!size && j < t->n)
		size = t->v[j].start - t->v[i].start;
	for (k = i; k < j; k++)
		if (!t->v[k].size)
			t->v[k].size = size;
}

/* order_groups_and_sizes(t): sorts each alias group best first and infers
 * the sizes of its size-0 symbols. */
static void order_groups_and_sizes(struct symtab *t)
{
	size_t i = 0, j;

	while (i < t->n) {
		j = group_end(t, i);
		if (j - i > 1)
			qsort(&t->v[i], j - i, sizeof(*t->v),
			      t->prefer_last ? cmp_alias_last : cmp_alias);
		infer_sizes(t, i, j);
		i = j;
	}
}

/* sym_end(s): one past s's last byte, saturating; start+1 for size 0. */
static uint64_t sym_end(const struct sym *s)
{
	uint64_t size = s->size ? s->size : 1;

	return s->start > UINT64_MAX - size ? UINT64_MAX : s->start + size;
}

/* build_maxend(t): fills t->maxend. */
static void build_maxend(struct symtab *t)
{
	uint64_t m = 0;
	size_t i;

	free(t->maxend);
	t->maxend = NULL;
	if (!t->n)
		return;
	t->maxend = xreallocarray(NULL, t->n, sizeof(*t->maxend));
	for (i = 0; i < t->n; i++) {
		uint64_t e = sym_end(&t->v[i]);
		m = e > m ? e : m;
		t->maxend[i] = m;
	}
}

/* address_prefix(t): the length of the longest prefix of t->v whose starts
 * never decrease, its groups of equal starts put in cmp_identity order. */
static size_t address_prefix(struct symtab *t)
{
	size_t i = 0, j;

	while (i < t->n) {
		j = group_end(t, i);
		if (j - i > 1)
			qsort(&t->v[i], j - i, sizeof(*t->v), cmp_identity);
		if (j < t->n && t->v[j].start < t->v[i].start)
			return j;
		i = j;
	}
	return t->n;
}

/* merge_sorted(t, k): t->v[0..k) and t->v[k..n), each in cmp_identity
 * order, merged into one. */
static void merge_sorted(struct symtab *t, size_t k)
{
	struct sym *left = xreallocarray(NULL, k, sizeof(*left));
	size_t a = 0, b = k, w = 0;

	memcpy(left, t->v, k * sizeof(*left));
	while (a < k && b < t->n)
		t->v[w++] = cmp_identity(&t->v[b], &left[a]) < 0 ? t->v[b++] : left[a++];
	while (a < k)
		t->v[w++] = left[a++];
	free(left);
}

/* sort_identity(t): t->v in cmp_identity order. Symbols mostly come in
 * address order (kallsyms lists the main image sorted, then the modules):
 * the sorted prefix is kept and only the rest sorted, then merged in. */
static void sort_identity(struct symtab *t)
{
	size_t k = address_prefix(t);

	if (k == t->n)
		return;
	qsort(&t->v[k], t->n - k, sizeof(*t->v), cmp_identity);
	merge_sorted(t, k);
}

/* symtab_finish(t): sort, dedupe, order aliases, infer sizes, index ends. */
void symtab_finish(struct symtab *t)
{
	sort_identity(t);
	dedupe(t);
	order_groups_and_sizes(t);
	build_maxend(t);
	t->finished = true;
}

/* contains(s, addr): addr lies in s (a size-0 s holds only its start). */
static bool contains(const struct sym *s, uint64_t addr)
{
	return addr >= s->start && addr < sym_end(s);
}

/* starts_by(s, addr): whether symbol s starts at or below *addr. */
static bool starts_by(const void *s, const void *addr)
{
	return ((const struct sym *)s)->start <= *(const uint64_t *)addr;
}

/* last_at_or_below(t, addr): the index of the last symbol with start <=
 * addr, or t->n when there is none. */
static size_t last_at_or_below(const struct symtab *t, uint64_t addr)
{
	size_t above = lower_bound(t->v, t->n, sizeof(*t->v), &addr, starts_by);
	return above ? above - 1 : t->n;
}

/* first_in_group_containing(t, i, addr): the first alias in v[i]'s group
 * that contains addr (v[i] does). */
static const struct sym *first_in_group_containing(const struct symtab *t,
						   size_t i, uint64_t addr)
{
	size_t k = i;

	while (k > 0 && t->v[k - 1].start == t->v[i].start)
		k--;
	while (!contains(&t->v[k], addr))
		k++;
	return &t->v[k];
}

/* symtab_find(t, addr, off): innermost symbol holding addr, or NULL. */
const struct sym *symtab_find(const struct symtab *t, uint64_t addr, uint64_t *off)
{
	size_t i;
	const struct sym *s;

	if (!t->finished || !t->n)
		return NULL;
	i = last_at_or_below(t, addr);
	if (i == t->n)
		return NULL;
	for (;; i--) {
		if (t->maxend[i] <= addr)
			return NULL;
		if (contains(&t->v[i], addr))
			break;
		if (i == 0)
			return NULL;
	}
	s = first_in_group_containing(t, i, addr);
	if (off)
		*off = addr - s->start;
	return s;
}

/* symtab_find_name(t, name, module): first such symbol, or NULL. */
const struct sym *symtab_find_name(const struct symtab *t, const char *name,
				   const char *module)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name) && !strcmp_null(t->v[i].module, module))
			return &t->v[i];
	return NULL;
}

/* symtab_count(t): number of symbols, aliases included. */
size_t symtab_count(const struct symtab *t)
{
	return t->n;
}

/* symtab_at(t, i): i-th symbol in address order, or NULL. */
const struct sym *symtab_at(const struct symtab *t, size_t i)
{
	return i < t->n ? &t->v[i] : NULL;
}

/* all_digits(s, n): s[0..n) is one or more decimal digits. */
static bool all_digits(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

/* last_dot(s, n): the index of the last '.' in s[1..n), or 0 when none
 * (a leading dot never starts a suffix, so nothing strips to empty). */
static size_t last_dot(const char *s, size_t n)
{
	while (n > 1 && s[n - 1] != '.')
		n--;
	return n > 1 ? n - 1 : 0;
}

/* word_is(s, n, w): s[0..n) equals the string w. */
static bool word_is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !memcmp(s, w, n);
}

/* strip_clone_note(s, n): the length of s[0..n) without a trailing
 * " [clone .isra.0]" (how a demangled C++ clone is named), or n. */
static size_t strip_clone_note(const char *s, size_t n)
{
	static const char note[] = " [clone .";
	size_t k = sizeof(note) - 1;

	if (n < k + 2 || s[n - 1] != ']')
		return n;
	for (size_t i = n - 1; i-- > 0;)
		if (s[i] == '[')
			return i > 1 && i + 8 <= n && !memcmp(s + i - 1, note, k) ? i - 1 : n;
	return n;
}

/* strip_one(s, n): the length of s[0..n) without one trailing clone
 * suffix, or n when it has none. */
static size_t strip_one(const char *s, size_t n)
{
	size_t d, d2;
	const char *w;

	if ((d = strip_clone_note(s, n)) != n)
		return d;
	if (!(d = last_dot(s, n)))
		return n;
	if (word_is(s + d + 1, n - d - 1, "cold"))
		return d;
	if (!all_digits(s + d + 1, n - d - 1) || !(d2 = last_dot(s, d)))
		return n;
	w = s + d2 + 1;
	if (word_is(w, d - d2 - 1, "isra") || word_is(w, d - d2 - 1, "constprop") ||
	    word_is(w, d - d2 - 1, "part") || word_is(w, d - d2 - 1, "cold") ||
	    word_is(w, d - d2 - 1, "llvm"))
		return d2;
	return n;
}

/* sym_normalize(in, out, outlen): in without clone suffixes; its length. */
size_t sym_normalize(const char *in, char *out, size_t outlen)
{
	size_t n = strlen(in), m;

	while ((m = strip_one(in, n)) != n)
		n = m;
	if (outlen) {
		m = n < outlen ? n : outlen - 1;
		memmove(out, in, m);
		out[m] = '\0';
	}
	return n;
}
