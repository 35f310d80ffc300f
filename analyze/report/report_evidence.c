/* The report's evidence: what the analyzers find in each side's sessions,
 * where both sides hold the events they need: context switches (sched),
 * flush IPIs (ipis), contended cachelines (hitm, watch), the call graph
 * (cgdiff, with its differential flame graph). Each table is the verb's
 * own, so its numbers are what the verb prints for the same sessions: a
 * side whose flush IPIs could not be seen (ipis' guard) has "not seen"
 * (null in json) where ipis has no figure. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/callgraph/calltree.h"
#include "analyze/callgraph/cgdiff.h"
#include "analyze/callgraph/cgdiff_findings.h"
#include "analyze/hitm/hitm_findings.h"
#include "analyze/timeline/ipis_findings.h"
#include "analyze/timeline/ipis.h"
#include "analyze/report/report_int.h"
#include "analyze/timeline/sched_findings.h"
#include "analyze/session_info.h"
#include "analyze/unseen.h"
#include "analyze/hitm/watch_load.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/db.h"

/* all_have(r, k, events): every session of side k has one of events. */
static bool all_have(const struct rep *r, int k, const char *const *events)
{
	for (int i = 0; i < r->side[k].nsessions; i++)
		if (!session_has_events(r->db, r->side[k].sessions[i], events))
			return false;
	return r->side[k].nsessions > 0;
}

/* both_have(r, events): both sides' sessions have them. */
static bool both_have(const struct rep *r, const char *const *events)
{
	return all_have(r, 0, events) && all_have(r, 1, events);
}

/* The events each section needs. */
static const char *const sched_need[] = { "sched:sched_switch", NULL };
static const char *const ipis_need[] = { "csd:csd_queue_cpu", "ipi:ipi_send_cpu", "ipi:ipi_send_cpumask",
	NULL };

/* A session's evidence of one kind: why it has none (NULL when it has
 * some), malloc'ed, to follow "session N ". */
typedef char *(*why_none)(sqlite3 *db, int64_t session, const void *arg);

/* lacking(r, section, why, arg): when one side's sessions all hold the
 * evidence of section and the other side's do not, a note (and findings
 * entry, evidence_left_out) that the section is left out and why: the
 * first session without it and its reason. */
static void lacking(struct rep *r, const char *section, why_none why, const void *arg)
{
	char *w[2] = { NULL, NULL };
	int64_t id[2] = { -1, -1 };
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < r->side[k].nsessions && !w[k]; i++)
			if ((w[k] = why(r->db, r->side[k].sessions[i], arg)))
				id[k] = r->side[k].sessions[i];
	for (int k = 0; k < 2; k++)
		if (w[k] && !w[1 - k] && r->side[1 - k].nsessions) {
			struct dval *e = unseen_note(r->d, "evidence_left_out", "no %s evidence: %s has it, "
				"but %s (%s) does not: session %lld %s", section, r->side[1 - k].name,
				r->side[k].name, r->side[k].label, (long long)id[k], w[k]);
			dv_str(e, "part", section);
			dv_str(e, "side", r->side[k].name);
			dv_int(e, "session", id[k]);
		}
	free(w[0]);
	free(w[1]);
}

/* by_events(db, session, arg): session_none_of the events of arg (a
 * struct need). */
struct need {
	const char *const *events;
	const char *advice;
};
static char *by_events(sqlite3 *db, int64_t session, const void *arg)
{
	const struct need *n = arg;
	return session_none_of(db, session, n->events, n->advice);
}

/* by_memory(db, session, arg): hitm_no_evidence with the advice arg. */
static char *by_memory(sqlite3 *db, int64_t session, const void *arg)
{
	return hitm_no_evidence(db, session, arg);
}

/* by_callchains(db, session, arg): why session has no samples of the
 * event arg (the one picked over both sides) with callchains
 * (cgdiff_event's reason), or NULL. */
static char *by_callchains(sqlite3 *db, int64_t session, const void *arg)
{
	struct cg_pick p = { NULL, &session, 1 };
	char event[256], err[512];
	const char *prefix = "session ";
	if (!cgdiff_event(db, &p, 1, arg, event, sizeof(event), err, sizeof(err)))
		return NULL;
	char *after = strstr(err, prefix) == err ? strchr(err + strlen(prefix), ' ') : NULL;
	return xstrdup(after ? after + 1 : err);
}

