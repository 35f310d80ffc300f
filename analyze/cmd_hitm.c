/* perfdb hitm: cacheline contention (HITMs) of memory samples, per
 * cacheline as perf c2c report shows it, attributed to struct fields.
 *   perfdb hitm [DB] [-s SESSION] [-d tot|lcl|rmt|peer] [-t TYPE]
 *               [--object TYPE@ADDR[:SIZE][/PID]]... [--dwarf FILE]...
 *               [--btf FILE] [--show-all] [-n LINES] [--format F]
 * Steps: store the objects given (--object, --dwarf) in each session;
 * load the memory samples into perf c2c's cachelines (c2c_load.h); get
 * the layouts the objects need into the sessions (layout.h); build the
 * object map (objects.h); attribute samples to fields and judge lines
 * (hitm.h); print (hitm_out.h). */
#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cmd.h"
#include "analyze/hitm_out.h"
#include "analyze/tl_load.h"
#include "analyze/verb.h"
#include "analyze/watch.h"
#include "collect/layout_store.h"
#include "collect/objects_store.h"
#include "schema/db.h"

#define MAX_DWARF 8
#define MAX_OBJECTS 32
#define MAX_NOTES 16

static const char usage_text[] =
	"usage: perfdb hitm [DB] [-s SESSION] [-d tot|lcl|rmt|peer] [-t TYPE]\n"
	"                   [--object TYPE@ADDR[:SIZE][/PID]]... [--dwarf FILE]...\n"
	"                   [--btf FILE] [--show-all] [-n LINES] [--format F]\n"
	"  -s, --session S  session id or label (default: the latest session)\n"
	"  -d, --display D  sort and select cachelines on total (tot, the default;\n"
	"                   peer on arm64), local (lcl) or remote (rmt) HITMs, or\n"
	"                   peer snoops (peer), as perf c2c report -d\n"
	"  -t, --type TYPE  only cachelines and fields of objects of struct TYPE\n"
	"                   (e.g. mm_struct)\n"
	"  --object TYPE@ADDR[:SIZE][/PID]  an object of struct TYPE at ADDR (of\n"
	"                   process PID only); stored in the session\n"
	"  --dwarf FILE     a binary or debug vmlinux built with -g: its struct\n"
	"                   layouts, and its variables at the addresses the\n"
	"                   session mapped it at; stored in the session\n"
	"  --btf FILE       struct layouts from this BTF (raw or ELF .BTF); else\n"
	"                   the running kernel's; the layouts used are stored\n"
	"  --show-all       every cacheline, not only those with >= 0.1% of the\n"
	"                   HITMs (peer snoops)\n"
	"  -n, --lines N    at most N cachelines (default: all)\n"
	"  -f, --format F   text (default), md, csv or json\n";

struct opts {
	const char *db, *session, *type, *btf;
	const char *dwarf[MAX_DWARF];
	int ndwarf;
	struct obj_spec objects[MAX_OBJECTS];
	int nobjects;
	enum out_format fmt;
	enum hitm_display display;
	bool display_set, show_all;
	long limit;
};

/* Notes gathered while preparing, printed after the tables. */
struct notes {
	char text[MAX_NOTES][512];
	const char *ptr[MAX_NOTES];
	int n;
};

/* note(ns, fmt, ...): adds a note unless the same text is there. */
static void note(struct notes *ns, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct notes *ns, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (int i = 0; i < ns->n; i++)
		if (!strcmp(ns->text[i], buf))
			return;
	if (ns->n == MAX_NOTES)
		return;
	snprintf(ns->text[ns->n], sizeof(ns->text[0]), "%s", buf);
	ns->ptr[ns->n] = ns->text[ns->n];
	ns->n++;
}

/* session_text(db, id, sql): the text that sql (a constant query with
 * the session id as its one parameter) returns for session id,
 * malloc'ed, or NULL. */
static char *session_text(sqlite3 *db, int64_t id, const char *sql)
{
	sqlite3_stmt *st = db_prepare(db, sql);
	char *s = NULL;
	if (!st)
		return NULL;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		s = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return s;
}

/* kernel_note(db, id, type, ns): when a layout came from the running
 * kernel's BTF but session id was recorded on another kernel (release),
 * a note saying so. */
static void kernel_note(sqlite3 *db, int64_t id, const char *type, struct notes *ns)
{
	struct utsname u;
	char *rel = session_text(db, id, "SELECT os_release FROM session WHERE id = ?");
	if (!uname(&u) && (!rel || strcmp(rel, u.release)))
		note(ns, "session %" PRId64 " was recorded on kernel %s, not on this one (%s): the "
		     "offsets of struct %s may differ; give that kernel's BTF with --btf", id,
		     rel ? rel : "(unknown)", u.release, layout_type_key(type));
	free(rel);
}

