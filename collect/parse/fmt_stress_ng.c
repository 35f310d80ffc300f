/* --parse stress-ng: stress-ng's own record of a run, the YAML file it
 * writes with --yaml FILE (its stdout is for people, and passes
 * through). The format adds --yaml FILE to the command, FILE in a
 * private temporary directory ($TMPDIR, else /tmp) that goes with the
 * parser, and --metrics when no metrics option is given (without one the
 * file has no metrics); a command that names its own file (--yaml FILE,
 * --yaml=FILE, -Y FILE, -YFILE) runs as it is, and that file is read and
 * left. At the run's end the file's "metrics:" list gives, per stressor,
 * STRESSOR.bogo_ops_per_sec_real and STRESSOR.bogo_ops_per_sec_cpu, and
 * the stressor's own metrics (its keys past the ones every stressor has)
 * as STRESSOR.KEY, names made by parse_name (STRESSOR cut to 40 bytes, so
 * that its two rates keep their names whole). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>
#include "collect/parse/parse_int.h"
#include "lib/alloc.h"

#define YAML_MAX (16 << 20)	/* a larger file is no stress-ng record */
#define WHO_MAX 41		/* a stressor's part of a name, with its NUL */

struct stress_state {
	char dir[PATH_MAX];	/* the private directory; "" when the command names the file */
	char *file;		/* the YAML file; NULL without a command */
	char **argv;		/* the command with --yaml FILE, when the format made it */
};

/* user_yaml(argv): the file argv's own --yaml option names, or NULL. */
static const char *user_yaml(char *const argv[])
{
	for (int k = 0; argv[k]; k++) {
		const char *a = argv[k];
		if ((!strcmp(a, "--yaml") || !strcmp(a, "-Y")) && argv[k + 1])
			return argv[k + 1];
		if (!strncmp(a, "--yaml=", 7))
			return a + 7;
		if (!strncmp(a, "-Y", 2) && a[2])
			return a + 2;
	}
	return NULL;
}

/* has_metrics(argv): whether argv asks stress-ng for its metrics. */
static bool has_metrics(char *const argv[])
{
	for (int k = 0; argv[k]; k++)
		if (!strcmp(argv[k], "--metrics") || !strcmp(argv[k], "-M") || !strcmp(argv[k], "--metrics-brief"))
			return true;
	return false;
}

/* free_state(state): the state, and the private directory with the file
 * stress-ng wrote in it. */
static void free_state(void *state)
{
	struct stress_state *s = state;
	if (s->dir[0]) {
		unlink(s->file);
		rmdir(s->dir);
	}
	free(s->file);
	free(s->argv);
	free(s);
}

/* start: the file to read: the command's own, or one in a new private
 * directory. No command (parse_check): nothing to make. */
static void *start(const char *arg, char *const argv[], char *err, size_t errlen)
{
	struct stress_state *s = xcalloc(1, sizeof(*s));
	const char *tmp = getenv("TMPDIR"), *own;
	(void)arg;
	if (!argv)
		return s;
	if ((own = user_yaml(argv))) {
		s->file = xstrdup(own);
		return s;
	}
	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (strlen(tmp) + 64 >= sizeof(s->dir)) {
		snprintf(err, errlen, "--parse stress-ng: $TMPDIR is too long");
		free_state(s);
		return NULL;
	}
	snprintf(s->dir, sizeof(s->dir), "%s/perfdb-stress-ng-XXXXXX", tmp);
	if (!mkdtemp(s->dir)) {
		snprintf(err, errlen, "--parse stress-ng: %.100s: %s", s->dir, strerror(errno));
		s->dir[0] = 0;
		free_state(s);
		return NULL;
	}
	s->file = xasprintf("%s/stress-ng.yaml", s->dir);
	return s;
}

/* make_argv: argv with --yaml FILE (and --metrics when argv has no
 * metrics option), or NULL for argv itself when the command names its
 * own file. */