/* adopt(r, sub, name, as, section, side): a copy of sub's table name as
 * table as of the report, in section, its title prefixed by side (when not
 * NULL); NULL when sub has no such table. */
static struct table *adopt(struct rep *r, const struct doc *sub, const char *name, const char *as,
			   const char *section, const char *side)
{
	const struct table *t = doc_table(sub, name);
	if (!t)
		return NULL;
	struct table *c = table_clone(t, as);
	table_section(c, section);
	if (side) {
		char *title = xasprintf("%s: %s", side, table_title(t) ? table_title(t) : name);
		table_set_title(c, title);
		free(title);
	}
	return rep_table(r, c);
}

/* carry(r, sub, what): sub's warnings and notes into the report, named,
 * and its findings "unseen" entries. */
static void carry(struct rep *r, const struct doc *sub, const char *what)
{
	for (size_t i = 0; i < doc_nwarnings(sub); i++)
		doc_warn(r->d, "%s: %s", what, doc_warning_at(sub, i));
	for (size_t i = 0; i < doc_nnotes(sub); i++)
		doc_note(r->d, "%s: %s", what, doc_note_at(sub, i));
	unseen_carry(r->d, sub, what);
}

/* sched(r): the context-switch comparison of sched --base --new. */
static void sched(struct rep *r)
{
	const char *const *need = sched_need;
	struct sched_opts o = { .t0 = INT64_MIN, .t1 = INT64_MAX, .rows = 10 };
	struct sched_side b = { r->side[0].label, r->side[0].sessions, r->side[0].nsessions };
	struct sched_side n = { r->side[1].label, r->side[1].sessions, r->side[1].nsessions };
	struct doc *sub = doc_new("sched");
	char err[512];
	if (!both_have(r, need)) {
		doc_free(sub);
		return;
	}
	if (sched_compare_findings(r->db, &b, &n, &o, sub, err, sizeof(err)))
		doc_warn(r->d, "context switches: %s", err);
	else
		adopt(r, sub, "compare", "sched_compare", "Evidence: context switches", NULL);
	carry(r, sub, "context switches");
	doc_free(sub);
}

/* num_of(d, key): a scalar of a findings object, NaN when absent. */
static double num_of(const struct dval *f, const char *key)
{
	const struct dval *v = dv_get(f, key);
	return v && (dv_kind(v) == DV_INT || dv_kind(v) == DV_REAL) ? dv_real_of(v) : NAN;
}

/* ipi_cells(t, what, b, n, unseen): the cells of an IPI row; a side
 * whose flush IPIs were not seen (unseen[k]) and has no figure says
 * "not seen" (NULL: null, as for programs). */
static void ipi_cells(struct table *t, const char *what, double b, double n, const bool *unseen)
{
	table_set_str(t, 0, what);
	if (!isnan(b))
		table_set_real(t, 1, b);
	else if (unseen && unseen[0])
		table_set_str(t, 1, "not seen");
	if (!isnan(n))
		table_set_real(t, 2, n);
	else if (unseen && unseen[1])
		table_set_str(t, 2, "not seen");
	if (!isnan(b) && !isnan(n) && b != 0)
		table_set_real(t, 3, 100 * (n - b) / b);
}

/* ipi_row(t, what, b, n, unseen): one row of the IPI comparison; where a
 * side's flush IPIs were not seen (unseen[k], ipis_unseen.h) and its figure
 * is null, one row for programs (null) and one for people ("not seen"). */
static void ipi_row(struct table *t, const char *what, double b, double n, const bool *unseen)
{
	bool says = (unseen[0] && isnan(b)) || (unseen[1] && isnan(n));
	table_add_row(t);
	if (!says) {
		ipi_cells(t, what, b, n, NULL);
		return;
	}
	table_row_show(t, SHOW_DATA);
	ipi_cells(t, what, b, n, NULL);
	table_add_row(t);
	table_row_show(t, SHOW_HUMAN);
	ipi_cells(t, what, b, n, unseen);
}

/* count_of(f, key): a count of a findings object, -1 when null or absent. */
static long long count_of(const struct dval *f, const char *key)
{
	double v = num_of(f, key);
	return isnan(v) ? -1 : (long long)v;
}

/* unseen_flushes(f): when the ipis findings f say their flush IPIs could
 * not be seen (flush_ipis_visible false), the flushes of an mm another CPU
 * was running over those sessions; else 0. */
