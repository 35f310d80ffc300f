/* Command-line parsing of the call-graph verbs: see cgdiff_cli.h. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/cgdiff_cli.h"
#include "cmd.h"
#include "schema/db.h"

enum { O_COMM = 256, O_PID, O_TID, O_EVENT, O_LIMIT, O_SELF, O_CHILDREN, O_FORMAT, O_SVG,
	O_PERIOD, O_HELP };

/* Every option, with the CLI_* bit that allows it (0: always). */
static const struct {
	struct option opt;
	unsigned allow;
} all_opts[] = {
	{ { "comm", required_argument, NULL, O_COMM }, 0 },
	{ { "pid", required_argument, NULL, O_PID }, 0 },
	{ { "tid", required_argument, NULL, O_TID }, 0 },
	{ { "event", required_argument, NULL, O_EVENT }, 0 },
	{ { "help", no_argument, NULL, O_HELP }, 0 },
	{ { "limit", required_argument, NULL, O_LIMIT }, CLI_LIMIT },
	{ { "self", no_argument, NULL, O_SELF }, CLI_MODES },
	{ { "children", no_argument, NULL, O_CHILDREN }, CLI_MODES },
	{ { "format", required_argument, NULL, O_FORMAT }, CLI_FORMAT },
	{ { "svg", required_argument, NULL, O_SVG }, CLI_SVG },
	{ { "period", no_argument, NULL, O_PERIOD }, CLI_PERIOD },
};
#define NOPTS (sizeof(all_opts) / sizeof(*all_opts))

/* bad: prints what is wrong and the usage; EXIT_USAGE. */
static int bad(const char *verb, const char *what, const char *arg, const char *usage)
{
	fprintf(stderr, "perfdb %s: %s%s%s%s\n%s", verb, what, arg ? " '" : "", arg ? arg : "",
		arg ? "'" : "", usage);
	return EXIT_USAGE;
}

/* parse_id: a non-negative integer option value; -1 when malformed. */
static long long parse_id(const char *s)
{
	char *end;
	long long v;
	errno = 0;
	v = strtoll(s, &end, 10);
	return errno || end == s || *end || v < 0 ? -1 : v;
}

/* parse_limit: a percentage 0..100; NaN when malformed. */
static double parse_limit(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	return end == s || *end || !(v >= 0 && v <= 100) ? NAN : v;
}

/* one_opt: applies option c with argument arg; -1 or an exit status. */
static int one_opt(int c, const char *arg, const char *verb, const char *usage, struct cg_cli *o)
{
	switch (c) {
	case O_COMM: o->o.filter.comm = arg; break;
	case O_EVENT: o->o.filter.event = arg; break;
	case O_SVG: o->svg = arg; break;
	case O_PERIOD: o->period = true; break;
	case O_SELF: o->o.mode = CG_SELF; break;
	case O_CHILDREN: o->o.mode = CG_CHILDREN; break;
	case O_HELP: fputs(usage, stdout); return EXIT_OK;
	case O_PID:
	case O_TID:
		if (parse_id(arg) < 0)
			return bad(verb, c == O_PID ? "bad --pid" : "bad --tid", arg, usage);
		*(c == O_PID ? &o->o.filter.pid : &o->o.filter.tid) = parse_id(arg);
		break;
	case O_LIMIT:
		if (isnan(o->o.limit = parse_limit(arg)))
			return bad(verb, "bad --limit (a percentage, 0 to 100)", arg, usage);
		break;
	case O_FORMAT:
		if (out_format_parse(arg, &o->format))
			return bad(verb, "bad --format (text, md, csv or json)", arg, usage);
		break;
	default:
		return bad(verb, "unknown option", NULL, usage);
	}
	return -1;
}

/* cg_cli_parse: see cgdiff_cli.h. */
int cg_cli_parse(int argc, char **argv, const char *usage, int nspecs, unsigned allow,
		 struct cg_cli *c)
{
	struct option opts[NOPTS + 1];
	int n = 0, ch, rc, npos;
	*c = (struct cg_cli){ .db = PERFDB_DEFAULT_DB, .format = FMT_TEXT,
		.o = { .filter = { .pid = -1, .tid = -1 }, .limit = 0.5, .conf = 0.95 } };
	for (size_t i = 0; i < NOPTS; i++)
		if (!all_opts[i].allow || (allow & all_opts[i].allow))
			opts[n++] = all_opts[i].opt;
	opts[n] = (struct option){ NULL, 0, NULL, 0 };
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {	/* GNU: permutes */
		if (ch == '?' || ch == ':')
			return bad(argv[0], "unknown option or missing value", argv[optind - 1], usage);
		if ((rc = one_opt(ch == 'h' ? O_HELP : ch, optarg, argv[0], usage, c)) >= 0)
			return rc;
	}
	npos = argc - optind;
	if (npos != nspecs && npos != nspecs + 1)
		return bad(argv[0], npos < nspecs ? "missing arguments" : "too many arguments",
			   NULL, usage);
	if (npos > nspecs)
		c->db = argv[optind++];
	for (int i = 0; i < nspecs; i++)
		c->spec[i] = argv[optind++];
	return -1;
}

/* cg_cli_open: see cgdiff_cli.h. */
sqlite3 *cg_cli_open(const struct cg_cli *c, const char *verb)
{
	char err[512];
	sqlite3 *db = db_open(c->db, false, err, sizeof(err));
	if (!db)
		fprintf(stderr, "perfdb %s: %s\n", verb, err);
	return db;
}
