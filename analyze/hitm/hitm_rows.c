/* Offsets table rows added up sample by sample (see hitm_rows.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/hitm/hitm_rows.h"
#include "lib/alloc.h"
#include "lib/hashmap.h"

#define ROW_PIDS 5	/* distinct pids the text needs: 4, and whether a 5th comes */
#define ROW_TIDS 256	/* distinct threads counted at most */

/* A row while samples are added. */
struct row {
	struct hitm_offset o;
	int32_t line;
	int32_t pids[ROW_PIDS];	/* its first distinct pids */
	int npids;
};

struct hitm_rows {
	struct row *v;
	size_t n, cap;
	struct hashmap keys;	/* (line, offset << 32 | site) -> row */
	struct hashmap cpus;	/* (row, cpu) -> 1: the CPUs of each row */
	struct hashmap tids;	/* (row, tid) -> 1: its threads, ROW_TIDS at most */
};

/* hitm_rows_new: see hitm_rows.h. */
struct hitm_rows *hitm_rows_new(void)
{
	struct hitm_rows *rs = xcalloc(1, sizeof(*rs));
	hm_init(&rs->keys);
	hm_init(&rs->cpus);
	hm_init(&rs->tids);
	return rs;
}

/* row_of(rs, s, field): the row of sample s, created (with the field of
 * its first sample) when new. */
static struct row *row_of(struct hitm_rows *rs, const struct c2c_sample *s, int32_t field)
{
	unsigned off = c2c_cl_offset(s->addr);
	uint64_t k2 = (uint64_t)off << 32 | (uint32_t)s->site, v;
	if (hm_get(&rs->keys, (uint32_t)s->line, k2, &v))
		return &rs->v[v];
	ALLOC_GROW(rs->v, rs->n + 1, rs->cap);
	rs->v[rs->n] = (struct row){ .o = { .offset = off, .site = s->site, .field = field },
		.line = s->line };
	hm_put(&rs->keys, (uint32_t)s->line, k2, rs->n);
	return &rs->v[rs->n++];
}

/* add_pid(w, pid): notes pid in w's pid text (4 at most, then "+"). */
static void add_pid(struct row *w, int32_t pid)
{
	if (w->npids == ROW_PIDS)
		return;
	for (int i = 0; i < w->npids; i++)
		if (w->pids[i] == pid)
			return;
	size_t at = strlen(w->o.pids);
	if (w->npids < ROW_PIDS - 1)
		snprintf(w->o.pids + at, sizeof(w->o.pids) - at, "%s%d", at ? "," : "", pid);
	else
		snprintf(w->o.pids + at, sizeof(w->o.pids) - at, "+");
	w->pids[w->npids++] = pid;
}

/* first_time(m, a, b): whether (a, b) is new in set m, adding it. */
static bool first_time(struct hashmap *m, uint64_t a, uint64_t b)
{
	uint64_t v;
	if (hm_get(m, a, b, &v))
		return false;
	hm_put(m, a, b, 1);
	return true;
}

/* hitm_rows_add: see hitm_rows.h. */
void hitm_rows_add(struct hitm_rows *rs, const struct c2c_sample *s, int32_t field)
{
	struct row *w = row_of(rs, s, field);
	size_t ix = (size_t)(w - rs->v);
	hitm_count_sample(&w->o.c, s);
	w->o.st_l1hit += !!(s->stc & C2C_ST_L1HIT);
	w->o.st_l1miss += !!(s->stc & C2C_ST_L1MISS);
	w->o.st_na += !!(s->stc & C2C_ST_NA);
	if (s->cpu >= 0 && first_time(&rs->cpus, ix, (uint32_t)s->cpu))
		w->o.ncpus++;
	if (s->node >= 0 && s->node < 64)
		w->o.nodes |= 1ULL << s->node;
	add_pid(w, s->pid);
	if (w->o.ntids < ROW_TIDS && first_time(&rs->tids, ix, (uint32_t)s->tid))
		w->o.ntids++;
}

/* cmp_rows: rows by line, offset in the line, then code site. */
static int cmp_rows(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->o.offset != y->o.offset)
		return x->o.offset < y->o.offset ? -1 : 1;
	return (x->o.site > y->o.site) - (x->o.site < y->o.site);
}

/* hitm_rows_finish: see hitm_rows.h. */
void hitm_rows_finish(struct hitm_rows *rs, const size_t *field_to, struct hitm_result *r)
{
	if (rs->n)
		qsort(rs->v, rs->n, sizeof(*rs->v), cmp_rows);
	r->rows = xcalloc(rs->n + 1, sizeof(*r->rows));
	r->nrows = rs->n;
	for (size_t i = 0; i < rs->n; i++) {
		struct hitm_line *hl = &r->lines[rs->v[i].line];
		r->rows[i] = rs->v[i].o;
		if (r->rows[i].field >= 0)
			r->rows[i].field = (int32_t)field_to[r->rows[i].field];
		if (!hl->nrows)
			hl->first_row = i;
		hl->nrows++;
	}
	hitm_rows_free(rs);
}

/* hitm_rows_free: see hitm_rows.h. */
void hitm_rows_free(struct hitm_rows *rs)
{
	if (!rs)
		return;
	hm_free(&rs->keys);
	hm_free(&rs->cpus);
	hm_free(&rs->tids);
	free(rs->v);
	free(rs);
}
