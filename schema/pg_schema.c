/* The PostgreSQL schema derived from the SQLite schema text: see
 * pg_schema.h. The SQLite files stay the one source; what differs on the
 * server is written here once:
 * - types: INTEGER -> BIGINT, REAL -> DOUBLE PRECISION, BLOB -> BYTEA, an
 *   untyped column (sample.f1..f7, which hold integers and text) -> TEXT;
 * - `id INTEGER PRIMARY KEY` -> BIGINT PRIMARY KEY with a sequence
 *   TABLE_id_seq that perfdb push reserves blocks of ids from;
 * - no REFERENCES (SQLite's are not enforced either: PRAGMA foreign_keys
 *   is off) and no WITHOUT ROWID;
 * - the tables that grow with samples are partitioned per session, by
 *   range over the session's block of ids (so that a join on a sample id,
 *   as every typed view makes, reads one partition);
 * - the typed tracepoint views cast their integer fields;
 * - schema/pg_views.sql replaces the views that do not port. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/db.h"
#include "schema/pg_schema.h"

extern const char perfdb_pg_views_sql[];

/* The partitioned tables and the column whose range a session's
 * partition holds: each session's rows are one contiguous block of ids
 * on the server. session: the table's session column, which each
 * partition's CHECK pins too (so a query on one session plans one
 * partition), or NULL. */
static const struct part {
	const char *table, *col, *session;
} parts[] = {
	{ "sample", "id", "session_id" },
	{ "mem_sample", "sample_id", NULL },
	{ "ipi_send_cpumask", "sample_id", NULL },
	{ "stack", "id", NULL },
};

/* pg_table_partition: see pg_schema.h. */
enum pg_part pg_table_partition(const char *table, const char **col, const char **session)
{
	for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++)
		if (!strcmp(parts[i].table, table)) {
			if (col)
				*col = parts[i].col;
			if (session)
				*session = parts[i].session;
			return PG_PART_RANGE;
		}
	return PG_PART_NONE;
}

/* ends_with(s, tail): whether s ends with tail. */
static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && !strcmp(s + n - m, tail);
}

/* pg_view_column_is_text: see pg_schema.h. */
bool pg_view_column_is_text(const char *name)
{
	return ends_with(name, "comm") || ends_with(name, "_sym") || ends_with(name, "path") ||
	       !strcmp(name, "filename") || !strcmp(name, "fields");
}

/* pg_quote_ident: see pg_schema.h. */
const char *pg_quote_ident(const char *name)
{
	return !strcmp(name, "offset") ? "\"offset\"" : name;
}

/* strip_comments(sql): sql without its -- comments (the schema has no
 * "--" inside a string), malloc'd. */
static char *strip_comments(const char *sql)
{
	struct strbuf b = STRBUF_INIT;
	while (*sql) {
		if (sql[0] == '-' && sql[1] == '-') {
			while (*sql && *sql != '\n')
				sql++;
			continue;
		}
		sb_putc(&b, *sql++);
	}
	return sb_take(&b);
}

/* trim(s, n, &len): s without leading and trailing white space. */
static const char *trim(const char *s, size_t n, size_t *len)
{
	while (n && isspace((unsigned char)*s))
		s++, n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	*len = n;
	return s;
}

/* word_at(s, w): whether s starts with the keyword w (case-insensitive)
 * followed by a non-identifier character. */
static bool word_at(const char *s, const char *w)
{
	size_t n = strlen(w);
	return !strncasecmp(s, w, n) && !isalnum((unsigned char)s[n]) && s[n] != '_';
}

/* column(b, def, n): one column definition of CREATE TABLE into b, with
 * the server's type and no REFERENCES. */
