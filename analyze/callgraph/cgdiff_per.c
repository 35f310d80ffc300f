/* The call-graph diff in absolute terms (see cgdiff.h, cgdiff_int.h):
 * what each run's weight is divided by (1, the recording's seconds, the
 * operations of a workload metric), the values and their intervals (t
 * over the runs, or counting), the unit they print in, and the test of
 * the sides' totals that tells when shares hide a change of the whole. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "analyze/callgraph/cgdiff_int.h"
#include "lib/alloc.h"
#include "schema/db.h"

/* cg_seconds: see cgdiff.h. */
double cg_seconds(sqlite3 *db, int64_t session)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT coalesce(duration_ns, 0) FROM session WHERE id = ?");
	double s = 0;
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		if (sqlite3_step(st) == SQLITE_ROW)
			s = (double)sqlite3_column_int64(st, 0) / 1e9;
	}
	sqlite3_finalize(st);
	return s > 0 ? s : 0;
}

/* Units that measure no operations: time, size, ratios, frequency. */
static const char *const not_counts[] = { "s", "ms", "us", "ns", "%", "b", "kb", "mb", "gb", "kib", "mib",
	"gib", "bytes", "hz", "khz", "mhz", "ghz", NULL };

/* count_unit(u): whether unit u counts things (see cg_metric). */
static bool count_unit(const char *u)
{
	if (!u || !*u || strchr(u, '/') || strchr(u, '%'))
		return false;
	for (int i = 0; not_counts[i]; i++)
		if (!strcasecmp(u, not_counts[i]))
			return false;
	return strcmp(u, "\xc2\xb5s") != 0;
}

/* rate_unit(u): whether unit u is a rate per second ("ops/s"). */
static bool rate_unit(const char *u)
{
	size_t n = u ? strlen(u) : 0;
	return n > 2 && !strcmp(u + n - 2, "/s");
}

/* metric_kind(db, session, name): 1 when session printed metric name as a
 * count with a value > 0, 2 as a rate, 0 when not (or not usably). */
static int metric_kind(sqlite3 *db, int64_t session, const char *name)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT unit FROM workload_metric WHERE session_id = ? AND "
				      "name = ? AND value > 0 ORDER BY watched LIMIT 1");
	int kind = 0;
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW) {
			const char *u = (const char *)sqlite3_column_text(st, 0);
			kind = count_unit(u) ? 1 : rate_unit(u) ? 2 : 0;
		}
	}
	sqlite3_finalize(st);
	return kind;
}

/* common_kind(db, ids, n, name): the kind metric_kind gives name in every
 * session of ids, or 0 when they do not all agree. */
static int common_kind(sqlite3 *db, const int64_t *ids, int n, const char *name)
{
	int kind = n > 0 ? metric_kind(db, ids[0], name) : 0;
	for (int i = 1; i < n && kind; i++)
		if (metric_kind(db, ids[i], name) != kind)
			kind = 0;
	return kind;
}

/* cg_metric: see cgdiff.h. */
int cg_metric(sqlite3 *db, const int64_t *ids, int n, const char *preferred, char *name, size_t len,
	      bool *rate)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT DISTINCT name FROM workload_metric WHERE session_id = ? "
				      "ORDER BY name");
	int best = 0, kind;
	if (preferred && (kind = common_kind(db, ids, n, preferred)) &&
	    (size_t)snprintf(name, len, "%s", preferred) < len) {
		*rate = kind == 2;
		sqlite3_finalize(st);
		return 0;
	}
	sqlite3_bind_int64(st, 1, n > 0 ? ids[0] : -1);
	while (st && best != 1 && sqlite3_step(st) == SQLITE_ROW) {
		const char *m = (const char *)sqlite3_column_text(st, 0);
		kind = common_kind(db, ids, n, m);
		if (kind && (!best || kind < best) && (size_t)snprintf(name, len, "%s", m) < len)
			best = kind;
	}
	sqlite3_finalize(st);
	*rate = best == 2;
	return best ? 0 : -1;
}

/* cg_metric_ops: see cgdiff.h. */
double cg_metric_ops(sqlite3 *db, int64_t session, const char *metric, bool rate)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT value FROM workload_metric WHERE session_id = ? AND "
				      "name = ? AND value > 0 ORDER BY watched LIMIT 1");
	double v = 0;
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_text(st, 2, metric, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_double(st, 0);
	}
	sqlite3_finalize(st);
	return rate ? v * cg_seconds(db, session) : v;
}

