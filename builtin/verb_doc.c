/* The examples, exit statuses, environment and files of the verbs' pages
 * (see verb_doc.h). */
#include <stdlib.h>
#include <string.h>
#include "builtin/verb_doc.h"
#include "lib/alloc.h"

/* verb_environment: see verb_doc.h. */
const struct verb_item verb_environment[] = {
	{ "PERFDB_PERF", "the perf program record, bench -r and doctor run (default: perf, looked "
	  "up in PATH), e.g. a perf built from the kernel tree under test" },
	{ "PERFDB_EXTRA_EVENTS", "comma-separated events record (and bench -r) records besides its "
	  "recipes' ones, checked as theirs are (a tracepoint the kernel lacks is left out with "
	  "the warning): an event tried before a recipe has it, or a test's" },
	{ "PERFDB_SYNC_WRITES", "set (to anything): the import writes its rows from the thread that "
	  "reads the recording, without its writer thread; slower, for tests and debugging" },
	{ "PERFDB_LIBPQ", "the libpq that push and pull load when they start (default libpq.so.5, "
	  "wherever the dynamic linker finds it)" },
	{ "PERF_BUILDID_DIR", "perf's build-id cache, where the import looks for the recorded "
	  "kernel's kallsyms and the recorded binaries (default $HOME/.debug), as perf does" },
	{ "HOME", "the default build-id cache is $HOME/.debug" },
	{ "TMPDIR", "where the import puts a recording it must put in time order on disk (one read "
	  "from a pipe, or compressed), as a file without a name (default /tmp)" },
	{ "PATH", "where record and bench find CMD (then among the built-in workloads beside perfdb: "
	  "yield, tlbflush, falseshare, faults), and record, bench and doctor find perf" },
	{ "PG*", "libpq's own variables, as libpq reads them: PGPASSFILE (the password file, "
	  "default ~/.pgpass), PGSERVICEFILE (the service file of service=NAME, default "
	  "~/.pg_service.conf) and the defaults of a connection string (PGHOST, PGDATABASE, "
	  "PGSSLMODE ...)" },
	{ NULL, NULL },
};

/* verb_exits_default: see verb_doc.h. */
const struct verb_item verb_exits_default[] = {
	{ "0", "success" },
	{ "1", "a usage error (one line on stderr saying what was wrong)" },
	{ "2", "bad input, missing events or a failed run (one line on stderr saying what and "
	  "where)" },
	{ NULL, NULL },
};

/* verb_env: see verb_doc.h. */
const struct verb_item *verb_env(const char *name)
{
	for (const struct verb_item *e = verb_environment; e->tag; e++)
		if (!strcmp(e->tag, name))
			return e;
	return NULL;
}

/* verb_exits: see verb_doc.h. */
const struct verb_item *verb_exits(const struct verb *v)
{
	return v->exits ? v->exits : verb_exits_default;
}

/* tag_width(items): the width of the widest tag of items, at most 20
 * (a wider tag has its text on the next line). */
static int tag_width(const struct verb_item *items)
{
	int w = 0;
	for (const struct verb_item *i = items; i->tag; i++)
		if ((int)strlen(i->tag) > w && strlen(i->tag) <= 20)
			w = (int)strlen(i->tag);
	return w;
}

/* tagged(out, heading, items): "heading:" and each item as "  TAG  text",
 * the text wrapped under itself. */
static void tagged(FILE *out, const char *heading, const struct verb_item *items)
{
	int w = tag_width(items);
	fprintf(out, "\n%s:\n", heading);
	for (const struct verb_item *i = items; i->tag; i++) {
		if ((int)strlen(i->tag) > w)
			fprintf(out, "  %s\n%*s", i->tag, w + 4, "");
		else
			fprintf(out, "  %-*s  ", w, i->tag);
		po_wrap(out, i->text, w + 4, 79);
	}
}

/* examples(out, items): what each example does, and the command under
 * it (a '\n' in it continued with " \" on the next line). */
static void examples(FILE *out, const struct verb_item *items)
{
	fputs("\nexamples:\n", out);
	for (const struct verb_item *i = items; i->tag; i++) {
		const char *p = i->tag, *nl;
		char *text = xasprintf("%s:", i->text);
		fprintf(out, "%s  ", i == items ? "" : "\n");
		po_wrap(out, text, 2, 79);
		free(text);
		fputs("    ", out);
		while ((nl = strchr(p, '\n'))) {
			fprintf(out, "%.*s \\\n      ", (int)(nl - p), p);
			p = nl + 1;
		}
		fprintf(out, "%s\n", p);
	}
}

/* verb_help_more: see verb_doc.h. */
void verb_help_more(const struct verb *v, FILE *out)
{
	struct verb_item env[32];
	size_t n = 0;
	if (v->examples)
		examples(out, v->examples);
	tagged(out, "exit status", verb_exits(v));
	for (size_t i = 0; v->environment && v->environment[i] && n + 1 < 32; i++)
		if (verb_env(v->environment[i]))
			env[n++] = *verb_env(v->environment[i]);
	env[n] = (struct verb_item){ NULL, NULL };
	if (n)
		tagged(out, "environment", env);
}
