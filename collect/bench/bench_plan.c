/* A bench's plan and its slots (see bench_plan.h). */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/bench/bench_plan.h"
#include "collect/parse/parse.h"
#include "collect/recipes.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/strbuf.h"

const char *const bench_order_names[] = { "interleave", "random", "sequential", NULL };
const char *const slot_kind_names[] = { "warmup", "bare", "recorded", NULL };

/* The column names of perfdb results' and perfdb report's tables, which
 * show the parameters as columns next to them: no parameter may take one
 * (tests/integration/bench.sh checks the list against their output). */
const char *const bench_reserved_names[] = {
	"label", "metric", "unit", "kind", "run", "boot", "status", "error", "run_id", "session", "cell",
	"side", "boots", "runs", "median", "mean", "stddev", "stddev_pct", "min", "max", "user_s", "sys_s",
	"elapsed_s", "failed", "kernel", "build_id", "boot_id", "base", "new", "change_pct", "interval",
	"mark", "verdict", "ci_low_pct", "ci_high_pct", "base_runs", "new_runs", "base_boots", "new_boots",
	"base_median", "new_median", "significant", "base_stddev_pct", "new_stddev_pct", "base_user_s",
	"base_sys_s", "base_elapsed_s", "new_user_s", "new_sys_s", "new_elapsed_s", "bare_runs",
	"bare_median", "recorded_runs", "recorded_median", "change", "score", "command", "diff_low", "diff_high", "tested_on", NULL,
};

/* reserved(name, n): whether the n bytes at name are a reserved name. */
static bool reserved(const char *name, size_t n)
{
	for (const char *const *r = bench_reserved_names; *r; r++)
		if (strlen(*r) == n && !strncmp(*r, name, n))
			return true;
	return false;
}

/* ident_len(s): the length of the identifier at s ([A-Za-z_][A-Za-z0-9_]*). */
static size_t ident_len(const char *s)
{
	size_t n = 0;
	if (!isalpha((unsigned char)*s) && *s != '_')
		return 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	return n;
}

/* find_param(p, name, n): the index of the parameter called name (n
 * bytes), or -1. */
static long find_param(const struct bench_plan *p, const char *name, size_t n)
{
	for (size_t i = 0; i < p->nparams; i++)
		if (strlen(p->params[i].name) == n && !strncmp(p->params[i].name, name, n))
			return (long)i;
	return -1;
}

/* add_value(b, v, n, err, errlen): one value of a -p list. 0 or -1. */
static int add_value(struct bench_param *b, const char *v, size_t n, char *err, size_t errlen)
{
	if (!n) {
		snprintf(err, errlen, "-p %s: an empty value", b->name);
		return -1;
	}
	for (size_t i = 0; i < b->nvalues; i++)
		if (strlen(b->values[i]) == n && !strncmp(b->values[i], v, n)) {
			snprintf(err, errlen, "-p %s: value '%.*s' given twice", b->name, (int)n, v);
			return -1;
		}
	b->values = xreallocarray(b->values, b->nvalues + 1, sizeof(char *));
	b->values[b->nvalues++] = xstrndup(v, n);
	return 0;
}

/* bench_plan_add_param: see bench_plan.h. */
int bench_plan_add_param(struct bench_plan *p, const char *arg, char *err, size_t errlen)
{
	size_t n = ident_len(arg);
	struct bench_param b = { 0 };
	if (!n || arg[n] != '=') {
		snprintf(err, errlen, "-p '%s' is not NAME=VALUE[,VALUE...] (NAME a letter or _ "
			 "then letters, digits, _)", arg);
		return -1;
	}
	if (reserved(arg, n)) {
		snprintf(err, errlen, "-p %.*s: '%.*s' names a column of perfdb results and perfdb "
			 "report; choose another name", (int)n, arg, (int)n, arg);
		return -1;
	}
	if (find_param(p, arg, n) >= 0) {
		snprintf(err, errlen, "-p %.*s given twice", (int)n, arg);
		return -1;
	}
	b.name = xstrndup(arg, n);
	for (const char *v = arg + n + 1;; v += strcspn(v, ",") + 1) {
		if (add_value(&b, v, strcspn(v, ","), err, errlen)) {
			for (size_t i = 0; i < b.nvalues; i++)
				free(b.values[i]);
			free(b.values);
			free(b.name);
			return -1;
		}
		if (!v[strcspn(v, ",")])
			break;
	}
	ALLOC_GROW(p->params, p->nparams + 1, p->cap);
	p->params[p->nparams++] = b;
	return 0;
}

