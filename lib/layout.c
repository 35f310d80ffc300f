/* Struct layouts as data (see layout.h): finding members, the size, the
 * field at a byte offset, freeing. Nothing here reads a database. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/layout.h"

/* layout_find_member: see layout.h. */
const struct layout_member *layout_find_member(const struct layout *l, const char *member)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->m[i].member, member))
			return &l->m[i];
	return NULL;
}

/* layout_type_key: see layout.h. */
const char *layout_type_key(const char *name)
{
	if (!name)
		return "";
	if (!strncmp(name, "struct ", 7))
		return name + 7;
	if (!strncmp(name, "union ", 6))
		return name + 6;
	return name;
}

/* layout_size: see layout.h. */
int64_t layout_size(const struct layout *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (!l->m[i].member[0])
			return l->m[i].size;
	return 0;
}

/* depth(name): the number of dots in a dotted member name. */
static int depth(const char *name)
{
	int d = 0;
	for (; *name; name++)
		d += *name == '.';
	return d;
}

/* bits_hit(m, off): whether bitfield m has bits in byte off. */
static bool bits_hit(const struct layout_member *m, int64_t off)
{
	int64_t lo = (off - m->offset) * 8, hi = lo + 8;
	return m->bit_offset < hi && m->bit_offset + m->bit_size > lo;
}

/* covers(m, off): whether member m's bytes (bits, for a bitfield) hold off. */
static bool covers(const struct layout_member *m, int64_t off)
{
	if (!m->member[0] || off < m->offset || off >= m->offset + m->size)
		return false;
	return m->bit_size < 0 || bits_hit(m, off);
}

/* smallest(l, off): the index of the member named at off: the smallest
 * holding it, the shallowest among equals (a member that fills its whole
 * parent, as atomic_t's counter, adds nothing), or -1. */
static long smallest(const struct layout *l, int64_t off)
{
	long best = -1;
	for (size_t i = 0; i < l->n; i++) {
		const struct layout_member *m = &l->m[i];
		if (!covers(m, off))
			continue;
		if (best < 0 || m->size < l->m[best].size ||
		    (m->size == l->m[best].size && depth(m->member) < depth(l->m[best].member)))
			best = (long)i;
	}
	return best;
}

/* array_count(type): N of a type name ending in "[N]..." (the first
 * dimension), or 0. */
static long array_count(const char *type)
{
	const char *b = type ? strchr(type, '[') : NULL;
	return b ? strtol(b + 1, NULL, 10) : 0;
}

/* in_gap(l, m, off): whether m has members of its own (named m's name +
 * ".") and none of them holds off: off is in a hole or padding of m. */
static bool in_gap(const struct layout *l, const struct layout_member *m, int64_t off)
{
	size_t n = strlen(m->member);
	bool children = false;
	for (size_t i = 0; n && i < l->n; i++)
		if (!strncmp(l->m[i].member, m->member, n) && l->m[i].member[n] == '.') {
			if (covers(&l->m[i], off))
				return false;
			children = true;
		}
	return children;
}

/* same_level(name, prefix): whether name is directly under prefix. */
static bool same_level(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	return name[0] && !strncmp(name, prefix, n) && !strchr(name + n, '.');
}

/* name_gap(l, c, off, name, len, foff, fsize): the hole or padding at off
 * inside container c (NULL: the struct itself). */
static void name_gap(const struct layout *l, const struct layout_member *c, int64_t off,
		     char *name, size_t len, int64_t *foff, int64_t *fsize)
{
	char prefix[512];
	const struct layout_member *prev = NULL, *next = NULL;
	int64_t lo = c ? c->offset : 0, hi = c ? c->offset + c->size : layout_size(l);
	snprintf(prefix, sizeof(prefix), "%s%s", c ? c->member : "", c ? "." : "");
	for (size_t i = 0; i < l->n; i++) {
		const struct layout_member *m = &l->m[i];
		if (!same_level(m->member, prefix))
			continue;
		if (m->offset + m->size <= off && (!prev || m->offset + m->size > prev->offset + prev->size))
			prev = m;
		if (m->offset > off && (!next || m->offset < next->offset))
			next = m;
	}
	*foff = prev ? prev->offset + prev->size : lo;
	*fsize = (next ? next->offset : hi) - *foff;
	if (!next)
		snprintf(name, len, "%s<padding>", prefix);
	else if (prev)
		snprintf(name, len, "%s<hole after %s>", prefix, prev->member + strlen(prefix));
	else
		snprintf(name, len, "%s<hole before %s>", prefix, next->member + strlen(prefix));
}

/* name_bitfields(l, m, off, name, len): the bitfields of m's unit at m's
 * depth that have bits in byte off, joined with ','. */
static void name_bitfields(const struct layout *l, const struct layout_member *m, int64_t off,
			   char *name, size_t len)
{
	size_t at = 0;
	name[0] = 0;
	for (size_t i = 0; i < l->n && at < len; i++) {
		const struct layout_member *b = &l->m[i];
		if (b->bit_size < 0 || b->offset != m->offset || depth(b->member) != depth(m->member) ||
		    !bits_hit(b, off))
			continue;
		at += (size_t)snprintf(name + at, len - at, "%s%s", at ? "," : "", b->member);
	}
}

/* layout_name_at: see layout.h. */
int layout_name_at(const struct layout *l, int64_t off, char *name, size_t len,
		   int64_t *foff, int64_t *fsize)
{
	long i;
	const struct layout_member *m;
	if (off < 0 || off >= layout_size(l))
		return -1;
	if ((i = smallest(l, off)) < 0) {
		name_gap(l, NULL, off, name, len, foff, fsize);
		return 0;
	}
	m = &l->m[i];
	if (in_gap(l, m, off)) {	/* in a nested struct but none of its members */
		name_gap(l, m, off, name, len, foff, fsize);
		return 0;
	}
	*foff = m->offset;
	*fsize = m->size;
	if (m->bit_size >= 0) {
		name_bitfields(l, m, off, name, len);
		return 0;
	}
	long count = array_count(m->type_name);
	if (count > 0 && m->size % count == 0 && m->size / count > 0) {
		int64_t elem = m->size / count, ix = (off - m->offset) / elem;
		snprintf(name, len, "%s[%lld]", m->member, (long long)ix);
		*foff = m->offset + ix * elem;
		*fsize = elem;
		return 0;
	}
	snprintf(name, len, "%s", m->member);
	return 0;
}

/* layout_free: see layout.h. */
void layout_free(struct layout *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->m[i].member);
		free(l->m[i].type_name);
	}
	free(l->m);
	free(l->struct_name);
	*l = (struct layout){ 0 };
}
