/* A side narrowed to some cells of its label (LABEL:NAME=V,...): the
 * bench data reduced to the cells with those values, the fixed
 * parameters dropped (see bench_data.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/bench/bench_data.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* A NAME=V of the spec, as parameter index and value. */
struct fix {
	size_t param;
	char *value;
};

/* param_args(b): "NAME=V1,V2" of every parameter, its values in cell
 * order (the plan's -p), malloc'd. */
static char **param_args(const struct bench_data *b)
{
	char **out = xcalloc(b->nparams + 1, sizeof(*out));
	for (size_t i = 0; i < b->nparams; i++) {
		struct strbuf s = STRBUF_INIT;
		sb_printf(&s, "%s=", b->params[i]);
		for (size_t c = 0, k = 0; c < b->ncells; c++) {
			const char *v = b->cell_values[c * b->nparams + i];
			bool seen = false;
			for (size_t d = 0; d < c && !seen; d++)
				seen = !strcmp(b->cell_values[d * b->nparams + i], v);
			if (!seen)
				sb_printf(&s, "%s%s", k++ ? "," : "", v);
		}
		out[i] = sb_take(&s);
	}
	return out;
}

/* parse_fixes(b, spec, fx, err, errlen): spec's NAME=V pairs into fx
 * (at most b->nparams); their number, or -1 with err. */
static int parse_fixes(const struct bench_data *b, const char *spec, struct fix *fx, char *err, size_t errlen)
{
	char *copy = xstrdup(spec), *save = NULL;
	int n = 0;
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(w, '=');
		size_t i = 0;
		if (eq)
			*eq = 0;
		while (eq && i < b->nparams && strcmp(b->params[i], w))
			i++;
		if (!eq || i == b->nparams || (size_t)n == b->nparams) {
			snprintf(err, errlen, "'%s:%s': %s", b->label, spec, !eq ? "a cell is NAME=V[,NAME=V...]" :
				 i == b->nparams ? "no such parameter in its bench" : "a parameter given twice");
			goto fail;
		}
		for (int k = 0; k < n; k++)
			if (fx[k].param == i) {
				snprintf(err, errlen, "'%s:%s': parameter %s given twice", b->label, spec, w);
				goto fail;
			}
		fx[n++] = (struct fix){ i, xstrdup(eq + 1) };
	}
	free(copy);
	return n;
fail:
	for (int k = 0; k < n; k++)
		free(fx[k].value);
	free(copy);
	return -1;
}

/* kept(b, c, fx, n): whether cell c has every fixed value. */
static bool kept(const struct bench_data *b, size_t c, const struct fix *fx, int n)
{
	for (int k = 0; k < n; k++)
		if (strcmp(b->cell_values[c * b->nparams + fx[k].param], fx[k].value))
			return false;
	return true;
}

/* is_fixed(p, fx, n): whether parameter p is one of the fixed. */
static bool is_fixed(size_t p, const struct fix *fx, int n)
{
	for (int k = 0; k < n; k++)
		if (fx[k].param == p)
			return true;
	return false;
}

/* reshape(b, fx, n, map): b's cells and parameters without the fixed
 * ones; map[c] is old cell c's new index, or -1. */
static void reshape(struct bench_data *b, const struct fix *fx, int n, const int *map, size_t nkept)
{
	size_t np = b->nparams - (size_t)n, j = 0;
	char **params = xcalloc(np + 1, sizeof(char *)), **values = xcalloc(nkept * np + 1, sizeof(char *));
	b->cell_orig = xcalloc(nkept + 1, sizeof(size_t));
	for (size_t p = 0; p < b->nparams; p++)
		if (!is_fixed(p, fx, n))
			params[j++] = xstrdup(b->params[p]);
	for (size_t c = 0; c < b->ncells; c++) {
		if (map[c] < 0)
			continue;
		b->cell_orig[map[c]] = c;
		for (size_t p = 0, k = 0; p < b->nparams; p++)
			if (!is_fixed(p, fx, n))
				values[(size_t)map[c] * np + k++] = xstrdup(b->cell_values[c * b->nparams + p]);
	}
	for (size_t i = 0; i < b->ncells * b->nparams; i++)
		free(b->cell_values[i]);
	for (size_t p = 0; p < b->nparams; p++)
		free(b->params[p]);
	free(b->cell_values);
	free(b->params);
	b->params = params;
	b->cell_values = values;
	b->nparams = np;
	b->ncells = nkept;
}

/* drop_runs(b, map): the runs of cells not kept go; the others' cells
 * renumbered. */
static void drop_runs(struct bench_data *b, const int *map)
{
	size_t j = 0;
	for (size_t i = 0; i < b->nruns; i++) {
		struct bd_run *r = &b->runs_v[i];
		if (r->cell < 0 || map[r->cell] < 0) {
			free(r->status);
			free(r->error);
			continue;
		}
		r->cell = map[r->cell];
		b->runs_v[j++] = *r;
	}
	b->nruns = j;
}

/* bench_data_narrow: see bench_data.h. */
int bench_data_narrow(struct bench_data *b, const char *spec, char *err, size_t errlen)
{
	struct fix *fx = xcalloc(b->nparams + 1, sizeof(*fx));
	int n = parse_fixes(b, spec, fx, err, errlen), *map = xcalloc(b->ncells + 1, sizeof(int));
	size_t nkept = 0;
	for (size_t c = 0; n > 0 && c < b->ncells; c++)
		map[c] = kept(b, c, fx, n) ? (int)nkept++ : -1;
	if (n > 0 && !nkept)
		snprintf(err, errlen, "'%s:%s': no cell of its bench has those values", b->label, spec);
	if (n > 0 && nkept) {
		b->plan_params = param_args(b);
		b->nplan_params = b->nparams;
		drop_runs(b, map);
		reshape(b, fx, n, map, nkept);
		b->narrow = xstrdup(spec);
		char *shown = xasprintf("%s:%s", b->label, spec);
		free(b->label);
		b->label = shown;
	}
	for (int k = 0; k < n; k++)
		free(fx[k].value);
	free(fx);
	free(map);
	return n > 0 && nkept ? 0 : -1;
}

/* bench_cell_sessions: see bench_data.h. */
int bench_cell_sessions(sqlite3 *db, const char *spec, int64_t **ids, char *err, size_t errlen)
{
	struct bench_data b;
	const char *colon = strchr(spec, ':');
	char *label = colon ? xstrndup(spec, (size_t)(colon - spec)) : xstrdup(spec);
	int n = -1;
	*ids = NULL;
	if (!colon) {
		snprintf(err, errlen, "'%s' is not LABEL:NAME=V", spec);
	} else {
		if (!bench_data_load(db, label, NULL, &b, err, errlen) && !bench_data_narrow(&b, colon + 1, err, errlen)) {
			*ids = xcalloc(b.nruns + 1, sizeof(int64_t));
			n = 0;
			for (size_t i = 0; i < b.nruns; i++)
				if (b.runs_v[i].session)
					(*ids)[n++] = b.runs_v[i].session;
			if (!n)
				snprintf(err, errlen, "'%s': no run of those cells was recorded (perfdb bench -r "
					 "RECIPE records every run, or --record-every N some)", spec);
		}
		bench_data_free(&b);
	}
	free(label);
	if (n <= 0) {
		free(*ids);
		*ids = NULL;
		return -1;
	}
	return n;
}
