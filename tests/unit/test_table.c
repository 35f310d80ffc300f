/* Unit tests of result tables and documents: lib/table.c, lib/doc.c and
 * lib/escape.c. NULL cells and the null text; column labels, columns and
 * rows for people or programs only, significant digits, indentation,
 * captions, table_clone and titles, each seen in the text, md, csv and
 * json forms; a document's warnings and notes (kept once each), its
 * findings tree and readers, its tables in document order and in arrays;
 * lib/escape's modes, widths and shortest float forms; and that misuse of
 * tables and documents aborts. Their rendering is test_render.c's. */
#include "lib/doc.h"
#include "lib/escape.h"
#include "lib/strbuf.h"
#include "lib/table.h"
#include "reports/format.h"
#include "reports/render.h"
#include "tests/unit/render_util.h"
#include "tests/unit/tap.h"

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* Tests -------------------------------------------------------------- */

/* test_nulls(): NULL cells (set NULL or never set) and the null text. */
static void test_nulls(void)
{
	struct table *t = table_new("t", NULL);
	table_col(t, "name", COL_STR, 0);
	table_col(t, "base", COL_PCT, 2);
	table_col(t, "new", COL_PCT, 2);
	table_null_text(t, "-");
	table_add_row(t);
	table_set_str(t, 0, "do_idle");
	table_set_real(t, 1, 40.0);
	table_add_row(t);
	table_set_str(t, 0, "_raw_write_lock");
	table_set_str(t, 1, "overwritten");
	table_set_str(t, 1, NULL);
	table_set_real(t, 2, 3.25);
	check(t, FMT_TEXT,
	      "name               base    new\n"
	      "---------------  ------  -----\n"
	      "do_idle          40.00%      -\n"
	      "_raw_write_lock       -  3.25%\n",
	      "null cells");
	check(t, FMT_MD,
	      "| name            |   base |   new |\n"
	      "| --------------- | -----: | ----: |\n"
	      "| do_idle         | 40.00% |     - |\n"
	      "| _raw_write_lock |      - | 3.25% |\n",
	      "null cells");
	check(t, FMT_CSV, "name,base,new\ndo_idle,40.0,\n_raw_write_lock,,3.25\n", "null cells");
	check(t, FMT_JSON,
	      "[\n"
	      "  {\"name\": \"do_idle\", \"base\": 40.0, \"new\": null},\n"
	      "  {\"name\": \"_raw_write_lock\", \"base\": null, \"new\": 3.25}\n"
	      "]\n",
	      "null cells");
	table_null_text(t, NULL);
	check(t, FMT_TEXT,
	      "name               base    new\n"
	      "---------------  ------  -----\n"
	      "do_idle          40.00%\n"
	      "_raw_write_lock          3.25%\n",
	      "null text reset to empty");
	table_free(t);
}

/* compare_table(): labels and visibility: "ci_lo" and "ci_hi" for
 * programs only, "interval" for people only, a "mean" row for people
 * only and a "raw" row for programs only. */
static struct table *compare_table(void)
{
	struct table *t = table_new("cmp", "Compare");
	int name = table_col(t, "name", COL_STR, 0);
	int base = table_col(t, "base", COL_PCT, 1);
	int lo = table_col(t, "ci_lo", COL_REAL, 2);
	int hi = table_col(t, "ci_hi", COL_REAL, 2);
	int iv = table_col(t, "interval", COL_STR, 0);
	table_col_label(t, base, "base%");
	table_col_label(t, iv, "95% interval");
	table_col_show(t, lo, SHOW_DATA);
	table_col_show(t, hi, SHOW_DATA);
	table_col_show(t, iv, SHOW_HUMAN);
	const struct {
		const char *name;
		double base, lo, hi;
		unsigned show;
	} rows[] = {
		{ "a", 10, -0.4, 0.4, SHOW_ALL },
		{ "b", 20, -1, 2, SHOW_ALL },
		{ "mean", 15, NAN, NAN, SHOW_HUMAN },
		{ "raw", 30, 0.5, 1.5, SHOW_DATA },
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		table_add_row(t);
		table_row_show(t, rows[i].show);
		table_set_str(t, name, rows[i].name);
		table_set_real(t, base, rows[i].base);
		if (isnan(rows[i].lo))
			continue;
		table_set_real(t, lo, rows[i].lo);
		table_set_real(t, hi, rows[i].hi);
		table_set_strf(t, iv, "[%+.2f, %+.2f]", rows[i].lo, rows[i].hi);
	}
	return t;
}

/* test_digits(): a column asking for 4 significant digits shows small
 * values with more decimals, large ones with its precision; csv keeps the
 * exact values. */
