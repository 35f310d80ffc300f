/* Field attribution and sharing verdicts of memory samples (see hitm.h):
 * each sample, as it is read, finds its object and field, whose counts,
 * CPUs and sites it adds to (and to its offsets row, hitm_rows.h); at the
 * end the fields are put in order per line, added up per type, and each
 * line is judged. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/hitm/hitm.h"
#include "analyze/hitm/hitm_rows.h"
#include "lib/alloc.h"
#include "lib/hashmap.h"
#include "lib/strbuf.h"

struct fkey;

/* Lookup state while attributing (hitm_result.priv). */
struct index {
	const struct objmap *om;
	const struct layout_set *ls;
	struct hitm_rows *rows;	/* the offsets rows being added up */
	struct hashmap strs;	/* (hash, length + probe << 32) -> string */
	struct hashmap fields;	/* (line, object + name) -> field */
	struct hashmap tfields;	/* (type, name) -> per-type field */
	struct hashmap sites;	/* (field key, site) -> place in its sites */
	struct hashmap typed;	/* (type name, session << 40 | offset) -> place in keys */
	struct fkey *keys;	/* the typed fields found so far */
	size_t nkeys, keys_cap;
};

/* What one sample is attributed to. */
struct fkey {
	int32_t type, name;
	int64_t foff, fsize;
};

/* fnv(s): the FNV-1a hash of s. */
static uint64_t fnv(const char *s)
{
	uint64_t h = 14695981039346656037ULL;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ULL;
	return h;
}

/* intern(r, x, s): the index of string s in r->strs, added when new. */
static int32_t intern(struct hitm_result *r, struct index *x, const char *s)
{
	uint64_t h = fnv(s), len = strlen(s), v;
	for (uint64_t probe = 0;; probe++) {
		uint64_t k2 = len | probe << 32;
		if (!hm_get(&x->strs, h, k2, &v)) {
			ALLOC_GROW(r->strs, r->nstrs + 1, r->strs_cap);
			r->strs[r->nstrs] = xstrdup(s);
			hm_put(&x->strs, h, k2, r->nstrs);
			return (int32_t)r->nstrs++;
		}
		if (!strcmp(r->strs[v], s))
			return (int32_t)v;
	}
}

/* set_cpu(s, c): adds CPU c (ignored when negative) to bitset s. */
static void set_cpu(uint64_t *s, int c)
{
	if (c >= 0)
		s[c / 64] |= 1ULL << (c % 64);
}

/* typed_key(r, x, o, l, off, k): the field of a typed object at off. */
static void typed_key(struct hitm_result *r, struct index *x, const struct hobj *o,
		      const struct layout *l, int64_t off, struct fkey *k)
{
	char name[512];
	if (!l || layout_name_at(l, off, name, sizeof(name), &k->foff, &k->fsize)) {
		snprintf(name, sizeof(name), "+0x%" PRIx64, (uint64_t)off);
		k->foff = off;
		k->fsize = 1;
	}
	k->type = intern(r, x, o->type);
	k->name = intern(r, x, name);
}

/* cached_typed_key(r, x, o, session, ls, off, k): typed_key's answer for
 * the type of o at off in a session, found once per (type, session,
 * offset): naming a field walks the layout, the samples of a line repeat
 * a few offsets. */
static void cached_typed_key(struct hitm_result *r, struct index *x, const struct hobj *o,
			     int32_t session, const struct layout_set *ls, int64_t off, struct fkey *k)
{
	uint64_t v, k1 = (uint64_t)(uintptr_t)o->type, k2 = (uint64_t)session << 40 | (uint64_t)off;
	bool cacheable = session >= 0 && session < (1 << 23) && off >= 0 && off < (1LL << 40);
	if (cacheable && hm_get(&x->typed, k1, k2, &v)) {
		*k = x->keys[v];
		return;
	}
	typed_key(r, x, o, layouts_find(&ls[session], o->type), off, k);
	if (!cacheable)
		return;
	ALLOC_GROW(x->keys, x->nkeys + 1, x->keys_cap);
	x->keys[x->nkeys] = *k;
	hm_put(&x->typed, k1, k2, x->nkeys++);
}

