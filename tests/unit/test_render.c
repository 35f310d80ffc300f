/* Unit tests of rendering tables and documents: reports/render*.c,
 * reports/json.c, reports/format.c and reports/svg_chart.c. The exact
 * text, md, csv and json forms of small tables and documents, escaping in
 * each format (quotes, commas, newlines, pipes, control characters,
 * invalid UTF-8; html's entities), empty tables, values of another type
 * than their column's, shortest float forms, the JSON writer; sections and
 * document titles, the list, plain and chart styles (a chart's file
 * through lib/outfile.h), the main table and
 * --table's selection, html, table names, the SVG chart; and that misuse
 * of the JSON writer and the renderers aborts. Python 3 is the oracle for
 * JSON validity, CSV parsing, UTF-8 replacement, shortest float forms and
 * well-formed XML. The tables and documents themselves are
 * test_table.c's. */
#include "lib/doc.h"
#include "lib/table.h"
#include "lib/version.h"
#include "reports/format.h"
#include "reports/json.h"
#include "reports/render.h"
#include "reports/svg_chart.h"
#include "tests/unit/render_util.h"
#include "tests/unit/tap.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* render_o(d, f, only, o): the malloc'd output of render_doc_opts. */
static char *render_o(const struct doc *d, enum out_format f, const char *only, const struct render_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc = render_doc_opts(d, f, only, o, m);
	fclose(m);
	if (rc) {
		free(buf);
		buf = strdup("(render_doc_opts failed)");
	}
	return buf;
}

/* xml_ok(s): whether Python's XML parser reads s as one well-formed
 * document. */
static bool xml_ok(const char *s)
{
	return python("import sys,xml.etree.ElementTree as E; E.fromstring(sys.stdin.buffer.read())",
		      s, strlen(s));
}

/* html_body(s): a malloc'd copy of the <body> element of the html page s
 * (the head holds HTML's void <meta> tags, which XML cannot read), or an
 * empty string when s has none. */
static char *html_body(const char *s)
{
	const char *b = strstr(s, "<body>"), *e = b ? strstr(b, "</body>") : NULL;
	return e ? strndup(b, (size_t)(e - b) + strlen("</body>")) : strdup("");
}