static long long unseen_flushes(const struct dval *f)
{
	const struct dval *v = dv_get(f, "flush_ipis_visible"), *c = dv_get(f, "flush_ipi_check");
	const struct dval *s = c ? dv_get(c, "sessions") : NULL;
	long long n = 0;
	if (!v || dv_kind(v) != DV_BOOL || dv_bool_of(v) || !s)
		return 0;
	for (size_t i = 0; i < dv_len(s); i++)
		n += count_of(dv_item(s, i), "flushes_remote_running");
	return n > 0 ? n : 1;
}

/* ipis(r): flush IPIs and wasted ones per second, each side's. */
static void ipis(struct rep *r)
{
	const char *const *need = ipis_need;
	struct ipis_opts o = { .window_ns = IPIS_WINDOW_NS, .rows = 10 };
	const struct dval *f[2];
	struct doc *sub[2] = { doc_new("ipis"), doc_new("ipis") };
	bool unseen[2];
	char err[512];
	if (!both_have(r, need))
		goto out;
	for (int k = 0; k < 2; k++) {
		if (ipis_findings(r->db, r->side[k].sessions, r->side[k].nsessions, &o, sub[k], err, sizeof(err))) {
			doc_warn(r->d, "flush IPIs: %s", err);
			goto out;
		}
		f[k] = doc_findings_c(sub[k]);
		r->ipis[k] = count_of(f[k], "ipis");
		r->unverified[k] = count_of(f[k], "unverified");
		r->unseen_flushes[k] = unseen_flushes(f[k]);
		unseen[k] = r->unseen_flushes[k] > 0;
		carry(r, sub[k], r->side[k].name);
	}
	struct table *t = table_new("ipis", "TLB-flush IPIs (perfdb ipis on each side)");
	table_col(t, "what", COL_STR, 0);
	table_col_digits(t, table_col(t, "base", COL_REAL, 1), 4);
	table_col_digits(t, table_col(t, "new", COL_REAL, 1), 4);
	table_col_label(t, 2, r->side[1].name);
	table_col_label(t, table_col(t, "change_pct", COL_PCT, 2), "%change");
	table_null_text(t, "-");
	table_section(t, "Evidence: TLB-flush IPIs");
	ipi_row(t, "flush attempts per second", num_of(f[0], "attempts_per_sec"), num_of(f[1], "attempts_per_sec"),
		unseen);
	ipi_row(t, "flush IPIs per second", num_of(f[0], "ipis_per_sec"), num_of(f[1], "ipis_per_sec"), unseen);
	ipi_row(t, "wasted IPIs per second (another mm when it arrived)", num_of(f[0], "wasted_per_sec"),
		num_of(f[1], "wasted_per_sec"), unseen);
	double w[2];
	for (int k = 0; k < 2; k++)
		w[k] = r->ipis[k] > 0 ? 100.0 * num_of(f[k], "wasted") / (double)r->ipis[k] : NAN;
	ipi_row(t, "wasted, % of the IPIs", w[0], w[1], unseen);
	for (int k = 0; k < 2; k++)
		w[k] = r->ipis[k] > 0 ? 100.0 * (double)r->unverified[k] / (double)r->ipis[k] : NAN;
	ipi_row(t, "unverified (no receiver recorded), % of the IPIs", w[0], w[1], unseen);
	ipi_row(t, "class agrees with the receiver, %", num_of(dv_get(f[0], "agreement"), "pct"),
		num_of(dv_get(f[1], "agreement"), "pct"), unseen);
	rep_table(r, t);
	adopt(r, sub[0], "processes", "ipis_base_processes", "Evidence: TLB-flush IPIs", "base");
	adopt(r, sub[1], "processes", "ipis_new_processes", "Evidence: TLB-flush IPIs", r->side[1].name);
out:
	doc_free(sub[0]);
	doc_free(sub[1]);
}

