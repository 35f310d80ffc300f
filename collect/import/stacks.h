/* Call stacks as a trie of (caller node, symbol) nodes: deduplicated so
 * every distinct path from the outermost caller is stored once. */
#ifndef PERFDB_STACKS_H
#define PERFDB_STACKS_H
#include <sqlite3.h>
#include <stdint.h>

struct stacks;
struct sqlq;

/* stacks_new: a node store continuing after the database's largest id,
 * writing its rows through q; NULL when its insert cannot be prepared.
 * stacks_free(s): frees it (NULL: no-op); rows not flushed are lost. */
struct stacks *stacks_new(sqlite3 *db, struct sqlq *q);
void stacks_free(struct stacks *s);

/* stacks_node: the node for symbol row sym under node parent (0 = root),
 * inserted when new. Returns its id, or -1 when writing rows failed. */
int64_t stacks_node(struct stacks *s, int64_t parent, int64_t sym);
/* stacks_flush: hands on the node rows still batched. 0 or -1. */
int stacks_flush(struct stacks *s);
#endif