/* is_arm64(db, id): whether session id was recorded on arm64. */
static bool is_arm64(sqlite3 *db, int64_t id)
{
	char *arch = session_text(db, id, "SELECT arch FROM session WHERE id = ?");
	bool yes = arch && (!strcmp(arch, "aarch64") || !strcmp(arch, "arm64"));
	free(arch);
	return yes;
}

/* store_objects(db, o, id, err, errlen): the --object and --dwarf
 * objects of session id. 0 or -1. */
static int store_objects(sqlite3 *db, const struct opts *o, int64_t id, char *err, size_t errlen)
{
	for (int i = 0; i < o->nobjects; i++)
		if (objects_store_user(db, id, &o->objects[i], err, errlen))
			return -1;
	for (int i = 0; i < o->ndwarf; i++)
		if (objects_store_binary(db, id, o->dwarf[i], err, errlen) < 0)
			return -1;
	return 0;
}

/* store_all(db, o, ids, n): stores the given objects in every session in
 * one transaction. 0, or -1 with the error printed. */
static int store_all(sqlite3 *db, const struct opts *o, const int64_t *ids, int n)
{
	char err[1024];
	if (!o->nobjects && !o->ndwarf)
		return 0;
	if (db_exec(db, "BEGIN", err, sizeof(err)))
		goto fail;
	for (int i = 0; i < n; i++)
		if (store_objects(db, o, ids[i], err, sizeof(err))) {
			db_exec(db, "ROLLBACK", NULL, 0);
			goto fail;
		}
	if (!db_exec(db, "COMMIT", err, sizeof(err)))
		return 0;
fail:
	fprintf(stderr, "perfdb: %s: %s\n", o->db, err);
	return -1;
}

/* want_type(names, n, type): adds type to names[] (64 at most) once. */
static void want_type(const char **names, int *n, const char *type)
{
	if (!type || !*type || *n == 64)
		return;
	for (int i = 0; i < *n; i++)
		if (!strcmp(layout_type_key(names[i]), layout_type_key(type)))
			return;
	names[(*n)++] = type;
}

/* fetch_types(db, id, names, n, src, force, ls, ns): gets the layouts of
 * names into session id (those missing from ls, or all when force) and
 * reloads ls. 0, or -1 on a database error. */
static int fetch_types(sqlite3 *db, int64_t id, const char **names, int n,
		       struct layout_sources *src, bool force, struct layout_set *ls,
		       struct notes *ns)
{
	int stored = 0;
	char from[512];
	if (db_exec(db, "BEGIN", NULL, 0))
		return -1;
	for (int i = 0; i < n; i++) {
		if (!force && layouts_find(ls, names[i]))
			continue;
		struct layout l;
		enum layout_origin origin;
		int rc = 0;
		if (layout_lookup(src, names[i], &l, &origin, from, sizeof(from)))
			rc = layout_replace(db, id, &l, from, sizeof(from)) ? -1 : 1;
		layout_free(&l);
		if (rc < 0) {
			db_exec(db, "ROLLBACK", NULL, 0);
			fprintf(stderr, "perfdb: %s\n", from);
			return -1;
		}
		if (rc > 0) {
			stored++;
			note(ns, "layout of struct %s stored in session %" PRId64 " from %s",
			     layout_type_key(names[i]), id, from);
			if (origin == LAYOUT_FROM_KERNEL_BTF)
				kernel_note(db, id, names[i], ns);
		} else if (!layouts_find(ls, names[i])) {
			note(ns, "no layout of struct %s in session %" PRId64 ": give --btf or --dwarf",
			     layout_type_key(names[i]), id);
		}
	}
	if (db_exec(db, "COMMIT", NULL, 0))
		return -1;
	return stored ? layouts_load(db, id, ls) : 0;
}

/* first_types(db, o, id, ns, names, n): the types needed before objects
 * are loaded: mm_struct when tracepoints name mms, and --object types. */
static void first_types(sqlite3 *db, const struct opts *o, int64_t id, struct notes *ns,
			const char **names, int *n)
{
	if (objects_has_mm(db, id))
		want_type(names, n, "mm_struct");
	else
		note(ns, "session %" PRId64 " has no mmap_lock or exit_mmap tracepoint naming an mm: "
		     "no mm_struct objects (record with -r c2c)", id);
	for (int i = 0; i < o->nobjects; i++)
		want_type(names, n, o->objects[i].type);
	if (o->type)
		want_type(names, n, o->type);
}

/* hit_types(d, om, ls, ix, names, n): types of objects that samples of
 * session ix fell in and that have no layout. */
