/* One self-contained HTML page of a document (see render.h): styles
 * inline, no scripts, pictures as inline SVG. */
#include <stdlib.h>
#include <string.h>
#include "lib/escape.h"
#include "lib/strbuf.h"
#include "lib/version.h"
#include "reports/render_int.h"
#include "reports/svg_chart.h"
#include "reports/svg_flame.h"

/* Tables: a cell wraps only between words (overflow-wrap: break-word,
 * unlike anywhere, leaves a column at least as wide as its longest word;
 * a word with a '-', where browsers may break a line, is a span.w that
 * does not wrap: "--seconds", "6.1.0-18-amd64" stay whole), numbers
 * never; a table wider than the page scrolls in its own box rather than
 * squeezing its columns. */
static const char style[] =
	"body{font-family:sans-serif;max-width:72em;margin:2em auto;padding:0 1em;color:#222}"
	"div.table{overflow-x:auto;margin:.5em 0 1.5em}"
	"table{border-collapse:collapse;font-size:90%}"
	"th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;white-space:pre-wrap;overflow-wrap:break-word}"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}span.w{white-space:nowrap}"
	"th{background:#f3f3f3}.warning{background:#fff4e5;border-left:4px solid #e8710a;"
	"padding:.4em .8em;margin:.3em 0}ul.caption{color:#555;font-size:90%}"
	"figure{margin:1em 0}h3{margin-bottom:.2em}";

/* put(out, s): s escaped for XML. */
static void put(FILE *out, const char *s)
{
	char *e = esc_dup(s, ESC_XML);
	fputs(e, out);
	free(e);
}

/* put_words(out, s): s escaped for XML, each word (a run without blanks
 * or line ends) that holds a '-' in a <span class="w">. */
static void put_words(FILE *out, const char *s)
{
	char *e = esc_dup(s, ESC_XML);
	for (const char *p = e; *p;) {
		size_t n = strcspn(p, " \t\r\n"), sep;
		bool span = memchr(p, '-', n) != NULL;
		fprintf(out, "%s%.*s%s", span ? "<span class=\"w\">" : "", (int)n, p, span ? "</span>" : "");
		p += n;
		sep = strspn(p, " \t\r\n");
		fprintf(out, "%.*s", (int)sep, p);
		p += sep;
	}
	free(e);
}

/* cell(out, t, r, c, th): one cell, numbers right-aligned. */
static void cell(FILE *out, const struct table *t, size_t r, int c, bool th)
{
	bool num = col_numeric(t, c);
	char *s = th ? NULL : cell_text(t, r, c, ESC_NONE);
	fprintf(out, "<%s%s>", th ? "th" : "td", num ? " class=\"n\"" : "");
	put_words(out, th ? table_col_header(t, c) : s);
	fprintf(out, "</%s>", th ? "th" : "td");
	free(s);
}

/* grid(out, t): a table's shown columns and rows. */
static void grid(FILE *out, const struct table *t)
{
	fputs("<div class=\"table\"><table><thead><tr>", out);
	for (int c = 0; c < table_ncols(t); c++)
		if (table_col_shown(t, c) & SHOW_HUMAN)
			cell(out, t, 0, c, true);
	fputs("</tr></thead><tbody>\n", out);
	for (size_t r = 0; r < table_nrows(t); r++) {
		if (!(table_row_shown(t, r) & SHOW_HUMAN))
			continue;
		fputs("<tr>", out);
		for (int c = 0; c < table_ncols(t); c++)
			if (table_col_shown(t, c) & SHOW_HUMAN)
				cell(out, t, r, c, false);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table></div>\n", out);
}

/* list(out, t): a TABLE_LIST table's first shown cells as a list. */
static void list(FILE *out, const struct table *t)
{
	int col = -1;
	for (int c = 0; c < table_ncols(t) && col < 0; c++)
		if (table_col_shown(t, c) & SHOW_HUMAN)
			col = c;
	fputs("<ul>\n", out);
	for (size_t r = 0; col >= 0 && r < table_nrows(t); r++) {
		if (!(table_row_shown(t, r) & SHOW_HUMAN))
			continue;
		char *s = cell_text(t, r, col, ESC_NONE);
		fputs("<li>", out);
		put(out, s);
		fputs("</li>\n", out);
		free(s);
	}
	fputs("</ul>\n", out);
}

/* one(out, t): a table with its title and captions, in its style. */
static void one(FILE *out, const struct table *t)
{
	const char *sec = table_get_section(t);
	if (table_title(t) && !(sec && !strcmp(sec, table_title(t)))) {
		fputs("<h3>", out);
		put(out, table_title(t));
		fputs("</h3>\n", out);
	}
	bool pic = table_get_style(t) == TABLE_CHART || table_get_style(t) == TABLE_FLAME;
	if (table_ncaptions(t) && !pic) {
		fputs("<ul class=\"caption\">", out);
		for (size_t i = 0; i < table_ncaptions(t); i++) {
			fputs("<li>", out);
			put(out, table_caption_at(t, i));
			fputs("</li>", out);
		}
		fputs("</ul>\n", out);
	}
	if (pic) {
		fputs("<figure>\n", out);
		if (table_get_style(t) == TABLE_FLAME)
			svg_flame_write(out, t, 1000);
		else
			svg_chart_write(t, out);
		fputs("</figure>\n", out);
	} else if (table_get_style(t) == TABLE_LIST) {
		list(out, t);
	} else {
		grid(out, t);
	}
}

/* sentences(out, d, n, at, cls): warnings or notes. */
static void sentences(FILE *out, const struct doc *d, size_t n,
		      const char *(*at)(const struct doc *, size_t), const char *cls)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<p class=\"%s\"><b>%s:</b> ", cls, cls);
		put(out, at(d, i));
		fputs("</p>\n", out);
	}
}

/* html_doc: see render_int.h. */
void html_doc(const struct doc *d, const char *only, FILE *out)
{
	const char *title = doc_title(d) ? doc_title(d) : doc_verb(d), *section = NULL;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", out);
	put(out, title);
	fprintf(out, "</title><meta name=\"generator\" content=\"perfdb %s\"><style>%s</style></head>\n"
		"<body>\n<h1>", perfdb_version, style);
	put(out, title);
	fputs("</h1>\n", out);
	sentences(out, d, doc_nwarnings(d), doc_warning_at, "warning");
	for (size_t i = 0; i < doc_ntables(d); i++) {
		const struct table *t = doc_table_at(d, i);
		const char *sec = table_get_section(t);
		if ((only && strcmp(table_name(t), only)) || (!only && !(table_shown(t) & SHOW_HUMAN)))
			continue;
		if (sec && (!section || strcmp(sec, section))) {
			fputs("<h2>", out);
			put(out, sec);
			fputs("</h2>\n", out);
			section = sec;
		}
		one(out, t);
	}
	sentences(out, d, doc_nnotes(d), doc_note_at, "note");
	fputs("</body></html>\n", out);
}