/* hitm(r): the contended cachelines of each side (hitm, or watch). */
static void hitm(struct rep *r)
{
	struct hitm_opts o = { .c2c = { .display = -1, .rows = 10, .dbpath = r->o->db_path },
			       .watch = { .min_transfers = WATCH_MIN_TRANSFERS, .site_rows = 3, .rows = 10 } };
	static const char *const names[2][2] = { { "hitm_base_lines", "hitm_base_fields" },
						 { "hitm_new_lines", "hitm_new_fields" } };
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < r->side[k].nsessions; i++)
			if (!hitm_evidence(r->db, r->side[k].sessions[i]))
				return;
	if (!r->side[0].nsessions || !r->side[1].nsessions)
		return;
	for (int k = 0; k < 2; k++) {
		struct doc *sub = doc_new("hitm");
		char err[512];
		if (hitm_findings(r->db, r->side[k].sessions, r->side[k].nsessions, &o, sub, err, sizeof(err)))
			doc_warn(r->d, "cachelines: %s", err);
		else {
			adopt(r, sub, "cachelines", names[k][0], "Evidence: contended cachelines", r->side[k].name);
			adopt(r, sub, "fields", names[k][1], "Evidence: contended cachelines", r->side[k].name);
		}
		carry(r, sub, r->side[k].name);
		doc_free(sub);
	}
}

/* workload_comm(r): the comm of the workload (its program's name, cut to
 * 15 bytes as the kernel keeps it), malloc'ed, or NULL. */
static char *workload_comm(const struct rep *r)
{
	const char *argv0 = NULL;
	char *cmd = NULL, *c;
	sqlite3_stmt *st = db_prepare(r->db, r->side[1].have_bench ?
		"SELECT j.value FROM json_each(?) j ORDER BY j.key LIMIT 1" :
		"SELECT workload FROM session WHERE id = ?");
	if (r->side[1].have_bench)
		sqlite3_bind_text(st, 1, r->side[1].b.argv_json, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 1, r->side[1].nsessions ? r->side[1].sessions[0] : -1);
	if (st && sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		cmd = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (!cmd)
		return NULL;
	cmd[strcspn(cmd, " ")] = 0;
	argv0 = (c = strrchr(cmd, '/')) ? c + 1 : cmd;
	c = xstrndup(argv0, 15);
	free(cmd);
	return c;
}

/* path_tail(d, node, k, elide, b): the last k frames of node's call path,
 * callers first ("... > a > b" when more frames lead there), into b; with
 * elide and k > 3 only the outermost of them and the last two ("a > ... >
 * y > z"). */
static void path_tail(const struct cgdiff *d, int32_t node, int k, bool elide, struct strbuf *b)
{
	const char *f[64];
	int n = 0;
	for (int32_t x = node; x > 0 && n < k && n < 64; x = d->t->nodes[x].parent)
		f[n++] = d->t->frames[d->t->nodes[x].frame];
	sb_reset(b);
	if (n == k && d->t->nodes[node].depth >= k)
		sb_puts(b, "... > ");
	for (int i = n - 1; i >= 0; i--) {
		if (elide && n > 3 && i < n - 1 && i > 1) {
			if (i == n - 2)
				sb_puts(b, "... > ");
			continue;
		}
		sb_printf(b, "%s%s", f[i], i ? " > " : "");
	}
}

/* unique_tail(d, i, b): the shortest tail (2 frames or more) of marked row
 * i's path that no other marked row shares, into b, its middle elided (so
 * that two changed nodes ending in the same frames are told apart by the
 * frame where their paths part). */
static void unique_tail(const struct cgdiff *d, size_t i, struct strbuf *b)
{
	struct strbuf o = STRBUF_INIT;
	int depth = d->t->nodes[d->rows[i].node].depth + 1;
	for (int k = 2;; k++) {
		bool clash = false;
		path_tail(d, d->rows[i].node, k, false, b);
		for (size_t j = 0; j < d->nrows && !clash && k < depth; j++) {
			if (j == i || !d->rows[j].mark)
				continue;
			path_tail(d, d->rows[j].node, k, false, &o);
			clash = !strcmp(sb_str(&o), sb_str(b));
		}
		if (!clash || k >= depth || k >= 64) {
			path_tail(d, d->rows[i].node, k, true, b);
			break;
		}
	}
	sb_free(&o);
}

/* cg_summary(r, d): the => rows of the call-graph diff as summary lines. */
static void cg_summary(struct rep *r, const struct cgdiff *d)
{
	struct strbuf path = STRBUF_INIT;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct cg_row *w = &d->rows[i];
		if (!w->mark)
			continue;
		unique_tail(d, i, &path);
		rep_summary(r, w->delta_pct, "call graph (%s): %s %+.2f points of the samples (%.2f%% -> "
			    "%.2f%%, interval %+.2f..%+.2f)", d->event, sb_str(&path), w->delta_pct, w->base_pct,
			    w->new_pct, w->ci.lo, w->ci.hi);
	}
	sb_free(&path);
}