static void test_digits(void)
{
	struct table *t = table_new("d", NULL);
	static const double v[] = { 2196682.333, 12.3456, 0.00123456, 0, -0.5 };
	int c = table_col(t, "v", COL_REAL, 1);
	table_col_digits(t, c, 4);
	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		table_add_row(t);
		table_set_real(t, 0, v[i]);
	}
	check(t, FMT_TEXT,
	      "        v\n"
	      "---------\n"
	      "2196682.3\n"
	      "    12.35\n"
	      " 0.001235\n"
	      "      0.0\n"
	      "  -0.5000\n",
	      "significant digits");
	check(t, FMT_CSV, "v\n2196682.333\n12.3456\n0.00123456\n0.0\n-0.5\n", "csv keeps the values");
	is_int(table_col_digits_of(t, c), 4, "table_col_digits_of");
	table_free(t);
}

/* test_labels_show(): labels head text and md (csv and json keep the
 * names); SHOW_HUMAN columns and rows are absent from csv and json,
 * SHOW_DATA ones from text, md and html. */
static void test_labels_show(void)
{
	struct table *t = compare_table();
	is_str(table_col_header(t, 1), "base%", "table_col_header is the label");
	is_str(table_col_header(t, 0), "name", "table_col_header is the name without a label");
	is_str(table_col_name(t, 1), "base", "table_col_name stays the name");
	is_int(table_col_shown(t, 2), SHOW_DATA, "table_col_shown");
	is_int(table_row_shown(t, 2), SHOW_HUMAN, "table_row_shown");
	is_int(table_find_col(t, "interval"), 4, "table_find_col");
	is_int(table_find_col(t, "nope"), -1, "table_find_col of a missing column");
	is_int(table_col_type(t, 1), COL_PCT, "table_col_type");
	is_int(table_col_precision(t, 2), 2, "table_col_precision");
	check(t, FMT_TEXT,
	      "# Compare\n"
	      "name  base%  95% interval\n"
	      "----  -----  --------------\n"
	      "a     10.0%  [-0.40, +0.40]\n"
	      "b     20.0%  [-1.00, +2.00]\n"
	      "mean  15.0%\n",
	      "labels and human-only parts");
	check(t, FMT_MD,
	      "### Compare\n"
	      "\n"
	      "| name | base% | 95% interval   |\n"
	      "| ---- | ----: | -------------- |\n"
	      "| a    | 10.0% | [-0.40, +0.40] |\n"
	      "| b    | 20.0% | [-1.00, +2.00] |\n"
	      "| mean | 15.0% |                |\n",
	      "labels and human-only parts");
	check(t, FMT_CSV,
	      "name,base,ci_lo,ci_hi\n"
	      "a,10.0,-0.4,0.4\n"
	      "b,20.0,-1.0,2.0\n"
	      "raw,30.0,0.5,1.5\n",
	      "names and data-only parts");
	check(t, FMT_JSON,
	      "[\n"
	      "  {\"name\": \"a\", \"base\": 10.0, \"ci_lo\": -0.4, \"ci_hi\": 0.4},\n"
	      "  {\"name\": \"b\", \"base\": 20.0, \"ci_lo\": -1.0, \"ci_hi\": 2.0},\n"
	      "  {\"name\": \"raw\", \"base\": 30.0, \"ci_lo\": 0.5, \"ci_hi\": 1.5}\n"
	      "]\n",
	      "names and data-only parts");
	struct doc *d = doc_new("test");
	dv_table(doc_findings(d), t);
	char *s = render_d(d, FMT_HTML, NULL);
	ok(strstr(s, "<th class=\"n\">base%</th>") && strstr(s, "<th>95% interval</th>") &&
		   strstr(s, "<td>mean</td>") && !strstr(s, "ci_lo") && !strstr(s, "raw"),
	   "html shows labels and human-only parts, not data-only ones");
	free(s);
	doc_free(d);
}

/* test_indent(): a column indented by a depth column: two spaces per
 * level in text, two no-break spaces in md, nothing in csv and json. */
