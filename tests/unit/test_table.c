/* Unit tests of result tables and their rendering: lib/table.c,
 * lib/doc.c, lib/escape.c, reports/render*.c, reports/json.c and
 * reports/format.c. The exact text, md, csv and json forms of small
 * tables and documents, escaping in each format (quotes, commas,
 * newlines, pipes, control characters, invalid UTF-8), NULL cells, empty
 * tables, shortest float forms, the JSON writer, and that misuse aborts.
 * Python 3 is the oracle for JSON validity, CSV parsing, UTF-8
 * replacement and shortest float forms. */
#include "lib/doc.h"
#include "lib/table.h"
#include "lib/version.h"
#include "reports/format.h"
#include "reports/json.h"
#include "reports/render.h"
#include "tests/unit/tap.h"

#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* render(t, f): the malloc'd output of render_table(t, f). */
static char *render(const struct table *t, enum out_format f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc = render_table(t, f, m);
	fclose(m);
	if (rc) {
		free(buf);
		buf = strdup("(render_table failed)");
	}
	return buf;
}

/* render_d(d, f, only): the malloc'd output of render_doc(d, f, only). */
static char *render_d(const struct doc *d, enum out_format f, const char *only)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc = render_doc(d, f, only, m);
	fclose(m);
	if (rc) {
		free(buf);
		buf = strdup("(render_doc failed)");
	}
	return buf;
}

/* python(script, input, len): runs `python3 -c 'script'` with input on its
 * stdin and returns true when it exits 0. The script must not contain a
 * single quote; it may print "# ..." diagnostics, which TAP shows. */