/* seconds_of(r, k): the summed length of side k's sessions, seconds. */
static double seconds_of(const struct rep *r, int k)
{
	double s = 0;
	for (int i = 0; i < r->side[k].nsessions; i++)
		s += cg_seconds(r->db, r->side[k].sessions[i]);
	return s;
}

/* op_metric(r, name, len, rate): the metric whose operations both sides'
 * sessions counted (cg_metric: --metric's first when it is one, a count,
 * else a rate in .../s). 0 with its name in name, or -1. */
static int op_metric(const struct rep *r, char *name, size_t len, bool *rate)
{
	int n = r->side[0].nsessions + r->side[1].nsessions, rc;
	int64_t *ids = xcalloc((size_t)n + 1, sizeof(*ids));
	memcpy(ids, r->side[0].sessions, (size_t)r->side[0].nsessions * sizeof(*ids));
	memcpy(ids + r->side[0].nsessions, r->side[1].sessions, (size_t)r->side[1].nsessions * sizeof(*ids));
	rc = cg_metric(r->db, ids, n, r->o->nmetrics ? r->o->metrics[0] : NULL, name, len, rate);
	free(ids);
	return rc;
}

/* ops_of(r, k, metric, rate): side k's operations by metric, summed over
 * its sessions (cg_metric_ops). */
static double ops_of(const struct rep *r, int k, const char *metric, bool rate)
{
	double ops = 0;
	for (int i = 0; i < r->side[k].nsessions; i++)
		ops += cg_metric_ops(r->db, r->side[k].sessions[i], metric, rate);
	return ops;
}

/* cost_cols(t, per_op, new): the cost table's columns (new: the new
 * side's name). */
static void cost_cols(struct table *t, bool per_op, const char *new)
{
	char *ps = xasprintf("%s/s", new), *po = xasprintf("%s/op", new);
	table_col(t, "depth", COL_INT, 0);
	table_col_show(t, 0, SHOW_DATA);
	table_col_label(t, table_col(t, "base_per_sec", COL_REAL, 1), "base/s");
	table_col_label(t, table_col(t, "new_per_sec", COL_REAL, 1), ps);
	table_col_label(t, table_col(t, "base_per_op", COL_REAL, 1), "base/op");
	table_col_label(t, table_col(t, "new_per_op", COL_REAL, 1), po);
	free(ps);
	free(po);
	for (int c = 1; c <= 4; c++)
		table_col_digits(t, c, 4);
	table_col_show(t, per_op ? 1 : 3, SHOW_DATA);
	table_col_show(t, per_op ? 2 : 4, SHOW_DATA);
	table_col_label(t, table_col(t, "change_pct", COL_PCT, 1), "%change");
	table_col_label(t, table_col(t, "symbol", COL_STR, 0), "call path (callers first)");
	table_col_indent(t, 6, 0);
	table_null_text(t, "-");
	table_section(t, "Evidence: call graph");
}

/* cost_table(r, d): the absolute cost of each row of the diff, for a
 * patch that removes work changes no share: samples through the node per
 * operation when both sides' recordings printed a metric that counts
 * operations (a count, or a rate times the recording's length: cg_metric,
 * as cgdiff --per op), else per second of recording. */
static void cost_table(struct rep *r, const struct cgdiff *d)
{
	double secs[2] = { seconds_of(r, 0), seconds_of(r, 1) }, ops[2] = { 0, 0 };
	char metric[128];
	bool rate = false, per_op = !op_metric(r, metric, sizeof(metric), &rate);
	if (per_op)
		ops[0] = ops_of(r, 0, metric, rate), ops[1] = ops_of(r, 1, metric, rate);
	per_op = per_op && ops[0] > 0 && ops[1] > 0;
	struct table *t = table_new("cgdiff_cost", per_op ? "Call graph in absolute terms: samples per operation"
						  : "Call graph in absolute terms: samples per second of recording");
	cost_cols(t, per_op, r->side[1].name);
	if (per_op)
		table_caption(t, "each side's samples through the node over its operations: %s%s, %.4g and %.4g "
			      "(intervals: perfdb cgdiff --per op)", metric,
			      rate ? " times each recording's length" : " (a count)", ops[0], ops[1]);
	else
		table_caption(t, "each side's samples through the node over its sessions' %.2f s and %.2f s "
			      "(intervals: perfdb cgdiff --per second)", secs[0], secs[1]);
	for (size_t i = 0; secs[0] > 0 && secs[1] > 0 && i < d->nrows; i++) {
		const struct cg_row *w = &d->rows[i];
		double bs = (double)w->base_samples, ns = (double)w->new_samples;
		double b = per_op ? bs / ops[0] : bs / secs[0], n = per_op ? ns / ops[1] : ns / secs[1];
		table_add_row(t);
		table_set_int(t, 0, w->depth);
		table_set_real(t, 1, bs / secs[0]);
		table_set_real(t, 2, ns / secs[1]);
		if (per_op) {
			table_set_real(t, 3, bs / ops[0]);
			table_set_real(t, 4, ns / ops[1]);
		}
		if (b > 0)
			table_set_real(t, 5, 100 * (n - b) / b);
		table_set_str(t, 6, cgdiff_row_name(d, w));
	}
	rep_table(r, t);
}