static char **make_argv(void *state, char *const argv[])
{
	static char yaml_opt[] = "--yaml", metrics_opt[] = "--metrics";
	struct stress_state *s = state;
	size_t n = 0, k;
	if (!s->dir[0] || !argv)
		return NULL;
	while (argv[n])
		n++;
	free(s->argv);
	s->argv = xcalloc(n + 4, sizeof(*s->argv));
	for (k = 0; k < n; k++)
		s->argv[k] = argv[k];
	s->argv[k++] = yaml_opt;
	s->argv[k++] = s->file;
	if (!has_metrics(argv))
		s->argv[k++] = metrics_opt;
	return s->argv;
}

/* read_yaml(path, len, out): the file's bytes (malloc'd, *len of them,
 * NUL after), or NULL with out failed: missing, unreadable, empty (blanks
 * only) or larger than YAML_MAX. */
static char *read_yaml(const char *path, size_t *len, struct parse_result *out)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	char *buf;
	if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || st.st_size > YAML_MAX) {
		parse_fail(out, "stress-ng: no YAML file %.120s (%s)", path,
			   !f ? strerror(errno) : "not a regular file, or larger than 16 MiB");
		if (f)
			fclose(f);
		return NULL;
	}
	buf = xmalloc((size_t)st.st_size + 1);
	*len = fread(buf, 1, (size_t)st.st_size, f);
	buf[*len] = 0;
	fclose(f);
	if (buf[strspn(buf, " \t\r\n")] == 0) {
		parse_fail(out, "stress-ng: the YAML file %.120s is empty (did stress-ng run?)", path);
		free(buf);
		return NULL;
	}
	return buf;
}

/* text(n, buf, len, cut): the scalar node n's text into buf, cut to
 * len - 1 bytes when cut says so; NULL when n is no scalar, holds a NUL,
 * or is too long and must not be cut. */
static const char *text(const yaml_node_t *n, char *buf, size_t len, bool cut)
{
	size_t l;
	if (!n || n->type != YAML_SCALAR_NODE || memchr(n->data.scalar.value, 0, n->data.scalar.length) ||
	    (!cut && n->data.scalar.length >= len))
		return NULL;
	l = n->data.scalar.length < len ? n->data.scalar.length : len - 1;
	memcpy(buf, n->data.scalar.value, l);
	buf[l] = 0;
	return buf;
}

/* get(d, map, key): the value of key in the mapping node map, or NULL. */
static yaml_node_t *get(yaml_document_t *d, const yaml_node_t *map, const char *key)
{
	char k[64];
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *t = text(yaml_document_get_node(d, p->key), k, sizeof(k), true);
		if (t && !strcmp(t, key))
			return yaml_document_get_node(d, p->value);
	}
	return NULL;
}

/* common(key): whether key is one of the columns every stressor has,
 * which are not metrics of it (bogo ops counted, its times, its RSS). */