/* count(s, needle): the occurrences of needle in s. */
static int count(const char *s, const char *needle)
{
	int n = 0;
	for (; (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
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
	ok(out_format_parse("html", &f) == 0 && f == FMT_HTML, "parse html");
	f = FMT_CSV;
	ok(out_format_parse("JSON", &f) == -1 && f == FMT_CSV, "parse is exact: JSON rejected, f kept");
	ok(out_format_parse("markdown", &f) == -1, "parse rejects markdown");
	ok(out_format_parse("", &f) == -1, "parse rejects empty string");
	ok(out_format_parse(NULL, &f) == -1, "parse rejects NULL");
	is_str(out_format_name(FMT_MD), "md", "name of FMT_MD");
	is_str(out_format_name(FMT_HTML), "html", "name of FMT_HTML");
	ok(out_format_names[5] == NULL && !strcmp(out_format_names[2], "csv"), "out_format_names");
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

/* Strings GFM would read as markup (emphasis, code, links, strikethrough,
 * entities, html) or as a cell's end. */
static const char *const markup[] = {
	"a*b*c", "`code`", "[x](y)", "~~s~~", "_em_", "snake_case_name", "&amp; & x", "x | y", "a\\|b", "two\nlines", "<b>bold</b>",
};
#define NMARKUP (sizeof(markup) / sizeof(markup[0]))

/* strings_table(name, s, n): one row per string: n (its index), s. */
static struct table *strings_table(const char *name, const char *const *s, size_t n)
{
	struct table *t = table_new(name, NULL);
	table_col(t, "n", COL_INT, 0);
	table_col(t, "s", COL_STR, 0);
	for (size_t i = 0; i < n; i++) {
		table_add_row(t);
		table_set_int(t, 0, (long long)i);
		table_set_str(t, 1, s[i]);
	}
	return t;
}

/* The Python half of cmark_reads: stdin holds the md, a NUL, the json. */
#define CMARK_SCRIPT \
	"import json, subprocess\n" \
	"from html.parser import HTMLParser\n" \
	"md, js = sys.stdin.buffer.read().split(b\"\\0\", 1)\n" \
	"want = [r[\"s\"] for r in json.loads(js.decode(\"utf-8\"))]\n" \
	"out = subprocess.run([\"cmark-gfm\", \"--unsafe\", \"-e\", \"table\", \"-e\", \"strikethrough\"], input=md,\n" \
	"                     stdout=subprocess.PIPE, check=True).stdout.decode(\"utf-8\")\n" \
	"class P(HTMLParser):\n" \
	"    def __init__(self):\n" \
	"        super().__init__()\n" \
	"        self.rows, self.cell = [], None\n" \
	"    def handle_starttag(self, tag, attrs):\n" \
	"        if tag == \"tr\":\n" \
	"            self.rows.append([])\n" \
	"        elif tag in (\"td\", \"th\"):\n" \
	"            self.cell = \"\"\n" \
	"        elif tag == \"br\" and self.cell is not None:\n" \
	"            self.cell += \"\\n\"\n" \
	"    def handle_endtag(self, tag):\n" \
	"        if tag in (\"td\", \"th\"):\n" \
	"            self.rows[-1].append(self.cell)\n" \
	"            self.cell = None\n" \
	"    def handle_data(self, d):\n" \
	"        if self.cell is not None:\n" \
	"            self.cell += d\n" \
	"p = P()\n" \
	"p.feed(out)\n" \
	"bad = [r for r in p.rows if len(r) != 2]\n" \
	"if len(p.rows) != len(want) + 1:\n" \
	"    bad.append((\"rows\", len(p.rows), len(want) + 1))\n" \
	"if exact:\n" \
	"    bad += [(r[1], w) for r, w in zip(p.rows[1:], want) if r[1] != w]\n" \
	"[print(\"#   bad:\", ascii(x)) for x in bad[:5]]\n" \
	"sys.exit(1 if bad else 0)\n"

/* cmark_reads(md, json, exact): whether cmark-gfm (GitHub's parser, with its
 * table and strikethrough extensions) reads the md table md as a table
 * whose every row has two cells, the second one (a <br> read as a
 * newline) the string "s" of the same row of the json table json; with
 * exact false, only the cell counts. */
static bool cmark_reads(const char *md, const char *json, bool exact)
{
	size_t n = strlen(md), m = strlen(json);
	char *in = malloc(n + m + 2);
	bool rc;
	memcpy(in, md, n);
	in[n] = 0;
	memcpy(in + n + 1, json, m + 1);
	rc = python(exact ? "import sys\nexact = True\n" CMARK_SCRIPT : "import sys\nexact = False\n" CMARK_SCRIPT,
		    in, n + m + 1);
	free(in);
	return rc;
}

/* cmark_check(t, exact, what): cmark_reads of t's md and json forms; a
 * skip without cmark-gfm. */
static void cmark_check(const struct table *t, bool exact, const char *what)
{
	char *md = render(t, FMT_MD), *json = render(t, FMT_JSON);
	if (system("cmark-gfm --version >/dev/null 2>&1"))
		skip("cmark-gfm not installed");
	else
		ok(cmark_reads(md, json, exact), "%s: cmark-gfm reads %s", what,
		   exact ? "every string back as it is, one cell each" : "two cells in every row");
	free(md);
	free(json);
}

/* test_md_markup(): markup characters are escaped so GFM shows each
 * string as it is, in its own cell: the exact md, and cmark-gfm reading
 * it back. */
static void test_md_markup(void)
{
	struct table *t = strings_table("markup", markup, NMARKUP);
	check(t, FMT_MD,
	      "|   n | s               |\n"
	      "| --: | --------------- |\n"
	      "|   0 | a\\*b\\*c         |\n"
	      "|   1 | \\`code\\`        |\n"
	      "|   2 | [x\\](y)         |\n"
	      "|   3 | ~\\~s\\~\\~        |\n"
	      "|   4 | _em\\_           |\n"
	      "|   5 | snake_case_name |\n"
	      "|   6 | \\&amp; & x      |\n"
	      "|   7 | x \\| y          |\n"
	      "|   8 | a\\\\\\|b          |\n"
	      "|   9 | two<br>lines    |\n"
	      "|  10 | \\<b>bold\\</b>   |\n",
	      "markup escaped");
	cmark_check(t, true, "markup");
	table_free(t);
}

/* tricky_table(): one row per tricky string: n (its index), s. */
static struct table *tricky_table(void)
{
	return strings_table("tricky", tricky, NTRICKY);
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
	cmark_check(t, false, "escaping");
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

/* test_bool_column(): a COL_BOOL column is "yes" or "no" in text, md and
 * html (left-aligned), 1 or 0 in csv, true or false in json; NULL stays
 * the null text, null and an empty field. */
static void test_bool_column(void)
{
	struct table *t = table_new("b", NULL);
	table_col(t, "k", COL_INT, 0);
	table_col(t, "sig", COL_BOOL, 0);
	for (int i = 0; i < 3; i++) {
		table_add_row(t);
		table_set_int(t, 0, i);
		if (i < 2)
			table_set_int(t, 1, i ? 7 : 0);
	}
	check(t, FMT_TEXT, "k  sig\n-  ---\n0  no\n1  yes\n2\n", "bool column");
	check(t, FMT_MD, "|   k | sig |\n| --: | --- |\n|   0 | no  |\n|   1 | yes |\n|   2 |     |\n", "bool column");
	check(t, FMT_CSV, "k,sig\n0,0\n1,1\n2,\n", "bool column");
	check(t, FMT_JSON,
	      "[\n  {\"k\": 0, \"sig\": false},\n  {\"k\": 1, \"sig\": true},\n  {\"k\": 2, \"sig\": null}\n]\n",
	      "bool column");
	char *html = render(t, FMT_HTML);
	ok(strstr(html, "<td class=\"n\">0</td><td>no</td>") && strstr(html, "<td class=\"n\">1</td><td>yes</td>"),
	   "bool column (html): yes and no, not right-aligned");
	free(html);
	table_free(t);
}

/* test_html_wide(): the page's style lets no column be narrower than its
 * longest word (no overflow-wrap:anywhere, numbers never wrap) and puts
 * each table in a box that scrolls when the table is wider than the page;
 * tests/integration/report.sh measures a real report in chromium. */
static void test_html_wide(void)
{
	struct table *t = one_row("w", NULL, 1);
	char *s = render(t, FMT_HTML);
	ok(!strstr(s, "anywhere") && strstr(s, "overflow-wrap:break-word"), "html: cells break between words only");
	ok(strstr(s, "td.n,th.n{") && strstr(strstr(s, "td.n,th.n{"), "white-space:nowrap}"),
	   "html: numeric cells never wrap");
	ok(strstr(s, "div.table{overflow-x:auto") && strstr(s, "<div class=\"table\"><table>") &&
		   strstr(s, "</table></div>"),
	   "html: each table in a box that scrolls sideways");
	free(s);
	table_free(t);
	t = table_new("c", NULL);
	table_col(t, "cmd", COL_STR, 0);
	table_add_row(t);
	table_set_str(t, 0, "perf record -e a:b --x=<y>\n -- yield");
	s = render(t, FMT_HTML);
	ok(strstr(s, "span.w{white-space:nowrap}") &&
		   strstr(s, "<td>perf record <span class=\"w\">-e</span> a:b <span class=\"w\">--x=&lt;y&gt;</span>\n "
			     "<span class=\"w\">--</span> yield</td>"),
	   "html: a word with a '-' is a span that does not wrap");
	free(s);
	table_free(t);
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

/* test_random_strings_human(): with random strings in cells, text and md
 * are valid UTF-8 and keep each row on one line; md lines are all as wide
 * (in code points) as the header. */
static void test_random_strings_human(void)
{
	struct table *t = random_table();
	cmark_check(t, false, "random strings");
	for (int md = 0; md < 2; md++) {
		char *s = render(t, md ? FMT_MD : FMT_TEXT), *script = NULL;
		if (asprintf(&script,
			     "import sys\n"
			     "lines = sys.stdin.buffer.read().decode(\"utf-8\").split(\"\\n\")\n"
			     "ok = len(lines) == 517 and lines[-1] == \"\"\n"
			     "ok = ok and (%s or len(set(len(x) for x in lines[:-1])) == 1)\n"
			     "sys.exit(0 if ok else 1)\n",
			     md ? "False" : "True") < 0)
			script = NULL;
		ok(script && python(script, s, strlen(s)), "random strings: one line per row (%s)",
		   md ? "md" : "text");
		free(script);
		free(s);
	}
	table_free(t);
}

/* test_random_strings_html(): the random strings in an html page read
 * back with Python's XML parser as Python's UTF-8 replace decodes them,
 * with the characters XML cannot hold (C0 controls but tab, LF and CR;
 * U+FFFE, U+FFFF) as U+FFFD and line ends normalized as XML does. */
static void test_random_strings_html(void)
{
	struct doc *d = doc_new("test");
	dv_table(doc_findings(d), random_table());
	char *s = render_d(d, FMT_HTML, NULL), *body = html_body(s);
	ok(python("import re,sys,xml.etree.ElementTree as E\n"
		  "r = E.fromstring(sys.stdin.buffer.read())\n"
		  "rows = [[\"\".join(td.itertext()) for td in tr.iter(\"td\")] for tr in r.iter(\"tr\")][1:]\n"
		  "def want(h):\n"
		  "  s = bytes.fromhex(h).decode(\"utf-8\", \"replace\")\n"
		  "  s = re.sub(\"[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\ufffe\\uffff]\", \"\\ufffd\", s)\n"
		  "  return s.replace(\"\\r\\n\", \"\\n\").replace(\"\\r\", \"\\n\")\n"
		  "bad = [x for x in rows if want(x[0]) != x[1]]\n"
		  "[print(\"#   bad\", x[0], ascii(x[1])) for x in bad[:5]]\n"
		  "sys.exit(1 if bad or len(rows) != 514 else 0)\n",
		  body, strlen(body)),
	   "random strings in html read back as Python's UTF-8 replace and XML rules say");
	free(body);
	free(s);
	doc_free(d);
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

/* row2(t, a, b): a new row of the strings a and, when t has a second
 * column, b. */
static void row2(struct table *t, const char *a, const char *b)
{
	table_add_row(t);
	table_set_str(t, 0, a);
	if (table_ncols(t) > 1)
		table_set_str(t, 1, b);
}

/* sectioned(): a titled document with a warning, two sections of tables
 * (the first table titled as its section) and a note. */
static struct doc *sectioned(void)
{
	struct doc *d = doc_new("report");
	struct table *setup = table_new("setup", "Setup"), *hosts = table_new("hosts", "Hosts");
	struct table *res = table_new("res", "Results: cycles");
	doc_set_title(d, "NEW against BASE");
	doc_warn(d, "few runs");
	doc_note(d, "lower is better");
	table_section(setup, "Setup");
	table_col(setup, "k", COL_STR, 0);
	table_col(setup, "v", COL_STR, 0);
	row2(setup, "kernel", "6.8");
	table_section(hosts, "Setup");
	table_col(hosts, "host", COL_STR, 0);
	row2(hosts, "a", NULL);
	table_section(res, "Results");
	table_col(res, "n", COL_INT, 0);
	table_add_row(res);
	table_set_int(res, 0, 3);
	dv_table(doc_findings(d), setup);
	dv_table(doc_findings(d), hosts);
	dv_table(doc_findings(d), res);
	return d;
}

/* test_sections(): the document's title first, then the warnings, a
 * heading where each section starts (a table titled as its section drops
 * the title), the notes last; in text, md and html. */
static void test_sections(void)
{
	struct doc *d = sectioned();
	is_str(doc_title(d), "NEW against BASE", "doc_title");
	is_str(table_get_section(doc_table(d, "res")), "Results", "table_get_section");
	char *s = render_d(d, FMT_TEXT, NULL);
	is_str(s,
	       "==== NEW against BASE ====\n"
	       "\n"
	       "warning: few runs\n"
	       "\n"
	       "== Setup ==\n"
	       "\n"
	       "k       v\n"
	       "------  ---\n"
	       "kernel  6.8\n"
	       "\n"
	       "# Hosts\n"
	       "host\n"
	       "----\n"
	       "a\n"
	       "\n"
	       "== Results ==\n"
	       "\n"
	       "# Results: cycles\n"
	       "n\n"
	       "-\n"
	       "3\n"
	       "\n"
	       "note: lower is better\n",
	       "sections and title (text)");
	free(s);
	s = render_d(d, FMT_MD, NULL);
	is_str(s,
	       "# NEW against BASE\n"
	       "\n"
	       "> **warning:** few runs\n"
	       "\n"
	       "## Setup\n"
	       "\n"
	       "| k      | v   |\n"
	       "| ------ | --- |\n"
	       "| kernel | 6.8 |\n"
	       "\n"
	       "### Hosts\n"
	       "\n"
	       "| host |\n"
	       "| ---- |\n"
	       "| a    |\n"
	       "\n"
	       "## Results\n"
	       "\n"
	       "### Results: cycles\n"
	       "\n"
	       "|   n |\n"
	       "| --: |\n"
	       "|   3 |\n"
	       "\n"
	       "- **note:** lower is better\n",
	       "sections and title (md)");
	free(s);
	s = render_d(d, FMT_HTML, NULL);
	char *body = html_body(s);
	static const char *const parts[] = {
		"<h1>NEW against BASE</h1>", "<p class=\"warning\"><b>warning:</b> few runs</p>",
		"<h2>Setup</h2>", "<td>kernel</td>", "<h3>Hosts</h3>", "<h2>Results</h2>",
		"<h3>Results: cycles</h3>", "<p class=\"note\"><b>note:</b> lower is better</p>",
	};
	ok(strncmp(s, "<!DOCTYPE html>\n", 16) == 0 && strstr(s, "<title>NEW against BASE</title>"),
	   "html is a page titled by the document");
	ok(in_order(body, parts, sizeof(parts) / sizeof(parts[0])), "html: title, warning, sections, tables, note");
	ok(count(s, "<h2>Setup</h2>") == 1 && !strstr(s, "<h3>Setup</h3>"),
	   "html: one heading per section, the title repeating it dropped");
	ok(xml_ok(body), "html body is well-formed");
	free(body);
	free(s);
	s = render_d(d, FMT_JSON, NULL);
	ok(strstr(s, "\"verb\": \"report\",\n  \"title\": \"NEW against BASE\",\n  \"sessions\"") != NULL,
	   "json has the document's title after the verb");
	ok(json_valid(s), "sectioned json is valid JSON");
	free(s);
	s = render_d(d, FMT_TEXT, "hosts");
	is_str(s,
	       "==== NEW against BASE ====\n\nwarning: few runs\n\n# Hosts\nhost\n----\na\n\n"
	       "note: lower is better\n",
	       "only one table: no section headings (text)");
	free(s);
	doc_free(d);
}

/* test_list_style(): a TABLE_LIST table: its rows' first shown cells as
 * list items in text, md and html, all of it in csv and json. */
static void test_list_style(void)
{
	struct doc *d = doc_new("test");
	struct table *t = table_new("summary", "Summary");
	table_style(t, TABLE_LIST);
	table_col(t, "key", COL_STR, 0);
	table_col(t, "line", COL_STR, 0);
	table_col_show(t, 0, SHOW_DATA);
	row2(t, "faster", "cycles 3% faster");
	row2(t, "odd", "a|b <c>");
	row2(t, "hidden", "not for people");
	table_row_show(t, SHOW_DATA);
	is_int(table_get_style(t), TABLE_LIST, "table_get_style");
	dv_table(doc_findings(d), t);
	char *s = render_d(d, FMT_TEXT, NULL);
	is_str(s, "# Summary\n  - cycles 3% faster\n  - a|b <c>\n", "list table (text)");
	free(s);
	s = render_d(d, FMT_MD, NULL);
	is_str(s, "### Summary\n\n- cycles 3% faster\n- a\\|b \\<c>\n", "list table (md)");
	free(s);
	s = render_d(d, FMT_HTML, NULL);
	ok(strstr(s, "<h3>Summary</h3>\n<ul>\n<li>cycles 3% faster</li>\n<li>a|b &lt;c&gt;</li>\n</ul>\n") != NULL,
	   "list table (html)");
	free(s);
	s = render_d(d, FMT_CSV, NULL);
	is_str(s, "key,line\nfaster,cycles 3% faster\nodd,a|b <c>\nhidden,not for people\n", "list table (csv)");
	free(s);
	doc_free(d);
}

/* test_plain_style(): a TABLE_PLAIN table: in text only its cells, one
 * space apart (folded stacks); md shows it as a grid. */
static void test_plain_style(void)
{
	struct table *t = table_new("stacks", "Folded stacks");
	table_style(t, TABLE_PLAIN);
	table_col(t, "stack", COL_STR, 0);
	table_col(t, "count", COL_INT, 0);
	table_add_row(t);
	table_set_str(t, 0, "main;work;leaf");
	table_set_int(t, 1, 50);
	table_add_row(t);
	table_set_str(t, 0, "main;idle");
	table_set_int(t, 1, 4000);
	check(t, FMT_TEXT, "main;work;leaf 50\nmain;idle 4000\n", "plain table");
	check(t, FMT_MD,
	      "### Folded stacks\n\n| stack          | count |\n| -------------- | ----: |\n"
	      "| main;work;leaf |    50 |\n| main;idle      |  4000 |\n",
	      "plain table");
	check(t, FMT_CSV, "stack,count\nmain;work;leaf,50\nmain;idle,4000\n", "plain table");
	struct doc *d = doc_new("test");
	dv_table(doc_findings(d), t);
	char *s = render_d(d, FMT_TEXT, NULL);
	is_str(s, "main;work;leaf 50\nmain;idle 4000\n", "plain table in a document (text)");
	free(s);
	doc_free(d);
}

/* test_only(): render_doc's only: text and md show that table with the
 * warnings and notes, csv that table whatever the main one is, json only
 * it under "findings", html only it. */
static void test_only(void)
{
	struct doc *d = three_tables();
	doc_warn(d, "w1");
	doc_note(d, "n1");
	doc_set_main(d, "c");
	ok(doc_table(d, "b") == doc_table_at(d, 1), "doc_table finds a table by name");
	ok(doc_table(d, "zz") == NULL, "doc_table of a missing name is NULL");
	char *s = render_d(d, FMT_TEXT, "b");
	is_str(s, "warning: w1\n\n# B\ny\n-\n\nnote: n1\n", "only b (text)");
	free(s);
	s = render_d(d, FMT_MD, "b");
	is_str(s, "> **warning:** w1\n\n### B\n\n| y   |\n| --- |\n\n- **note:** n1\n", "only b (md)");
	free(s);
	s = render_d(d, FMT_CSV, "a");
	is_str(s, "x\n1\n", "only a (csv), though c is the main table");
	free(s);
	s = render_d(d, FMT_CSV, NULL);
	is_str(s, "z\n0.25\n", "the main table c (csv)");
	free(s);
	s = render_d(d, FMT_JSON, "b");
	char *want = envelope("test", NULL, "{\n    \"b\": []\n  }", "[\n    \"w1\"\n  ]", "[\n    \"n1\"\n  ]");
	is_str(s, want, "only b (json)");
	ok(json_valid(s), "only b: json is valid JSON");
	free(want);
	free(s);
	s = render_d(d, FMT_HTML, "b");
	ok(strstr(s, "<h3>B</h3>") && !strstr(s, "<h3>A</h3>") && !strstr(s, "0.2") &&
		   strstr(s, "w1") && strstr(s, "n1"),
	   "only b (html)");
	free(s);
	doc_free(d);
}

/* test_html_escape(): '<', '&' and quotes in titles, headers, cells,
 * captions, warnings and notes are escaped in html; control characters
 * and invalid UTF-8 become U+FFFD; the body is well-formed XML whose text
 * is the original strings. */
static void test_html_escape(void)
{
	struct doc *d = doc_new("x");
	struct table *t = table_new("esc", "<script>alert(1)</script>");
	doc_set_title(d, "a < b & \"c\" 'd'");
	doc_warn(d, "w & <w>");
	doc_note(d, "n > m");
	table_caption(t, "c & d");
	table_col(t, "k", COL_STR, 0);
	table_col(t, "v", COL_STR, 0);
	table_col_label(t, 0, "x<y & \"z\"");
	row2(t, "<b>&amp;</b>", "it's \"q\"");
	row2(t, "\x01" "bell", "bad \xff byte");
	dv_table(doc_findings(d), t);
	char *s = render_d(d, FMT_HTML, NULL), *body = html_body(s);
	ok(strstr(s, "<title>a &lt; b &amp; &quot;c&quot; &#39;d&#39;</title>") &&
		   strstr(s, "<h1>a &lt; b &amp; &quot;c&quot; &#39;d&#39;</h1>"),
	   "html: the document title escaped");
	ok(strstr(s, "<h3>&lt;script&gt;alert(1)&lt;/script&gt;</h3>") && !strstr(s, "<script>"),
	   "html: the table title escaped");
	ok(strstr(s, "<th>x&lt;y &amp; &quot;z&quot;</th>") != NULL, "html: a label escaped");
	ok(strstr(s, "<td>&lt;b&gt;&amp;amp;&lt;/b&gt;</td><td>it&#39;s &quot;q&quot;</td>") != NULL,
	   "html: cells escaped");
	ok(strstr(s, "<td>\xef\xbf\xbd" "bell</td><td>bad \xef\xbf\xbd byte</td>") != NULL,
	   "html: control characters and invalid UTF-8 become U+FFFD");
	ok(strstr(s, "<li>c &amp; d</li>") && strstr(s, "w &amp; &lt;w&gt;</p>") && strstr(s, "n &gt; m</p>"),
	   "html: captions, warnings and notes escaped");
	ok(python("import sys,xml.etree.ElementTree as E\n"
		  "r = E.fromstring(sys.stdin.buffer.read())\n"
		  "td = [x.text for x in r.iter(\"td\")]\n"
		  "want = [\"<b>&amp;</b>\", \"it\\x27s \\x22q\\x22\", \"\\ufffdbell\", \"bad \\ufffd byte\"]\n"
		  "ok = r.find(\"h1\").text == \"a < b & \\x22c\\x22 \\x27d\\x27\" and td == want\n"
		  "ok = ok and r.find(\"h3\").text == \"<script>alert(1)</script>\"\n"
		  "ok = ok and [x.text for x in r.iter(\"th\")] == [\"x<y & \\x22z\\x22\", \"v\"]\n"
		  "sys.exit(0 if ok else 1)\n",
		  body, strlen(body)),
	   "html body is well-formed and reads back as the original strings");
	free(body);
	free(s);
	doc_free(d);
}

/* test_table_names(): one line per table: its name, a tab, its title. */
static void test_table_names(void)
{
	struct doc *d = three_tables();
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc = render_table_names(d, m);
	fclose(m);
	is_int(rc, 0, "render_table_names returns 0");
	is_str(buf, "a\tA\nb\tB\nc\t\n", "render_table_names");
	free(buf);
	doc_free(d);
}

/* chart(): a TABLE_CHART table: cell x has base 1, 2, 3 and new 2, 3;
 * cell y base 5 and new 4, 6, 8. */
static struct table *chart(void)
{
	static const struct {
		const char *cell, *side;
		double v;
	} pts[] = {
		{ "x", "base", 1 }, { "x", "base", 2 }, { "x", "base", 3 }, { "x", "new", 2 }, { "x", "new", 3 },
		{ "y", "base", 5 }, { "y", "new", 4 },  { "y", "new", 6 },  { "y", "new", 8 },
	};
	struct table *t = table_new("runs", "Cycles per op");
	table_style(t, TABLE_CHART);
	table_caption(t, "cycles");
	table_col(t, "cell", COL_STR, 0);
	table_col(t, "side", COL_STR, 0);
	table_col(t, "value", COL_REAL, -1);
	for (size_t i = 0; i < sizeof(pts) / sizeof(pts[0]); i++) {
		table_add_row(t);
		table_set_str(t, 0, pts[i].cell);
		table_set_str(t, 1, pts[i].side);
		table_set_real(t, 2, pts[i].v);
	}
	return t;
}

/* svg_of(t, rc): the malloc'd output of svg_chart_write(t), its result in
 * *rc. */
static char *svg_of(const struct table *t, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	*rc = svg_chart_write(t, m);
	fclose(m);
	return buf;
}

/* svg_counts_ok(svg, points, medians, extra): Python's check of a chart:
 * well-formed, `points` circles of radius 3 (one per value) besides the
 * legend's (one per side drawn), `medians` median lines (stroke width 3) and, when
 * extra is not NULL, that Python condition on the root r too. */
static bool svg_counts_ok(const char *svg, int points, int medians, const char *extra)
{
	char *script = NULL;
	if (asprintf(&script,
		     "import sys,xml.etree.ElementTree as E\n"
		     "r = E.fromstring(sys.stdin.buffer.read())\n"
		     "ns = \"{http://www.w3.org/2000/svg}\"\n"
		     "c = [x.get(\"r\") for x in r.iter(ns + \"circle\")]\n"
		     "m = [x for x in r.iter(ns + \"line\") if x.get(\"stroke-width\") == \"3\"]\n"
		     "sides = set(x.text.rsplit(\" median \", 1)[0] for x in r.iter(ns + \"title\"))\n"
		     "ok = c.count(\"3\") == %d and c.count(\"4\") == len(sides) and len(m) == %d\n"
		     "ok = ok and (%s)\n"
		     "ok or print(\"#   circles\", c, \"medians\", len(m))\n"
		     "sys.exit(0 if ok else 1)\n",
		     points, medians, extra ? extra : "True") < 0)
		return false;
	bool pass = python(script, svg, strlen(svg));
	free(script);
	return pass;
}

/* test_svg_chart(): svg_chart_write draws one point per value and a
 * median line per side per cell, as well-formed XML. */
static void test_svg_chart(void)
{
	struct table *t = chart();
	int rc;
	char *svg = svg_of(t, &rc);
	is_int(rc, 0, "svg_chart_write returns 0");
	ok(svg_counts_ok(svg, 9, 4,
			 "sorted(x.text for x in r.iter(ns + \"title\")) == [\"base median 2 (3 runs)\", "
			 "\"base median 5 (1 runs)\", \"new median 2.5 (2 runs)\", \"new median 6 (3 runs)\"]"),
	   "chart: well-formed, a circle per value, a median per side per cell");
	ok(strstr(svg, ">Cycles per op</text>") && strstr(svg, ">cycles</text>") && strstr(svg, ">x</text>") &&
		   strstr(svg, ">y</text>"),
	   "chart: the title, the unit and the cells' labels");
	free(svg);
	struct table *bad = table_new("bad", NULL);
	table_col(bad, "cell", COL_STR, 0);
	table_col(bad, "side", COL_STR, 0);
	svg = svg_of(bad, &rc);
	is_int(rc, -1, "svg_chart_write without a value column returns -1");
	free(svg);
	table_free(bad);
	table_free(t);
}

/* tick_chart(a, b, c): a chart of one cell with base a, b and new c. */
static struct table *tick_chart(double a, double b, double c)
{
	struct table *t = table_new("ticks", NULL);
	const double v[] = { a, b, c };
	table_style(t, TABLE_CHART);
	table_col(t, "cell", COL_STR, 0);
	table_col(t, "side", COL_STR, 0);
	table_col(t, "value", COL_REAL, -1);
	for (int i = 0; i < 3; i++) {
		table_add_row(t);
		table_set_str(t, 0, "all");
		table_set_str(t, 1, i < 2 ? "base" : "new");
		table_set_real(t, 2, v[i]);
	}
	return t;
}

/* test_chart_ticks(): the y axis' labels are distinct round numbers in
 * plain form, whatever the values' size: tiny, huge, a narrow range far
 * from 0, one value (Python reads the tick labels: the texts right-aligned
 * at the axis). */
static void test_chart_ticks(void)
{
	static const double cases[][3] = { { 1e-5, 2e-5, 3e-5 }, { 1e13, 2e13, 4e13 },
		{ 2196682, 2196685, 2196690 }, { 7, 7, 7 }, { 1e17, 1e17 + 32, 1e17 + 64 }, { -3, -1, 0 } };
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct table *t = tick_chart(cases[i][0], cases[i][1], cases[i][2]);
		int rc;
		char *svg = svg_of(t, &rc);
		ok(rc == 0 && svg_counts_ok(svg, 3, 2,
			"(lambda l: 3 <= len(l) <= 12 and len(set(l)) == len(l) and "
			"not any(\"e\" in x or \"E\" in x for x in l))"
			"([x.text for x in r.iter(ns + \"text\") if x.get(\"text-anchor\") == \"end\"])"),
		   "chart ticks of %g..%g: 3 to 12, distinct, no exponent", cases[i][0], cases[i][2]);
		free(svg);
		table_free(t);
	}
}

/* test_chart_in_doc(): md links a chart written into the assets
 * directory, html inlines it, text leaves it out, csv shows its rows. */
static void test_chart_in_doc(void)
{
	struct doc *d = doc_new("test");
	struct table *a = table_new("a", "A"), *t = chart();
	table_col(a, "x", COL_INT, 0);
	dv_table(doc_findings(d), a);
	dv_table(doc_findings(d), t);
	char *s = render_d(d, FMT_TEXT, NULL);
	is_str(s, "# A\nx\n-\n", "text leaves a chart out");
	free(s);
	s = render_d(d, FMT_MD, NULL);
	is_str(s, "### A\n\n|   x |\n| --: |\n", "md without an assets directory leaves a chart out");
	free(s);
	char dir[] = "/tmp/test_render.XXXXXX", path[64], err[256];
	ok(mkdtemp(dir) != NULL, "a temporary assets directory");
	struct outfiles files = { 0 };
	struct render_opts o = { dir, "assets", NULL, &files, err, sizeof(err) };
	s = render_o(d, FMT_MD, NULL, &o);
	is_str(s, "### A\n\n|   x |\n| --: |\n\n![Cycles per op](assets/runs.svg)\n", "md links the chart");
	free(s);
	snprintf(path, sizeof(path), "%s/runs.svg", dir);
	ok(files.n == 1 && access(path, F_OK), "the chart file waits in the files to commit");
	ok(!outfiles_commit(&files, err, sizeof(err)), "they commit");
	FILE *f = fopen(path, "r");
	char file[16384] = "";
	size_t n = f ? fread(file, 1, sizeof(file) - 1, f) : 0;
	file[n] = '\0';
	if (f)
		fclose(f);
	ok(n && svg_counts_ok(file, 9, 4, NULL), "the chart file md links is the chart");
	unlink(path);
	rmdir(dir);
	s = render_d(d, FMT_HTML, NULL);
	char *body = html_body(s);
	ok(strstr(body, "<figure>\n<svg xmlns=\"http://www.w3.org/2000/svg\"") != NULL, "html inlines the chart");
	ok(xml_ok(body), "html body with a chart is well-formed");
	free(body);
	free(s);
	s = render_d(d, FMT_CSV, "runs");
	ok(strncmp(s, "cell,side,value\nx,base,1.0\n", 27) == 0, "csv shows a chart's rows");
	free(s);
	doc_free(d);
}

/* test_render_table_styles(): render_table shows a table as a document
 * would: a list table as a list, a chart not at all in text (nor in md
 * without an assets directory), and html as a page (named after the
 * table, its title heading the table), not json. */
static void test_render_table_styles(void)
{
	struct table *t = table_new("summary", "Summary");
	table_style(t, TABLE_LIST);
	table_col(t, "line", COL_STR, 0);
	row2(t, "faster", NULL);
	check(t, FMT_TEXT, "# Summary\n  - faster\n", "render_table of a list");
	check(t, FMT_MD, "### Summary\n\n- faster\n", "render_table of a list");
	check(t, FMT_CSV, "line\nfaster\n", "render_table of a list");
	char *s = render(t, FMT_HTML), *body = html_body(s);
	ok(strncmp(s, "<!DOCTYPE html>\n", 16) == 0 &&
		   strstr(body, "<h1>summary</h1>\n<h3>Summary</h3>\n<ul>\n<li>faster</li>\n</ul>\n"),
	   "render_table html is a page named after the table, holding it");
	ok(xml_ok(body), "render_table html body is well-formed");
	free(body);
	free(s);
	table_free(t);
	t = chart();
	check(t, FMT_TEXT, "", "render_table of a chart");
	check(t, FMT_MD, "", "render_table of a chart");
	s = render(t, FMT_HTML);
	ok(strstr(s, "<figure>\n<svg ") != NULL, "render_table html of a chart inlines it");
	free(s);
	table_free(t);
}

/* test_table_names_escaped(): a title with a newline or tab still gives
 * one line per table, its name and title one tab apart. */
static void test_table_names_escaped(void)
{
	struct doc *d = doc_new("test");
	dv_table(doc_findings(d), one_row("a", "two\nlines\tand a tab", 1));
	dv_table(doc_findings(d), one_row("b", "bad \xff", 1));
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	render_table_names(d, m);
	fclose(m);
	is_str(buf, "a\ttwo\\nlines\\tand a tab\nb\tbad \xef\xbf\xbd\n", "render_table_names escapes titles");
	free(buf);
	doc_free(d);
}

/* test_chart_escaped(): the chart's unit (its first caption) is escaped
 * like its title and labels. */
static void test_chart_escaped(void)
{
	struct table *t = table_new("runs", "a < b & c");
	table_style(t, TABLE_CHART);
	table_caption(t, "time & <ms>");
	table_col(t, "cell", COL_STR, 0);
	table_col(t, "side", COL_STR, 0);
	table_col(t, "value", COL_REAL, -1);
	table_add_row(t);
	table_set_str(t, 0, "<x>");
	table_set_str(t, 1, "base");
	table_set_real(t, 2, 1);
	int rc;
	char *svg = svg_of(t, &rc);
	ok(rc == 0 && strstr(svg, ">time &amp; &lt;ms&gt;</text>"), "chart: the unit escaped");
	ok(xml_ok(svg), "chart with '&' and '<' in its unit is well-formed");
	free(svg);
	table_free(t);
}

/* test_svg_chart_sides(): a chart of three sides (the base and two
 * labels, one with XML's special characters) draws each side's values in
 * its own colour, the base first, each name in the legend and the
 * medians' titles, escaped. */
static void test_svg_chart_sides(void)
{
	static const char *const side[] = { "k:b", "base", "a<&>", "k:b", "base", "a<&>" };
	static const double v[] = { 5, 1, 9, 7, 3, 11 };
	struct table *t = table_new("runs", "Runs");
	int rc;
	table_style(t, TABLE_CHART);
	table_col(t, "cell", COL_STR, 0);
	table_col(t, "side", COL_STR, 0);
	table_col(t, "value", COL_REAL, -1);
	for (size_t i = 0; i < 6; i++) {
		table_add_row(t);
		table_set_str(t, 0, "x");
		table_set_str(t, 1, side[i]);
		table_set_real(t, 2, v[i]);
	}
	char *svg = svg_of(t, &rc);
	ok(rc == 0 && svg_counts_ok(svg, 6, 3,
			 "[x.text for x in r.iter(ns + \"title\")] == [\"base median 2 (2 runs)\", "
			 "\"k:b median 6 (2 runs)\", \"a<&> median 10 (2 runs)\"] and "
			 "len(set(x.get(\"stroke\") for x in r.iter(ns + \"line\") if x.get(\"stroke-width\") == \"3\")) == 3 and "
			 "[x.text for x in r.iter(ns + \"text\")][-4:-1] == [\"base\", \"k:b\", \"a<&>\"]"),
	   "chart of three sides: a colour each, the base first, the names in the legend and titles (escaped)");
	free(svg);
	table_free(t);
}

/* chart_of(cells, n, values): a chart of n rows: cell cells[i], side
 * base, value values[i]. */
static struct table *chart_of(const char *const *cells, size_t n, const double *values)
{
	struct table *t = table_new("runs", "Runs");
	table_style(t, TABLE_CHART);
	table_col(t, "cell", COL_STR, 0);
	table_col(t, "side", COL_STR, 0);
	table_col(t, "value", COL_REAL, -1);
	for (size_t i = 0; i < n; i++) {
		table_add_row(t);
		table_set_str(t, 0, cells[i]);
		table_set_str(t, 1, "base");
		table_set_real(t, 2, values[i]);
	}
	return t;
}

/* test_chart_labels(): long cell labels are cut to 25 characters and
 * "..." at a character boundary, never inside a UTF-8 sequence; labels of
 * up to 28 characters are kept whole. */
static void test_chart_labels(void)
{
	char e30[64] = "", e28[64] = "", want30[128], want28[128];
	for (int i = 0; i < 30; i++)
		strcat(e30, "\xc3\xa9");
	for (int i = 0; i < 28; i++)
		strcat(e28, "\xc3\xa9");
	const char *cells[] = { e30, e28, "abcdefghijklmnopqrstuvwxyz0123" };
	const double v[] = { 1, 2, 3 };
	struct table *t = chart_of(cells, 3, v);
	int rc;
	char *svg = svg_of(t, &rc);
	snprintf(want30, sizeof(want30), ">%.50s...</text>", e30);
	snprintf(want28, sizeof(want28), ">%s</text>", e28);
	ok(strstr(svg, want30) != NULL, "chart: a long UTF-8 label cut at a character boundary");
	ok(strstr(svg, want28) != NULL, "chart: a label of 28 characters kept whole");
	ok(strstr(svg, ">abcdefghijklmnopqrstuvwxy...</text>") != NULL, "chart: a long ASCII label cut");
	ok(!strstr(svg, "\xef\xbf\xbd"), "chart: no replacement character in labels");
	free(svg);
	table_free(t);
}

/* test_chart_nonfinite(): NaN and infinite values are not drawn (no "nan"
 * or "inf" coordinates) and do not stretch the axis. */
static void test_chart_nonfinite(void)
{
	const char *cells[] = { "x", "x", "x", "x" };
	const double v[] = { 1, NAN, INFINITY, 3 };
	struct table *t = chart_of(cells, 4, v);
	int rc;
	char *svg = svg_of(t, &rc);
	ok(rc == 0 && !strstr(svg, "nan") && !strstr(svg, "inf"), "chart: no nan or inf coordinates");
	ok(svg_counts_ok(svg, 2, 1, "[x.text for x in r.iter(ns + \"title\")] == [\"base median 2 (2 runs)\"]"),
	   "chart: only the finite values drawn");
	free(svg);
	table_free(t);
}

/* test_chart_file_safe(): a chart's file goes through lib/outfile.h: a
 * symbolic link at its name is replaced (the file it names is left), a
 * name that cannot be written (a directory) fails the render, naming it,
 * and the files already written wait uncommitted. */
static void test_chart_file_safe(void)
{
	struct doc *d = doc_new("test");
	struct table *t = chart(), *t2 = table_clone(t, "runs2");
	char dir[] = "/tmp/test_render.XXXXXX", path[64], victim[64], err[256], buf[16] = "";
	struct outfiles files = { 0 };
	struct render_opts o = { dir, NULL, NULL, &files, err, sizeof(err) };
	struct stat st;
	dv_table(doc_findings(d), t);
	dv_table(doc_findings(d), t2);
	ok(mkdtemp(dir) != NULL, "a temporary assets directory");
	snprintf(path, sizeof(path), "%s/runs.svg", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	FILE *f = fopen(victim, "w");
	fputs("precious", f);
	fclose(f);
	ok(!symlink("victim", path), "runs.svg is a link to another file");
	char *s = render_o(d, FMT_MD, NULL, &o);
	free(s);
	ok(!outfiles_commit(&files, err, sizeof(err)), "md renders and its files commit");
	f = fopen(victim, "r");
	ok(f && fread(buf, 1, sizeof(buf) - 1, f) == 8 && !strcmp(buf, "precious"), "the linked file is as it was");
	if (f)
		fclose(f);
	ok(!lstat(path, &st) && S_ISREG(st.st_mode), "runs.svg is the chart's own file now");
	snprintf(path, sizeof(path), "%s/runs2.svg", dir);
	ok(!unlink(path) && !mkdir(path, 0700), "runs2.svg is a directory now");
	s = render_o(d, FMT_MD, NULL, &o);
	is_str(s, "(render_doc_opts failed)", "a picture that cannot be written fails the render");
	ok(strstr(err, path) && strstr(err, "is a directory"), "naming it: %s", err);
	ok(files.n == 1, "the picture written before waits uncommitted");
	outfiles_abort(&files);
	free(s);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/runs.svg", dir);
	unlink(path);
	unlink(victim);
	rmdir(dir);
	doc_free(d);
}

/* test_md_empty_assets(): an empty assets directory is no directory: md
 * leaves the chart out without an extra empty line. */
static void test_md_empty_assets(void)
{
	struct doc *d = doc_new("test");
	dv_table(doc_findings(d), one_row("a", "A", 1));
	dv_table(doc_findings(d), chart());
	dv_table(doc_findings(d), one_row("b", "B", 2));
	struct render_opts o = { .assets_dir = "" };
	char *with = render_o(d, FMT_MD, NULL, &o), *without = render_d(d, FMT_MD, NULL);
	is_str(with, without, "md with an empty assets directory is md without one");
	free(with);
	free(without);
	doc_free(d);
}

/* test_indent_nonfinite(): a depth that is NaN, infinite or huge indents
 * by nothing (and is not converted to an integer it does not fit). */
static void test_indent_nonfinite(void)
{
	struct table *t = table_new("tree", NULL);
	table_col(t, "depth", COL_REAL, 0);
	table_col(t, "sym", COL_STR, 0);
	table_col_show(t, 0, SHOW_DATA);
	table_col_indent(t, 1, 0);
	const double depth[] = { NAN, INFINITY, -1e300, 1e300, 1.0 };
	for (size_t i = 0; i < sizeof(depth) / sizeof(depth[0]); i++) {
		table_add_row(t);
		table_set_real(t, 0, depth[i]);
		table_set_str(t, 1, "f");
	}
	check(t, FMT_TEXT, "sym\n---\nf\nf\nf\nf\n  f\n", "depths that are not small integers");
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

/* test_misuse(): misuse of the JSON writer and the renderers: they abort with a clear message. */
static void test_misuse(void)
{
	expect_abort(m_key_top, BUG "json_key: key 'k' outside a JSON object");
	expect_abort(m_key_in_array, BUG "json_key: key 'k' outside a JSON object");
	expect_abort(m_value_no_key, BUG "json_int: value inside a JSON object without a key");
	expect_abort(m_end_mismatch, BUG "json_end_array: no open JSON array to close");
	expect_abort(m_end_after_key, BUG "json_end_object: JSON key without a value");
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
	test_md_markup();
	test_invalid_utf8();
	test_empty();
	test_mixed_types();
	test_bool_column();
	test_html_wide();
	test_doc_tables();
	test_json_writer();
	test_json_numbers_python();
	test_random_strings_python();
	test_random_strings_html();
	test_random_strings_human();
	test_large();
	test_write_error();
	test_sections();
	test_list_style();
	test_plain_style();
	test_only();
	test_html_escape();
	test_table_names();
	test_svg_chart();
	test_chart_ticks();
	test_chart_in_doc();
	test_chart_file_safe();
	test_render_table_styles();
	test_table_names_escaped();
	test_chart_escaped();
	test_chart_labels();
	test_chart_nonfinite();
	test_svg_chart_sides();
	test_md_empty_assets();
	test_indent_nonfinite();
	test_misuse();
	return tap_done();
}