/* callgraph(r): the call-graph diff of the workload's comm. */
static void callgraph(struct rep *r)
{
	struct cg_opts o = { .filter = { .pid = -1, .tid = -1 }, .mode = CG_TREE, .limit = 1, .conf = 0.95 };
	struct cg_pick b = { r->side[0].label, r->side[0].sessions, r->side[0].nsessions };
	struct cg_pick n = { r->side[1].label, r->side[1].sessions, r->side[1].nsessions };
	struct cg_pick both[2] = { b, n };
	struct cgdiff *d = NULL;
	char event[256], err[512], *comm = r->o->comm ? xstrdup(r->o->comm) : workload_comm(r);
	struct doc *sub = doc_new("cgdiff");
	if (!b.n || !n.n || cgdiff_event(r->db, both, 2, NULL, event, sizeof(event), err, sizeof(err)))
		goto out;
	o.filter.event = event;
	o.filter.comm = comm;
	if (cgdiff_run(r->db, &b, &n, &o, &d, err, sizeof(err))) {
		doc_note(r->d, "no call-graph evidence: %s%s", err, r->o->comm ? "" : " (give --comm C)");
		goto out;
	}
	cgdiff_findings(d, sub);
	carry(r, sub, "call graph");
	struct table *t = adopt(r, sub, "nodes", "cgdiff_nodes", "Evidence: call graph", NULL);
	if (t)
		table_set_title(t, "Call graph, callers first: shares of each side's samples");
	struct table *f = cgdiff_flame(d);
	table_style(f, TABLE_FLAME);
	table_section(f, "Evidence: call graph");
	rep_table(r, table_clone(f, "cgdiff_flame"));
	table_free(f);
	cost_table(r, d);
	if (d->totals_differ)
		doc_note(r->d, "call graph: the sides' totals differ (%.*f -> %.*f %s of %s per run, 95%% interval of "
			 "the change %+.*f..%+.*f): shares do not show that; the absolute cost table does",
			 d->unit.decimals, d->total[0], d->unit.decimals, d->total[1], d->unit.name, d->event,
			 d->unit.decimals, d->total_ci.lo, d->unit.decimals, d->total_ci.hi);
	cg_summary(r, d);
	if (r->lkp_shown || r->lkp_later)
		rep_lkp_profile_add(r, d);
out:
	cgdiff_free(d);
	doc_free(sub);
	free(comm);
}

/* lacking_callchains(r): lacking() for the call graph, of the event
 * picked over both sides' sessions. */
static void lacking_callchains(struct rep *r)
{
	int n = r->side[0].nsessions + r->side[1].nsessions;
	int64_t *all = xcalloc((size_t)n + 1, sizeof(*all));
	char event[256];
	for (int k = 0, j = 0; k < 2; k++)
		for (int i = 0; i < r->side[k].nsessions; i++)
			all[j++] = r->side[k].sessions[i];
	if (!ct_pick_event(r->db, all, n, event, sizeof(event)))
		lacking(r, "call-graph", by_callchains, event);
	free(all);
}

/* report_evidence: see report_int.h. */
void report_evidence(struct rep *r)
{
	struct need sn = { sched_need, "record them with perfdb record -r sched" };
	struct need in = { ipis_need, "record them with perfdb record -r tlb" };
	sched(r);
	lacking(r, "context-switch", by_events, &sn);
	ipis(r);
	lacking(r, "TLB-flush IPI", by_events, &in);
	hitm(r);
	lacking(r, "cacheline", by_memory, "record them with perfdb record -r c2c, or -r watch on "
		"machines without PEBS, IBS or SPE");
	callgraph(r);
	lacking_callchains(r);
}
