/* perfdb push: sessions and benches of a database to a PostgreSQL server
 * (collect/fleet/fleet_push.h does the work). */
#include <stdlib.h>
#include <string.h>
#include "builtin/builtin.h"
#include "collect/fleet/fleet_push.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "schema/db.h"
#include "schema/pg_conn.h"

static const char *const usage[] = {
	"perfdb push [DB] [-s SESSION]... --to CONNINFO [--with-kallsyms]",
	NULL,
};

static struct string_list specs;
static const char *to;
static struct push_opts o;

static const struct opt options[] = {
	OPT_STRING_LIST('s', "session", &specs, "SESSION",
			"this session id or label (repeatable; a label also names its benches); "
			"default: every session and bench"),
	OPT_STRING(0, "to", &to, "CONNINFO",
		   "the server: a libpq connection string or URI, e.g. host=H dbname=D, or a "
		   "postgresql URI; no password in it"),
	OPT_BOOL(0, "with-kallsyms", &o.with_kallsyms,
		 "push each session's kernel symbol table too (it shows the boot's KASLR base)"),
	OPT_END(),
};

/* say_err(ctx, what, err): the error line (what, then err), escaped as
 * tables escape text: it may hold what the server, the database or the
 * command line gave. */
static void say_err(struct verb_ctx *ctx, const char *what, const char *err)
{
	char *e = esc_dup(err, ESC_TEXT);
	fprintf(stderr, "%s: %s%s\n", ctx->prog, what, e);
	free(e);
}

/* add_ids(ids, n, cap, st): the ids st gives, appended without repeats. */
static void add_ids(int64_t **ids, int *n, size_t *cap, sqlite3_stmt *st)
{
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t v = sqlite3_column_int64(st, 0);
		bool seen = false;
		for (int i = 0; i < *n && !seen; i++)
			seen = (*ids)[i] == v;
		if (!seen) {
			ALLOC_GROW(*ids, (size_t)*n + 1, *cap);
			(*ids)[(*n)++] = v;
		}
	}
	sqlite3_reset(st);
}

/* pick(ctx, sids, ns, bids, nb): the sessions and benches -s names (all
 * without -s); 0, or EXIT_FAIL after one line for a spec naming nothing. */
static int pick(struct verb_ctx *ctx, int64_t **sids, int *ns, int64_t **bids, int *nb)
{
	sqlite3_stmt *s = db_prepare(ctx->db, "SELECT id FROM session WHERE ?1 IS NULL OR label = ?1 "
				     "OR CAST(id AS TEXT) = ?1 ORDER BY id");
	sqlite3_stmt *b = db_prepare(ctx->db, "SELECT id FROM bench WHERE ?1 IS NULL OR label = ?1 "
				     "ORDER BY id");
	size_t cs = 0, cb = 0;
	int rc = s && b ? 0 : EXIT_FAIL;
	for (size_t i = 0; !rc && i < (specs.n ? specs.n : 1); i++) {
		int before = *ns + *nb;
		const char *spec = specs.n ? specs.v[i] : NULL;
		db_bind_text_or_null(s, 1, spec);
		db_bind_text_or_null(b, 1, spec);
		add_ids(sids, ns, &cs, s);
		add_ids(bids, nb, &cb, b);
		if (spec && *ns + *nb == before) {
			int64_t *any = NULL;
			char err[512];
			if (db_pick_sessions(ctx->db, spec, &any, err, sizeof(err)) < 0) {
				char *where = xasprintf("%s: ", ctx->dbpath);
				say_err(ctx, where, err);
				free(where);
			}
			free(any);
			rc = EXIT_FAIL;
		}
	}
	sqlite3_finalize(s);
	sqlite3_finalize(b);
	return rc;
}

/* check: libpq, and --to as libpq reads it, before the database opens;
 * 0, EXIT_FAIL (no libpq) or EXIT_USAGE after one line. */
static int check(struct verb_ctx *ctx)
{
	char err[2048];
	if (pg_lib_load(err, sizeof(err))) {
		say_err(ctx, "", err);
		return EXIT_FAIL;
	}
	if (pg_check_conninfo(to, err, sizeof(err))) {
		say_err(ctx, "--to: ", err);
		return EXIT_USAGE;
	}
	return 0;
}

/* run: connects, then pushes what -s names. */
static int run(struct verb_ctx *ctx)
{
	int64_t *sids = NULL, *bids = NULL;
	int ns = 0, nb = 0, rc;
	char err[2048];
	PGconn *c = NULL;
	if ((rc = pick(ctx, &sids, &ns, &bids, &nb))) {
		;
	} else if (!ns && !nb) {
		fprintf(stderr, "%s: %s: no sessions or benches to push\n", ctx->prog, ctx->dbpath);
		rc = EXIT_FAIL;
	} else if (!(c = pg_connect(to, err, sizeof(err)))) {
		say_err(ctx, "", err);
		rc = EXIT_FAIL;
	} else if (fleet_push(ctx->db, c, sids, ns, bids, nb, &o, stdout, err, sizeof(err))) {
		fflush(stdout);
		say_err(ctx, "", err);
		rc = EXIT_FAIL;
	} else {
		rc = fflush(stdout) ? EXIT_FAIL : EXIT_OK;
	}
	pg_close(c);
	free(sids);
	free(bids);
	string_list_clear(&specs);
	return rc;
}

const struct verb verb_push = {
	.name = "push",
	.summary = "copy sessions and benches to a PostgreSQL server",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb push -s base -s patched --to 'host=db.example dbname=perf'", "Two labels' "
		  "sessions and benches to a server (the password from ~/.pgpass)" },
		{ "perfdb push lab.db --to postgresql://db.example/perf", "Every session and bench of "
		  "lab.db" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){
		VERB_FILE_DB_READ,
		{ "~/.pgpass", "the password, as libpq reads it (PGPASSFILE names another file)" },
		{ "~/.pg_service.conf", "the services service=NAME names (PGSERVICEFILE names another)" },
		{ NULL, NULL },
	},
	.environment = (const char *const[]){ "PERFDB_LIBPQ", "PG*", NULL },
	.required = (const char *const[]){ "to", NULL },
	.description =
		"Copies the sessions -s names (default: every session and bench of the database) "
		"with every table a session owns into a PostgreSQL database (made there on the "
		"first push: the same tables and views as SQLite's), each session in one "
		"transaction with its rows sent by COPY and its samples in a partition of their "
		"own; a bench goes with its parameters, cells, runs, metrics and the sessions of "
		"its recorded runs. Ids are renumbered on the server. A session carries its "
		"identity (host, kernel, perf command line, first and last record time, counts, "
		"label): one the server has is not pushed again, and a bench the server has for "
		"the same label and boot neither; each case says so. Text that is not UTF-8 (a "
		"comm, an argv) goes to the server with each such byte as U+FFFD and two hex "
		"digits, and comes back from pull the same.\n\n"
		"CONNINFO is a libpq connection string or URI; the password comes the libpq ways "
		"(~/.pgpass or PGPASSFILE, a service file with service=NAME), never on the command "
		"line. The kernel symbol table a session keeps (its KASLR base) is pushed only "
		"with --with-kallsyms; resolved symbols always travel.\n\n"
		"One line per session or bench on stdout, labels and hosts escaped as tables "
		"escape text. A server that is down or refuses the connection gives one line and "
		"exit status 2; a session whose push fails leaves nothing of it on the server, "
		"and the line names it.\n",
	.options = options,
	.run = run,
	.check = check,
};
