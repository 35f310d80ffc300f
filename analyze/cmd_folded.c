/* perfdb folded: a session's call stacks as folded lines "a;b;c COUNT"
 * (outermost caller first, as flamegraph.pl, speedscope and inferno read
 * them), one line per distinct path, sorted; frames keyed and named as in
 * cgdiff (normalized symbols, "[unknown] (DSO)"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/calltree.h"
#include "analyze/cgdiff_cli.h"
#include "cmd.h"
#include "schema/db.h"

static const char usage_text[] =
	"usage: perfdb folded [DB] SESSION [--comm C] [--pid P] [--tid T] [--event E] [--period]\n"
	"  SESSION       a session id or label (a label's sessions are pooled)\n"
	"  --comm C      samples of threads named C at the time (also --pid, --tid)\n"
	"  --event E     the event (default: the callchain event with most samples)\n"
	"  --period      count sample periods instead of samples\n";

/* put_frame: a frame name with the characters the folded format uses
 * (';' separates frames, a newline ends the line) replaced. */
static void put_frame(FILE *m, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' ? ':' : *s == '\n' || *s == '\r' ? ' ' : *s, m);
}

/* line: the folded line of node n with count v, malloc'ed. */
static char *line(const struct calltree *t, int32_t n, double v)
{
	size_t len = ct_path(t, n, NULL, 0), sz = 0;
	int32_t *fr = malloc(len * sizeof(*fr));
	char *buf = NULL;
	FILE *m = fr ? open_memstream(&buf, &sz) : NULL;
	if (m) {
		ct_path(t, n, fr, len);
		for (size_t i = 0; i < len; i++) {
			if (i)
				fputc(';', m);
			put_frame(m, t->frames[fr[i]]);
		}
		fprintf(m, " %.0f", v);
		fclose(m);
	}
	free(fr);
	return buf;
}

/* cmp_line: strcmp order of two line pointers. */
static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* print_folded: every node with samples ending there, as sorted lines. */
static int print_folded(const struct calltree *t, bool period)
{
	char **v = malloc(t->nnodes * sizeof(*v));
	size_t n = 0;
	int rc = EXIT_OK;
	for (size_t i = 1; v && i < t->nnodes; i++) {
		double sum = 0;
		for (int r = 0; r < t->nruns; r++)
			sum += period ? t->runs[r].self[i] : (double)t->runs[r].nself[i];
		if (sum > 0 && !(v[n++] = line(t, (int32_t)i, sum)))
			rc = EXIT_FAIL;
	}
	if (!v || rc) {
		fprintf(stderr, "perfdb folded: out of memory\n");
		rc = EXIT_FAIL;
	} else {
		qsort(v, n, sizeof(*v), cmp_line);
	}
	for (size_t i = 0; i < n; i++) {
		if (!rc && v[i])
			puts(v[i]);
		free(v[i]);
	}
	free(v);
	return rc || fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}

/* load: the tree of spec's sessions under f; 0, or an exit status. */
static int load(sqlite3 *db, const char *spec, struct ct_filter *f, struct calltree **t)
{
	char err[512], ev[256];
	int64_t *ids = NULL;
	int n = db_resolve_sessions(db, spec, &ids), rc = EXIT_FAIL;
	if (n <= 0) {
		fprintf(stderr, "perfdb folded: no session or label '%s'\n", spec);
	} else if (!f->event && ct_pick_event(db, ids, n, ev, sizeof(ev))) {
		fprintf(stderr, "perfdb folded: '%s': no events recorded\n", spec);
	} else if ((*t = ct_new())) {
		if (!f->event)
			f->event = ev;
		rc = 0;
		for (int i = 0; i < n && !rc; i++)
			if (ct_add_run(*t, db, ids[i], f, err, sizeof(err)) < 0) {
				fprintf(stderr, "perfdb folded: %s\n", err);
				rc = EXIT_FAIL;
			}
		f->event = f->event == ev ? NULL : f->event;
	}
	free(ids);
	return rc;
}

/* cmd_folded: the verb; see usage_text and cmd.h. */
int cmd_folded(int argc, char **argv)
{
	struct cg_cli c;
	struct calltree *t = NULL;
	sqlite3 *db;
	int rc = cg_cli_parse(argc, argv, usage_text, 1, CLI_PERIOD, &c);
	if (rc >= 0)
		return rc;
	if (!(db = cg_cli_open(&c, "folded")))
		return EXIT_FAIL;
	rc = load(db, c.spec[0], &c.o.filter, &t);
	sqlite3_close(db);
	if (!rc)
		rc = print_folded(t, c.period);
	ct_free(t);
	return rc;
}