static bool common(const char *key)
{
	static const char *const keys[] = { "stressor", "bogo-ops", "wall-clock-time", "user-time",
					    "system-time", "cpu-usage-per-instance", "max-rss" };
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

/* one_value(who, key, vn, out): the pair key: vn of the stressor who
 * (its name as made by parse_name) as a metric. 1 when it was one of the
 * two bogo ops rates, else 0. */
static int one_value(const char *who, const char *key, const yaml_node_t *vn, struct parse_result *out)
{
	char val[128], raw[192], name[64], line[320];
	const char *end, *t = text(vn, val, sizeof(val), false);
	bool real = !strcmp(key, "bogo-ops-per-second-real-time");
	bool cpu = !strcmp(key, "bogo-ops-per-second-usr-sys-time");
	double v;
	if (!t || parse_number(t, &end, &v) || end[strspn(end, " \t")]) {
		parse_fail(out, "stress-ng: %s: %.60s: '%.40s' is not a number", who, key,
			   t ? t : "(no text of up to 127 bytes)");
		return 0;
	}
	snprintf(line, sizeof(line), "%s: %s: %s", who, key, t);
	if (real || cpu) {
		snprintf(raw, sizeof(raw), "%s.%s", who, real ? "bogo_ops_per_sec_real" : "bogo_ops_per_sec_cpu");
		parse_metric(out, parse_name(name, sizeof(name), raw), v, "ops/s", BETTER_HIGHER, line);
		return 1;
	}
	snprintf(raw, sizeof(raw), "%s.%s", who, key);
	parse_metric(out, parse_name(name, sizeof(name), raw), v, "", BETTER_UNKNOWN, line);
	return 0;
}

/* stressor(d, item, i, out): the metrics of one item of the metrics list. */
static void stressor(yaml_document_t *d, const yaml_node_t *item, size_t i, struct parse_result *out)
{
	char buf[64], who[WHO_MAX], key[128];
	const char *t = text(get(d, item, "stressor"), buf, sizeof(buf), true);
	int rates = 0;
	if (!t || !*parse_name(who, sizeof(who), t)) {
		parse_fail(out, "stress-ng: metrics item %zu has no stressor name", i + 1);
		return;
	}
	for (yaml_node_pair_t *p = item->data.mapping.pairs.start; p < item->data.mapping.pairs.top; p++) {
		const char *k = text(yaml_document_get_node(d, p->key), key, sizeof(key), true);
		if (!k) {
			parse_fail(out, "stress-ng: %s: a key that is no text", who);
			return;
		}
		if (!common(k))
			rates += one_value(who, k, yaml_document_get_node(d, p->value), out);
	}
	if (rates != 2)
		parse_fail(out, "stress-ng: %s: no bogo-ops-per-second-real-time and "
			   "bogo-ops-per-second-usr-sys-time", who);
}

/* metrics(d, file, out): every stressor of the document's metrics list. */
static void metrics(yaml_document_t *d, const char *file, struct parse_result *out)
{
	yaml_node_t *root = yaml_document_get_root_node(d), *list = get(d, root, "metrics");
	if (!root || (root->type == YAML_SCALAR_NODE && !root->data.scalar.length)) {
		parse_fail(out, "stress-ng: the YAML file %.120s is empty (did stress-ng run?)", file);
		return;
	}
	if (!list || list->type != YAML_SEQUENCE_NODE || list->data.sequence.items.top ==
							list->data.sequence.items.start) {
		parse_fail(out, "stress-ng: %.120s has no 'metrics:' list of stressors (stress-ng writes it with "
			   "--metrics)", file);
		return;
	}
	for (yaml_node_item_t *it = list->data.sequence.items.start; it < list->data.sequence.items.top; it++) {
		yaml_node_t *item = yaml_document_get_node(d, *it);
		size_t i = (size_t)(it - list->data.sequence.items.start);
		if (!item || item->type != YAML_MAPPING_NODE) {
			parse_fail(out, "stress-ng: metrics item %zu is not a mapping", i + 1);
			return;
		}
		stressor(d, item, i, out);
	}
}

/* end: the YAML file stress-ng wrote, read. */
static void end(void *state, const struct parse_usage *u, struct parse_result *out)
{
	struct stress_state *s = state;
	yaml_parser_t parser;
	yaml_document_t doc;
	size_t len;
	char *buf;
	(void)u;
	if (!s->file) {
		parse_fail(out, "stress-ng: no command, so no YAML file to read");
		return;
	}
	if (!(buf = read_yaml(s->file, &len, out)))
		return;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);
	if (!yaml_parser_load(&parser, &doc)) {
		parse_fail(out, "stress-ng: %.120s: line %zu: %.80s", s->file, parser.problem_mark.line + 1,
			   parser.problem ? parser.problem : "not YAML");
	} else {
		metrics(&doc, s->file, out);
		yaml_document_delete(&doc);
	}
	yaml_parser_delete(&parser);
	free(buf);
}

const struct parse_format parse_fmt_stress_ng = {
	.name = "stress-ng",
	.summary = "stress-ng's --yaml record (the format adds --yaml FILE, and --metrics, to the command)",
	.metrics = "per stressor: STRESSOR.bogo_ops_per_sec_real, STRESSOR.bogo_ops_per_sec_cpu (ops/s, "
		   "higher), and its own metrics as STRESSOR.METRIC",
	.start = start,
	.argv = make_argv,
	.end = end,
	.free = free_state,
};