/* key_of(r, x, s, obj, k): what sample s in object obj (-1: none) is
 * attributed to. */
static void key_of(struct hitm_result *r, struct index *x, const struct c2c_sample *s,
		   int32_t obj, struct fkey *k)
{
	char name[512];
	if (obj < 0) {
		k->type = k->name = intern(r, x, HITM_UNKNOWN);
		k->foff = c2c_cl_offset(s->addr);
		k->fsize = 1;
		return;
	}
	const struct hobj *o = &x->om->v[obj];
	int64_t off = (int64_t)(s->addr - o->addr);
	if (o->type[0]) {
		cached_typed_key(r, x, o, s->session, x->ls, off, k);
		return;
	}
	if (off)
		snprintf(name, sizeof(name), "%s+0x%" PRIx64, o->name ? o->name : "?", (uint64_t)off);
	else
		snprintf(name, sizeof(name), "%s", o->name ? o->name : "?");
	k->type = intern(r, x, o->type_decl ? o->type_decl : "symbol");
	k->name = intern(r, x, name);
	k->foff = off;
	k->fsize = 0;
}

/* new_field(r, line, obj, k, words): a zeroed field with its bitsets. */
static struct hitm_field new_field(int32_t line, int32_t obj, const struct fkey *k, int words)
{
	return (struct hitm_field){ .line = line, .obj = obj, .type = k->type, .name = k->name,
		.foff = k->foff, .fsize = k->fsize, .line_off = 64,
		.readers = xcalloc((size_t)words, sizeof(uint64_t)),
		.writers = xcalloc((size_t)words, sizeof(uint64_t)) };
}

/* line_field(r, x, line, obj, k): the field of line for key k in object
 * obj, created when new. */
static struct hitm_field *line_field(struct hitm_result *r, struct index *x, int32_t line,
				     int32_t obj, const struct fkey *k)
{
	uint64_t k1 = (uint64_t)(uint32_t)line << 8 | (obj < 0 ? (uint64_t)k->foff : 0);
	uint64_t k2 = (uint64_t)(uint32_t)(obj + 1) << 32 | (uint32_t)k->name, v;
	if (hm_get(&x->fields, k1, k2, &v))
		return &r->fields[v];
	ALLOC_GROW(r->fields, r->nfields + 1, r->fields_cap);
	r->fields[r->nfields] = new_field(line, obj, k, r->cpu_words);
	hm_put(&x->fields, k1, k2, r->nfields);
	return &r->fields[r->nfields++];
}

/* add_site(x, key, f, site, n): counts n samples of code site site in
 * field f, which key names in x->sites. */
static void add_site(struct index *x, uint64_t key, struct hitm_field *f, int32_t site, uint32_t n)
{
	uint64_t v;
	if (hm_get(&x->sites, key, (uint64_t)site, &v)) {
		f->sites[v].n += n;
		return;
	}
	ALLOC_GROW(f->sites, f->nsites + 1, f->sites_cap);
	f->sites[f->nsites] = (struct site_count){ site, n };
	hm_put(&x->sites, key, (uint64_t)site, f->nsites++);
}

/* add_to_field(r, x, f, s): one sample into line field f. */
static void add_to_field(struct hitm_result *r, struct index *x, struct hitm_field *f,
			 const struct c2c_sample *s)
{
	unsigned off = c2c_cl_offset(s->addr);
	hitm_count_sample(&f->c, s);
	if (s->cls == C2C_STORE)
		set_cpu(f->writers, s->cpu);
	else if (s->cls != C2C_NONE)
		set_cpu(f->readers, s->cpu);
	if (off < f->line_off)
		f->line_off = off;
	if (s->site >= 0)
		add_site(x, (uint64_t)(f - r->fields), f, s->site, 1);
}

/* grow_bits(s, from, to): bitset *s of from words widened to to words. */
static void grow_bits(uint64_t **s, int from, int to)
{
	*s = xreallocarray(*s, (size_t)to, sizeof(**s));
	memset(*s + from, 0, (size_t)(to - from) * sizeof(**s));
}