static void test_indent(void)
{
	struct table *t = table_new("tree", "Call tree");
	int depth = table_col(t, "depth", COL_INT, 0);
	int sym = table_col(t, "sym", COL_STR, 0);
	int pct = table_col(t, "pct", COL_PCT, 1);
	table_col_show(t, depth, SHOW_DATA);
	table_col_indent(t, sym, depth);
	const struct {
		int depth;
		const char *sym;
		double pct;
	} rows[] = { { 0, "main", 100 }, { 1, "work", 60 }, { 2, "leaf", 50 }, { 1, "idle", 40 } };
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		table_add_row(t);
		table_set_int(t, depth, rows[i].depth);
		table_set_str(t, sym, rows[i].sym);
		table_set_real(t, pct, rows[i].pct);
	}
	is_int(table_col_depth(t, sym), depth, "table_col_depth of the indented column");
	is_int(table_col_depth(t, pct), -1, "table_col_depth of another column");
	check(t, FMT_TEXT,
	      "# Call tree\n"
	      "sym          pct\n"
	      "--------  ------\n"
	      "main      100.0%\n"
	      "  work     60.0%\n"
	      "    leaf   50.0%\n"
	      "  idle     40.0%\n",
	      "indented column");
#define NB "\xc2\xa0"
	check(t, FMT_MD,
	      "### Call tree\n"
	      "\n"
	      "| sym      |    pct |\n"
	      "| -------- | -----: |\n"
	      "| main     | 100.0% |\n"
	      "| " NB NB "work   |  60.0% |\n"
	      "| " NB NB NB NB "leaf |  50.0% |\n"
	      "| " NB NB "idle   |  40.0% |\n",
	      "indented column");
#undef NB
	check(t, FMT_CSV, "depth,sym,pct\n0,main,100.0\n1,work,60.0\n2,leaf,50.0\n1,idle,40.0\n",
	      "indented column");
	check(t, FMT_JSON,
	      "[\n"
	      "  {\"depth\": 0, \"sym\": \"main\", \"pct\": 100.0},\n"
	      "  {\"depth\": 1, \"sym\": \"work\", \"pct\": 60.0},\n"
	      "  {\"depth\": 2, \"sym\": \"leaf\", \"pct\": 50.0},\n"
	      "  {\"depth\": 1, \"sym\": \"idle\", \"pct\": 40.0}\n"
	      "]\n",
	      "indented column");
	table_free(t);
}

/* test_captions(): captions are "# " lines under the title in text and a
 * list in md and html; neither csv nor json shows them. */
static void test_captions(void)
{
	struct table *t = table_new("cap", "Rates");
	table_caption(t, "rows are CPUs");
	table_caption(t, "%d runs, a|b", 5);
	table_col(t, "x", COL_INT, 0);
	table_add_row(t);
	table_set_int(t, 0, 1);
	is_int(table_ncaptions(t), 2, "table_ncaptions");
	is_str(table_caption_at(t, 1), "5 runs, a|b", "table_caption formats");
	check(t, FMT_TEXT, "# Rates\n# rows are CPUs\n# 5 runs, a|b\nx\n-\n1\n", "captions");
	check(t, FMT_MD,
	      "### Rates\n\n- rows are CPUs\n- 5 runs, a\\|b\n\n|   x |\n| --: |\n|   1 |\n", "captions");
	check(t, FMT_CSV, "x\n1\n", "captions");
	check(t, FMT_JSON, "[\n  {\"x\": 1}\n]\n", "captions");
	struct doc *d = doc_new("test");
	dv_table(doc_findings(d), t);
	char *s = render_d(d, FMT_HTML, NULL);
	ok(strstr(s, "<h3>Rates</h3>\n<ul class=\"caption\"><li>rows are CPUs</li>"
		     "<li>5 runs, a|b</li></ul>\n<div class=\"table\"><table>") != NULL,
	   "html captions are a list between the title and the table");
	free(s);
	doc_free(d);
	t = table_new("cap2", NULL);
	table_caption(t, "no title");
	table_col(t, "x", COL_INT, 0);
	check(t, FMT_TEXT, "# no title\nx\n-\n", "caption without a title");
	check(t, FMT_MD, "- no title\n\n|   x |\n| --: |\n", "caption without a title");
	table_free(t);
}

/* clone_source(): a table using every property table_clone copies. */
static struct table *clone_source(void)
{
	struct table *t = table_new("orig", "Original");
	table_caption(t, "cap one");
	table_section(t, "Sec");
	table_null_text(t, "-");
	int depth = table_col(t, "depth", COL_INT, 0);
	int sym = table_col(t, "sym", COL_STR, 0);
	int v = table_col(t, "v", COL_REAL, 2);
	int h = table_col(t, "h", COL_PCT, -1);
	table_col_show(t, depth, SHOW_DATA);
	table_col_label(t, sym, "symbol");
	table_col_indent(t, sym, depth);
	table_col_show(t, h, SHOW_HUMAN);
	table_add_row(t);
	table_set_int(t, depth, 0);
	table_set_str(t, sym, "main");
	table_set_real(t, v, 1.5);
	table_set_real(t, h, 12.25);
	table_add_row(t);
	table_row_show(t, SHOW_HUMAN);
	table_set_int(t, depth, 1);
	table_set_str(t, sym, "work");
	table_add_row(t);
	table_row_show(t, SHOW_DATA);
	table_set_int(t, depth, 2);
	table_set_str(t, sym, "leaf");
	table_set_real(t, v, NAN);
	return t;
}

