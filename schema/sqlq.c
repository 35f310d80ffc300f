/* The import's writer thread: see sqlq.h. A mutex-protected FIFO of jobs
 * with a bound on its length; the thread runs jobs until told to stop. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "schema/db.h"
#include "schema/sqlq.h"

#define MAX_QUEUED 16

struct job {
	struct job *next;
	sqlite3_stmt *st;
	struct bval *vals;
	struct sqlq_shadow *shadow;
	int per_exec, nexec;
	char *text;
};

struct sqlq {
	pthread_t thread;
	bool started, stop, busy;
	bool writer_waits, reader_waits, drainer_waits;
	pthread_mutex_t mu;
	pthread_cond_t work, space, idle;
	struct job *head, *tail;
	int queued, failed;
	char err[512];
};

/* bind_one: binds v to parameter p of st (text from the arena). */
static void bind_one(sqlite3_stmt *st, int p, const struct bval *v, const char *text)
{
	double d;
	if (v->kind == BV_INT) {
		sqlite3_bind_int64(st, p, v->i);
	} else if (v->kind == BV_TEXT) {
		sqlite3_bind_text(st, p, text + v->i, (int)v->len, SQLITE_STATIC);
	} else if (v->kind == BV_BLOB) {
		sqlite3_bind_blob(st, p, text + v->i, (int)v->len, SQLITE_STATIC);
	} else if (v->kind == BV_REAL) {
		memcpy(&d, &v->i, sizeof(d));
		sqlite3_bind_double(st, p, d);
	} else {
		sqlite3_bind_null(st, p);
	}
}

struct sqlq_shadow {
	int n;
	struct bval *v;		/* n: what each parameter has bound */
	char *text;		/* n * SQLQ_SHADOW_TEXT: short text bound, its copy */
};

struct sqlq_shadow *sqlq_shadow_new(int n)
{
	struct sqlq_shadow *sh = xcalloc(1, sizeof(*sh));
	sh->n = n;
	sh->v = xcalloc((size_t)n, sizeof(*sh->v));
	sh->text = xcalloc((size_t)n, SQLQ_SHADOW_TEXT);
	for (int p = 0; p < n; p++)
		sh->v[p].kind = BV_UNSET;
	return sh;
}

void sqlq_shadow_free(struct sqlq_shadow *sh)
{
	if (!sh)
		return;
	free(sh->v);
	free(sh->text);
	free(sh);
}

/* bind_shadowed: binds v to parameter p + 1 of st unless the shadow says
 * it is bound already; short text is bound from the shadow's copy. */
static void bind_shadowed(sqlite3_stmt *st, int p, const struct bval *v, const char *text,
			  struct sqlq_shadow *sh)
{
	struct bval *was = &sh->v[p];
	char *copy = sh->text + (size_t)p * SQLQ_SHADOW_TEXT;
	if (v->kind != BV_TEXT && v->kind != BV_BLOB) {
		/* a NULL's i is not set: only an integer's or a double's is compared */
		if (v->kind == was->kind && (v->kind == BV_NULL || v->i == was->i))
			return;
		*was = *v;
		bind_one(st, p + 1, v, text);
		return;
	}
	if (was->kind == v->kind && was->len == v->len && !memcmp(copy, text + v->i, v->len))
		return;
	if (v->len >= SQLQ_SHADOW_TEXT) {
		was->kind = BV_UNSET;
		bind_one(st, p + 1, v, text);
		return;
	}
	memcpy(copy, text + v->i, v->len);
	*was = *v;
	if (v->kind == BV_BLOB)
		sqlite3_bind_blob(st, p + 1, copy, (int)v->len, SQLITE_STATIC);
	else
		sqlite3_bind_text(st, p + 1, copy, (int)v->len, SQLITE_STATIC);
}

int sqlq_run(sqlite3_stmt *st, const struct bval *vals, int per_exec, int nexec,
	     const char *text, struct sqlq_shadow *shadow, char *err, size_t errlen)
{
	for (int k = 0; k < nexec; k++) {
		const struct bval *v = vals + (size_t)k * (size_t)per_exec;
		for (int p = 0; p < per_exec; p++) {
			if (shadow)
				bind_shadowed(st, p, &v[p], text, shadow);
			else
				bind_one(st, p + 1, &v[p], text);
		}
		if (db_step_done(st, err, errlen))
			return -1;
	}
	return 0;
}

