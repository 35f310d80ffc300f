/* parse_file: runs collect/parse's parser over a captured output, as
 * perfdb bench would over the run's stdout, and prints what it yields,
 * for the tests that compare a format with what the real tool printed.
 *   parse_file FORMAT FILE [-- ARGV...]
 * FILE is the output ("-" for stdin), ARGV the command it came from
 * (formats read thread counts from it). Prints one line a metric,
 *   metric NAME VALUE UNIT BETTER
 * and one a distribution,
 *   dist NAME COUNT MEAN MIN MAX UNIT BETTER
 * (VALUE etc. in %.17g, UNIT and BETTER '-' when none), then "line NAME
 * TEXT" with the output line each came from. Exit 0; 1 with the
 * parser's reason on stderr when the output does not parse; 2 on a
 * usage or file error. No usage is known: the time format fails. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "collect/parse/parse.h"

/* show(r): the result as the header says. */
static void show(const struct parse_result *r)
{
	for (size_t i = 0; i < r->nmetrics; i++) {
		const struct metric *m = &r->metrics[i];
		const char *b = metric_better_name(m->better);
		printf("metric %s %.17g %s %s\n", m->name, m->value, *m->unit ? m->unit : "-", b ? b : "-");
	}
	for (size_t i = 0; i < r->ndists; i++) {
		const struct dist *d = &r->dists[i];
		const char *b = metric_better_name(d->better);
		double sum = 0, lo = d->v[0], hi = d->v[0];
		for (size_t k = 0; k < d->n; k++) {
			sum += d->v[k];
			lo = d->v[k] < lo ? d->v[k] : lo;
			hi = d->v[k] > hi ? d->v[k] : hi;
		}
		printf("dist %s %zu %.17g %.17g %.17g %s %s\n", d->name, d->n, sum / (double)d->n, lo, hi,
		       *d->unit ? d->unit : "-", b ? b : "-");
	}
	for (size_t i = 0; i < r->nmetrics; i++)
		printf("line %s %s\n", r->metrics[i].name, r->metrics[i].line);
	for (size_t i = 0; i < r->ndists; i++)
		printf("line %s %s\n", r->dists[i].name, r->dists[i].line);
}

int main(int argc, char **argv)
{
	char err[512], *line = NULL, *none[] = { NULL };
	size_t cap = 0;
	struct parse_result r;
	if (argc < 3 || (argc > 3 && strcmp(argv[3], "--"))) {
		fprintf(stderr, "usage: parse_file FORMAT FILE [-- ARGV...]\n");
		return 2;
	}
	FILE *f = strcmp(argv[2], "-") ? fopen(argv[2], "r") : stdin;
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	struct parser *p = parser_new(argv[1], argc > 4 ? argv + 4 : none, err, sizeof(err));
	if (!p) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	parser_argv(p, argc > 4 ? argv + 4 : none);
	while (getline(&line, &cap, f) > 0)
		parser_line(p, line);
	free(line);
	if (f != stdin)
		fclose(f);
	int rc = parser_end(p, NULL, &r);
	if (rc)
		fprintf(stderr, "%s\n", r.error);
	else
		show(&r);
	parse_result_free(&r);
	parser_free(p);
	return rc ? 1 : 0;
}