/* all_forms(t): t in text, md, csv and json, one after the other. */
static char *all_forms(const struct table *t)
{
	char *f[4], *s = NULL;
	for (int i = 0; i < 4; i++)
		f[i] = render(t, (enum out_format)i);
	if (asprintf(&s, "%s=\n%s=\n%s=\n%s", f[0], f[1], f[2], f[3]) < 0)
		s = NULL;
	for (int i = 0; i < 4; i++)
		free(f[i]);
	return s;
}

/* test_clone(): table_clone copies everything under a new name, and the
 * copy lives on unchanged when the original is changed and freed. */
static void test_clone(void)
{
	struct table *t = clone_source();
	char *before = all_forms(t);
	struct table *c = table_clone(t, "copy");
	is_str(table_name(c), "copy", "the clone has the new name");
	is_str(table_title(c), "Original", "the clone has the title");
	is_str(table_get_section(c), "Sec", "the clone has the section");
	is_str(table_null(c), "-", "the clone has the null text");
	is_int(table_ncaptions(c), 1, "the clone has the captions");
	is_int(table_nrows(c), 3, "the clone has the rows");
	char *copy = all_forms(c);
	is_str(copy, before, "the clone renders as the original in every format");
	free(copy);
	table_set_title(t, "Changed");
	table_caption(t, "cap two");
	table_section(t, "Other");
	table_null_text(t, "?");
	table_style(t, TABLE_LIST);
	table_col_label(t, 1, "other");
	table_col_show(t, 0, SHOW_ALL);
	table_set_str(t, 1, "changed");
	table_add_row(t);
	table_set_str(t, 1, "added");
	table_free(t);
	copy = all_forms(c);
	is_str(copy, before, "the clone is unchanged after the original changed and was freed");
	free(copy);
	free(before);
	char *s = render(c, FMT_TEXT);
	is_str(s,
	       "# Original\n# cap one\nsymbol     v       h\n------  ----  ------\nmain    1.50  12.25%\n"
	       "  work     -       -\n",
	       "the clone's text form");
	free(s);
	table_free(c);
}

/* test_set_title(): table_set_title replaces the title; NULL removes it. */
static void test_set_title(void)
{
	struct table *t = table_new("t", "Old");
	table_col(t, "x", COL_INT, 0);
	table_add_row(t);
	table_set_int(t, 0, 1);
	table_set_title(t, "New");
	is_str(table_title(t), "New", "table_set_title");
	check(t, FMT_TEXT, "# New\nx\n-\n1\n", "new title");
	check(t, FMT_MD, "### New\n\n|   x |\n| --: |\n|   1 |\n", "new title");
	table_set_title(t, NULL);
	ok(table_title(t) == NULL, "table_set_title(NULL) removes the title");
	check(t, FMT_TEXT, "x\n-\n1\n", "no title");
	table_free(t);
}

/* test_warnings_notes(): warnings come first and notes last in text, md,
 * json and html; a repeated sentence is kept once; sentences are escaped
 * as the form needs; in md each warning is a paragraph of the block quote
 * (consecutive "> " lines would join into one). */
