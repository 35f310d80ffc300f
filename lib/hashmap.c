/* A hash map from (u64, u64) to u64: see hashmap.h. */
#include <stdlib.h>
#include "lib/alloc.h"
#include "lib/hashmap.h"

/* hash: mixes the two keys into a slot index. */
static size_t hash(uint64_t a, uint64_t b, size_t cap)
{
	uint64_t h = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
	h ^= h >> 29;
	return (size_t)h & (cap - 1);
}

/* slot: the slot holding (a, b), or the empty slot where it would go. */
static size_t slot(const struct hashmap *m, uint64_t a, uint64_t b)
{
	size_t i = hash(a, b, m->cap);
	while (m->used[i] && (m->k1[i] != a || m->k2[i] != b))
		i = (i + 1) & (m->cap - 1);
	return i;
}

void hm_init(struct hashmap *m)
{
	*m = (struct hashmap){ 0 };
}

void hm_free(struct hashmap *m)
{
	free(m->k1);
	free(m->k2);
	free(m->val);
	free(m->used);
	hm_init(m);
}

/* rehash: doubles the table and reinserts every entry. */
static void rehash(struct hashmap *m)
{
	struct hashmap n = { 0 };
	n.cap = m->cap ? m->cap * 2 : 1024;
	n.k1 = xreallocarray(NULL, n.cap, sizeof(uint64_t));
	n.k2 = xreallocarray(NULL, n.cap, sizeof(uint64_t));
	n.val = xreallocarray(NULL, n.cap, sizeof(uint64_t));
	n.used = xcalloc(n.cap, 1);
	for (size_t i = 0; i < m->cap; i++)
		if (m->used[i]) {
			size_t s = slot(&n, m->k1[i], m->k2[i]);
			n.used[s] = 1;
			n.k1[s] = m->k1[i];
			n.k2[s] = m->k2[i];
			n.val[s] = m->val[i];
		}
	n.count = m->count;
	hm_free(m);
	*m = n;
}

bool hm_get(const struct hashmap *m, uint64_t a, uint64_t b, uint64_t *val)
{
	size_t s;
	if (!m->cap)
		return false;
	s = slot(m, a, b);
	if (!m->used[s])
		return false;
	*val = m->val[s];
	return true;
}

void hm_put(struct hashmap *m, uint64_t a, uint64_t b, uint64_t val)
{
	size_t s;
	if ((m->count + 1) * 4 > m->cap * 3)
		rehash(m);
	s = slot(m, a, b);
	if (!m->used[s]) {
		m->used[s] = 1;
		m->k1[s] = a;
		m->k2[s] = b;
		m->count++;
	}
	m->val[s] = val;
}

/* hm_del: backward-shift deletion keeps probe chains intact. */
void hm_del(struct hashmap *m, uint64_t a, uint64_t b)
{
	size_t i, j, mask = m->cap - 1;
	if (!m->cap)
		return;
	i = slot(m, a, b);
	if (!m->used[i])
		return;
	m->used[i] = 0;
	m->count--;
	for (j = (i + 1) & mask; m->used[j]; j = (j + 1) & mask) {
		size_t h = hash(m->k1[j], m->k2[j], m->cap);
		/* move j back to i if i lies cyclically in [h, j) */
		if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
			m->k1[i] = m->k1[j];
			m->k2[i] = m->k2[j];
			m->val[i] = m->val[j];
			m->used[i] = 1;
			m->used[j] = 0;
			i = j;
		}
	}
}