/* bench_plan_add_set: see bench_plan.h. */
int bench_plan_add_set(struct bench_plan *p, const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;
	if (!n) {
		snprintf(err, errlen, "--set '%s' is not PATH=VALUE (VALUE may hold {NAME})", arg);
		return -1;
	}
	for (size_t i = 0; i < p->nsets; i++)
		if (strlen(p->sets[i].path) == n && !strncmp(p->sets[i].path, arg, n)) {
			snprintf(err, errlen, "--set %.*s given twice", (int)n, arg);
			return -1;
		}
	p->sets = xreallocarray(p->sets, p->nsets + 1, sizeof(*p->sets));
	p->sets[p->nsets++] = (struct bench_set){ xstrndup(arg, n), xstrdup(eq + 1) };
	return 0;
}

/* bench_plan_set_argv: see bench_plan.h. */
void bench_plan_set_argv(struct bench_plan *p, char *const *argv, size_t argc)
{
	p->argv = xcalloc(argc + 1, sizeof(char *));
	for (size_t i = 0; i < argc; i++)
		p->argv[i] = xstrdup(argv[i]);
	p->argc = argc;
}

/* substitute(p, cell, s, b, used, where, err, errlen): s with each {NAME}
 * replaced and {{ and }} made { and } (cell may be (size_t)-1: only check), into b; marks used
 * parameters. 0, or -1 for an unknown {NAME} (err says it is in where). */
static int substitute(const struct bench_plan *p, size_t cell, const char *s, struct strbuf *b,
		      bool *used, const char *where, char *err, size_t errlen)
{
	while (*s) {
		size_t n = s[0] == '{' ? ident_len(s + 1) : 0;
		if ((s[0] == '{' || s[0] == '}') && s[1] == s[0]) {
			sb_putc(b, s[0]);	/* {{ and }} are { and }, as in a format string */
			s += 2;
		} else if (n && s[n + 1] == '}') {
			long i = find_param(p, s + 1, n);
			if (i < 0) {
				snprintf(err, errlen, "{%.*s} in %s is not a parameter (give -p "
					 "%.*s=VALUE,...)", (int)n, s + 1, where, (int)n, s + 1);
				return -1;
			}
			if (used)
				used[i] = true;
			if (cell != (size_t)-1)
				sb_puts(b, bench_cell_value(p, cell, (size_t)i));
			s += n + 2;
		} else {
			sb_putc(b, *s++);
		}
	}
	return 0;
}

/* utf8_ok(s): whether s is valid UTF-8 (no overlong forms, surrogates or
 * code points past U+10FFFF). */
static bool utf8_ok(const unsigned char *s)
{
	while (*s) {
		int n = *s < 0x80 ? 0 : (*s & 0xe0) == 0xc0 ? 1 : (*s & 0xf0) == 0xe0 ? 2 : (*s & 0xf8) == 0xf0 ? 3 : -1;
		uint32_t c = n == 0 ? *s : n == 1 ? *s & 0x1fu : n == 2 ? *s & 0x0fu : *s & 0x07u;
		if (n < 0)
			return false;
		for (int k = 1; k <= n; k++) {
			if ((s[k] & 0xc0) != 0x80)
				return false;
			c = c << 6 | (s[k] & 0x3fu);
		}
		if ((n == 1 && c < 0x80) || (n == 2 && c < 0x800) || (n == 3 && c < 0x10000) || c > 0x10ffff ||
		    (c >= 0xd800 && c <= 0xdfff))
			return false;
		s += n + 1;
	}
	return true;
}

/* check_text(p, err, errlen): the template and values are UTF-8; the
 * recipes and the format are known. 0 or -1. */
static int check_text(const struct bench_plan *p, char *err, size_t errlen)
{
	struct recipe_env env = { false };
	struct recipe_plan rp;
	for (size_t i = 0; i < p->argc; i++)
		if (!utf8_ok((const unsigned char *)p->argv[i])) {
			snprintf(err, errlen, "argument %zu of the command is not UTF-8 text (a bench stores "
				 "its command as text)", i + 1);
			return -1;
		}
	for (size_t i = 0; i < p->nsets; i++)
		if (!utf8_ok((const unsigned char *)p->sets[i].path) ||
		    !utf8_ok((const unsigned char *)p->sets[i].value)) {
			snprintf(err, errlen, "--set %zu is not UTF-8 text", i + 1);
			return -1;
		}
	for (size_t i = 0; i < p->nparams; i++)
		for (size_t k = 0; k < p->params[i].nvalues; k++)
			if (!utf8_ok((const unsigned char *)p->params[i].values[k])) {
				snprintf(err, errlen, "-p %s: value %zu is not UTF-8 text", p->params[i].name, k + 1);
				return -1;
			}
	if (p->recipes && recipe_plan_make(&rp, p->recipes, NULL, &env, err, errlen))
		return -1;
	if (p->recipes)
		recipe_plan_free(&rp);
	if (p->parse && parse_check(p->parse, err, errlen))
		return -1;
	return 0;
}