static void test_warnings_notes(void)
{
	struct doc *d = doc_new("test");
	struct table *a = table_new("a", "A");
	table_col(a, "x", COL_INT, 0);
	table_add_row(a);
	table_set_int(a, 0, 1);
	doc_warn(d, "first %d", 1);
	doc_note(d, "read me");
	dv_table(doc_findings(d), a);
	doc_warn(d, "a\nb");
	doc_warn(d, "first 1");
	doc_note(d, "x|y");
	doc_note(d, "read %s", "me");
	is_int(doc_nwarnings(d), 2, "a repeated warning is kept once");
	is_int(doc_nnotes(d), 2, "a repeated note is kept once");
	is_str(doc_warning_at(d, 1), "a\nb", "doc_warning_at");
	is_str(doc_note_at(d, 1), "x|y", "doc_note_at");
	char *s = render_d(d, FMT_TEXT, NULL);
	is_str(s, "warning: first 1\nwarning: a\\nb\n\n# A\nx\n-\n1\n\nnote: read me\nnote: x|y\n",
	       "warnings first, notes last (text)");
	free(s);
	s = render_d(d, FMT_MD, NULL);
	is_str(s,
	       "> **warning:** first 1\n>\n> **warning:** a<br>b\n\n### A\n\n|   x |\n| --: |\n|   1 |\n\n"
	       "- **note:** read me\n- **note:** x\\|y\n",
	       "warnings first, notes last (md)");
	free(s);
	s = render_d(d, FMT_JSON, NULL);
	char *want = envelope("test", NULL, "{\n    \"a\": [\n      {\"x\": 1}\n    ]\n  }",
			      "[\n    \"first 1\",\n    \"a\\nb\"\n  ]", "[\n    \"read me\",\n    \"x|y\"\n  ]");
	is_str(s, want, "warnings and notes (json)");
	ok(json_valid(s), "warnings and notes: json is valid JSON");
	free(want);
	free(s);
	s = render_d(d, FMT_HTML, NULL);
	static const char *const parts[] = { "first 1", "a\nb", "<table>", "</table>", "read me", "x|y" };
	ok(in_order(s, parts, 6), "warnings first, notes last (html)");
	free(s);
	doc_free(d);
	d = doc_new("test");
	doc_warn(d, "w");
	doc_note(d, "n");
	s = render_d(d, FMT_TEXT, NULL);
	is_str(s, "warning: w\n\nnote: n\n", "a document of a warning and a note (text)");
	free(s);
	doc_free(d);
	d = doc_new("test");
	s = render_d(d, FMT_TEXT, NULL);
	is_str(s, "", "an empty document (text)");
	free(s);
	s = render_d(d, FMT_JSON, NULL);
	want = envelope("test", NULL, "{}", "[]", "[]");
	is_str(s, want, "an empty document (json)");
	free(want);
	free(s);
	doc_free(d);
}

/* test_doc_values(): the findings tree and the sessions in json, and the
 * readers of lib/doc.h. */
static void test_doc_values(void)
{
	struct doc *d = doc_new("sessions");
	struct dval *s = dv_obj(doc_sessions(d), NULL), *f = doc_findings(d);
	dv_int(s, "id", 1);
	dv_str(s, "label", "base");
	dv_null(s, "host");
	dv_bool(f, "ok", true);
	dv_real(f, "ratio", 0.5);
	dv_real(f, "bad", NAN);
	dv_str(f, "none", NULL);
	dv_arr(dv_obj(f, "meta"), "empty");
	struct dval *a = dv_arr(f, "list");
	dv_int(a, NULL, 1);
	dv_str(a, NULL, "two");
	is_str(doc_verb(d), "sessions", "doc_verb");
	is_int(dv_len(f), 6, "dv_len of an object");
	is_int(dv_len(a), 2, "dv_len of an array");
	is_int(dv_len(dv_get(f, "ok")), 0, "dv_len of a scalar");
	is_str(dv_key(f, 1), "ratio", "dv_key");
	ok(dv_key(a, 0) == NULL, "dv_key in an array is NULL");
	ok(dv_real_of(dv_get(f, "ratio")) == 0.5, "dv_real_of");
	ok(dv_real_of(dv_item(a, 0)) == 1.0, "dv_real_of takes an int");
	is_int(dv_int_of(dv_item(a, 0)), 1, "dv_int_of");
	is_str(dv_str_of(dv_item(a, 1)), "two", "dv_str_of");
	ok(dv_str_of(dv_get(f, "none")) == NULL, "dv_str_of of null is NULL");
	ok(dv_bool_of(dv_get(f, "ok")), "dv_bool_of");
	is_int(dv_kind(dv_get(f, "meta")), DV_OBJ, "dv_kind");
	ok(dv_get(f, "missing") == NULL && dv_get(a, "list") == NULL, "dv_get of a missing key or in an array");
	ok(dv_len(doc_sessions_c(d)) == 1 && dv_len(doc_findings_c(d)) == 6, "doc_sessions_c and doc_findings_c");
	char *out = render_d(d, FMT_JSON, NULL), *want = NULL;
	if (asprintf(&want,
		     "{\n  \"perfdb\": \"%s\",\n  \"verb\": \"sessions\",\n  \"sessions\": [\n    {\n"
		     "      \"id\": 1,\n      \"label\": \"base\",\n      \"host\": null\n    }\n  ],\n"
		     "  \"findings\": {\n    \"ok\": true,\n    \"ratio\": 0.5,\n    \"bad\": null,\n"
		     "    \"none\": null,\n    \"meta\": {\n      \"empty\": []\n    },\n    \"list\": [\n"
		     "      1,\n      \"two\"\n    ]\n  },\n  \"warnings\": [],\n  \"notes\": []\n}\n",
		     perfdb_version) < 0)
		want = NULL;
	is_str(out, want, "sessions and findings (json)");
	ok(json_valid(out), "sessions and findings: json is valid JSON");
	free(want);
	free(out);
	out = render_d(d, FMT_TEXT, NULL);
	is_str(out, "", "a document without tables, warnings or notes has no text");
	free(out);
	doc_free(d);
	doc_free(NULL);
	ok(1, "doc_free(NULL) is harmless");
}