/* widen(r, cpu): every CPU bitset of r widened to hold cpu. */
static void widen(struct hitm_result *r, int cpu)
{
	if (cpu < 0 || cpu / 64 < r->cpu_words)
		return;
	int words = cpu / 64 + 1;
	for (size_t i = 0; i < r->nfields; i++) {
		grow_bits(&r->fields[i].readers, r->cpu_words, words);
		grow_bits(&r->fields[i].writers, r->cpu_words, words);
	}
	for (size_t i = 0; i < r->nlines; i++)
		grow_bits(&r->lines[i].cpus, r->cpu_words, words);
	r->cpu_words = words;
}

/* line_at(r, line): r's line, lines up to it added when new. */
static struct hitm_line *line_at(struct hitm_result *r, size_t line)
{
	while (r->nlines <= line) {
		ALLOC_GROW(r->lines, r->nlines + 1, r->lines_cap);
		r->lines[r->nlines++] = (struct hitm_line){
			.cpus = xcalloc((size_t)r->cpu_words, sizeof(uint64_t)) };
	}
	return &r->lines[line];
}

/* hitm_begin: see hitm.h. */
void hitm_begin(struct hitm_result *r, const struct objmap *om, const struct layout_set *ls)
{
	struct index *x = xcalloc(1, sizeof(*x));
	*r = (struct hitm_result){ .cpu_words = 1, .priv = x };
	x->om = om;
	x->ls = ls;
	x->rows = hitm_rows_new();
	hm_init(&x->typed);
	hm_init(&x->strs);
	hm_init(&x->fields);
	hm_init(&x->tfields);
	hm_init(&x->sites);
}

/* hitm_add: see hitm.h. */
int32_t hitm_add(struct hitm_result *r, const struct c2c_sample *s)
{
	struct index *x = r->priv;
	struct fkey k;
	int32_t obj = s->addr ? (int32_t)objects_find(x->om, s->session, s->addr, s->pid, s->time)
			      : -1;
	widen(r, s->cpu);
	struct hitm_line *hl = line_at(r, (size_t)s->line);
	key_of(r, x, s, obj, &k);
	struct hitm_field *f = line_field(r, x, s->line, obj, &k);
	add_to_field(r, x, f, s);
	set_cpu(hl->cpus, s->cpu);
	hitm_rows_add(x->rows, s, (int32_t)(f - r->fields));
	return obj;
}

/* sink_sample(ctx, d, s): hitm_sink's callback. */
static void sink_sample(void *ctx, const struct c2c_data *d, const struct c2c_sample *s)
{
	(void)d;
	hitm_add(ctx, s);
}

/* hitm_sink: see hitm.h. */
struct c2c_sink hitm_sink(struct hitm_result *r)
{
	return (struct c2c_sink){ .sample = sink_sample, .ctx = r };
}

/* cmp_field_order: indexes of the fields at fields by line, offset in
 * the line, offset in the object, then creation (the line's first sample
 * in each first). */
static int cmp_field_order(const void *a, const void *b, void *fields)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct hitm_field *x = (const struct hitm_field *)fields + i;
	const struct hitm_field *y = (const struct hitm_field *)fields + j;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->line_off != y->line_off)
		return x->line_off < y->line_off ? -1 : 1;
	if (x->foff != y->foff)
		return x->foff < y->foff ? -1 : 1;
	return (i > j) - (i < j);
}

/* order_fields(r): r's fields put in that order, each line's range set;
 * returns where each went (field i is now fields[to[i]]). */
static size_t *order_fields(struct hitm_result *r)
{
	size_t n = r->nfields, *ord = xcalloc(n + 1, sizeof(*ord)), *to = xcalloc(n + 1, sizeof(*to));
	struct hitm_field *fs = xcalloc(n + 1, sizeof(*fs));
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	if (n)
		qsort_r(ord, n, sizeof(*ord), cmp_field_order, r->fields);
	for (size_t i = 0; i < n; i++) {
		struct hitm_line *hl = &r->lines[r->fields[ord[i]].line];
		fs[i] = r->fields[ord[i]];
		to[ord[i]] = i;
		if (!hl->n)
			hl->first = i;
		hl->n++;
	}
	free(r->fields);
	free(ord);
	r->fields = fs;
	r->fields_cap = n + 1;
	return to;
}

