/* Rendering documents and tables in each format: see render.h. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/bug.h"
#include "lib/escape.h"
#include "reports/render.h"
#include "reports/render_int.h"
#include "reports/svg_chart.h"
#include "reports/svg_flame.h"

/* sentences_human(d, n, at, what, md, out): warnings or notes, one a line
 * ("warning: ..."; md: a list item, or a paragraph of a block quote: a
 * ">" line between warnings keeps them from joining into one). */
static void sentences_human(const struct doc *d, size_t n, const char *(*at)(const struct doc *, size_t),
			    const char *what, bool md, FILE *out)
{
	bool quote = !strcmp(what, "warning");
	for (size_t i = 0; i < n; i++) {
		char *s = esc_dup(at(d, i), md ? ESC_MD : ESC_TEXT);
		if (md)
			fprintf(out, "%s%s**%s:** %s\n", quote && i ? ">\n" : "", quote ? "> " : "- ", what, s);
		else
			fprintf(out, "%s: %s\n", what, s);
		free(s);
	}
}

/* heading(s, level, md, out): a document title (level 1) or a section
 * heading (level 2). */
static void heading(const char *s, int level, bool md, FILE *out)
{
	char *e = esc_dup(s, md ? ESC_MD : ESC_TEXT);
	if (md)
		fprintf(out, "%s %s\n", level == 1 ? "#" : "##", e);
	else
		fprintf(out, "%s %s %s\n", level == 1 ? "====" : "==", e, level == 1 ? "====" : "==");
	free(e);
}

/* has_assets(o): whether o names an assets directory ("" names none). */
static bool has_assets(const struct render_opts *o)
{
	return o && o->assets_dir && *o->assets_dir;
}

/* write_svg(t, path, o): t's SVG into path, closed and added to o's
 * files; false with the reason in o->err when it cannot be. */
static bool write_svg(const struct table *t, const char *path, const struct render_opts *o)
{
	struct outfile f;
	int rc;
	if (outfile_open(&f, path, 0644, o->keep, o->err, o->errlen))
		return false;
	rc = table_get_style(t) == TABLE_FLAME ? svg_flame_write(f.f, t, 0) : svg_chart_write(t, f.f);
	if (rc) {
		outfile_abort(&f);
		snprintf(o->err, o->errlen, "%s: cannot write the picture", path);
		return false;
	}
	if (outfile_close(&f, o->err, o->errlen))
		return false;
	outfiles_add(o->files, &f);
	return true;
}

/* chart_md(t, o, out): the md image of a chart table, its SVG written into
 * the assets directory o names; nothing once a picture has failed. */
static void chart_md(const struct table *t, const struct render_opts *o, FILE *out)
{
	char *path = xasprintf("%s/%s.svg", o->assets_dir, table_name(t));
	bool done = !*o->err && write_svg(t, path, o);
	free(path);
	if (!done)
		return;
	char *title = esc_dup(table_title(t) ? table_title(t) : table_name(t), ESC_MD);
	const char *href = o->assets_href && *o->assets_href ? o->assets_href : o->assets_dir;
	fprintf(out, "![%s](%s/%s.svg)\n", title, href, table_name(t));
	free(title);
}

/* picture(t): whether t is drawn rather than printed. */
static bool picture(const struct table *t)
{
	return table_get_style(t) == TABLE_CHART || table_get_style(t) == TABLE_FLAME;
}

/* one_table(t, md, o, out): a table in its style; false when nothing was
 * printed (a chart in text, or without an assets directory). */
static bool one_table(const struct table *t, bool md, const struct render_opts *o, FILE *out)
{
	switch (table_get_style(t)) {
	case TABLE_LIST:
		list_print(t, md, out);
		return true;
	case TABLE_CHART:
	case TABLE_FLAME:
		if (!md || !has_assets(o))
			return false;
		chart_md(t, o, out);
		return true;
	default:
		grid_print(t, md, out);
		return true;
	}
}

