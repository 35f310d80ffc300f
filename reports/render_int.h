/* The pieces of reports/render.c, one file per form; not for other
 * modules. */
#ifndef PERFDB_RENDER_INT_H
#define PERFDB_RENDER_INT_H
#include <stdbool.h>
#include <stdio.h>
#include "lib/doc.h"
#include "lib/table.h"
#include "reports/json.h"

/* grid_print(t, md, out): t as a text (md false) or md table, with its
 * title and captions (render_grid.c). */
void grid_print(const struct table *t, bool md, FILE *out);

/* cell_text(t, r, c, mode): the malloc'd human form of cell (r, c): its
 * indent, then the string (or null text) escaped for mode, or the number
 * with the column's precision and '%' (render_grid.c). */
char *cell_text(const struct table *t, size_t r, int c, int mode);

/* col_numeric(t, c): whether column c holds numbers: right-aligned in
 * text, md and html (render_grid.c). */
bool col_numeric(const struct table *t, int c);

/* list_print(t, md, out): a TABLE_LIST table as list items (render_grid.c). */
void list_print(const struct table *t, bool md, FILE *out);

/* html_doc(d, only, out): the page (render_html.c). */
void html_doc(const struct doc *d, const char *only, FILE *out);

/* csv_print(t, out): t's SHOW_DATA columns and rows as csv (render_csv.c). */
void csv_print(const struct table *t, FILE *out);

/* json_table_value(j, t): t as a JSON array of row objects; json_doc(d,
 * only, out): the envelope (render_json.c). */
void json_table_value(struct json *j, const struct table *t);
void json_doc(const struct doc *d, const char *only, FILE *out);
#endif
