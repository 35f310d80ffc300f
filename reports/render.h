/* Rendering findings documents (lib/doc.h) and their tables as text, md,
 * csv or json. The rules:
 *  - text (for terminals, aligned like perf report --stdio): each warning
 *    as "warning: ..." first, then every table (a "# title" line, its
 *    "# caption" lines, the header, a rule of dashes, the rows; columns two
 *    spaces apart, no trailing blanks), one empty line between tables,
 *    then the notes as "note: ..." lines. Control characters in cells are
 *    shown as \n, \t, \xNN so a row stays one line. A TABLE_PLAIN table is
 *    only its cells, one space apart.
 *  - md (GitHub/CommonMark): warnings as a block quote, each table as a
 *    "### title" heading, its captions as a list and a pipe table (every
 *    string escaped so GFM shows it as it is and keeps a row's cells: '|',
 *    '\', '<' and inline markup backslash-escaped, CR/LF as <br>: see
 *    ESC_MD in lib/escape.h), notes as a list.
 *  - csv (RFC 4180, "\n" line ends): exactly one table, the document's
 *    main one unless another is named: a header row and one record per
 *    row; a field with ',', '"', CR or LF is quoted; an empty string is ""
 *    and NULL an empty field.
 *  - json: the envelope of lib/doc.h, indented; a table is an array of
 *    row objects on one line each; reals in their shortest exact form
 *    (with ".0" when integral), NaN and infinities null.
 *  - html: one self-contained page (styles inline, no scripts, pictures as
 *    inline SVG): the title, warnings, sections, tables, lists, pictures,
 *    notes.
 * Sections (table_section) are headed where they start ("## Setup"); the
 * document's title comes first. A TABLE_LIST table is a list of its rows'
 * first shown cells; a TABLE_CHART table is a picture (svg_chart.h), a
 * TABLE_FLAME table too (svg_flame.h): md links an SVG file written into
 * the assets directory, html inlines it, text leaves it out.
 * text and md show SHOW_HUMAN columns and rows, csv and json SHOW_DATA
 * ones; reals get the column's precision in text and md only; COL_PCT
 * values get a '%' in text and md only; COL_BOOL values are "yes" or "no"
 * in text, md and html, 1 or 0 in csv, true or false in json; indented
 * columns are indented by two spaces (md: two no-break spaces) per level
 * in text and md only. */
#ifndef PERFDB_RENDER_H
#define PERFDB_RENDER_H
#include <stdio.h>
#include "lib/doc.h"
#include "lib/outfile.h"
#include "lib/table.h"
#include "reports/format.h"

/* Where md puts pictures: files NAME.svg written into dir, referred to as
 * href/NAME.svg (href "" or NULL: dir as given). No dir: no pictures.
 * Each picture goes through lib/outfile.h: opened beside its target
 * (refused when the target is keep, a database, a recording or not a
 * regular file), written, closed and added to files, which the caller
 * commits once the whole output is complete (or aborts); a symbolic link
 * at a picture's name is replaced then, never followed. The first picture
 * that cannot be written stops the pictures: its reason goes into err. */
struct render_opts {
	const char *assets_dir;
	const char *assets_href;
	const char *keep;		/* a file no picture may replace (the database), or NULL */
	struct outfiles *files;		/* the pictures written (required with assets_dir) */
	char *err;			/* errlen bytes (required with assets_dir): why a
					 * picture failed, "" when none did */
	size_t errlen;
};

/* render_doc_opts(d, f, only, o, out): render_doc with pictures as o
 * says (o may be NULL); -1 also when a picture could not be written
 * (o->err says why). */
int render_doc_opts(const struct doc *d, enum out_format f, const char *only,
		    const struct render_opts *o, FILE *out);

/* render_doc(d, f, only, out): writes d to out in format f. only (NULL:
 * none) names the one table to show: text and md show only it (with the
 * warnings and notes), json only it in "findings"; csv shows only or,
 * when NULL, doc_main(d) (nothing when d has no table). The caller checks
 * that only names a table of d. Returns 0, or -1 when writing failed. */
int render_doc(const struct doc *d, enum out_format f, const char *only, FILE *out);

/* render_table(t, f, out): one table alone: text and md as in a document,
 * csv the same, json its array of row objects. 0, or -1 on a write error. */
int render_table(const struct table *t, enum out_format f, FILE *out);

/* render_table_names(d, out): one line per table of d: its name, a tab,
 * its title (for --tables). 0, or -1 on a write error. */
int render_table_names(const struct doc *d, FILE *out);
#endif