/* or_bits(a, b, words): a |= b. */
static void or_bits(uint64_t *a, const uint64_t *b, int words)
{
	for (int i = 0; i < words; i++)
		a[i] |= b[i];
}

/* aggregate(r, x, f): adds line field f to its per-type field. */
static void aggregate(struct hitm_result *r, struct index *x, const struct hitm_field *f)
{
	uint64_t v;
	struct hitm_field *t;
	if (!hm_get(&x->tfields, (uint64_t)f->type, (uint64_t)f->name, &v)) {
		struct fkey k = { f->type, f->name, f->foff, f->fsize };
		ALLOC_GROW(r->tfields, r->ntfields + 1, r->tfields_cap);
		r->tfields[r->ntfields] = new_field(-1, -1, &k, r->cpu_words);
		if (f->obj < 0)
			r->tfields[r->ntfields].foff = -1;
		v = r->ntfields++;
		hm_put(&x->tfields, (uint64_t)f->type, (uint64_t)f->name, v);
	}
	t = &r->tfields[v];
	hitm_counts_add(&t->c, &f->c);
	or_bits(t->readers, f->readers, r->cpu_words);
	or_bits(t->writers, f->writers, r->cpu_words);
	for (size_t i = 0; i < f->nsites; i++)
		add_site(x, 1ULL << 63 | v, t, f->sites[i].site, f->sites[i].n);
}

/* others(a, b, words): whether bitset b holds a CPU that a does not, or
 * a holds two or more CPUs while b holds any (some CPU of a differs from
 * some CPU of b). */
static bool others(const uint64_t *a, const uint64_t *b, int words)
{
	int na = cpuset_count(a, words), nb = cpuset_count(b, words);
	if (!na || !nb)
		return false;
	if (na > 1 || nb > 1)
		return true;
	return memcmp(a, b, (size_t)words * sizeof(uint64_t)) != 0;
}

/* true_shared(f, words): whether f is written by 2+ CPUs, or by one and
 * read by another. */
static bool true_shared(const struct hitm_field *f, int words)
{
	int nw = cpuset_count(f->writers, words);
	if (nw >= 2)
		return true;
	if (nw != 1)
		return false;
	for (int i = 0; i < words; i++)
		if (f->readers[i] & ~f->writers[i])
			return true;
	return false;
}

/* accessors(f, out, words): out = readers | writers of f. */
static void accessors(const struct hitm_field *f, uint64_t *out, int words)
{
	for (int i = 0; i < words; i++)
		out[i] = f->readers[i] | f->writers[i];
}

/* weight(f): how much a field matters in a verdict's detail. */
static uint64_t weight(const struct hitm_field *f)
{
	return ((uint64_t)f->c.lcl_hitm + f->c.rmt_hitm) * 1000000 + (uint64_t)f->c.stores * 1000 +
	       f->c.loads;
}

/* role(r, f, b): appends "written by CPUs 0,2, read by CPU 1". */
static void role(const struct hitm_result *r, const struct hitm_field *f, struct strbuf *b)
{
	int nw = cpuset_count(f->writers, r->cpu_words), nr = cpuset_count(f->readers, r->cpu_words);
	if (nw) {
		sb_printf(b, "written by CPU%s ", nw > 1 ? "s" : "");
		cpuset_text(f->writers, r->cpu_words, b);
	}
	if (nr) {
		sb_printf(b, "%sread by CPU%s ", nw ? ", " : "", nr > 1 ? "s" : "");
		cpuset_text(f->readers, r->cpu_words, b);
	}
}

/* false_pair(r, fs, n, fi, gi): the heaviest pair of different fields
 * where a writer of fs[fi] differs from an accessor of fs[gi]. */
static bool false_pair(const struct hitm_result *r, const struct hitm_field *fs, size_t n,
		       size_t *fi, size_t *gi)
{
	uint64_t *acc = xcalloc((size_t)r->cpu_words, sizeof(uint64_t)), best = 0;
	bool found = false;
	for (size_t g = 0; g < n; g++) {
		accessors(&fs[g], acc, r->cpu_words);
		for (size_t f = 0; f < n; f++) {
			if (f == g || !others(fs[f].writers, acc, r->cpu_words))
				continue;
			uint64_t w = weight(&fs[f]) + weight(&fs[g]) + 1;
			if (w > best) {
				best = w;
				*fi = f;
				*gi = g;
				found = true;
			}
		}
	}
	free(acc);
	return found;
}

