/* A writer thread for the import: statements with their bound values are
 * queued by the reading thread and executed, in order, by one writer
 * thread, so decoding the next records overlaps with SQLite's work. While
 * a queue is running, only its thread may use the database connection. */
#ifndef PERFDB_SQLQ_H
#define PERFDB_SQLQ_H
#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

/* One bound value: NULL, an integer, a double (its bits in i), or text or
 * a blob of len bytes at offset i of the job's text arena. BV_UNSET marks
 * a shadow slot bound to nothing known. */
enum { BV_NULL, BV_INT, BV_TEXT, BV_REAL, BV_BLOB, BV_UNSET = -1 };
struct bval {
	int kind;
	uint32_t len;
	int64_t i;
};

struct sqlq;

/* What a statement has bound, kept across its runs (see sqlq_run): a value
 * per parameter, and a copy of short text values so that they stay valid
 * once the job that bound them is freed. */
struct sqlq_shadow;

/* sqlq_shadow_new: a shadow for n parameters, all unknown.
 * sqlq_shadow_free: frees it (NULL: no-op), once its statement runs no more. */
struct sqlq_shadow *sqlq_shadow_new(int n);
void sqlq_shadow_free(struct sqlq_shadow *sh);

/* sqlq_new: a queue (never NULL); its thread starts with the first job. */
struct sqlq *sqlq_new(void);

/* sqlq_submit: queues st to be run nexec times, binding vals[k *
 * per_exec .. (k+1) * per_exec) for the k-th run; vals and text become
 * the queue's (freed after the run). shadow, when not NULL, holds per_exec
 * slots that mirror what st has bound (see sqlq_run); only the thread
 * running st's jobs touches it. NULL q runs it at once, here. Blocks while
 * the queue is full. Returns 0, or -1 once any job has failed. */
int sqlq_submit(struct sqlq *q, sqlite3_stmt *st, struct bval *vals, int per_exec,
		int nexec, char *text, struct sqlq_shadow *shadow);

/* sqlq_drain: waits until every queued job has run. Returns 0, or -1 with
 * the first failure's message in err. */
int sqlq_drain(struct sqlq *q, char *err, size_t errlen);

/* sqlq_free: drains, stops the thread and frees the queue (NULL: no-op). */
void sqlq_free(struct sqlq *q);

/* sqlq_run: runs one job here: binds, steps and resets st per execution.
 * With a shadow (per_exec parameters), a value equal to what st already
 * has bound is not bound again (a reset keeps bindings): consecutive
 * batches repeat most of their session, event, symbol and NULL values and
 * their comms, and binding is about 40% of an insert's cost. Text up to
 * SQLQ_SHADOW_TEXT - 1 bytes is bound from the shadow's copy; longer text
 * from the job's arena, and bound again by the next run. 0, or -1 with
 * sqlite's message in err. */
#define SQLQ_SHADOW_TEXT 32
int sqlq_run(sqlite3_stmt *st, const struct bval *vals, int per_exec, int nexec,
	     const char *text, struct sqlq_shadow *shadow, char *err, size_t errlen);
#endif
