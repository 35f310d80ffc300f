/* JSON documents and tables (the envelope of lib/doc.h). */
#include <string.h>
#include "lib/version.h"
#include "reports/render_int.h"

/* cell(j, x, type): one table cell of a column of type as a JSON value
 * (an integer of a COL_BOOL column as true or false). */
static void cell(struct json *j, const struct cell *x, enum col_type type)
{
	switch (x->kind) {
	case CELL_NULL: json_null(j); break;
	case CELL_STR: json_str(j, x->v.s); break;
	case CELL_INT:
		if (type == COL_BOOL)
			json_bool(j, x->v.i != 0);
		else
			json_int(j, x->v.i);
		break;
	case CELL_REAL: json_real(j, x->v.r); break;
	}
}

/* json_table_value: see render_int.h. */
void json_table_value(struct json *j, const struct table *t)
{
	json_begin_array(j);
	for (size_t r = 0; r < table_nrows(t); r++) {
		if (!(table_row_shown(t, r) & SHOW_DATA))
			continue;
		json_flat_next(j);
		json_begin_object(j);
		for (int c = 0; c < table_ncols(t); c++)
			if (table_col_shown(t, c) & SHOW_DATA) {
				json_key(j, table_col_name(t, c));
				cell(j, table_cell(t, r, c), table_col_type(t, c));
			}
		json_end_object(j);
	}
	json_end_array(j);
}

/* value(j, v): any document value. */
static void value(struct json *j, const struct dval *v)
{
	switch (dv_kind(v)) {
	case DV_NULL: json_null(j); break;
	case DV_BOOL: json_bool(j, dv_bool_of(v)); break;
	case DV_INT: json_int(j, dv_int_of(v)); break;
	case DV_REAL: json_real(j, dv_real_of(v)); break;
	case DV_STR: json_str(j, dv_str_of(v)); break;
	case DV_TABLE: json_table_value(j, dv_table_of(v)); break;
	case DV_OBJ:
		json_begin_object(j);
		for (size_t i = 0; i < dv_len(v); i++) {
			json_key(j, dv_key(v, i));
			value(j, dv_item(v, i));
		}
		json_end_object(j);
		break;
	case DV_ARR:
		json_begin_array(j);
		for (size_t i = 0; i < dv_len(v); i++)
			value(j, dv_item(v, i));
		json_end_array(j);
		break;
	}
}

/* sentences(j, key, n, at, d): a list of warnings or notes. */
static void sentences(struct json *j, const char *key, size_t n,
		      const char *(*at)(const struct doc *, size_t), const struct doc *d)
{
	json_key(j, key);
	json_begin_array(j);
	for (size_t i = 0; i < n; i++)
		json_str(j, at(d, i));
	json_end_array(j);
}

/* json_doc: see render_int.h. */
void json_doc(const struct doc *d, const char *only, FILE *out)
{
	struct json *j = json_new(out, true);
	json_begin_object(j);
	json_key(j, "perfdb");
	json_str(j, perfdb_version);
	json_key(j, "verb");
	json_str(j, doc_verb(d));
	if (doc_title(d)) {
		json_key(j, "title");
		json_str(j, doc_title(d));
	}
	json_key(j, "sessions");
	value(j, doc_sessions_c(d));
	json_key(j, "findings");
	if (only) {
		json_begin_object(j);
		json_key(j, only);
		json_table_value(j, doc_table(d, only));
		json_end_object(j);
	} else {
		value(j, doc_findings_c(d));
	}
	sentences(j, "warnings", doc_nwarnings(d), doc_warning_at, d);
	sentences(j, "notes", doc_nnotes(d), doc_note_at, d);
	json_end_object(j);
	json_free(j);
}
