/* perfdb watch: what hardware write-watchpoints saw (perfdb record -r
 * watch, or any recording of mem:ADDR/LEN:w events).
 *   perfdb watch [DB] [-s SESSION] [--min-transfers N] [-n SITES]
 *                [--format text|md|csv|json]
 * Per watched field: writes, writes per second, writer CPUs and ownership
 * transfers; writes per CPU; the store sites (function+offset of ip - 1);
 * per cacheline the sharing verdict; the workload's own rate, watched and
 * unwatched; notes (partly watched fields, the perturbation). The counting
 * is analyze/watch.c's; this file only prints. */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd.h"
#include "analyze/tl_load.h"
#include "analyze/verb.h"
#include "analyze/watch.h"
#include "schema/db.h"
#include "reports/legacy_table.h"

#define MAX_NOTES 24

static const char usage_text[] =
	"usage: perfdb watch [DB] [-s SESSION] [--min-transfers N] [-n SITES]\n"
	"                    [--format text|md|csv|json]\n"
	"  -s, --session S      session id or label (default: the latest session)\n"
	"  --min-transfers N    ownership transfers a line needs for a sharing verdict\n"
	"                       (default 10)\n"
	"  -n, --sites N        store sites per field (default 5, 0: all)\n"
	"  -f, --format F       text (default), md, csv or json\n";

struct opts {
	const char *db, *session;
	enum out_format fmt;
	long long min_transfers;
	long sites;
};

/* Notes printed after the tables (JSON: "notes"). */
struct notes {
	char text[MAX_NOTES][640];
	int n;
};

