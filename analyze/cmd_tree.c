/* perfdb tree: one side's caller-order call tree with inclusive shares, in
 * the format of the kswapd profiles pasted into LKML (seed 004). */
#include <stdio.h>
#include "analyze/cgdiff.h"
#include "analyze/cgdiff_cli.h"
#include "cmd.h"

static const char usage_text[] =
	"usage: perfdb tree [DB] SESSION [--comm C] [--pid P] [--tid T] [--event E]\n"
	"                   [--limit PCT] [--self | --children] [--format text|md|csv|json]\n"
	"  SESSION       a session id or label (a label's sessions are pooled)\n"
	"  --comm C      samples of threads named C at the time (also --pid, --tid)\n"
	"  --event E     the event (default: the callchain event with most samples)\n"
	"  --limit PCT   leave out nodes below PCT% (default 0.5)\n"
	"  --self        flat table of self shares by symbol (--children: inclusive)\n";

/* cmd_tree: the verb; see usage_text and cmd.h. */
int cmd_tree(int argc, char **argv)
{
	struct cg_cli c;
	struct cgdiff *d = NULL;
	char err[1024];
	sqlite3 *db;
	int rc = cg_cli_parse(argc, argv, usage_text, 1, CLI_LIMIT | CLI_MODES | CLI_FORMAT, &c);
	if (rc >= 0)
		return rc;
	if (!(db = cg_cli_open(&c, "tree")))
		return EXIT_FAIL;
	rc = cgdiff_run(db, c.spec[0], NULL, &c.o, &d, err, sizeof(err));
	sqlite3_close(db);
	if (rc) {
		fprintf(stderr, "perfdb tree: %s: %s\n", c.db, err);
		return EXIT_FAIL;
	}
	rc = cgdiff_print(d, c.format, stdout) || fflush(stdout) ? EXIT_FAIL : EXIT_OK;
	cgdiff_free(d);
	return rc;
}
