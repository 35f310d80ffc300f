/* csv tables (RFC 4180, rules in render.h). */
#include <stdlib.h>
#include <string.h>
#include "lib/strbuf.h"
#include "lib/escape.h"
#include "reports/render_int.h"

/* field(out, s): the string s as one field: quoted when it holds ',',
 * '"', CR or LF or is empty, inner '"' doubled. */
static void field(FILE *out, const char *s)
{
	char *v = esc_dup(s, ESC_NONE);
	if (*v && !strpbrk(v, ",\"\r\n")) {
		fputs(v, out);
	} else {
		fputc('"', out);
		for (const char *p = v; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	}
	free(v);
}

/* cell(out, x): a cell: nothing for NULL, numbers in their shortest exact
 * form ("nan", "inf", "-inf" for non-finite reals). */
static void cell(FILE *out, const struct cell *x)
{
	struct strbuf b = STRBUF_INIT;
	if (x->kind == CELL_STR)
		field(out, x->v.s);
	else if (x->kind == CELL_INT)
		fprintf(out, "%lld", x->v.i);
	else if (x->kind == CELL_REAL && !num_nonfinite(&b, x->v.r))
		num_short(&b, x->v.r, true);
	fputs(sb_str(&b), out);
	sb_free(&b);
}

/* csv_print: see render_int.h. */
void csv_print(const struct table *t, FILE *out)
{
	int n = 0;
	for (int c = 0; c < table_ncols(t); c++)
		if (table_col_shown(t, c) & SHOW_DATA) {
			if (n++)
				fputc(',', out);
			field(out, table_col_name(t, c));
		}
	if (!n)
		return;
	fputc('\n', out);
	for (size_t r = 0; r < table_nrows(t); r++) {
		if (!(table_row_shown(t, r) & SHOW_DATA))
			continue;
		n = 0;
		for (int c = 0; c < table_ncols(t); c++)
			if (table_col_shown(t, c) & SHOW_DATA) {
				if (n++)
					fputc(',', out);
				cell(out, table_cell(t, r, c));
			}
		fputc('\n', out);
	}
}