/* esc(s, mode): esc_dup into a static buffer, for short checks. */
static const char *esc(const char *s, enum esc mode)
{
	static char buf[256];
	char *e = esc_dup(s, mode);
	snprintf(buf, sizeof(buf), "%s", e);
	free(e);
	return buf;
}

/* shortest(v, point): num_short into a static buffer. */
static const char *shortest(double v, bool point)
{
	static char buf[64];
	struct strbuf b = STRBUF_INIT;
	if (!num_nonfinite(&b, v))
		num_short(&b, v, point);
	snprintf(buf, sizeof(buf), "%s", sb_str(&b));
	sb_free(&b);
	return buf;
}

/* test_bool(): a COL_BOOL column stores 0 or 1 whatever integer it is
 * given, and a clone keeps its type. */
static void test_bool(void)
{
	struct table *t = table_new("b", NULL), *c;
	int col = table_col(t, "yes", COL_BOOL, 0);
	table_add_row(t);
	table_set_int(t, col, -5);
	table_add_row(t);
	table_set_int(t, col, 0);
	is_int(table_col_type(t, col), COL_BOOL, "table_col_type: COL_BOOL");
	ok(table_cell(t, 0, col)->kind == CELL_INT && table_cell(t, 0, col)->v.i == 1, "-5 is stored as 1");
	is_int(table_cell(t, 1, col)->v.i, 0, "0 is stored as 0");
	c = table_clone(t, "c");
	is_int(table_col_type(c, col), COL_BOOL, "a clone keeps COL_BOOL");
	table_free(c);
	table_free(t);
}

/* test_escape_lib(): lib/escape directly: XML and the other modes,
 * widths, the shortest forms with and without ".0". */
static void test_escape_lib(void)
{
	is_str(esc("a&b<c>\"d'\t\n\r\x01\x7f", ESC_XML), "a&amp;b&lt;c&gt;&quot;d&#39;\t\n\r\xef\xbf\xbd\x7f",
	       "ESC_XML: entities, tab/LF/CR kept, other C0 replaced");
	is_str(esc("\xef\xbf\xbe\xef\xbf\xbf\xc3", ESC_XML), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
	       "ESC_XML: U+FFFE, U+FFFF and a truncated sequence replaced");
	is_str(esc("a\"b\n\xc3(", ESC_NONE), "a\"b\n\xef\xbf\xbd(", "ESC_NONE only repairs UTF-8");
	is_str(esc("a|b\\<\r\n\x02", ESC_MD), "a\\|b\\\\\\<<br>\\x02", "ESC_MD");
	is_str(esc("*a* `b` [c](d) ~e~ _f_ g_h &amp; & i", ESC_MD),
	       "*a\\* \\`b\\` [c\\](d) ~e\\~ _f\\_ g_h \\&amp; & i",
	       "ESC_MD: what could close markup escaped, an intraword '_' and a lone '&' kept");
	is_str(esc("_a b_ c_ _raw_lock", ESC_MD), "_a b\\_ c\\_ _raw_lock", "ESC_MD: a '_' that ends a word");
	is_str(esc("* a * b ~ _", ESC_MD), "* a * b ~ _", "ESC_MD: '*', '~' and '_' alone between blanks kept");
	is_str(esc("[-0.40, +0.40] ![i][r] [x]: y", ESC_MD), "[-0.40, +0.40] ![i\\][r] [x\\]: y",
	       "ESC_MD: ']' escaped only where a link, image or reference could start");
	is_str(esc("\xe2\x80\xa9", ESC_JSON), "\\u2029", "ESC_JSON: U+2029");
	is_int(utf8_width("caf\xc3\xa9 \xf0\x9f\x98\x80"), 6, "utf8_width counts code points");
	is_str(shortest(1.0, false), "1", "num_short without the point");
	is_str(shortest(1.0, true), "1.0", "num_short with the point");
	is_str(shortest(1e22, true), "1e+22", "num_short: no point after an exponent");
	is_str(shortest(-2.5e-5, false), "-2.5e-05", "num_short of a small negative");
	is_str(shortest(NAN, true), "nan", "num_nonfinite: nan");
	is_str(shortest(-INFINITY, true), "-inf", "num_nonfinite: -inf");
}