/* note: appends a note (dropped past MAX_NOTES). */
static void note(struct notes *ns, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct notes *ns, const char *fmt, ...)
{
	va_list ap;
	if (ns->n == MAX_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(ns->text[ns->n++], sizeof(ns->text[0]), fmt, ap);
	va_end(ap);
}

/* per_sec: n over s seconds (NAN without a window). */
static double per_sec(double n, double s)
{
	return s > 0 ? n / s : NAN;
}

/* hex: "0x..." of v into buf. */
static const char *hex(char *buf, size_t len, uint64_t v)
{
	snprintf(buf, len, "0x%" PRIx64, v);
	return buf;
}

/* ---- tables ---- */

/* fields_table: one row per watched field. */
static struct ltable *fields_table(const struct watch_data *d, const struct watch_result *r)
{
	struct ltable *t = lt_new("watched fields");
	char buf[64];
	lt_col(t, "field", COL_STR, 0);
	lt_col(t, "type", COL_STR, 0);
	lt_col(t, "offset", COL_INT, 0);
	lt_col(t, "size", COL_INT, 0);
	lt_col(t, "watched", COL_STR, 0);
	lt_col(t, "writes", COL_INT, 0);
	lt_col(t, "writes_per_sec", COL_REAL, 1);
	lt_col(t, "writer_cpus", COL_INT, 0);
	lt_col(t, "transfers", COL_INT, 0);
	lt_col(t, "transfers_per_sec", COL_REAL, 1);
	lt_null_text(t, "-");
	for (size_t i = 0; i < d->ndefs; i++) {
		const struct watch_def *w = &d->defs[i];
		const struct watch_field *f = &r->fields[i];
		lt_add_row(t);
		lt_set_str(t, 0, w->field);
		lt_set_str(t, 1, w->field_type);
		lt_set_int(t, 2, w->offset);
		lt_set_int(t, 3, w->size);
		snprintf(buf, sizeof(buf), "0x%" PRIx64 "/%d%s", w->addr, w->len, w->partial ? " (part)" : "");
		lt_set_str(t, 4, buf);
		lt_set_int(t, 5, f->writes);
		lt_set_real(t, 6, per_sec((double)f->writes, r->seconds));
		lt_set_int(t, 7, f->writer_cpus);
		lt_set_int(t, 8, f->transfers);
		lt_set_real(t, 9, per_sec((double)f->transfers, r->seconds));
	}
	return t;
}

/* cpus_table: writes per field and CPU (CPUs that wrote). */
static struct ltable *cpus_table(const struct watch_data *d, const struct watch_result *r)
{
	struct ltable *t = lt_new("writes per CPU");
	lt_col(t, "field", COL_STR, 0);
	lt_col(t, "cpu", COL_INT, 0);
	lt_col(t, "writes", COL_INT, 0);
	lt_col(t, "writes_per_sec", COL_REAL, 1);
	lt_col(t, "share", COL_PCT, 1);
	lt_null_text(t, "-");
	for (size_t i = 0; i < d->ndefs; i++)
		for (int c = 0; c < d->ncpus; c++) {
			long long n = r->fields[i].cpu_writes[c];
			if (!n)
				continue;
			lt_add_row(t);
			lt_set_str(t, 0, d->defs[i].field);
			lt_set_int(t, 1, c);
			lt_set_int(t, 2, n);
			lt_set_real(t, 3, per_sec((double)n, r->seconds));
			lt_set_real(t, 4, 100.0 * (double)n / (double)r->fields[i].writes);
		}
	return t;
}

/* sites_table: the top store sites of each field. */
static struct ltable *sites_table(const struct watch_data *d, const struct watch_result *r, long max)
{
	struct ltable *t = lt_new("store sites (function+offset of ip-1: the trap reports "
				    "the instruction after the store)");
	char buf[32];
	lt_col(t, "field", COL_STR, 0);
	lt_col(t, "store_site", COL_STR, 0);
	lt_col(t, "writes", COL_INT, 0);
	lt_col(t, "share", COL_PCT, 1);
	lt_col(t, "ip", COL_STR, 0);
	for (size_t i = 0; i < d->ndefs; i++) {
		const struct watch_field *f = &r->fields[i];
		for (size_t k = 0; k < f->nsites && (!max || k < (size_t)max); k++) {
			lt_add_row(t);
			lt_set_str(t, 0, d->defs[i].field);
			lt_set_str(t, 1, d->sites[f->sites[k].site]);
			lt_set_int(t, 2, f->sites[k].writes);
			lt_set_real(t, 3, 100.0 * (double)f->sites[k].writes / (double)f->writes);
			lt_set_str(t, 4, hex(buf, sizeof(buf), d->site_ip[f->sites[k].site]));
		}
	}
	return t;
}

/* writers_text: "FIELD: CPUs a,b; FIELD2: CPU c" for a line. */
static void writers_text(char *buf, size_t len, const struct watch_data *d,
			 const struct watch_result *r, const struct watch_line *l)
{
	size_t n = 0;
	buf[0] = 0;
	for (size_t k = 0; k < l->nfields && n < len; k++) {
		const struct watch_field *f = &r->fields[l->fields[k]];
		int shown = 0;
		n += (size_t)snprintf(buf + n, len - n, "%s%s: %s", k ? "; " : "",
				      d->defs[l->fields[k]].field, f->writer_cpus ? "CPU" : "no writes");
		for (int c = 0; c < d->ncpus && n < len; c++)
			if (f->cpu_writes[c])
				n += (size_t)snprintf(buf + n, len - n, "%s%d", shown++ ? "," : " ", c);
	}
}

/* lines_table: one row per cacheline with its verdict. */
static struct ltable *lines_table(const struct watch_data *d, const struct watch_result *r)
{
	struct ltable *t = lt_new("cachelines");
	char buf[64], who[1024];
	lt_col(t, "line", COL_STR, 0);
	lt_col(t, "writes", COL_INT, 0);
	lt_col(t, "transfers", COL_INT, 0);
	lt_col(t, "transfers_per_sec", COL_REAL, 1);
	lt_col(t, "same_field", COL_INT, 0);
	lt_col(t, "cross_field", COL_INT, 0);
	lt_col(t, "verdict", COL_STR, 0);
	lt_col(t, "writers", COL_STR, 0);
	lt_null_text(t, "-");
	for (size_t i = 0; i < r->nlines; i++) {
		const struct watch_line *l = &r->lines[i];
		lt_add_row(t);
		lt_set_str(t, 0, hex(buf, sizeof(buf), l->addr));
		lt_set_int(t, 1, l->writes);
		lt_set_int(t, 2, l->transfers);
		lt_set_real(t, 3, per_sec((double)l->transfers, r->seconds));
		lt_set_int(t, 4, l->same_field);
		lt_set_int(t, 5, l->cross_field);
		lt_set_str(t, 6, watch_verdict_name(l->verdict));
		writers_text(who, sizeof(who), d, r, l);
		lt_set_str(t, 7, who);
	}
	return t;
}

/* change_pct: the % change from b to n (NAN when unknown). */
static double change_pct(double b, double n)
{
	return isnan(b) || isnan(n) || b == 0 ? NAN : 100.0 * (n - b) / b;
}

/* rates_table: the workload's own rate(s). */
static struct ltable *rates_table(const struct watch_data *d)
{
	struct ltable *t = lt_new("workload rate");
	lt_col(t, "metric", COL_STR, 0);
	lt_col(t, "watched", COL_REAL, 0);
	lt_col(t, "unwatched", COL_REAL, 0);
	lt_col(t, "change", COL_PCT, 2);
	lt_col(t, "unwatched_session", COL_INT, 0);
	lt_null_text(t, "-");
	for (size_t i = 0; i < d->nrates; i++) {
		const struct watch_rate *x = &d->rates[i];
		lt_add_row(t);
		double ch = change_pct(x->unwatched, x->watched);
		lt_set_str(t, 0, x->name);
		if (!isnan(x->watched))
			lt_set_real(t, 1, x->watched);
		if (!isnan(x->unwatched))
			lt_set_real(t, 2, x->unwatched);
		if (!isnan(ch))
			lt_set_real(t, 3, ch);
		if (x->unwatched_session >= 0)
			lt_set_int(t, 4, x->unwatched_session);
	}
	return t;
}

/* ---- notes ---- */

/* field_notes: partly watched and wider-than-field watches, missing events. */
static void field_notes(const struct watch_data *d, struct notes *ns)
{
	for (size_t i = 0; i < d->ndefs; i++) {
		const struct watch_def *w = &d->defs[i];
		uint64_t fa = w->object_addr + (uint64_t)w->offset;
		if (w->partial)
			note(ns, "%s: only its first %" PRId64 " of %" PRId64 " bytes were watched "
			     "(a debug register covers at most 8 aligned bytes); writes to the rest "
			     "are not seen", w->field, (int64_t)(w->addr + (uint64_t)w->len - fa),
			     w->size);
		else if (w->wider)
			note(ns, "%s: the %d watched bytes at 0x%" PRIx64 " also cover bytes next "
			     "to its %" PRId64 "; writes there count too", w->field, w->len, w->addr,
			     w->size);
		if (w->event_id < 0)
			note(ns, "%s: the recording has no event for it (mem:0x%" PRIx64 "/%d:w)",
			     w->field, w->addr, w->len);
	}
}

/* run_notes: the window, the perturbation, the workload's rate. */
static void run_notes(const struct watch_data *d, struct notes *ns)
{
	if (d->outside)
		note(ns, "%lld write%s outside the watched window (before the watchpoints were "
		     "armed or after the workload ended, when the address may hold something "
		     "else) left out", d->outside, d->outside == 1 ? "" : "s");
	if (!d->has_window)
		note(ns, "no watch rows (not recorded by perfdb record -r watch): rates are over "
		     "the whole session");
	note(ns, "every watched write traps (a debug exception and a perf sample, about 20 us "
	     "on a KVM guest), so the workload ran slower than it does unwatched: its rates "
	     "here are not its real rates");
	for (size_t i = 0; i < d->nrates; i++)
		if (!isnan(d->rates[i].unwatched) && !isnan(d->rates[i].watched))
			note(ns, "%s: %.0f watched vs %.0f unwatched (%+.2f%%)", d->rates[i].name,
			     d->rates[i].watched, d->rates[i].unwatched,
			     change_pct(d->rates[i].unwatched, d->rates[i].watched));
}

/* ---- printing ---- */

/* heading: the session line above the tables (text and md). */
static void heading(const struct watch_data *d, const struct watch_result *r, enum out_format f)
{
	printf("%s session %lld%s%s%s: %s; %.3f s watched", f == FMT_MD ? "##" : "#",
	       (long long)d->session, d->label ? " (" : "", d->label ? d->label : "",
	       d->label ? ")" : "", d->workload ? d->workload : "(imported)", r->seconds);
	if (d->pid)
		printf(", pid %d (%s mm)", d->pid, d->mm_mode ? d->mm_mode : "?");
	printf("\n%s", f == FMT_MD ? "\n" : "");
}

/* print_notes: the notes under the tables (text and md). */
static void print_notes(const struct notes *ns, enum out_format f)
{
	printf("\n%s\n%s", f == FMT_MD ? "### notes" : "# notes", f == FMT_MD ? "\n" : "");
	for (int i = 0; i < ns->n; i++)
		printf("%s%s\n", f == FMT_MD ? "- " : "", ns->text[i]);
}

/* print_tables: one session's tables in text, md or csv. 0 or -1. */
static int print_tables(const struct watch_data *d, const struct watch_result *r,
			const struct opts *o, const struct notes *ns)
{
	struct ltable *ts[5] = { fields_table(d, r), cpus_table(d, r), sites_table(d, r, o->sites),
				lines_table(d, r), d->nrates ? rates_table(d) : NULL };
	int rc;
	if (o->fmt != FMT_CSV)
		heading(d, r, o->fmt);
	rc = lt_print_all((const struct ltable *const *)ts, d->nrates ? 5 : 4, o->fmt, stdout);
	if (o->fmt != FMT_CSV)
		print_notes(ns, o->fmt);
	for (int i = 0; i < 5; i++)
		lt_free(ts[i]);
	return rc;
}

/* json_session: one session as a JSON object. */
static void json_session(struct json *j, const struct watch_data *d, const struct watch_result *r,
			 const struct opts *o, const struct notes *ns)
{
	struct ltable *ts[5] = { fields_table(d, r), cpus_table(d, r), sites_table(d, r, o->sites),
				lines_table(d, r), rates_table(d) };
	static const char *const keys[5] = { "fields", "cpus", "sites", "cachelines", "rates" };
	json_begin_object(j);
	json_key(j, "session");
	json_int(j, d->session);
	json_key(j, "label");
	json_str(j, d->label);
	json_key(j, "workload");
	json_str(j, d->workload);
	json_key(j, "seconds");
	json_real(j, r->seconds);
	json_key(j, "pid");
	json_int(j, d->pid);
	for (int i = 0; i < 5; i++) {
		json_key(j, keys[i]);
		lt_json_table(j, ts[i]);
		lt_free(ts[i]);
	}
	json_key(j, "notes");
	json_begin_array(j);
	for (int i = 0; i < ns->n; i++)
		json_str(j, ns->text[i]);
	json_end_array(j);
	json_end_object(j);
}

/* one_session: loads, counts and prints (or adds to j) session id. */
static int one_session(sqlite3 *db, const struct opts *o, int64_t id, struct json *j)
{
	struct watch_data d;
	struct watch_result r;
	struct notes ns = { .n = 0 };
	char err[512];
	int got = watch_load(db, id, &d, err, sizeof(err)), rc = 0;
	if (got <= 0) {
		if (got < 0)
			fprintf(stderr, "perfdb: %s: %s\n", o->db, err);
		else
			fprintf(stderr, "perfdb: %s: session %lld watched nothing (record it with "
				"-r watch --watch FIELD)\n", o->db, (long long)id);
		return EXIT_FAIL;
	}
	if (watch_analyze(&d, o->min_transfers, &r)) {
		watch_data_free(&d);
		return fprintf(stderr, "perfdb: out of memory\n"), EXIT_FAIL;
	}
	field_notes(&d, &ns);
	run_notes(&d, &ns);
	if (j)
		json_session(j, &d, &r, o, &ns);
	else if (print_tables(&d, &r, o, &ns))
		rc = EXIT_FAIL;
	watch_result_free(&r);
	watch_data_free(&d);
	return rc;
}

/* run: every chosen session, as one JSON document or tables in turn. */
static int run(sqlite3 *db, const struct opts *o, const int64_t *ids, int n)
{
	struct json *j = o->fmt == FMT_JSON ? json_new(stdout, true) : NULL;
	int rc = 0;
	if (j) {
		json_begin_object(j);
		json_key(j, "sessions");
		json_begin_array(j);
	}
	for (int i = 0; i < n && !rc; i++) {
		if (i && !j)
			printf("\n");
		rc = one_session(db, o, ids[i], j);
	}
	if (j) {
		json_end_array(j);
		json_end_object(j);
		json_free(j);
	}
	return rc;
}

/* watch_report: see analyze/watch.h. */
int watch_report(sqlite3 *db, const char *dbpath, const int64_t *ids, int n,
		 enum out_format fmt)
{
	struct opts o = { .db = dbpath, .fmt = fmt, .min_transfers = WATCH_MIN_TRANSFERS, .sites = 5 };
	return run(db, &o, ids, n);
}

/* parse: the options; EXIT_OK to go on, else an exit status (-1: --help). */
static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "session", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "min-transfers", required_argument, NULL, 'm' },
		{ "sites", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end;
	bool bad = false;
	*o = (struct opts){ .db = PERFDB_DEFAULT_DB, .min_transfers = WATCH_MIN_TRANSFERS, .sites = 5 };
	while (!bad && (c = getopt_long(argc, argv, "s:f:n:h", longs, NULL)) != -1) {
		switch (c) {
		case 's': o->session = optarg; break;
		case 'f': bad = out_format_parse(optarg, &o->fmt) != 0; break;
		case 'm':
			o->min_transfers = strtoll(optarg, &end, 10);
			bad = o->min_transfers < 1 || *end || !*optarg;
			break;
		case 'n':
			o->sites = strtol(optarg, &end, 10);
			bad = o->sites < 0 || *end || !*optarg;
			break;
		case 'h': fputs(usage_text, stdout); return -1;
		default: bad = true;
		}
	}
	return verb_operands(argc, argv, bad, &o->db, usage_text);
}

/* run_picked: run() for the sessions verb_run picked. */
static int run_picked(sqlite3 *db, const int64_t *ids, int n, void *arg)
{
	return run(db, arg, ids, n);
}

/* cmd_watch: see cmd.h. */
int cmd_watch(int argc, char **argv)
{
	struct opts o;
	int rc = parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	return verb_run(o.db, o.session, run_picked, &o);
}