static bool python(const char *script, const char *input, size_t len)
{
	char *cmd;
	if (asprintf(&cmd, "python3 -c '%s'", script) < 0)
		return false;
	fflush(stdout);
	FILE *p = popen(cmd, "w");
	free(cmd);
	if (!p)
		return false;
	fwrite(input, 1, len, p);
	int st = pclose(p);
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* json_valid(s): whether Python decodes s as strict UTF-8 and parses it
 * as one JSON document. */
static bool json_valid(const char *s)
{
	return python("import json,sys; json.loads(sys.stdin.buffer.read().decode(\"utf-8\"))",
		      s, strlen(s));
}

/* check(t, f, want, what): the output of t in format f is exactly want;
 * JSON output must also be valid JSON. */
static void check(const struct table *t, enum out_format f, const char *want, const char *what)
{
	char *s = render(t, f);
	is_str(s, want, "%s (%s)", what, out_format_name(f));
	if (f == FMT_JSON)
		ok(json_valid(s), "%s: json output is valid JSON", what);
	free(s);
}

/* Tests -------------------------------------------------------------- */

/* test_parse(): format names parse to their enum and back. */
static void test_parse(void)
{
	enum out_format f = FMT_JSON;
	ok(out_format_parse("text", &f) == 0 && f == FMT_TEXT, "parse text");
	ok(out_format_parse("md", &f) == 0 && f == FMT_MD, "parse md");
	ok(out_format_parse("csv", &f) == 0 && f == FMT_CSV, "parse csv");
	ok(out_format_parse("json", &f) == 0 && f == FMT_JSON, "parse json");
	f = FMT_CSV;
	ok(out_format_parse("JSON", &f) == -1 && f == FMT_CSV, "parse is exact: JSON rejected, f kept");
	ok(out_format_parse("markdown", &f) == -1, "parse rejects markdown");
	ok(out_format_parse("", &f) == -1, "parse rejects empty string");
	ok(out_format_parse(NULL, &f) == -1, "parse rejects NULL");
	is_str(out_format_name(FMT_MD), "md", "name of FMT_MD");
	is_str(out_format_name((enum out_format)42), "?", "name of a bad format");
}

/* sample(): a table with every column type, a NULL string and a NaN. */
static struct table *sample(void)
{
	struct table *t = table_new("ctx", "Context switches");
	int cpu = table_col(t, "cpu", COL_INT, 0);
	int comm = table_col(t, "comm", COL_STR, 0);
	int rate = table_col(t, "rate", COL_REAL, 2);
	int share = table_col(t, "share", COL_PCT, 1);
	is_int(share, 3, "table_col returns the column index");
	table_add_row(t);
	table_set_int(t, cpu, 0);
	table_set_str(t, comm, "swapper");
	table_set_real(t, rate, 1234.5);
	table_set_real(t, share, 12.5);
	table_add_row(t);
	table_set_int(t, cpu, 11);
	table_set_str(t, comm, "yield-ping-pong");
	table_set_real(t, rate, 0.126);
	table_set_real(t, share, 87.5);
	table_add_row(t);
	table_set_int(t, cpu, -3);
	table_set_str(t, comm, NULL);
	table_set_real(t, rate, NAN);
	table_set_real(t, share, -0.04);
	return t;
}

/* test_formats(): the sample table in all four formats. */
static void test_formats(void)
{
	struct table *t = sample();
	is_int(table_nrows(t), 3, "table_nrows");
	is_int(table_ncols(t), 4, "table_ncols");
	is_str(table_title(t), "Context switches", "table_title");
	is_str(table_name(t), "ctx", "table_name");
	check(t, FMT_TEXT,
	      "# Context switches\n"
	      "cpu  comm                rate  share\n"
	      "---  ---------------  -------  -----\n"
	      "  0  swapper          1234.50  12.5%\n"
	      " 11  yield-ping-pong     0.13  87.5%\n"
	      " -3                       nan  -0.0%\n",
	      "sample table");
	check(t, FMT_MD,
	      "### Context switches\n"
	      "\n"
	      "| cpu | comm            |    rate | share |\n"
	      "| --: | --------------- | ------: | ----: |\n"
	      "|   0 | swapper         | 1234.50 | 12.5% |\n"
	      "|  11 | yield-ping-pong |    0.13 | 87.5% |\n"
	      "|  -3 |                 |     nan | -0.0% |\n",
	      "sample table");
	check(t, FMT_CSV,
	      "cpu,comm,rate,share\n"
	      "0,swapper,1234.5,12.5\n"
	      "11,yield-ping-pong,0.126,87.5\n"
	      "-3,,nan,-0.04\n",
	      "sample table");
	check(t, FMT_JSON,
	      "[\n"
	      "  {\"cpu\": 0, \"comm\": \"swapper\", \"rate\": 1234.5, \"share\": 12.5},\n"
	      "  {\"cpu\": 11, \"comm\": \"yield-ping-pong\", \"rate\": 0.126, \"share\": 87.5},\n"
	      "  {\"cpu\": -3, \"comm\": null, \"rate\": null, \"share\": -0.04}\n"
	      "]\n",
	      "sample table");
	table_free(t);
}

/* Strings that need escaping in at least one format. */
static const char *const tricky[] = {
	"a,b", "say \"hi\"", "line1\nline2", "a|b", "tab\there", "esc\x1b[31m",
	"back\\slash", "<idle>", "crlf\r\nend", "", "\xff\xfe", "caf\xc3\xa9",
	"ls\xe2\x80\xa8\x65p", "del\x7f",
};
#define NTRICKY (sizeof(tricky) / sizeof(tricky[0]))

/* tricky_table(): one row per tricky string: n (its index), s. */
static struct table *tricky_table(void)
{
	struct table *t = table_new("tricky", NULL);
	table_col(t, "n", COL_INT, 0);
	table_col(t, "s", COL_STR, 0);
	for (size_t i = 0; i < NTRICKY; i++) {
		table_add_row(t);
		table_set_int(t, 0, (long long)i);
		table_set_str(t, 1, tricky[i]);
	}
	return t;
}

/* test_escape_text_md(): control characters, pipes, newlines and invalid
 * UTF-8 in the text and md forms; widths count code points. */
static void test_escape_text_md(void)
{
	struct table *t = tricky_table();
	check(t, FMT_TEXT,
	      " n  s\n"
	      "--  ------------\n"
	      " 0  a,b\n"
	      " 1  say \"hi\"\n"
	      " 2  line1\\nline2\n"
	      " 3  a|b\n"
	      " 4  tab\\there\n"
	      " 5  esc\\x1b[31m\n"
	      " 6  back\\slash\n"
	      " 7  <idle>\n"
	      " 8  crlf\\r\\nend\n"
	      " 9\n"
	      "10  \xef\xbf\xbd\xef\xbf\xbd\n"
	      "11  caf\xc3\xa9\n"
	      "12  ls\xe2\x80\xa8" "ep\n"
	      "13  del\\x7f\n",
	      "escaping");
	check(t, FMT_MD,
	      "|   n | s              |\n"
	      "| --: | -------------- |\n"
	      "|   0 | a,b            |\n"
	      "|   1 | say \"hi\"       |\n"
	      "|   2 | line1<br>line2 |\n"
	      "|   3 | a\\|b           |\n"
	      "|   4 | tab\\there      |\n"
	      "|   5 | esc\\x1b[31m    |\n"
	      "|   6 | back\\\\slash    |\n"
	      "|   7 | \\<idle>        |\n"
	      "|   8 | crlf<br>end    |\n"
	      "|   9 |                |\n"
	      "|  10 | \xef\xbf\xbd\xef\xbf\xbd             |\n"
	      "|  11 | caf\xc3\xa9           |\n"
	      "|  12 | ls\xe2\x80\xa8" "ep          |\n"
	      "|  13 | del\\x7f        |\n",
	      "escaping");
	table_free(t);
}

/* test_escape_csv_json(): quoting in csv, RFC 8259 escapes in json. */
static void test_escape_csv_json(void)
{
	struct table *t = tricky_table();
	check(t, FMT_CSV,
	      "n,s\n"
	      "0,\"a,b\"\n"
	      "1,\"say \"\"hi\"\"\"\n"
	      "2,\"line1\nline2\"\n"
	      "3,a|b\n"
	      "4,tab\there\n"
	      "5,esc\x1b[31m\n"
	      "6,back\\slash\n"
	      "7,<idle>\n"
	      "8,\"crlf\r\nend\"\n"
	      "9,\"\"\n"
	      "10,\xef\xbf\xbd\xef\xbf\xbd\n"
	      "11,caf\xc3\xa9\n"
	      "12,ls\xe2\x80\xa8" "ep\n"
	      "13,del\x7f\n",
	      "escaping");
	check(t, FMT_JSON,
	      "[\n"
	      "  {\"n\": 0, \"s\": \"a,b\"},\n"
	      "  {\"n\": 1, \"s\": \"say \\\"hi\\\"\"},\n"
	      "  {\"n\": 2, \"s\": \"line1\\nline2\"},\n"
	      "  {\"n\": 3, \"s\": \"a|b\"},\n"
	      "  {\"n\": 4, \"s\": \"tab\\there\"},\n"
	      "  {\"n\": 5, \"s\": \"esc\\u001b[31m\"},\n"
	      "  {\"n\": 6, \"s\": \"back\\\\slash\"},\n"
	      "  {\"n\": 7, \"s\": \"<idle>\"},\n"
	      "  {\"n\": 8, \"s\": \"crlf\\r\\nend\"},\n"
	      "  {\"n\": 9, \"s\": \"\"},\n"
	      "  {\"n\": 10, \"s\": \"\\ufffd\\ufffd\"},\n"
	      "  {\"n\": 11, \"s\": \"caf\xc3\xa9\"},\n"
	      "  {\"n\": 12, \"s\": \"ls\\u2028ep\"},\n"
	      "  {\"n\": 13, \"s\": \"del\\u007f\"}\n"
	      "]\n",
	      "escaping");
	table_free(t);
}

/* test_header_escape(): column names and titles are escaped too. */
static void test_header_escape(void)
{
	struct table *t = table_new("hdr", "a|b\nc");
	table_col(t, "x,\"y\"", COL_STR, 0);
	table_col(t, "p|q", COL_INT, 0);
	check(t, FMT_TEXT, "# a|b\\nc\nx,\"y\"  p|q\n-----  ---\n", "escaped headers");
	check(t, FMT_MD,
	      "### a\\|b<br>c\n\n| x,\"y\" | p\\|q |\n| ----- | ---: |\n",
	      "escaped headers");
	check(t, FMT_CSV, "\"x,\"\"y\"\"\",p|q\n", "escaped headers");
	table_free(t);
}

/* test_invalid_utf8(): the replacement of ill-formed sequences, one
 * U+FFFD per maximal subpart, on hand-picked cases. */
static void test_invalid_utf8(void)
{
	static const struct {
		const char *in, *want;
	} cases[] = {
		{ "\xc0\xaf", "\\ufffd\\ufffd" },             /* overlong lead */
		{ "\xe2\x82\x41", "\\ufffdA" },               /* truncated 3-byte */
		{ "\xed\xa0\x80", "\\ufffd\\ufffd\\ufffd" },  /* surrogate */
		{ "\xf4\x90\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd" }, /* > U+10FFFF */
		{ "\xf0\x9f\x98\x78", "\\ufffdx" },           /* truncated 4-byte */
		{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80" },   /* U+1F600 kept */
		{ "\x80x\xbf", "\\ufffdx\\ufffd" },           /* lone continuations */
		{ "\xe0\x80\x80", "\\ufffd\\ufffd\\ufffd" },  /* overlong 3-byte */
		{ "\xef\xbf\xbf", "\xef\xbf\xbf" },           /* U+FFFF kept */
		{ "\xf5\x80", "\\ufffd\\ufffd" },             /* F5 never valid */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *buf = NULL, want[64];
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		struct json *j = json_new(m, false);
		json_str(j, cases[i].in);
		json_free(j);
		fclose(m);
		snprintf(want, sizeof(want), "\"%s\"\n", cases[i].want);
		is_str(buf, want, "invalid UTF-8 case %zu", i);
		free(buf);
	}
}

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

/* test_empty(): tables without rows and without columns. */
static void test_empty(void)
{
	struct table *t = table_new("t", NULL);
	table_col(t, "name", COL_STR, 0);
	table_col(t, "n", COL_INT, 0);
	check(t, FMT_TEXT, "name  n\n----  -\n", "no rows");
	check(t, FMT_MD, "| name |   n |\n| ---- | --: |\n", "no rows");
	check(t, FMT_CSV, "name,n\n", "no rows");
	check(t, FMT_JSON, "[]\n", "no rows");
	table_free(t);

	t = table_new("t", NULL);
	check(t, FMT_TEXT, "", "no columns, no title");
	check(t, FMT_MD, "", "no columns, no title");
	check(t, FMT_CSV, "", "no columns, no title");
	check(t, FMT_JSON, "[]\n", "no columns, no title");
	table_free(t);

	t = table_new("t", "T");
	table_add_row(t);
	table_add_row(t);
	check(t, FMT_TEXT, "# T\n", "no columns, two rows");
	check(t, FMT_MD, "### T\n\n", "no columns, two rows");
	check(t, FMT_CSV, "", "no columns, two rows");
	check(t, FMT_JSON, "[\n  {},\n  {}\n]\n", "no columns, two rows");
	table_free(t);
	table_free(NULL);
	ok(1, "table_free(NULL) is harmless");
}

/* test_mixed_types(): values of another type than their column's, and
 * the shortest form for a negative precision. */
static void test_mixed_types(void)
{
	struct table *t = table_new("t", NULL);
	table_col(t, "i", COL_INT, 0);
	table_col(t, "r", COL_REAL, 2);
	table_col(t, "g", COL_REAL, -1);
	table_col(t, "p", COL_PCT, 0);
	table_add_row(t);
	table_set_real(t, 0, 2.7);
	table_set_int(t, 1, 3);
	table_set_real(t, 2, 0.1);
	table_set_int(t, 3, 50);
	table_add_row(t);
	table_set_str(t, 0, "n/a");
	table_set_real(t, 1, INFINITY);
	table_set_real(t, 2, 1e20);
	table_set_real(t, 3, -INFINITY);
	table_add_row(t);
	table_set_int(t, 0, LLONG_MIN);
	table_set_real(t, 2, 100);
	check(t, FMT_TEXT,
	      "                   i     r      g     p\n"
	      "--------------------  ----  -----  ----\n"
	      "                   3  3.00    0.1   50%\n"
	      "                 n/a   inf  1e+20  -inf\n"
	      "-9223372036854775808          100\n",
	      "mixed types");
	check(t, FMT_CSV,
	      "i,r,g,p\n2.7,3.0,0.1,50.0\nn/a,inf,1e+20,-inf\n-9223372036854775808,,100.0,\n",
	      "mixed types");
	check(t, FMT_JSON,
	      "[\n"
	      "  {\"i\": 2.7, \"r\": 3.0, \"g\": 0.1, \"p\": 50.0},\n"
	      "  {\"i\": \"n/a\", \"r\": null, \"g\": 1e+20, \"p\": null},\n"
	      "  {\"i\": -9223372036854775808, \"r\": null, \"g\": 100.0, \"p\": null}\n"
	      "]\n",
	      "mixed types");
	table_free(t);
}

/* three_tables(): a document of tables "a" (titled A, one row), "b"
 * (titled B, no rows) and "c" (untitled, one real). */
static struct doc *three_tables(void)
{
	struct doc *d = doc_new("test");
	struct table *a = table_new("a", "A"), *b = table_new("b", "B"), *c = table_new("c", NULL);
	table_col(a, "x", COL_INT, 0);
	table_add_row(a);
	table_set_int(a, 0, 1);
	table_col(b, "y", COL_STR, 0);
	table_col(c, "z", COL_REAL, 1);
	table_add_row(c);
	table_set_real(c, 0, 0.25);
	dv_table(doc_findings(d), a);
	dv_table(doc_findings(d), b);
	dv_table(doc_findings(d), c);
	return d;
}

/* test_doc_tables(): several tables as one document: text and md show
 * each, one empty line apart; csv only the main one (the first unless
 * doc_set_main names another); json the envelope with the tables keyed by
 * name under "findings". */
static void test_doc_tables(void)
{
	struct doc *d = three_tables();
	char *json = NULL;
	if (asprintf(&json,
		     "{\n  \"perfdb\": \"%s\",\n  \"verb\": \"test\",\n  \"sessions\": [],\n"
		     "  \"findings\": {\n    \"a\": [\n      {\"x\": 1}\n    ],\n    \"b\": [],\n"
		     "    \"c\": [\n      {\"z\": 0.25}\n    ]\n  },\n  \"warnings\": [],\n  \"notes\": []\n}\n",
		     perfdb_version) < 0)
		json = NULL;
	struct {
		enum out_format f;
		const char *want;
	} cases[] = {
		{ FMT_TEXT, "# A\nx\n-\n1\n\n# B\ny\n-\n\n  z\n---\n0.2\n" },
		{ FMT_MD, "### A\n\n|   x |\n| --: |\n|   1 |\n\n### B\n\n| y   |\n| --- |\n\n"
			  "|   z |\n| --: |\n| 0.2 |\n" },
		{ FMT_CSV, "x\n1\n" },
		{ FMT_JSON, json },
	};
	is_int(doc_ntables(d), 3, "doc_ntables");
	is_str(table_name(doc_main(d)), "a", "the main table is the first by default");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = render_d(d, cases[i].f, NULL);
		is_str(s, cases[i].want, "document of three tables (%s)", out_format_name(cases[i].f));
		if (cases[i].f == FMT_JSON)
			ok(json_valid(s), "document json is valid JSON");
		free(s);
	}
	doc_set_main(d, "c");
	char *s = render_d(d, FMT_CSV, NULL);
	is_str(s, "z\n0.25\n", "csv shows the table doc_set_main names");
	free(s);
	free(json);
	doc_free(d);
	d = doc_new("test");
	ok(doc_main(d) == NULL, "no main table in a document without tables");
	s = render_d(d, FMT_CSV, NULL);
	is_str(s, "", "csv of a document without tables is empty");
	free(s);
	doc_free(d);
}

/* json_render(pretty, fn): the malloc'd output of fn on a fresh writer. */
static char *json_render(bool pretty, void (*fn)(struct json *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct json *j = json_new(m, pretty);
	fn(j);
	json_free(j);
	fclose(m);
	return buf;
}

/* nested(j): an object with scalars, an array, an empty object and the
 * rows of a table (one-line objects, as render.c writes them) inside. */
static void nested(struct json *j)
{
	json_begin_object(j);
	json_key(j, "a");
	json_int(j, 1);
	json_key(j, "b");
	json_begin_array(j);
	json_str(j, "x");
	json_null(j);
	json_bool(j, true);
	json_bool(j, false);
	json_real(j, 0.5);
	json_str(j, NULL);
	json_end_array(j);
	json_key(j, "c");
	json_begin_object(j);
	json_end_object(j);
	json_key(j, "rows");
	json_begin_array(j);
	json_flat_next(j);
	json_begin_object(j);
	json_key(j, "k");
	json_str(j, "v");
	json_end_object(j);
	json_end_array(j);
	json_end_object(j);
}

/* two_values(j): two top-level values. */
static void two_values(struct json *j)
{
	json_int(j, 1);
	json_begin_array(j);
	json_end_array(j);
}

/* numbers(j): integers and reals at the edges of their ranges. */
static void numbers(struct json *j)
{
	json_begin_array(j);
	json_int(j, LLONG_MIN);
	json_int(j, LLONG_MAX);
	const double v[] = { 0.1, 1e-7, 1e16, 123456789012345680.0, 5.0, -0.0, NAN, INFINITY,
			     -INFINITY, 1e300, 5e-324, DBL_MAX, 0.0001, 1234567890123456.0, 0.3 };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		json_real(j, v[i]);
	json_end_array(j);
}

/* test_json_writer(): exact compact and pretty output. */
static void test_json_writer(void)
{
	char *s = json_render(false, nested);
	is_str(s, "{\"a\":1,\"b\":[\"x\",null,true,false,0.5,null],\"c\":{},\"rows\":[{\"k\":\"v\"}]}\n",
	       "compact nested JSON");
	free(s);
	s = json_render(true, nested);
	is_str(s,
	       "{\n"
	       "  \"a\": 1,\n"
	       "  \"b\": [\n"
	       "    \"x\",\n"
	       "    null,\n"
	       "    true,\n"
	       "    false,\n"
	       "    0.5,\n"
	       "    null\n"
	       "  ],\n"
	       "  \"c\": {},\n"
	       "  \"rows\": [\n"
	       "    {\"k\": \"v\"}\n"
	       "  ]\n"
	       "}\n",
	       "pretty nested JSON");
	ok(json_valid(s), "pretty nested JSON is valid");
	free(s);
	s = json_render(false, two_values);
	is_str(s, "1\n[]\n", "each top-level value ends with a newline");
	free(s);
	s = json_render(false, numbers);
	is_str(s,
	       "[-9223372036854775808,9223372036854775807,0.1,1e-07,1e+16,1.2345678901234568e+17,"
	       "5.0,-0.0,null,null,null,1e+300,5e-324,1.7976931348623157e+308,0.0001,"
	       "1234567890123456.0,0.3]\n",
	       "JSON numbers");
	free(s);
}

/* Deterministic pseudo-random numbers (xorshift64), so failures repeat. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

/* rng(): the next pseudo-random 64-bit value. */
static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* random_doubles(j): 2000 finite doubles from random bit patterns and
 * random small decimals, as one array. */
static void random_doubles(struct json *j)
{
	json_begin_array(j);
	for (int i = 0; i < 2000; i++) {
		uint64_t bits = rng();
		double d;
		memcpy(&d, &bits, sizeof(d));
		if (i % 2)
			d = (double)(int64_t)(rng() % 2000001 - 1000000) / (double)(1 + rng() % 10000);
		json_real(j, isfinite(d) ? d : 1.5);
	}
	json_end_array(j);
}

/* test_json_numbers_python(): every real reads back exactly and is
 * written as Python writes it (shortest repr). */
static void test_json_numbers_python(void)
{
	char *s = json_render(false, random_doubles);
	ok(python("import json,sys\n"
		  "s = sys.stdin.read()\n"
		  "t = json.dumps(json.loads(s), separators=(\",\", \":\")) + \"\\n\"\n"
		  "a, b = s.split(\",\"), t.split(\",\")\n"
		  "bad = [(x, y) for x, y in zip(a, b) if x != y]\n"
		  "[print(\"#   got\", x, \"python\", y) for x, y in bad[:5]]\n"
		  "sys.exit(1 if bad or len(a) != len(b) else 0)\n",
		  s, strlen(s)),
	   "2000 random reals match Python's shortest repr");
	free(s);
	s = json_render(true, nested);
	ok(python("import json,sys\n"
		  "s = sys.stdin.read()\n"
		  "v = json.loads(s)\n"
		  "v[\"rows\"] = []\n"
		  "t = json.dumps(v, indent=2) + \"\\n\"\n"
		  "sys.exit(0 if s.replace(\"[\\n    {\\\"k\\\": \\\"v\\\"}\\n  ]\", \"[]\") == t else 1)\n",
		  s, strlen(s)),
	   "pretty layout matches Python json.dumps(indent=2)");
	free(s);
}

/* random_bytes(buf, max): fills buf with a random NUL-free byte string
 * mixing ASCII, control characters, valid multi-byte sequences and stray
 * high bytes; returns its length. */
static size_t random_bytes(unsigned char *buf, size_t max)
{
	size_t n = 0, want = rng() % (max / 4);
	while (n < want) {
		uint64_t r = rng();
		if (r % 4 == 0) {
			buf[n++] = (unsigned char)(1 + r / 4 % 127);
		} else if (r % 4 == 1) {
			buf[n++] = (unsigned char)(0x80 + r / 4 % 128);
		} else {
			uint32_t cp = (uint32_t)(r / 4 % 0x110000);
			if (cp < 0x80)
				buf[n++] = (unsigned char)(cp ? cp : 'a');
			else if (cp < 0x800)
				buf[n++] = (unsigned char)(0xC0 | cp >> 6);
			else if (cp < 0x10000)
				buf[n++] = (unsigned char)(0xE0 | cp >> 12),
				buf[n++] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
			else
				buf[n++] = (unsigned char)(0xF0 | cp >> 18),
				buf[n++] = (unsigned char)(0x80 | (cp >> 12 & 0x3F)),
				buf[n++] = (unsigned char)(0x80 | (cp >> 6 & 0x3F));
			if (cp >= 0x80)
				buf[n++] = (unsigned char)(0x80 | (cp & 0x3F));
		}
	}
	buf[n] = '\0';
	return n;
}

/* random_table(): 500 rows of random byte strings "s" and their hex "hex". */
static struct table *random_table(void)
{
	struct table *t = table_new("t", NULL);
	table_col(t, "hex", COL_STR, 0);
	table_col(t, "s", COL_STR, 0);
	for (int i = 0; i < 500; i++) {
		unsigned char b[64];
		char hex[2 * sizeof(b) + 1] = "";
		size_t n = random_bytes(b, sizeof(b) - 4);
		for (size_t k = 0; k < n; k++)
			snprintf(hex + 2 * k, 3, "%02x", b[k]);
		table_add_row(t);
		table_set_str(t, 0, hex);
		table_set_str(t, 1, (const char *)b);
	}
	for (size_t i = 0; i < NTRICKY; i++) {
		char hex[64] = "";
		for (size_t k = 0; tricky[i][k]; k++)
			snprintf(hex + 2 * k, 3, "%02x", (unsigned char)tricky[i][k]);
		table_add_row(t);
		table_set_str(t, 0, hex);
		table_set_str(t, 1, tricky[i]);
	}
	return t;
}

/* test_random_strings_python(): random byte strings survive csv and json
 * as Python's bytes.decode("utf-8", "replace") sees them, and both outputs
 * are valid UTF-8. */
static void test_random_strings_python(void)
{
	struct table *t = random_table();
	char *s = render(t, FMT_JSON);
	ok(python("import json,sys\n"
		  "rows = json.loads(sys.stdin.buffer.read().decode(\"utf-8\"))\n"
		  "bad = [r for r in rows if bytes.fromhex(r[\"hex\"]).decode(\"utf-8\", \"replace\") != r[\"s\"]]\n"
		  "[print(\"#   bad\", r[\"hex\"], ascii(r[\"s\"])) for r in bad[:5]]\n"
		  "sys.exit(1 if bad or len(rows) != 514 else 0)\n",
		  s, strlen(s)),
	   "random strings in JSON decode as Python's UTF-8 replace does");
	free(s);
	s = render(t, FMT_CSV);
	ok(python("import csv,io,sys\n"
		  "f = io.TextIOWrapper(sys.stdin.buffer, encoding=\"utf-8\", newline=\"\")\n"
		  "rows = list(csv.reader(f))\n"
		  "bad = [r for r in rows[1:] if bytes.fromhex(r[0]).decode(\"utf-8\", \"replace\") != r[1]]\n"
		  "[print(\"#   bad\", r) for r in bad[:5]]\n"
		  "sys.exit(1 if bad or rows[0] != [\"hex\", \"s\"] or len(rows) != 515 else 0)\n",
		  s, strlen(s)),
	   "random strings in CSV parse back with Python's csv module");
	free(s);
	table_free(t);
}

/* test_large(): thousands of rows; JSON stays valid and complete. */
static void test_large(void)
{
	struct table *t = table_new("big", "big");
	table_col(t, "i", COL_INT, 0);
	table_col(t, "half", COL_REAL, 1);
	for (int i = 0; i < 5000; i++) {
		table_add_row(t);
		table_set_int(t, 0, i);
		table_set_real(t, 1, i / 2.0);
	}
	char *s = render(t, FMT_JSON);
	ok(python("import json,sys\n"
		  "rows = json.load(sys.stdin)\n"
		  "sys.exit(0 if rows == [{\"i\": i, \"half\": i / 2} for i in range(5000)] else 1)\n",
		  s, strlen(s)),
	   "5000-row JSON table reads back intact");
	free(s);
	s = render(t, FMT_TEXT);
	ok(strstr(s, "\n4999  2499.5\n") != NULL, "5000-row text table ends aligned");
	free(s);
	table_free(t);
}

/* test_write_error(): render_table reports a stream that fails. */
static void test_write_error(void)
{
	struct table *t = sample();
	FILE *f = fopen("/dev/null", "r");
	ok(f && render_table(t, FMT_TEXT, f) == -1, "render_table returns -1 on a failed write");
	if (f)
		fclose(f);
	table_free(t);
}

/* Misuse: each of these must abort with a "perfdb: internal error: "
 * message. */
static void m_key_top(void)
{
	struct json *j = json_new(stdout, false);
	json_key(j, "k");
}
static void m_key_in_array(void)
{
	struct json *j = json_new(stdout, false);
	json_begin_array(j);
	json_key(j, "k");
}
static void m_value_no_key(void)
{
	struct json *j = json_new(stdout, false);
	json_begin_object(j);
	json_int(j, 1);
}
static void m_end_mismatch(void)
{
	struct json *j = json_new(stdout, false);
	json_begin_object(j);
	json_end_array(j);
}
static void m_end_after_key(void)
{
	struct json *j = json_new(stdout, false);
	json_begin_object(j);
	json_key(j, "k");
	json_end_object(j);
}
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
static void m_bad_format(void)
{
	struct table *t = table_new("t", NULL);
	render_table(t, (enum out_format)7, stdout);
}
static void m_bad_doc_format(void)
{
	struct doc *d = doc_new("test");
	render_doc(d, (enum out_format)-1, NULL, stdout);
}

/* What every programming error's message starts with. */
#define BUG "perfdb: internal error: "

/* expect_abort(fn, msg): runs fn in a child; it must die of SIGABRT after
 * writing a stderr line that contains msg. */
static void expect_abort(void (*fn)(void), const char *msg)
{
	int fd[2];
	char buf[512] = "";
	if (pipe(fd)) {
		ok(0, "pipe for %s", msg);
		return;
	}
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 2);
		close(fd[0]);
		fn();
		_exit(0);
	}
	close(fd[1]);
	size_t n = 0;
	ssize_t r;
	while (n < sizeof(buf) - 1 && (r = read(fd[0], buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)r;
	buf[n] = '\0';
	close(fd[0]);
	int st = 0;
	waitpid(pid, &st, 0);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT && strstr(buf, msg),
	   "aborts with '%s'", msg);
}

/* test_misuse(): programming errors abort with a clear message. */
static void test_misuse(void)
{
	expect_abort(m_key_top, BUG "json_key: key 'k' outside a JSON object");
	expect_abort(m_key_in_array, BUG "json_key: key 'k' outside a JSON object");
	expect_abort(m_value_no_key, BUG "json_int: value inside a JSON object without a key");
	expect_abort(m_end_mismatch, BUG "json_end_array: no open JSON array to close");
	expect_abort(m_end_after_key, BUG "json_end_object: JSON key without a value");
	expect_abort(m_set_no_row, BUG "table_set_int: no row yet in table t");
	expect_abort(m_set_bad_col, BUG "table_set_str: column 1 out of range (table t has 1)");
	expect_abort(m_col_after_row, BUG "table_col: column 'b' of table t declared after the first row");
	expect_abort(m_dup_col, BUG "table_col: duplicate column 'a' in table t");
	expect_abort(m_bad_format, BUG "render_table: bad format 7");
	expect_abort(m_bad_doc_format, BUG "render_doc: bad format -1");
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	test_parse();
	test_formats();
	test_escape_text_md();
	test_escape_csv_json();
	test_header_escape();
	test_invalid_utf8();
	test_nulls();
	test_empty();
	test_mixed_types();
	test_doc_tables();
	test_json_writer();
	test_json_numbers_python();
	test_random_strings_python();
	test_large();
	test_write_error();
	test_misuse();
	return tap_done();
}