/* survives(fn): whether fn runs to its end in a child process (rather
 * than aborting), so that a regression fails one check, not the run. */
static bool survives(void (*fn)(void))
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		dup2(fd, 2);
		fn();
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* test_doc_order(): doc_table_at lists the tables in document order
 * (depth first), whatever order they were added in, so that text and md
 * show them in the order json does. */
static void test_doc_order(void)
{
	struct doc *d = doc_new("test");
	struct dval *first = dv_obj(doc_findings(d), "first"), *second = dv_obj(doc_findings(d), "second");
	struct table *two = dv_table(second, one_row("two", "Two", 2));
	struct table *one = dv_table(first, one_row("one", "One", 1));
	ok(doc_table_at(d, 0) == one && doc_table_at(d, 1) == two, "doc_table_at is in document order");
	ok(doc_main(d) == one, "the main table is the first in document order");
	char *s = render_d(d, FMT_TEXT, NULL);
	is_str(s, "# One\nx\n-\n1\n\n# Two\nx\n-\n2\n", "text shows the tables in document order");
	free(s);
	s = render_d(d, FMT_JSON, NULL);
	char *want = envelope("test", NULL,
			      "{\n    \"first\": {\n      \"one\": [\n        {\"x\": 1}\n      ]\n    },\n"
			      "    \"second\": {\n      \"two\": [\n        {\"x\": 2}\n      ]\n    }\n  }",
			      "[]", "[]");
	is_str(s, want, "json of tables in nested objects");
	free(want);
	free(s);
	doc_free(d);
}

/* tables_in_array(): two tables as elements of an array. */
static void tables_in_array(void)
{
	struct doc *d = doc_new("test");
	struct dval *runs = dv_arr(doc_findings(d), "runs");
	dv_table(runs, one_row("run1", "Run 1", 1));
	dv_table(runs, one_row("run2", "Run 2", 2));
	doc_free(d);
}

/* test_table_in_array(): dv_table adds a table to an array (an element,
 * without a key); it is found by name and shown like any other. */
static void test_table_in_array(void)
{
	bool ran = survives(tables_in_array);
	ok(ran, "dv_table into an array does not abort");
	if (!ran)
		return;
	struct doc *d = doc_new("test");
	struct dval *runs = dv_arr(doc_findings(d), "runs");
	dv_table(runs, one_row("run1", "Run 1", 1));
	dv_table(runs, one_row("run2", "Run 2", 2));
	ok(doc_ntables(d) == 2 && doc_table(d, "run2") == doc_table_at(d, 1), "tables in an array are listed");
	ok(dv_key(runs, 0) == NULL && dv_table_of(dv_item(runs, 1)) == doc_table(d, "run2"),
	   "a table in an array is an element without a key");
	char *s = render_d(d, FMT_JSON, NULL);
	char *want = envelope("test", NULL,
			      "{\n    \"runs\": [\n      [\n        {\"x\": 1}\n      ],\n"
			      "      [\n        {\"x\": 2}\n      ]\n    ]\n  }",
			      "[]", "[]");
	is_str(s, want, "json of tables in an array");
	free(want);
	free(s);
	s = render_d(d, FMT_TEXT, "run2");
	is_str(s, "# Run 2\nx\n-\n2\n", "a table in an array can be the only one shown");
	free(s);
	doc_free(d);
}

/* Misuse: each of these must abort with a "perfdb: internal error: "
 * message. */