static void hit_types(const struct c2c_data *d, const struct objmap *om,
		      const struct layout_set *ls, uint16_t ix, const char **names, int *n)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct c2c_sample *s = &d->v[i];
		if (s->session != ix || s->obj < 0)
			continue;
		const char *t = om->v[s->obj].type;
		if (*t && !layouts_find(&ls[ix], t))
			want_type(names, n, t);
	}
}

/* Everything one run holds. */
struct run {
	sqlite3 *db;
	const struct opts *o;
	struct c2c_data d;
	struct layout_set *ls;
	struct objmap om;
	struct layout_sources src;
	struct notes ns;
};

/* load_objects(r): the object map of every session, with samples mapped. */
static int load_objects(struct run *r)
{
	objects_free(&r->om);
	for (size_t i = 0; i < r->d.nsessions; i++)
		if (objects_load(r->db, r->d.sessions[i], (uint16_t)i, &r->ls[i], &r->om) < 0)
			return -1;
	objects_finish(&r->om);
	hitm_objects(&r->d, &r->om);
	return 0;
}

/* prepare(r): layouts and objects of every loaded session. 0 or -1. */
static int prepare(struct run *r)
{
	bool force = r->o->btf || r->o->ndwarf, again = false;
	r->ls = calloc(r->d.nsessions ? r->d.nsessions : 1, sizeof(*r->ls));
	if (!r->ls)
		return -1;
	for (size_t i = 0; i < r->d.nsessions; i++) {
		const char *names[64];
		int n = 0;
		if (layouts_load(r->db, r->d.sessions[i], &r->ls[i]))
			return -1;
		first_types(r->db, r->o, r->d.sessions[i], &r->ns, names, &n);
		if (fetch_types(r->db, r->d.sessions[i], names, n, &r->src, force, &r->ls[i], &r->ns))
			return -1;
	}
	if (load_objects(r))
		return -1;
	for (size_t i = 0; i < r->d.nsessions; i++) {
		const char *names[64];
		int n = 0;
		hit_types(&r->d, &r->om, r->ls, (uint16_t)i, names, &n);
		if (n && fetch_types(r->db, r->d.sessions[i], names, n, &r->src, false, &r->ls[i], &r->ns))
			return -1;
		again |= n > 0;
	}
	return again ? load_objects(r) : 0;
}