/* bench_plan_check: see bench_plan.h. */
int bench_plan_check(const struct bench_plan *p, char *err, size_t errlen)
{
	bool *used = xcalloc(p->nparams + 1, sizeof(bool));
	struct strbuf b = STRBUF_INIT;
	int rc = check_text(p, err, errlen);
	for (size_t i = 0; !rc && i < p->argc; i++)
		rc = substitute(p, (size_t)-1, p->argv[i], &b, used, "the command", err, errlen);
	for (size_t i = 0; !rc && i < p->nsets; i++) {
		char where[PATH_MAX + 16];
		snprintf(where, sizeof(where), "--set %s", p->sets[i].path);
		rc = substitute(p, (size_t)-1, p->sets[i].value, &b, used, where, err, errlen);
	}
	for (size_t i = 0; !rc && i < p->nparams; i++)
		if (!used[i]) {
			snprintf(err, errlen, "parameter %s is not used in the command%s (write {%s} where "
				 "its value goes)", p->params[i].name, p->nsets ? " nor in a --set" : "",
				 p->params[i].name);
			rc = -1;
		}
	sb_free(&b);
	free(used);
	return rc;
}

/* bench_ncells: see bench_plan.h. */
size_t bench_ncells(const struct bench_plan *p)
{
	size_t n = 1;
	for (size_t i = 0; i < p->nparams; i++)
		n *= p->params[i].nvalues;
	return n;
}

/* bench_cell_value: see bench_plan.h. */
const char *bench_cell_value(const struct bench_plan *p, size_t cell, size_t i)
{
	size_t stride = 1;
	for (size_t k = i + 1; k < p->nparams; k++)
		stride *= p->params[k].nvalues;
	return p->params[i].values[(cell / stride) % p->params[i].nvalues];
}

/* bench_cell_text: see bench_plan.h. */
char *bench_cell_text(const struct bench_plan *p, size_t cell)
{
	struct strbuf b = STRBUF_INIT;
	for (size_t i = 0; i < p->nparams; i++)
		sb_printf(&b, "%s%s=%s", i ? " " : "", p->params[i].name, bench_cell_value(p, cell, i));
	return sb_take(&b);
}

/* bench_argv: see bench_plan.h. */
char **bench_argv(const struct bench_plan *p, size_t cell)
{
	char **v = xcalloc(p->argc + 1, sizeof(char *)), err[256];
	for (size_t i = 0; i < p->argc; i++) {
		struct strbuf b = STRBUF_INIT;
		substitute(p, cell, p->argv[i], &b, NULL, "", err, sizeof(err));
		v[i] = sb_take(&b);
	}
	return v;
}

/* bench_set_value: see bench_plan.h. */
char *bench_set_value(const struct bench_plan *p, size_t cell, size_t k)
{
	struct strbuf b = STRBUF_INIT;
	char err[256];
	substitute(p, cell, p->sets[k].value, &b, NULL, "", err, sizeof(err));
	return sb_take(&b);
}

/* bench_argv_free: see bench_plan.h. */
void bench_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* recorded_runs(p): recorded runs per cell. */
static int recorded_runs(const struct bench_plan *p)
{
	return p->recipes ? (p->runs + p->record_every - 1) / p->record_every : 0;
}

/* add_round(p, r, v, n): slot round r (1..) of every cell, or of one
 * cell when only is not (size_t)-1: warm-up r, or bare r and its
 * recorded run. */
static void add_round(const struct bench_plan *p, bool warm, int r, size_t only, struct slot *v, size_t *n)
{
	for (size_t c = only == (size_t)-1 ? 0 : only; c < bench_ncells(p); c++) {
		if (warm) {
			v[(*n)++] = (struct slot){ c, SLOT_WARMUP, r };
		} else {
			v[(*n)++] = (struct slot){ c, SLOT_BARE, r };
			if (p->recipes && (r - 1) % p->record_every == 0)
				v[(*n)++] = (struct slot){ c, SLOT_RECORDED, (r - 1) / p->record_every + 1 };
		}
		if (only != (size_t)-1)
			break;
	}
}

