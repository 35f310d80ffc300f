/* perfdb pull: sessions and benches from a PostgreSQL server into a
 * database (collect/fleet/fleet_pull.h does the work). */
#include <stdlib.h>
#include "builtin/builtin.h"
#include "collect/fleet/fleet_pull.h"
#include "lib/escape.h"
#include "schema/db.h"
#include "schema/pg_conn.h"

static const char *const usage[] = {
	"perfdb pull --from CONNINFO [-s SESSION]... [-l LABEL]... [--host HOST]... [-o DB]",
	NULL,
};

static struct string_list specs, labels, hosts;
static const char *from, *db_path;

static const struct opt options[] = {
	OPT_STRING(0, "from", &from, "CONNINFO",
		   "the server: a libpq connection string or URI; no password in it"),
	OPT_STRING_LIST('s', "session", &specs, "SESSION",
			"this server session id or label (repeatable; a label also names its benches)"),
	OPT_STRING_LIST('l', "label", &labels, "LABEL", "the sessions and benches of this label"),
	OPT_STRING_LIST(0, "host", &hosts, "HOST", "the sessions and benches recorded on host HOST"),
	OPT_STRING('o', "output", &db_path, "DB", "database to add them to (default ./perfdb.db)"),
	OPT_END(),
};

/* say_err(ctx, what, err): the error line (what, then err), escaped as
 * tables escape text: it may hold what the server or the command line
 * gave. */
static void say_err(struct verb_ctx *ctx, const char *what, const char *err)
{
	char *e = esc_dup(err, ESC_TEXT);
	fprintf(stderr, "%s: %s%s\n", ctx->prog, what, e);
	free(e);
}

/* close_db(db, path): closes the database; one this pull made
 * and left without a session or bench is removed again (as record and
 * import remove a database they made for nothing). */
static void close_db(sqlite3 *db, const char *path)
{
	bool created = db && db_created(db);
	db_close(db);
	if (created)
		db_remove_if_unused(path);
}

/* run: connects first (a server that is down changes nothing here),
 * then opens the database and pulls. */
static int run(struct verb_ctx *ctx)
{
	struct pull_sel sel = { specs.v, labels.v, hosts.v, specs.n, labels.n, hosts.n };
	const char *path = db_path ? db_path : PERFDB_DEFAULT_DB;
	char err[2048];
	PGconn *c = NULL;
	sqlite3 *db = NULL;
	int rc = EXIT_FAIL;
	if (ctx->nops) {
		fprintf(stderr, "%s: unexpected operand '%s' (the database is -o DB)\n", ctx->prog,
			ctx->ops[0]);
		rc = EXIT_USAGE;
	} else if (pg_lib_load(err, sizeof(err))) {
		say_err(ctx, "", err);
		rc = EXIT_FAIL;
	} else if (pg_check_conninfo(from, err, sizeof(err))) {
		say_err(ctx, "--from: ", err);
		rc = EXIT_USAGE;
	} else if (!(c = pg_connect(from, err, sizeof(err))) || pg_ensure_schema(c, false, NULL, err, sizeof(err))) {
		say_err(ctx, "", err);
	} else if (!(db = db_open(path, true, err, sizeof(err)))) {
		say_err(ctx, "", err);
	} else if (fleet_pull(c, db, &sel, stdout, err, sizeof(err))) {
		fflush(stdout);
		say_err(ctx, "", err);
	} else {
		db_exec(db, perfdb_index_sql, NULL, 0);
		rc = fflush(stdout) ? EXIT_FAIL : EXIT_OK;
	}
	close_db(db, path);
	pg_close(c);
	string_list_clear(&specs);
	string_list_clear(&labels);
	string_list_clear(&hosts);
	return rc;
}

const struct verb verb_pull = {
	.name = "pull",
	.summary = "bring sessions and benches back from a PostgreSQL server",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb pull --from 'service=perf' -l patched --host box7 -o box7.db", "The sessions "
		  "and benches labelled patched that box7 recorded, into box7.db" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){
		VERB_FILE_DB_WRITE("they are added to"),
		{ "~/.pgpass", "the password, as libpq reads it (PGPASSFILE names another file)" },
		{ "~/.pg_service.conf", "the services service=NAME names (PGSERVICEFILE names another)" },
		{ NULL, NULL },
	},
	.environment = (const char *const[]){ "PERFDB_LIBPQ", "PG*", NULL },
	.required = (const char *const[]){ "from", NULL },
	.description =
		"Copies sessions and benches perfdb push left on a PostgreSQL server into the "
		"database -o names (made when missing), each in one transaction, with new local "
		"ids; every verb then works on them as on the database they were pushed from. "
		"-s, -l and --host select (repeatable, together: what any of them names); nothing "
		"given pulls everything. A bench brings the sessions of its recorded runs. A "
		"session the database already has (the same identity: host, kernel, perf command "
		"line, first and last record time, counts, label) is not pulled again, nor a bench "
		"it has for the same label and boot; each case says so. What the server sends is "
		"checked (columns, types, lengths, NULL keys, ids within the session or bench): "
		"anything else is one line and exit status 2, nothing of that session or bench "
		"stored.\n\n"
		"CONNINFO is a libpq connection string or URI; the password comes the libpq ways, "
		"never on the command line. The connection is made before the database is opened: "
		"a server that is down or refuses the credentials gives one line, exit status 2, "
		"and changes nothing here; a database the pull made and left without a session "
		"or bench is removed again.\n",
	.options = options,
	.run = run,
};