/* human_doc(d, only, md, o, out): the text or md form of d. */
static void human_doc(const struct doc *d, const char *only, bool md, const struct render_opts *o, FILE *out)
{
	bool any = false;
	const char *section = NULL;
	if (doc_title(d)) {
		heading(doc_title(d), 1, md, out);
		any = true;
	}
	if (doc_nwarnings(d) && any)
		fputc('\n', out);
	sentences_human(d, doc_nwarnings(d), doc_warning_at, "warning", md, out);
	any |= doc_nwarnings(d) > 0;
	for (size_t i = 0; i < doc_ntables(d); i++) {
		const struct table *t = doc_table_at(d, i);
		const char *sec = table_get_section(t);
		if ((only && strcmp(table_name(t), only)) || (!only && !(table_shown(t) & SHOW_HUMAN)))
			continue;
		if (!only && sec && (!section || strcmp(sec, section))) {
			fputs(any ? "\n" : "", out);
			heading(sec, 2, md, out);
			section = sec;
			any = true;
		}
		if (any && (!picture(t) || (md && has_assets(o))))
			fputc('\n', out);
		any |= one_table(t, md, o, out);
	}
	if (doc_nnotes(d) && any)
		fputc('\n', out);
	sentences_human(d, doc_nnotes(d), doc_note_at, "note", md, out);
}

/* render_doc_opts: see render.h. */
int render_doc_opts(const struct doc *d, enum out_format f, const char *only,
		    const struct render_opts *o, FILE *out)
{
	const struct table *t;
	if (has_assets(o) && (!o->files || !o->err || !o->errlen))
		bug("render_doc_opts: an assets directory without files or err");
	if (has_assets(o))
		*o->err = '\0';
	switch (f) {
	case FMT_TEXT:
	case FMT_MD:
		human_doc(d, only, f == FMT_MD, o, out);
		break;
	case FMT_CSV:
		t = only ? doc_table(d, only) : doc_main(d);
		if (t)
			csv_print(t, out);
		break;
	case FMT_JSON:
		json_doc(d, only, out);
		break;
	case FMT_HTML:
		html_doc(d, only, out);
		break;
	default:
		bug("render_doc: bad format %d", (int)f);
	}
	return ferror(out) || (has_assets(o) && *o->err) ? -1 : 0;
}

/* render_doc: see render.h. */
int render_doc(const struct doc *d, enum out_format f, const char *only, FILE *out)
{
	return render_doc_opts(d, f, only, NULL, out);
}

/* table_page(t, out): t alone as an html page named after it: a copy of
 * t, out of its section, in a document of its own. */
static void table_page(const struct table *t, FILE *out)
{
	struct doc *d = doc_new(table_name(t));
	struct table *c = table_clone(t, table_name(t));
	table_section(c, NULL);
	dv_table(doc_findings(d), c);
	html_doc(d, NULL, out);
	doc_free(d);
}

/* render_table: see render.h. text and md show t in its style, as a
 * document does (a list as a list, no chart); html is a page of t. */
int render_table(const struct table *t, enum out_format f, FILE *out)
{
	struct json *j;
	switch (f) {
	case FMT_TEXT:
	case FMT_MD:
		one_table(t, f == FMT_MD, NULL, out);
		break;
	case FMT_CSV:
		csv_print(t, out);
		break;
	case FMT_HTML:
		table_page(t, out);
		break;
	case FMT_JSON:
		j = json_new(out, true);
		json_table_value(j, t);
		json_free(j);
		break;
	default:
		bug("render_table: bad format %d", (int)f);
	}
	return ferror(out) ? -1 : 0;
}

/* render_table_names: see render.h. Titles are escaped as text cells are
 * (a newline or tab in one would break the line's form). */
int render_table_names(const struct doc *d, FILE *out)
{
	for (size_t i = 0; i < doc_ntables(d); i++) {
		const struct table *t = doc_table_at(d, i);
		char *title = esc_dup(table_title(t) ? table_title(t) : "", ESC_TEXT);
		fprintf(out, "%s\t%s\n", table_name(t), title);
		free(title);
	}
	return ferror(out) ? -1 : 0;
}
