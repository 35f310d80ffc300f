/* `perfdb sched --latency`'s tables: see sched_lat_findings.h. */
#include <stdlib.h>
#include <string.h>
#include "analyze/timeline/sched_lat_findings.h"
#include "analyze/timeline/sched_latency.h"
#include "lib/alloc.h"

/* One row: a task's or a process's latencies. */
struct lat_row {
	int64_t session, pid;
	const char *comm;	/* points into a session's identity */
	long long threads;
	struct lat_task l;
};

/* cmp_max: largest max first, then most waits, then tid. */
static int cmp_max(const void *x, const void *y)
{
	const struct lat_row *a = x, *b = y;
	if (a->l.max_ns != b->l.max_ns)
		return a->l.max_ns < b->l.max_ns ? 1 : -1;
	if (a->l.count != b->l.count)
		return a->l.count < b->l.count ? 1 : -1;
	return (a->l.tid > b->l.tid) - (a->l.tid < b->l.tid);
}

/* Rows of both tables. */
struct rows {
	struct lat_row *task, *proc;
	size_t ntask, nproc, tcap, pcap;
};

/* add_session(r, ls): one session's tasks and processes. */
static void add_session(struct rows *r, const struct lat_session *ls)
{
	const struct tl_session *s = ls->s;
	const struct lat_task *v = ls->v;
	size_t n = ls->n, first = r->nproc;
	for (size_t i = 0; i < n; i++) {
		long p = ident_proc_of(&s->ident, v[i].tid, v[i].max_end);
		const struct ident_proc *ip = p >= 0 ? &s->ident.procs[p] : NULL;
		struct lat_row row = { .session = s->id, .pid = ip ? ip->pid : -1,
			.comm = ip && ip->comm && *ip->comm ? ip->comm : "?", .threads = 1, .l = v[i] };
		size_t j = first;
		ALLOC_GROW(r->task, r->ntask + 1, r->tcap);
		r->task[r->ntask++] = row;
		while (j < r->nproc && r->proc[j].pid != row.pid)
			j++;
		if (j == r->nproc) {
			ALLOC_GROW(r->proc, r->nproc + 1, r->pcap);
			r->proc[r->nproc++] = row;
			continue;
		}
		lat_merge(&r->proc[j].l, &v[i]);
		if (r->proc[j].l.max_end == v[i].max_end && r->proc[j].l.max_ns == v[i].max_ns)
			r->proc[j].l.tid = v[i].tid;
		r->proc[j].threads++;
	}
}

/* table_of(name, title, v, n, rows, multi, proc): one of the tables. */
static struct table *table_of(const char *name, const char *title, struct lat_row *v, size_t n,
			      long long rows, bool multi, bool proc)
{
	struct table *t = table_new(name, title);
	int c0 = multi ? table_col(t, "session", COL_INT, 0) : -1, c;
	if (!proc)
		table_col(t, "tid", COL_INT, 0);
	c = table_col(t, "pid", COL_INT, 0);
	table_col(t, "comm", COL_STR, 0);
	if (proc)
		table_col(t, "threads", COL_INT, 0);
	int w = table_col(t, "waits", COL_INT, 0);
	table_col(t, "mean_ms", COL_REAL, 3);
	table_col(t, "max_ms", COL_REAL, 3);
	table_col(t, "max_start_s", COL_REAL, 6);
	table_col(t, proc ? "max_tid" : "max_end_s", proc ? COL_INT : COL_REAL, 6);
	table_null_text(t, "-");
	if (n)
		qsort(v, n, sizeof(*v), cmp_max);
	for (size_t i = 0; i < n && (!rows || (long long)i < rows); i++) {
		const struct lat_row *r = &v[i];
		table_add_row(t);
		if (c0 >= 0)
			table_set_int(t, c0, r->session);
		if (!proc)
			table_set_int(t, c - 1, r->l.tid);
		if (r->pid >= 0)
			table_set_int(t, c, r->pid);
		table_set_str(t, c + 1, r->comm);
		if (proc)
			table_set_int(t, c + 2, r->threads);
		table_set_int(t, w, r->l.count);
		table_set_real(t, w + 1, (double)r->l.total_ns / (double)r->l.count / 1e6);
		table_set_real(t, w + 2, (double)r->l.max_ns / 1e6);
		table_set_real(t, w + 3, (double)r->l.max_start / 1e9);
		if (proc)
			table_set_int(t, w + 4, r->l.tid);
		else
			table_set_real(t, w + 4, (double)r->l.max_end / 1e9);
	}
	return t;
}

/* sched_latency_tables: see sched_lat_findings.h. */
void sched_latency_tables(struct dval *f, const struct lat_session *ls, int n, long long rows)
{
	struct rows r = { 0 };
	for (int i = 0; i < n; i++)
		add_session(&r, &ls[i]);
	dv_table(f, table_of("latency", "Wakeup latency per task: runnable (woken, or switched away "
			     "still runnable) to switch-in, as perf sched latency -p", r.task, r.ntask,
			     rows, n > 1, false));
	dv_table(f, table_of("latency_processes", "Wakeup latency per process: its threads' waits",
			     r.proc, r.nproc, rows, n > 1, true));
	free(r.task);
	free(r.proc);
}