static void column(struct strbuf *b, const char *def, size_t n)
{
	static const char *const types[][2] = {
		{ "INTEGER", "BIGINT" }, { "TEXT", "TEXT" }, { "REAL", "DOUBLE PRECISION" },
		{ "BLOB", "BYTEA" },
	};
	char *s = xstrndup(def, n), *p = s, *name;
	const char *type = "TEXT";
	while (*p && !isspace((unsigned char)*p))
		p++;
	name = xstrndup(s, (size_t)(p - s));
	while (isspace((unsigned char)*p))
		p++;
	for (size_t i = 0; i < sizeof(types) / sizeof(*types); i++)
		if (word_at(p, types[i][0])) {
			type = types[i][1];
			p += strlen(types[i][0]);
		}
	sb_printf(b, "  %s %s", pg_quote_ident(name), type);
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (word_at(p, "REFERENCES")) {	/* REFERENCES t(c) */
			p += strlen("REFERENCES");
			while (isspace((unsigned char)*p))
				p++;
			while (*p && *p != ')')
				p++;
			if (*p)
				p++;
		} else if (*p) {
			const char *w = p;
			while (*p && !isspace((unsigned char)*p))
				p++;
			sb_putc(b, ' ');
			sb_putn(b, w, (size_t)(p - w));
		}
	}
	free(name);
	free(s);
}

/* find_part(table): the partitioning of table, or NULL. */
static const struct part *find_part(const char *table)
{
	for (size_t i = 0; i < sizeof(parts) / sizeof(*parts); i++)
		if (!strcmp(parts[i].table, table))
			return &parts[i];
	return NULL;
}

/* has_id_key(st, n): whether the table st creates has a column
 * `id INTEGER PRIMARY KEY` (a surrogate id). */
static bool has_id_key(const char *st, size_t n)
{
	char *copy = xstrndup(st, n), *p = copy;
	bool yes = false;
	while (!yes && (p = strstr(p, "\n  id "))) {
		p += strlen("\n  id ");
		while (*p == ' ')
			p++;
		yes = !strncmp(p, "INTEGER PRIMARY KEY", strlen("INTEGER PRIMARY KEY"));
	}
	free(copy);
	return yes;
}

/* create_table(b, st, n): one CREATE TABLE statement, translated. */
static void create_table(struct strbuf *b, const char *st, size_t n)
{
	const char *open = memchr(st, '(', n), *end = st + n, *p, *e;
	size_t len;
	char *name;
	int depth = 0;
	while (end > open && end[-1] != ')')
		end--;	/* drops WITHOUT ROWID */
	p = trim(st + strlen("CREATE TABLE"), (size_t)(open - st) - strlen("CREATE TABLE"), &len);
	name = xstrndup(p, len);
	const struct part *tp = find_part(name);
	sb_printf(b, "CREATE TABLE %s (\n", name);
	bool first = true;
	for (p = e = open + 1; e < end; e++) {
		if (*e == '(')
			depth++;
		else if (*e == ')' && depth)
			depth--;
		if ((*e == ',' && !depth) || e == end - 1) {
			const char *d = trim(p, (size_t)(e - p), &len);
			if (len) {
				sb_puts(b, first ? "" : ",\n");
				first = false;
				if (word_at(d, "PRIMARY") || word_at(d, "UNIQUE"))
					sb_printf(b, "  %.*s", (int)len, d);
				else
					column(b, d, len);
			}
			p = e + 1;
		}
	}
	sb_puts(b, "\n)");
	if (tp)
		sb_printf(b, " PARTITION BY RANGE (%s)", tp->col);
	sb_puts(b, ";\n");
	if (has_id_key(st, n))
		sb_printf(b, "CREATE SEQUENCE %s_id_seq;\n", name);
	free(name);
}

/* split_list(s, n, items, max): the comma-separated items of s (no
 * parentheses inside), trimmed, as malloc'd strings; their number. */
static int split_list(const char *s, size_t n, char **items, int max)
{
	int k = 0;
	const char *p = s, *e = s + n;
	while (p <= e && k < max) {
		const char *c = memchr(p, ',', (size_t)(e - p));
		size_t len;
		const char *t = trim(p, (size_t)((c ? c : e) - p), &len);
		items[k++] = xstrndup(t, len);
		if (!c)
			break;
		p = c + 1;
	}
	return k;
}