static void m_set_no_row(void)
{
	struct table *t = table_new("t", NULL);
	table_col(t, "a", COL_INT, 0);
	table_set_int(t, 0, 1);
}
static void m_set_bad_col(void)
{
	struct table *t = table_new("t", NULL);
	table_col(t, "a", COL_INT, 0);
	table_add_row(t);
	table_set_str(t, 1, "x");
}
static void m_col_after_row(void)
{
	struct table *t = table_new("t", NULL);
	table_col(t, "a", COL_INT, 0);
	table_add_row(t);
	table_col(t, "b", COL_INT, 0);
}
static void m_dup_col(void)
{
	struct table *t = table_new("t", NULL);
	table_col(t, "a", COL_INT, 0);
	table_col(t, "a", COL_STR, 0);
}
static void m_empty_col(void)
{
	table_col(table_new("t", NULL), "", COL_INT, 0);
}
static void m_label_range(void)
{
	struct table *t = table_new("t", NULL);
	table_col(t, "a", COL_INT, 0);
	table_col_label(t, 3, "x");
}
static void m_indent_range(void)
{
	struct table *t = table_new("t", NULL);
	table_col(t, "a", COL_INT, 0);
	table_col_indent(t, 0, 9);
}
static void m_row_show_no_row(void)
{
	table_row_show(table_new("t", NULL), SHOW_DATA);
}
static void m_cell_range(void)
{
	struct table *t = table_new("t", NULL);
	table_col(t, "a", COL_INT, 0);
	table_add_row(t);
	table_cell(t, 5, 0);
}
static void m_caption_range(void)
{
	table_caption_at(table_new("t", NULL), 0);
}
static void m_bad_name(void)
{
	table_new("Bad Name", NULL);
}
static void m_empty_name(void)
{
	table_new("", "T");
}
static void m_null_name(void)
{
	table_new(NULL, "T");
}
static void m_clone_bad_name(void)
{
	table_clone(table_new("t", NULL), "a-b");
}
static void m_dup_key(void)
{
	struct doc *d = doc_new("test");
	dv_int(doc_findings(d), "k", 1);
	dv_str(doc_findings(d), "k", "x");
}
static void m_dup_table(void)
{
	struct doc *d = doc_new("test");
	struct dval *o = dv_obj(doc_findings(d), "o");
	dv_table(doc_findings(d), table_new("t", NULL));
	dv_table(o, table_new("t", NULL));
}
static void m_table_key_taken(void)
{
	struct doc *d = doc_new("test");
	dv_int(doc_findings(d), "t", 1);
	dv_table(doc_findings(d), table_new("t", NULL));
}
static void m_member_no_key(void)
{
	struct doc *d = doc_new("test");
	dv_int(doc_findings(d), NULL, 1);
}
static void m_under_scalar(void)
{
	struct doc *d = doc_new("test");
	dv_int(doc_findings(d), "n", 1);
	dv_int((struct dval *)dv_get(doc_findings(d), "n"), "k", 2);
}
static void m_wrong_kind(void)
{
	struct doc *d = doc_new("test");
	dv_str(doc_findings(d), "s", "x");
	dv_int_of(dv_get(doc_findings(d), "s"));
}
static void m_item_range(void)
{
	struct doc *d = doc_new("test");
	dv_item(doc_findings(d), 0);
}

/* test_misuse(): misuse of tables and documents: they abort with a clear message. */
static void test_misuse(void)
{
	expect_abort(m_set_no_row, BUG "table_set_int: no row yet in table t");
	expect_abort(m_set_bad_col, BUG "table_set_str: column 1 out of range (table t has 1)");
	expect_abort(m_col_after_row, BUG "table_col: column 'b' of table t declared after the first row");
	expect_abort(m_dup_col, BUG "table_col: duplicate column 'a' in table t");
	expect_abort(m_empty_col, BUG "table_col: empty column name in table t");
	expect_abort(m_label_range, BUG "table_col_label: column 3 out of range (table t has 1)");
	expect_abort(m_indent_range, BUG "table_col_indent: column 9 out of range (table t has 1)");
	expect_abort(m_row_show_no_row, BUG "table_row_show: no row yet in table t");
	expect_abort(m_cell_range, BUG "table_cell: row 5 out of range in table t");
	expect_abort(m_caption_range, BUG "table_caption_at: caption 0 out of range in table t");
	expect_abort(m_bad_name, BUG "table_new: bad table name 'Bad Name'");
	expect_abort(m_empty_name, BUG "table_new: bad table name ''");
	expect_abort(m_null_name, BUG "table_new: bad table name '(null)'");
	expect_abort(m_clone_bad_name, BUG "table_new: bad table name 'a-b'");
	expect_abort(m_dup_key, BUG "doc: duplicate key 'k'");
	expect_abort(m_dup_table, BUG "doc: duplicate table 't'");
	expect_abort(m_table_key_taken, BUG "doc: duplicate key 't'");
	expect_abort(m_member_no_key, BUG "doc: a member of an object needs a key");
	expect_abort(m_under_scalar, BUG "doc: 'k' added to a scalar");
	expect_abort(m_wrong_kind, BUG "dv_int_of: value is of another kind");
	expect_abort(m_item_range, BUG "dv_item: 0 out of range");
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_nulls();
	test_labels_show();
	test_digits();
	test_indent();
	test_captions();
	test_clone();
	test_set_title();
	test_warnings_notes();
	test_doc_values();
	test_escape_lib();
	test_bool();
	test_doc_order();
	test_table_in_array();
	test_misuse();
	return tap_done();
}
