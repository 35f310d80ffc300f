/* perfdb cgdiff: the call-graph diff of two sides (sessions or labels),
 * in the format of the kswapd profiles users paste into LKML (seed 004),
 * with each node's shares, delta, 95% interval and `=>` marks; optionally
 * a differential flame graph. See analyze/cgdiff.h for the statistics. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "analyze/cgdiff.h"
#include "analyze/cgdiff_cli.h"
#include "cmd.h"

static const char usage_text[] =
	"usage: perfdb cgdiff [DB] BASE NEW [--comm C] [--pid P] [--tid T] [--event E]\n"
	"                     [--limit PCT] [--self | --children]\n"
	"                     [--format text|md|csv|json] [--svg FILE]\n"
	"  BASE, NEW     a session id or label (a label naming several sessions\n"
	"                pools their runs; 3 or more on both sides: run-level t intervals)\n"
	"  --comm C      samples of threads named C at the time (also --pid, --tid)\n"
	"  --event E     the event (default: the callchain event with most samples)\n"
	"  --limit PCT   leave out rows below PCT% on both sides (default 0.5)\n"
	"  --self        flat table of self shares by symbol (--children: inclusive)\n"
	"  --svg FILE    also write a differential flame graph (width from NEW)\n";

/* write_svg: the flame graph of d into path; an exit status. */
static int write_svg(const struct cgdiff *d, const char *path)
{
	char err[256];
	FILE *f = fopen(path, "w");
	int rc;
	if (!f) {
		fprintf(stderr, "perfdb cgdiff: %s: %s\n", path, strerror(errno));
		return EXIT_FAIL;
	}
	rc = cgdiff_svg(d, f, err, sizeof(err));
	if (fclose(f) || rc) {
		fprintf(stderr, "perfdb cgdiff: %s: %s\n", path, rc ? err : strerror(errno));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* cmd_cgdiff: the verb; see usage_text and cmd.h. */
int cmd_cgdiff(int argc, char **argv)
{
	struct cg_cli c;
	struct cgdiff *d = NULL;
	char err[1024];
	sqlite3 *db;
	int rc = cg_cli_parse(argc, argv, usage_text, 2,
			      CLI_LIMIT | CLI_MODES | CLI_FORMAT | CLI_SVG, &c);
	if (rc >= 0)
		return rc;
	if (!(db = cg_cli_open(&c, "cgdiff")))
		return EXIT_FAIL;
	rc = cgdiff_run(db, c.spec[0], c.spec[1], &c.o, &d, err, sizeof(err));
	sqlite3_close(db);
	if (rc) {
		fprintf(stderr, "perfdb cgdiff: %s: %s\n", c.db, err);
		return EXIT_FAIL;
	}
	rc = cgdiff_print(d, c.format, stdout) || fflush(stdout) ? EXIT_FAIL : EXIT_OK;
	if (!rc && c.svg)
		rc = write_svg(d, c.svg);
	cgdiff_free(d);
	return rc;
}