/* tracepoint_view(b, st, n): a typed tracepoint view (CREATE VIEW
 * name(cols) AS SELECT id, f1, ... FROM sample ...) with its integer
 * fields cast; false when st is not one. */
static bool tracepoint_view(struct strbuf *b, const char *st, size_t n)
{
	char *s = xstrndup(st, n), *open = strchr(s, '('), *close = open ? strchr(open, ')') : NULL;
	char *sel = close ? strstr(close, "SELECT id, f") : NULL, *from = sel ? strstr(sel, " FROM sample") : NULL;
	char *cols[16], *items[16];
	int nc, ni;
	if (!from || memchr(s, '\n', (size_t)(open - s))) {
		free(s);
		return false;
	}
	nc = split_list(open + 1, (size_t)(close - open - 1), cols, 16);
	ni = split_list(sel + strlen("SELECT"), (size_t)(from - sel - strlen("SELECT")), items, 16);
	sb_printf(b, "%.*s AS\n  SELECT ", (int)(close + 1 - s), s);
	for (int i = 0; i < ni; i++)
		sb_printf(b, "%s%s%s", i ? ", " : "", items[i],
			  i && i < nc && !pg_view_column_is_text(cols[i]) ? "::bigint" : "");
	sb_printf(b, "%s;\n", from);
	for (int i = 0; i < nc; i++)
		free(cols[i]);
	for (int i = 0; i < ni; i++)
		free(items[i]);
	free(s);
	return true;
}

/* view_name(st, n): the name of the view st creates, malloc'd. */
static char *view_name(const char *st, size_t n)
{
	const char *p = st + strlen("CREATE VIEW"), *e;
	while (isspace((unsigned char)*p))
		p++;
	for (e = p; e < st + n && (isalnum((unsigned char)*e) || *e == '_'); e++)
		;
	return xstrndup(p, (size_t)(e - p));
}

/* replaced(name): whether schema/pg_views.sql has a view of this name. */
static bool replaced(const char *name)
{
	char *pat = xasprintf("CREATE VIEW %s ", name);
	bool yes = strstr(perfdb_pg_views_sql, pat) != NULL;
	free(pat);
	return yes;
}

/* statements(b, sql, pg_text): every statement of sql into b, translated
 * (pg_text: sql is already the server's text). */
static void statements(struct strbuf *b, const char *sql, bool pg_text)
{
	char *text = strip_comments(sql), *p = text, *semi;
	while ((semi = strchr(p, ';'))) {
		size_t len;
		const char *st = trim(p, (size_t)(semi - p), &len);
		if (pg_text || (word_at(st, "CREATE") && strncmp(st, "CREATE TABLE", 12) &&
					strncmp(st, "CREATE VIEW", 11))) {
			sb_printf(b, "%.*s;\n", (int)len, st);
		} else if (!strncmp(st, "CREATE TABLE", 12)) {
			create_table(b, st, len);
		} else if (!strncmp(st, "CREATE VIEW", 11)) {
			char *name = view_name(st, len);
			if (!replaced(name) && !tracepoint_view(b, st, len))
				sb_printf(b, "%.*s;\n", (int)len, st);
			free(name);
		}
		p = semi + 1;
	}
	free(text);
}

/* pg_schema_ddl: see pg_schema.h. */
char *pg_schema_ddl(void)
{
	struct strbuf b = STRBUF_INIT;
	statements(&b, perfdb_schema_sql, false);
	statements(&b, perfdb_pg_views_sql, true);
	statements(&b, perfdb_index_sql, false);
	sb_printf(&b, "CREATE TABLE perfdb_meta (schema_version INTEGER NOT NULL);\n"
		      "INSERT INTO perfdb_meta VALUES (%d);\n"
		      "CREATE TABLE perfdb_pushed (uid TEXT PRIMARY KEY, session_id BIGINT NOT NULL UNIQUE,\n"
		      "  pushed_at TIMESTAMPTZ NOT NULL DEFAULT now());\n", PERFDB_SCHEMA_VERSION);
	return sb_take(&b);
}