/* side_ids(d, ids): every session of d's sides, in run order; their count. */
static int side_ids(const struct cgdiff *d, int64_t *ids)
{
	int n = 0;
	for (int s = 0; s < d->nsides; s++)
		for (int i = 0; i < d->side[s].nsessions; i++)
			ids[n++] = d->side[s].sessions[i];
	return n;
}

/* denominators(d, db, err, errlen): every run's denominator; 1 with err
 * naming a session without one. */
static int denominators(struct cgdiff *d, sqlite3 *db, char *err, size_t errlen)
{
	int64_t *ids = xcalloc((size_t)d->t->nruns + 1, sizeof(*ids));
	int n = side_ids(d, ids), rc = 0;
	if (d->o.per == CG_PER_OP && (cg_metric(db, ids, n, d->o.metric, d->metric, sizeof(d->metric),
						&d->metric_rate) || (d->o.metric && strcmp(d->metric, d->o.metric)))) {
		snprintf(err, errlen, "--per op: %s%s%sno metric that counts operations (a count, or a rate "
			 "in .../s) in every session's metric= lines", d->o.metric ? "metric " : "",
			 d->o.metric ? d->o.metric : "", d->o.metric ? " is not usable: " : "");
		rc = 1;
	}
	for (int r = 0; r < n && !rc; r++) {
		const char *what = d->o.per == CG_PER_SECOND ? "no recording length" : "no operations";
		d->denom[r] = d->o.per == CG_PER_SECOND ? cg_seconds(db, ids[r]) :
			      d->o.per == CG_PER_OP ? cg_metric_ops(db, ids[r], d->metric, d->metric_rate) : 1;
		if (!(d->denom[r] > 0)) {
			snprintf(err, errlen, "--per %s: session %lld has %s", cgdiff_per_name(d->o.per),
				 (long long)ids[r], what);
			rc = 1;
		}
	}
	free(ids);
	return rc;
}

/* time_event(d): whether d's weights are nanoseconds (the periods of the
 * software clock events). */
static bool time_event(const struct cgdiff *d)
{
	for (int r = 0; r < d->t->nruns; r++)
		if (d->t->runs[r].by_count)
			return false;
	return !strcmp(d->event, "cpu-clock") || !strcmp(d->event, "task-clock");
}

/* pick_unit(d, m): d->unit for values whose largest is m (raw weight per
 * denominator): time in the unit that makes m at least 10, 2 decimals;
 * counts with about 4 significant digits in m, 2 decimals at least. */
