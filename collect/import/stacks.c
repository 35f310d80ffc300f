/* Call-stack trie nodes: see stacks.h. A hash map finds an existing
 * (parent, symbol) node; new nodes are inserted with ids we assign. */
#include <stdlib.h>
#include "lib/alloc.h"
#include "schema/batch.h"
#include "schema/db.h"
#include "lib/hashmap.h"
#include "collect/import/stacks.h"

struct stacks {
	struct batch *ins;
	struct hashmap nodes;	/* (parent, symbol) -> id */
	int64_t next;
	uint32_t *depth;	/* depth by (id - base), to store each node's depth */
	int64_t base;
	size_t cap;
};

static const char *const cols[] = { "id", "parent_id", "symbol_id", "depth" };

struct stacks *stacks_new(sqlite3 *db, struct sqlq *q)
{
	struct stacks *s = xcalloc(1, sizeof(*s));
	s->next = s->base = db_next_id(db, "stack");
	s->ins = batch_new(db, q, "stack", cols, 4);
	hm_init(&s->nodes);
	if (!s->ins) {
		stacks_free(s);
		return NULL;
	}
	return s;
}

void stacks_free(struct stacks *s)
{
	if (!s)
		return;
	batch_free(s->ins);
	hm_free(&s->nodes);
	free(s->depth);
	free(s);
}

/* depth_of: the depth of node id (0 for the root). */
static uint32_t depth_of(const struct stacks *s, int64_t id)
{
	return id >= s->base ? s->depth[id - s->base] : 0;
}

/* remember_depth: stores the depth of the newest node. */
static void remember_depth(struct stacks *s, int64_t id, uint32_t d)
{
	size_t i = (size_t)(id - s->base);
	ALLOC_GROW(s->depth, i + 1, s->cap);
	s->depth[i] = d;
}

int64_t stacks_node(struct stacks *s, int64_t parent, int64_t sym)
{
	uint64_t id;
	uint32_t d;
	if (hm_get(&s->nodes, (uint64_t)parent, (uint64_t)sym, &id))
		return (int64_t)id;
	id = (uint64_t)s->next++;
	d = parent ? depth_of(s, parent) + 1 : 0;
	batch_int(s->ins, 0, (int64_t)id);
	if (parent)
		batch_int(s->ins, 1, parent);
	batch_int(s->ins, 2, sym);
	batch_int(s->ins, 3, d);
	remember_depth(s, (int64_t)id, d);
	hm_put(&s->nodes, (uint64_t)parent, (uint64_t)sym, id);
	return batch_row(s->ins) ? -1 : (int64_t)id;
}

int stacks_flush(struct stacks *s)
{
	return batch_flush(s->ins);
}