/* take_jobs: every queued job, in order, or NULL when told to stop. Waking
 * the other thread only when it waits (the writer for work, the reader for
 * space) keeps the two from trading a wakeup per job. */
static struct job *take_jobs(struct sqlq *q)
{
	struct job *j;
	pthread_mutex_lock(&q->mu);
	q->busy = false;
	if (q->drainer_waits)
		pthread_cond_broadcast(&q->idle);
	while (!q->head && !q->stop) {
		q->writer_waits = true;
		pthread_cond_wait(&q->work, &q->mu);
		q->writer_waits = false;
	}
	j = q->head;
	q->head = q->tail = NULL;
	q->queued = 0;
	q->busy = j != NULL;
	if (q->reader_waits)
		pthread_cond_signal(&q->space);
	pthread_mutex_unlock(&q->mu);
	return j;
}

/* writer: the thread: runs jobs in order; after a failure it only frees. */
static void *writer(void *arg)
{
	struct sqlq *q = arg;
	struct job *j, *next;
	int failed = 0;
	while ((j = take_jobs(q))) {
		for (; j; j = next) {
			next = j->next;
			if (!failed && sqlq_run(j->st, j->vals, j->per_exec, j->nexec, j->text,
						j->shadow, q->err, sizeof(q->err))) {
				failed = 1;
				pthread_mutex_lock(&q->mu);
				q->failed = 1;
				pthread_mutex_unlock(&q->mu);
			}
			free(j->vals);
			free(j->text);
			free(j);
		}
	}
	return NULL;
}

struct sqlq *sqlq_new(void)
{
	struct sqlq *q = xcalloc(1, sizeof(*q));
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->work, NULL);
	pthread_cond_init(&q->space, NULL);
	pthread_cond_init(&q->idle, NULL);
	return q;
}

/* start: starts the thread on the first job. */
static int start(struct sqlq *q)
{
	if (q->started)
		return 0;
	if (pthread_create(&q->thread, NULL, writer, q))
		return -1;
	q->started = true;
	return 0;
}

int sqlq_submit(struct sqlq *q, sqlite3_stmt *st, struct bval *vals, int per_exec,
		int nexec, char *text, struct sqlq_shadow *shadow)
{
	struct job *j;
	int rc;
	if (!q) {
		char err[256];
		rc = sqlq_run(st, vals, per_exec, nexec, text, shadow, err, sizeof(err));
		free(vals);
		free(text);
		return rc;
	}
	if (start(q)) {
		free(vals);
		free(text);
		return -1;
	}
	j = xcalloc(1, sizeof(*j));
	*j = (struct job){ NULL, st, vals, shadow, per_exec, nexec, text };
	pthread_mutex_lock(&q->mu);
	while (q->queued >= MAX_QUEUED && !q->failed) {
		q->reader_waits = true;
		pthread_cond_wait(&q->space, &q->mu);
		q->reader_waits = false;
	}
	if (q->tail)
		q->tail->next = j;
	else
		q->head = j;
	q->tail = j;
	q->queued++;
	rc = q->failed ? -1 : 0;
	if (q->writer_waits)
		pthread_cond_signal(&q->work);
	pthread_mutex_unlock(&q->mu);
	return rc;
}

int sqlq_drain(struct sqlq *q, char *err, size_t errlen)
{
	int rc;
	if (!q)
		return 0;
	pthread_mutex_lock(&q->mu);
	while (q->started && (q->head || q->busy)) {
		q->drainer_waits = true;
		if (q->writer_waits)
			pthread_cond_signal(&q->work);
		pthread_cond_wait(&q->idle, &q->mu);
		q->drainer_waits = false;
	}
	rc = q->failed ? -1 : 0;
	pthread_mutex_unlock(&q->mu);
	if (rc && err && errlen)
		snprintf(err, errlen, "%s", q->err);
	return rc;
}

void sqlq_free(struct sqlq *q)
{
	if (!q)
		return;
	sqlq_drain(q, NULL, 0);
	if (q->started) {
		pthread_mutex_lock(&q->mu);
		q->stop = true;
		pthread_cond_signal(&q->work);
		pthread_mutex_unlock(&q->mu);
		pthread_join(q->thread, NULL);
	}
	pthread_cond_destroy(&q->work);
	pthread_cond_destroy(&q->space);
	pthread_cond_destroy(&q->idle);
	pthread_mutex_destroy(&q->mu);
	free(q);
}
