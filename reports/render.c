/* Rendering documents and tables in each format: see render.h. */
#include <stdlib.h>
#include <string.h>
#include "lib/escape.h"
#include "reports/render.h"
#include "reports/render_int.h"

/* sentences_human(d, n, at, prefix, md, out): warnings or notes, one a
 * line ("warning: ..."; md: a block quote or a list item). */
static void sentences_human(const struct doc *d, size_t n, const char *(*at)(const struct doc *, size_t),
			    const char *what, bool md, FILE *out)
{
	for (size_t i = 0; i < n; i++) {
		char *s = esc_dup(at(d, i), md ? ESC_MD : ESC_TEXT);
		if (md)
			fprintf(out, "%s**%s:** %s\n", !strcmp(what, "warning") ? "> " : "- ", what, s);
		else
			fprintf(out, "%s: %s\n", what, s);
		free(s);
	}
}

/* human_doc(d, only, md, out): the text or md form of d. */
static void human_doc(const struct doc *d, const char *only, bool md, FILE *out)
{
	bool any = doc_nwarnings(d) > 0;
	sentences_human(d, doc_nwarnings(d), doc_warning_at, "warning", md, out);
	for (size_t i = 0; i < doc_ntables(d); i++) {
		const struct table *t = doc_table_at(d, i);
		if (only && strcmp(table_name(t), only))
			continue;
		if (any)
			fputc('\n', out);
		grid_print(t, md, out);
		any = true;
	}
	if (doc_nnotes(d) && any)
		fputc('\n', out);
	sentences_human(d, doc_nnotes(d), doc_note_at, "note", md, out);
}

/* render_doc: see render.h. */
int render_doc(const struct doc *d, enum out_format f, const char *only, FILE *out)
{
	const struct table *t;
	switch (f) {
	case FMT_TEXT:
	case FMT_MD:
		human_doc(d, only, f == FMT_MD, out);
		break;
	case FMT_CSV:
		t = only ? doc_table(d, only) : doc_main(d);
		if (t)
			csv_print(t, out);
		break;
	case FMT_JSON:
		json_doc(d, only, out);
		break;
	}
	return ferror(out) ? -1 : 0;
}

/* render_table: see render.h. */
int render_table(const struct table *t, enum out_format f, FILE *out)
{
	struct json *j;
	switch (f) {
	case FMT_TEXT:
	case FMT_MD:
		grid_print(t, f == FMT_MD, out);
		break;
	case FMT_CSV:
		csv_print(t, out);
		break;
	case FMT_JSON:
		j = json_new(out, true);
		json_table_value(j, t);
		json_free(j);
		break;
	}
	return ferror(out) ? -1 : 0;
}

/* render_table_names: see render.h. */
int render_table_names(const struct doc *d, FILE *out)
{
	for (size_t i = 0; i < doc_ntables(d); i++) {
		const struct table *t = doc_table_at(d, i);
		fprintf(out, "%s\t%s\n", table_name(t), table_title(t) ? table_title(t) : "");
	}
	return ferror(out) ? -1 : 0;
}
