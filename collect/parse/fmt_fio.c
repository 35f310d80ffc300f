/* --parse fio: fio's --output-format=json output, one JSON document
 * over many lines, kept as it comes (from the first line starting with
 * '{': what comes before, a warning, is skipped; at most 64 MiB) and
 * read at the run's end with json-c. Per job and direction (read, write,
 * trim) that did I/O: JOB.DIR.iops, JOB.DIR.bw_bytes, JOB.DIR.clat_mean_us
 * and, when fio computed them, JOB.DIR.clat_p50_us and
 * JOB.DIR.clat_p99_us (fio's nanoseconds in microseconds); JOB is the
 * job's name made by parse_name, cut to 40 bytes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json.h>
#include "collect/parse/parse_int.h"
#include "lib/alloc.h"

#define JSON_MAX ((size_t)64 << 20)	/* more is no fio output */
#define JOBS_MAX 1024			/* jobs read (each makes up to 15 metrics) */
#define JOB_NAME 41			/* a job's part of a name, with its NUL */

struct fio_state {
	char *buf;			/* the JSON so far */
	size_t len, cap;
	bool started, over;		/* its first line came; it grew past JSON_MAX */
};

/* free_state(state): the JSON kept and the state. */
static void free_state(void *state)
{
	struct fio_state *s = state;
	free(s->buf);
	free(s);
}

/* start: an empty state. */
static void *start(const char *arg, char *const argv[], char *err, size_t errlen)
{
	(void)arg;
	(void)argv;
	(void)err;
	(void)errlen;
	return xcalloc(1, sizeof(struct fio_state));
}

/* line: kept from the first line starting with '{' on (every line is
 * fio's own: they show as they were), each ending with a newline. */
static int line(void *state, const char *text, struct parse_result *out)
{
	struct fio_state *s = state;
	size_t n = strlen(text);
	if (s->over || (!s->started && text[strspn(text, " \t")] != '{'))
		return 0;
	s->started = true;
	if (s->len + n + 1 > JSON_MAX) {
		parse_fail(out, "fio: the JSON output is larger than %zu MiB", JSON_MAX >> 20);
		s->over = true;
		return 0;
	}
	ALLOC_GROW(s->buf, s->len + n + 2, s->cap);
	memcpy(s->buf + s->len, text, n);
	s->len += n;
	if (!n || text[n - 1] != '\n')
		s->buf[s->len++] = '\n';
	s->buf[s->len] = 0;
	return 0;
}

/* number(o, key, v): o's member key as a finite number >= 0 in *v; 0,
 * or -1 when o has none such (missing, a string, NaN, infinite). */
static int number(struct json_object *o, const char *key, double *v)
{
	struct json_object *m;
	if (!json_object_object_get_ex(o, key, &m) ||
	    (!json_object_is_type(m, json_type_int) && !json_object_is_type(m, json_type_double)))
		return -1;
	*v = json_object_get_double(m);
	return isfinite(*v) && *v >= 0 ? 0 : -1;
}

/* add(out, job, dir, what, v, unit, better): the metric JOB.DIR.WHAT. */
static void add(struct parse_result *out, const char *job, const char *dir, const char *what, double v,
		const char *unit, enum metric_better better)
{
	char name[160], line[160];
	snprintf(name, sizeof(name), "%s.%s.%s", job, dir, what);
	snprintf(line, sizeof(line), "(fio's JSON: job %s, %s, %s: %.17g)", job, dir, what, v);
	parse_metric(out, name, v, unit, better, line);
}

/* percentiles(out, job, dir, clat): clat_p50_us and clat_p99_us from
 * clat_ns's "percentile" object (keys like "50.000000"), when it has
 * them. */
static void percentiles(struct parse_result *out, const char *job, const char *dir, struct json_object *clat)
{
	struct json_object *pct;
	const char *end;
	double at, v;
	if (!json_object_object_get_ex(clat, "percentile", &pct))
		return;
	if (!json_object_is_type(pct, json_type_object)) {
		parse_fail(out, "fio: %s.%s: clat_ns.percentile is not an object", job, dir);
		return;
	}
	json_object_object_foreach(pct, key, val) {
		(void)val;
		if (parse_number(key, &end, &at) || *end || (at != 50 && at != 99))
			continue;
		if (number(pct, key, &v)) {
			parse_fail(out, "fio: %s.%s: clat_ns percentile %s is not a number (finite, >= 0)", job, dir,
				   key);
			return;
		}
		add(out, job, dir, at == 50 ? "clat_p50_us" : "clat_p99_us", v / 1000, "us", BETTER_LOWER);
	}
}

/* direction(out, job, dir, d): the metrics of one direction of a job,
 * when it did I/O. */