/* sessions_text(buf, len, ids, n): "session 3" or "sessions 1, 2, 5". */
static void sessions_text(char *buf, size_t len, const int64_t *ids, int n)
{
	size_t at = (size_t)snprintf(buf, len, "session%s ", n > 1 ? "s" : "");
	for (int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%" PRId64, i ? ", " : "", ids[i]);
}

/* report(r, ids, n): attributes and prints. */
static int report(struct run *r, const int64_t *ids, int n)
{
	struct hitm_result res;
	char sessions[256];
	sessions_text(sessions, sizeof(sessions), ids, n);
	if (!r->d.n)
		note(&r->ns, "%s: no memory samples (record with perf c2c record or perf mem "
		     "record, or perfdb record -r c2c)", sessions);
	hitm_attribute(&r->d, &r->om, r->ls, &res);
	struct hitm_view v = { .d = &r->d, .om = &r->om, .r = &res, .display = r->o->display,
		.show_all = r->o->show_all, .type = r->o->type, .limit = r->o->limit,
		.fmt = r->o->fmt, .sessions = sessions, .notes = r->ns.ptr, .nnotes = r->ns.n };
	int rc = hitm_print(&v, stdout);
	hitm_result_free(&res);
	return rc || fflush(stdout) ? EXIT_FAIL : EXIT_OK;
}

/* run_free(r): frees what a run holds. */
static void run_free(struct run *r)
{
	for (size_t i = 0; r->ls && i < r->d.nsessions; i++)
		layouts_free(&r->ls[i]);
	free(r->ls);
	objects_free(&r->om);
	c2c_data_free(&r->d);
	layout_sources_close(&r->src);
}

/* run(db, o, ids, n): analyzes and prints sessions ids. */
/* watch_only: whether the sessions hold watchpoint samples and no memory
 * samples (recorded with -r watch): then hitm shows the watched fields. */
static bool watch_only(sqlite3 *db, const int64_t *ids, int n)
{
	sqlite3_stmt *w = db_prepare(db, "SELECT count(*) FROM watch WHERE session_id = ?");
	sqlite3_stmt *m = db_prepare(db, "SELECT count(*) FROM mem_sample ms JOIN session se "
				     "ON ms.sample_id BETWEEN se.first_sample_id AND se.last_sample_id WHERE se.id = ?");
	bool only = w && m && n > 0;
	for (int i = 0; only && i < n; i++) {
		sqlite3_bind_int64(w, 1, ids[i]);
		sqlite3_bind_int64(m, 1, ids[i]);
		only = sqlite3_step(w) == SQLITE_ROW && sqlite3_column_int64(w, 0) > 0 &&
		       sqlite3_step(m) == SQLITE_ROW && sqlite3_column_int64(m, 0) == 0;
		sqlite3_reset(w);
		sqlite3_reset(m);
	}
	sqlite3_finalize(w);
	sqlite3_finalize(m);
	return only;
}

static int run(sqlite3 *db, struct opts *o, const int64_t *ids, int n)
{
	struct run r = { .db = db, .o = o };
	char err[512];
	int rc = EXIT_FAIL;
	if (watch_only(db, ids, n))
		return watch_report(db, o->db, ids, n, o->fmt);
	if (layout_sources_open(&r.src, o->dwarf, (size_t)o->ndwarf, o->btf, err, sizeof(err))) {
		fprintf(stderr, "perfdb: %s\n", err);
		layout_sources_close(&r.src);
		return EXIT_FAIL;
	}
	if (store_all(db, o, ids, n))
		return EXIT_FAIL;
	for (int i = 0; i < n; i++)
		if (c2c_load(db, ids[i], &r.d, err, sizeof(err))) {
			fprintf(stderr, "perfdb: %s: %s\n", o->db, err);
			goto out;
		}
	if (!o->display_set && n && is_arm64(db, ids[0]))
		o->display = D_PEER;
	if (prepare(&r)) {
		fprintf(stderr, "perfdb: %s: %s\n", o->db, sqlite3_errmsg(db));
		goto out;
	}
	rc = report(&r, ids, n);
out:
	run_free(&r);
	return rc;
}

/* add_object(o, s): parses one --object. 0 or -1 (message printed). */
static int add_object(struct opts *o, const char *s)
{
	if (o->nobjects == MAX_OBJECTS || objects_parse_spec(s, &o->objects[o->nobjects])) {
		fprintf(stderr, "perfdb: hitm: bad --object '%s' (TYPE@ADDR[:SIZE][/PID], at most %d)\n",
			s, MAX_OBJECTS);
		return -1;
	}
	o->nobjects++;
	return 0;
}

/* parse_opt(o, c, arg): one option. 0, 1 for a bad one, -1 after --help. */
static int parse_opt(struct opts *o, int c, const char *arg)
{
	char *end;
	switch (c) {
	case 's': o->session = arg; return 0;
	case 't': o->type = arg; return 0;
	case 'B': o->btf = arg; return 0;
	case 'A': o->show_all = true; return 0;
	case 'f': return out_format_parse(arg, &o->fmt) != 0;
	case 'O': return add_object(o, arg) ? 1 : 0;
	case 'd':
		o->display_set = true;
		return hitm_display_parse(arg, &o->display) != 0;
	case 'D':
		if (o->ndwarf == MAX_DWARF)
			return 1;
		o->dwarf[o->ndwarf++] = arg;
		return 0;
	case 'n':
		o->limit = strtol(arg, &end, 10);
		return o->limit < 0 || *end || !*arg;
	case 'h':
		fputs(usage_text, stdout);
		return -1;
	default:
		return 1;
	}
}

/* parse(argc, argv, o): the options; EXIT_OK to go on, else an exit status
 * (-1: --help was printed). */
static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "session", required_argument, NULL, 's' },
		{ "display", required_argument, NULL, 'd' },
		{ "type", required_argument, NULL, 't' },
		{ "object", required_argument, NULL, 'O' },
		{ "dwarf", required_argument, NULL, 'D' },
		{ "btf", required_argument, NULL, 'B' },
		{ "show-all", no_argument, NULL, 'A' },
		{ "lines", required_argument, NULL, 'n' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, bad = 0;
	*o = (struct opts){ .db = PERFDB_DEFAULT_DB };
	while (!bad && (c = getopt_long(argc, argv, "s:d:t:n:f:h", longs, NULL)) != -1)
		bad = parse_opt(o, c, optarg);
	if (bad < 0)
		return -1;
	return verb_operands(argc, argv, bad, &o->db, usage_text);
}

/* run_picked: run() for the sessions verb_run picked. */
static int run_picked(sqlite3 *db, const int64_t *ids, int n, void *arg)
{
	return run(db, arg, ids, n);
}

/* cmd_hitm: see cmd.h. */
int cmd_hitm(int argc, char **argv)
{
	struct opts o;
	int rc = parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
	return verb_run(o.db, o.session, run_picked, &o);
}