/* next_random(s): splitmix64, for the random order. */
static uint64_t next_random(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* shuffle(v, n, state): Fisher-Yates. */
static void shuffle(struct slot *v, size_t n, uint64_t *state)
{
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(next_random(state) % i);
		struct slot t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/* bench_slots: see bench_plan.h. */
struct slot *bench_slots(const struct bench_plan *p, size_t *n)
{
	size_t cells = bench_ncells(p), warm;
	struct slot *v = xcalloc(cells * (size_t)(p->warmup + p->runs + recorded_runs(p)) + 1, sizeof(*v));
	uint64_t state = p->seed;
	*n = 0;
	if (p->order == ORDER_SEQUENTIAL) {
		for (size_t c = 0; c < cells; c++)
			for (int r = 1; r <= p->warmup; r++)
				add_round(p, true, r, c, v, n);
		for (size_t c = 0; c < cells; c++)
			for (int r = 1; r <= p->runs; r++)
				add_round(p, false, r, c, v, n);
		return v;
	}
	for (int r = 1; r <= p->warmup; r++)
		add_round(p, true, r, (size_t)-1, v, n);
	warm = *n;
	for (int r = 1; r <= p->runs; r++)
		add_round(p, false, r, (size_t)-1, v, n);
	if (p->order == ORDER_RANDOM) {
		shuffle(v, warm, &state);
		shuffle(v + warm, *n - warm, &state);
	}
	return v;
}

/* json_str(b, s): s as a JSON string. */
static void json_str(struct strbuf *b, const char *s)
{
	sb_putc(b, '"');
	esc_append(b, s, ESC_JSON);
	sb_putc(b, '"');
}

/* bench_argv_json: see bench_plan.h. */
char *bench_argv_json(char *const *argv, size_t argc)
{
	struct strbuf b = STRBUF_INIT;
	sb_putc(&b, '[');
	for (size_t i = 0; i < argc; i++) {
		if (i)
			sb_putc(&b, ',');
		json_str(&b, argv[i]);
	}
	sb_putc(&b, ']');
	return sb_take(&b);
}

/* bench_plan_json: see bench_plan.h. */
char *bench_plan_json(const struct bench_plan *p)
{
	struct strbuf b = STRBUF_INIT;
	char *argv = bench_argv_json(p->argv, p->argc);
	sb_printf(&b, "{\"argv\":%s,\"params\":[", argv);
	free(argv);
	for (size_t i = 0; i < p->nparams; i++) {
		sb_puts(&b, i ? ",{\"name\":" : "{\"name\":");
		json_str(&b, p->params[i].name);
		sb_puts(&b, ",\"values\":[");
		for (size_t k = 0; k < p->params[i].nvalues; k++) {
			if (k)
				sb_putc(&b, ',');
			json_str(&b, p->params[i].values[k]);
		}
		sb_puts(&b, "]}");
	}
	sb_printf(&b, "],\"runs\":%d,\"warmup\":%d,\"order\":\"%s\",\"recipes\":", p->runs, p->warmup,
		  bench_order_names[p->order]);
	if (p->recipes)
		json_str(&b, p->recipes);
	else
		sb_puts(&b, "null");
	sb_printf(&b, ",\"record_every\":%d,\"timeout_s\":%g", p->record_every, p->timeout_s);
	if (p->parse) {	/* only when given: the plans stored before stay equal */
		sb_puts(&b, ",\"parse\":");
		json_str(&b, p->parse);
	}
	for (size_t i = 0; i < p->nsets; i++) {	/* only when given, as parse */
		sb_puts(&b, i ? ",{\"path\":" : ",\"set\":[{\"path\":");
		json_str(&b, p->sets[i].path);
		sb_puts(&b, ",\"value\":");
		json_str(&b, p->sets[i].value);
		sb_puts(&b, i + 1 < p->nsets ? "}" : "}]");
	}
	sb_putc(&b, '}');
	return sb_take(&b);
}

/* bench_plan_free: see bench_plan.h. */
void bench_plan_free(struct bench_plan *p)
{
	bench_argv_free(p->argv);
	for (size_t i = 0; i < p->nparams; i++) {
		for (size_t k = 0; k < p->params[i].nvalues; k++)
			free(p->params[i].values[k]);
		free(p->params[i].values);
		free(p->params[i].name);
	}
	free(p->params);
	for (size_t i = 0; i < p->nsets; i++) {
		free(p->sets[i].path);
		free(p->sets[i].value);
	}
	free(p->sets);
	free(p->recipes);
	free(p->parse);
	memset(p, 0, sizeof(*p));
}
