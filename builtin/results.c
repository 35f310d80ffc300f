/* perfdb results: the runs of benches summarized per label, cell and
 * metric (analyze/bench/results.h). */
#include "analyze/bench/bench_data.h"
#include "analyze/bench/results.h"
#include "builtin/builtin.h"

static const char *const usage[] = {
	"perfdb results [DB] [-l LABEL]... [--metric NAME]... [--stat STAT] [-n ROWS] [--format F]",
	NULL,
};

static struct string_list labels, metrics;
static int stat = -1;

static const struct opt options[] = {
	OPT_STRING_LIST('l', "label", &labels, "LABEL", "only this label's benches (default: every label); "
			"LABEL:NAME=V[,NAME=V...] for the cells with those values"),
	OPT_STRING_LIST(0, "metric", &metrics, "NAME", "only this metric (default: every metric)"),
	OPT_STAT(&stat),
	OPT_ROWS("all", "results, boots, sittings, perturbation, failures: the first"),
	OPT_FORMAT(),
	OPT_END(),
};

/* The tables -n limits. */
static const char *const long_tables[] = { "results", "boots", "sittings", "perturbation", "failures" };

/* run: the findings, their long tables limited to -n rows. */
static int run(struct verb_ctx *ctx)
{
	char err[512];
	int rc = results_findings(ctx->db, labels.v, labels.n, metrics.v, metrics.n,
				  stat >= 0 ? bd_stats[stat] : NULL, ctx->doc, err, sizeof(err));
	string_list_clear(&labels);
	string_list_clear(&metrics);
	if (rc) {
		return verb_fail(ctx, err);
	}
	for (size_t i = 0; i < sizeof(long_tables) / sizeof(*long_tables); i++)
		doc_limit_rows(ctx->doc, long_tables[i], verb_rows(0));
	return EXIT_OK;
}

const struct verb verb_results = {
	.name = "results",
	.summary = "the runs of benches summarized per label, cell and metric",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb results -l base -l patched", "Every cell of two labels' benches" },
		{ "perfdb results --table sittings", "The machine during each sitting" },
		{ "perfdb results --metric ctxsw_per_sec_per_cpu --format csv",
		  "One metric, as csv for a spreadsheet" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){ VERB_FILE_DB_READ, { NULL, NULL } },
	.description =
		"Per label and cell (parameters as the leading columns), for each metric: the boots, "
		"sittings and runs, the median (of each boot's runs, averaged over the boots: \"median of 5 "
		"runs, averaged over 2 boots\"), mean, standard deviation (and as % of the mean), "
		"min, max, and the mean user, system and elapsed seconds per run. Only bare runs "
		"that ended well count; the table \"boots\" has each boot's median, \"sittings\" "
		"the machine during each sitting (one perfdb bench on one boot: the pulse measured "
		"between its runs, and the share of the CPUs other processes and steal took), "
		"\"perturbation\" the recorded runs against the bare ones, \"failures\" the runs "
		"that failed.\n",
	.options = options,
	.run = run,
};