/* label(r, f, b): appends f's name for a verdict: its field, with the
 * offset in the line for an address in no known object. */
static void label(const struct hitm_result *r, const struct hitm_field *f, struct strbuf *b)
{
	if (f->obj >= 0)
		sb_puts(b, r->strs[f->name]);
	else
		sb_printf(b, "%s+0x%x", HITM_UNKNOWN, f->line_off);
}

/* described(r, f, t, b): appends "name (role)", or just the name when f
 * is t, whose role the detail already gave. */
static void described(const struct hitm_result *r, const struct hitm_field *f,
		      const struct hitm_field *t, struct strbuf *b)
{
	label(r, f, b);
	if (f == t)
		return;
	sb_puts(b, " (");
	role(r, f, b);
	sb_puts(b, ")");
}

/* judge(r, hl): the verdict and detail of one line. */
static void judge(struct hitm_result *r, struct hitm_line *hl)
{
	const struct hitm_field *fs = r->fields + hl->first, *t = NULL;
	struct strbuf b = STRBUF_INIT;
	size_t fi = 0, gi = 0;
	for (size_t i = 0; i < hl->n; i++)
		if (true_shared(&fs[i], r->cpu_words) && (!t || weight(&fs[i]) > weight(t)))
			t = &fs[i];
	bool fal = false_pair(r, fs, hl->n, &fi, &gi);
	hl->verdict = t && fal ? SHARE_BOTH : t ? SHARE_TRUE : fal ? SHARE_FALSE : SHARE_NONE;
	if (t) {
		label(r, t, &b);
		sb_puts(&b, " ");
		role(r, t, &b);
	}
	if (fal) {
		sb_puts(&b, t ? "; " : "");
		described(r, &fs[fi], t, &b);
		sb_puts(&b, " vs ");
		described(r, &fs[gi], t, &b);
	}
	hl->detail = sb_take(&b);
}

/* index_free(x): frees the lookup state (NULL: nothing). */
static void index_free(struct index *x)
{
	if (!x)
		return;
	hitm_rows_free(x->rows);
	hm_free(&x->strs);
	hm_free(&x->fields);
	hm_free(&x->tfields);
	hm_free(&x->sites);
	hm_free(&x->typed);
	free(x->keys);
	free(x);
}

/* hitm_finish: see hitm.h. */
void hitm_finish(struct hitm_result *r, const struct c2c_data *d)
{
	struct index *x = r->priv;
	if (d->nlines)
		line_at(r, d->nlines - 1);
	size_t *to = order_fields(r);
	hitm_rows_finish(x->rows, to, r);
	x->rows = NULL;
	for (size_t i = 0; i < r->nfields; i++)
		aggregate(r, x, &r->fields[i]);
	for (size_t i = 0; i < r->nlines; i++)
		judge(r, &r->lines[i]);
	free(to);
	index_free(x);
	r->priv = NULL;
}

/* field_free(f): frees what f owns. */
static void field_free(struct hitm_field *f)
{
	free(f->readers);
	free(f->writers);
	free(f->sites);
}

/* hitm_result_free: see hitm.h. */
void hitm_result_free(struct hitm_result *r)
{
	for (size_t i = 0; i < r->nfields; i++)
		field_free(&r->fields[i]);
	for (size_t i = 0; i < r->ntfields; i++)
		field_free(&r->tfields[i]);
	for (size_t i = 0; i < r->nlines; i++) {
		free(r->lines[i].detail);
		free(r->lines[i].cpus);
	}
	for (size_t i = 0; i < r->nstrs; i++)
		free(r->strs[i]);
	index_free(r->priv);
	free(r->rows);
	free(r->fields);
	free(r->tfields);
	free(r->lines);
	free(r->strs);
	*r = (struct hitm_result){ 0 };
}