static void pick_unit(struct cgdiff *d, double m)
{
	static const struct { double ns; const char *name; } tu[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" } };
	struct cg_unit *u = &d->unit;
	if (time_event(d)) {
		size_t i = 0;
		while (i + 1 < sizeof(tu) / sizeof(*tu) && m < 10 * tu[i].ns)
			i++;
		u->scale = 1 / tu[i].ns;
		snprintf(u->name, sizeof(u->name), "%s", tu[i].name);
		u->decimals = 2;
		return;
	}
	u->scale = 1;
	snprintf(u->name, sizeof(u->name), "%s", d->t->nruns && d->t->runs[0].by_count ? "samples" : "events");
	u->decimals = m > 0 ? 3 - (int)floor(log10(m)) : 2;
	u->decimals = u->decimals < 2 ? 2 : u->decimals > 9 ? 9 : u->decimals;
}

/* side_raw(d, s, k, i, denom): side s's raw value of i: pooled, or at run
 * level the mean of its runs' ratios. */
static double side_raw(const struct cgdiff *d, int s, enum cg_kind k, int32_t i, const double *denom)
{
	const struct cg_side *sd = &d->side[s];
	double w = 0, den = 0, mean = 0;
	for (int r = sd->first_run; r < sd->first_run + sd->nsessions; r++) {
		double v = cg_value(&d->t->runs[r], k, i);
		w += v;
		den += denom[r];
		mean += v / denom[r] / sd->nsessions;
	}
	return d->run_level ? mean : den > 0 ? w / den : 0;
}

/* cgdiff_per_setup: see cgdiff_int.h. */
int cgdiff_per_setup(struct cgdiff *d, sqlite3 *db, char *err, size_t errlen)
{
	double m = 0;
	d->denom = xcalloc((size_t)d->t->nruns + 1, sizeof(*d->denom));
	if (denominators(d, db, err, errlen))
		return 1;
	for (int s = 0; s < d->nsides; s++)
		m = fmax(m, side_raw(d, s, V_INCL, 0, d->denom));
	pick_unit(d, m);
	return 0;
}

/* cgdiff_per_fill: see cgdiff_int.h. */
void cgdiff_per_fill(const struct cgdiff *d, struct cg_row *r, enum cg_kind k, int32_t i)
{
	r->base_abs = d->unit.scale * side_raw(d, 0, k, i, d->denom);
	if (d->nsides < 2)
		return;
	r->new_abs = d->unit.scale * side_raw(d, 1, k, i, d->denom);
	r->delta_abs = r->new_abs - r->base_abs;
}

/* run_summary(d, s, k, i, denom): the summary of side s's run ratios of
 * i, its variance at least the mean counting variance of one ratio. */
static struct summary run_summary(const struct cgdiff *d, int s, enum cg_kind k, int32_t i,
				  const double *denom)
{
	const struct cg_side *sd = &d->side[s];
	double *v = xcalloc((size_t)sd->nsessions, sizeof(*v)), floor_var = 0;
	struct summary sum;
	for (int j = 0; j < sd->nsessions; j++) {
		int r = sd->first_run + j;
		v[j] = cg_value(&d->t->runs[r], k, i) / denom[r];
		floor_var += cg_value_sq(&d->t->runs[r], k, i) / (denom[r] * denom[r]) / sd->nsessions;
	}
	sum = stats_summary(v, (size_t)sd->nsessions);
	if (!(sum.var >= floor_var))
		sum.var = floor_var;
	free(v);
	return sum;
}

/* counting_var(d, s, k, i, denom): the counting variance of side s's
 * pooled value of i: sum w^2 over the square of its denominators' sum. */
static double counting_var(const struct cgdiff *d, int s, enum cg_kind k, int32_t i, const double *denom)
{
	const struct cg_side *sd = &d->side[s];
	double q = 0, den = 0;
	for (int r = sd->first_run; r < sd->first_run + sd->nsessions; r++) {
		q += cg_value_sq(&d->t->runs[r], k, i);
		den += denom[r];
	}
	return den > 0 ? q / (den * den) : 0;
}

/* ci_with(d, k, i, conf, denom): the interval of new - base of i's raw
 * value over denom, scaled to d->unit. */
static struct interval ci_with(const struct cgdiff *d, enum cg_kind k, int32_t i, double conf,
			       const double *denom)
{
	struct interval ci;
	if (d->run_level) {
		ci = stats_t_diff(run_summary(d, 0, k, i, denom), run_summary(d, 1, k, i, denom),
				  d->side[0].nsessions == d->side[1].nsessions, conf);
	} else {
		double delta = side_raw(d, 1, k, i, denom) - side_raw(d, 0, k, i, denom);
		double se = sqrt(counting_var(d, 0, k, i, denom) + counting_var(d, 1, k, i, denom));
		double z = stats_norm_quantile(1 - (1 - conf) / 2);
		ci = (struct interval){ delta - z * se, delta + z * se };
	}
	ci.lo *= d->unit.scale;
	ci.hi *= d->unit.scale;
	return ci;
}

/* cgdiff_per_ci: see cgdiff_int.h. */
struct interval cgdiff_per_ci(const struct cgdiff *d, enum cg_kind k, int32_t i, double conf)
{
	return ci_with(d, k, i, conf, d->denom);
}

/* cgdiff_totals: see cgdiff_int.h. */
void cgdiff_totals(struct cgdiff *d)
{
	double *ones = xcalloc((size_t)d->t->nruns + 1, sizeof(*ones));
	for (int r = 0; r < d->t->nruns; r++)
		ones[r] = 1;
	for (int s = 0; s < d->nsides; s++)
		d->total[s] = d->unit.scale * side_raw(d, s, V_INCL, 0, ones);
	if (d->nsides > 1) {
		d->total_ci = ci_with(d, V_INCL, 0, d->o.conf, ones);
		d->totals_differ = cg_row_neff(d, V_INCL, 0) >= CG_MIN_ROW_SAMPLES &&
				   stats_excludes(d->total_ci, 0);
	}
	free(ones);
}

/* cgdiff_per_name: see cgdiff.h. */
const char *cgdiff_per_name(enum cg_per per)
{
	static const char *const names[] = { "share", "run", "second", "op" };
	return names[per];
}