static void direction(struct parse_result *out, const char *job, const char *dir, struct json_object *d)
{
	struct json_object *clat;
	double bytes, iops, bw, mean;
	if (!json_object_is_type(d, json_type_object) || number(d, "io_bytes", &bytes)) {
		parse_fail(out, "fio: %s.%s has no io_bytes", job, dir);
		return;
	}
	if (bytes == 0)
		return;
	if (number(d, "iops", &iops) || number(d, "bw_bytes", &bw)) {
		parse_fail(out, "fio: %s.%s: iops or bw_bytes missing or not a number (finite, >= 0)", job, dir);
		return;
	}
	if (!json_object_object_get_ex(d, "clat_ns", &clat) || number(clat, "mean", &mean)) {
		parse_fail(out, "fio: %s.%s: no clat_ns.mean (a number, finite, >= 0)", job, dir);
		return;
	}
	add(out, job, dir, "iops", iops, "ops/s", BETTER_HIGHER);
	add(out, job, dir, "bw_bytes", bw, "B/s", BETTER_HIGHER);
	add(out, job, dir, "clat_mean_us", mean / 1000, "us", BETTER_LOWER);
	percentiles(out, job, dir, clat);
}

/* job_name(j, i, name, out): job i's name into name (JOB_NAME bytes);
 * 0, or -1 with out failed. */
static int job_name(struct json_object *j, size_t i, char *name, struct parse_result *out)
{
	struct json_object *n;
	if (!json_object_is_type(j, json_type_object)) {
		parse_fail(out, "fio: job %zu is not an object", i + 1);
		return -1;
	}
	if (!json_object_object_get_ex(j, "jobname", &n) || !json_object_is_type(n, json_type_string)) {
		parse_fail(out, "fio: job %zu has no jobname", i + 1);
		return -1;
	}
	if (!*parse_name(name, JOB_NAME, json_object_get_string(n))) {
		parse_fail(out, "fio: job %zu's name '%.40s' has no letter or digit", i + 1, json_object_get_string(n));
		return -1;
	}
	return 0;
}

/* jobs(out, root): every job of root's "jobs" array. */
static void jobs(struct parse_result *out, struct json_object *root)
{
	static const char *const dirs[] = { "read", "write", "trim" };
	struct json_object *arr, *d;
	char (*names)[JOB_NAME];
	size_t n;
	if (!json_object_object_get_ex(root, "jobs", &arr) || !json_object_is_type(arr, json_type_array)) {
		parse_fail(out, "fio: no \"jobs\" array in the JSON");
		return;
	}
	if ((n = json_object_array_length(arr)) > JOBS_MAX) {
		parse_fail(out, "fio: %zu jobs, more than the %d read", n, JOBS_MAX);
		return;
	}
	names = xcalloc(n ? n : 1, sizeof(*names));
	for (size_t i = 0; i < n && !out->error[0]; i++) {
		struct json_object *j = json_object_array_get_idx(arr, i);
		if (job_name(j, i, names[i], out))
			break;
		for (size_t k = 0; k < i; k++)
			if (!strcmp(names[k], names[i]))
				parse_fail(out, "fio: two jobs named %s (numjobs without --group_reporting?)",
					   names[i]);
		for (size_t k = 0; k < 3 && !out->error[0]; k++)
			if (json_object_object_get_ex(j, dirs[k], &d))
				direction(out, names[i], dirs[k], d);
	}
	free(names);
}

/* second_document(rest): whether rest (what follows the document) holds
 * another line starting with '{': fio's --status-interval reports. */
static bool second_document(const char *rest)
{
	for (const char *p = rest; p; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (p[strspn(p, " \t")] == '{')
			return true;
	}
	return false;
}

/* end: the JSON kept, parsed and read. */
static void end(void *state, const struct parse_usage *u, struct parse_result *out)
{
	struct fio_state *s = state;
	struct json_tokener *tok;
	struct json_object *root;
	enum json_tokener_error e;
	(void)u;
	if (!s->started) {
		parse_fail(out, "fio: no JSON in the output (no line starts with '{': --output-format=json?)");
		return;
	}
	if (!(tok = json_tokener_new_ex(32)))
		die_oom(sizeof(*tok));
	root = json_tokener_parse_ex(tok, s->buf, (int)s->len);
	e = json_tokener_get_error(tok);
	if (!root || e != json_tokener_success)
		parse_fail(out, "fio: %s at byte %zu of its JSON",
			   e == json_tokener_continue ? "the JSON ends early" : json_tokener_error_desc(e),
			   json_tokener_get_parse_end(tok));
	else if (!json_object_is_type(root, json_type_object))
		parse_fail(out, "fio: the JSON is not an object");
	else if (second_document(s->buf + json_tokener_get_parse_end(tok)))
		parse_fail(out, "fio: more than one JSON document (--status-interval?); one run is one report");
	else
		jobs(out, root);
	json_object_put(root);
	json_tokener_free(tok);
}

const struct parse_format parse_fmt_fio = {
	.name = "fio",
	.summary = "fio --output-format=json: per job and direction that did I/O",
	.metrics = "JOB.DIR.iops (ops/s, higher), JOB.DIR.bw_bytes (B/s, higher), JOB.DIR.clat_mean_us, "
		   "JOB.DIR.clat_p50_us, JOB.DIR.clat_p99_us (us, lower); DIR read, write or trim",
	.start = start,
	.line = line,
	.end = end,
	.free = free_state,
};
