/* perfdb report: the changelog-ready A/B write-up of two labels, a
 * findings verb (analyze/report/report.h makes it; builtin/run.c renders
 * it, md by default, to -o's file with its pictures as SVG files next to
 * it, or inline in html). */
#include <stdio.h>
#include "analyze/bench/bench_data.h"
#include "analyze/report/report.h"
#include "builtin/builtin.h"
#include "lib/alloc.h"

static const char *const usage[] = {
	"perfdb report [DB] --base LABEL --new LABEL [--new LABEL]... [-o FILE] [--format md|html|json|text|csv]",
	"              [--assets DIR] [--comm C] [--metric NAME]... [--stat STAT] [--style perfdb|mmtests|lkp]",
	"              [--columns PARAM]",
	NULL,
};

static const char *comm;
static struct string_list metrics;
static int stat = -1, style = -1;
static const char *columns;
static struct string_list news;	/* every --new, in order */

/* add_new(o, arg, err): one --new: the first is common.new as for every
 * verb that compares (the usage checks), each is a side of the report. */
static int add_new(const struct opt *o, const char *arg, struct strbuf *err)
{
	(void)o;
	(void)err;
	if (!common.new)
		common.new = arg;
	ALLOC_GROW(news.v, news.n + 1, news.cap);
	news.v[news.n++] = arg;
	return 0;
}

static const struct opt options[] = {
	OPT_STRING(0, "base", &common.base, "LABEL", "the sessions and benches before the change; "
		   "LABEL:NAME=V[,NAME=V...] for the cells of LABEL's bench with those values"),
	OPT_CALLBACK(0, "new", NULL, "LABEL", add_new, "the sessions and benches after the change (LABEL:NAME=V... "
		     "as --base: two cells of one bench compare runs interleaved in the same sittings); "
		     "given again, each is another side compared with the base (up to 7)"),
	OPT_OUTPUT("write the report to FILE (default: standard output); FILE is replaced only "
		   "once the report and its pictures are complete, never the database"),
	OPT_CHOICE('f', "format", &common.format, NULL, out_format_names,
		   "md (default), html (one self-contained page), json (every number), text or csv"),
	OPT_ASSETS("md: write the pictures (SVG) into DIR (default: FILE's name with .assets, next "
		   "to it; none when the report goes to standard output)"),
	OPT_STRING(0, "comm", &comm, "C", "the call graph of threads named C (default: the workload's)"),
	OPT_STRING_LIST(0, "metric", &metrics, "NAME", "only this metric in the results (default: all)"),
	OPT_STAT(&stat),
	OPT_STRING(0, "columns", &columns, "PARAM",
		   "text, md and html: PARAM's values as column groups (each its base, new and %change), "
		   "the other parameters as rows (json and --table keep one cell a row as well)"),
	OPT_CHOICE(0, "style", &style, NULL, report_style_names,
		   "the results' layout: perfdb (default: a table a metric, %change and interval), "
		   "mmtests (compare-kernels': Amean/Hmean, Stddev, CoeffVar, Max, BAmean-95/99 rows, "
		   "each side a column, *  x.xx%* where perfdb's test marks a row, Duration) or lkp "
		   "(0-day's: base +-N%, %change, new +-N%, metric; the +-N% only above 2%)"),
	OPT_END(),
};

/* run: the report's findings; builtin/run.c renders them (to -o's file,
 * opened before this runs, with md's pictures). */
static int run(struct verb_ctx *ctx)
{
	struct report_opts o = { common.base, news.v, news.n, comm, metrics.v, metrics.n, ctx->dbpath,
				 stat >= 0 ? bd_stats[stat] : NULL, style >= 0 ? style : REPORT_STYLE_PERFDB,
				 columns };
	char err[1200];
	int rc = EXIT_OK;
	if (report_findings(ctx->db, &o, ctx->doc, err, sizeof(err)))
		rc = verb_fail(ctx, err);
	string_list_clear(&metrics);
	string_list_clear(&news);
	return rc;
}

const struct verb verb_report = {
	.name = "report",
	.summary = "the changelog-ready A/B write-up of two labels, with significance and pictures",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb report --base base --new patched -o report.md",
		  "The A/B report in markdown, its pictures in report.assets/" },
		{ "perfdb report --base base --new patched --format html -o report.html",
		  "One self-contained page, the pictures inline" },
		{ "perfdb report lab.db --base base --new patched --format json",
		  "Every number, with its interval and significance, on standard output" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){
		VERB_FILE_DB_READ,
		{ "FILE", "-o's report, written whole or not at all (never over the database)" },
		{ "FILE.assets/", "md: the pictures (SVG) of -o FILE, unless --assets names another "
		  "directory" },
		{ NULL, NULL },
	},
	.description =
		"Compares two labels (for example the base and the patched kernel), or a base and "
		"several new sides (--new given again: each compared with the base, in its own columns, "
		"the intervals simultaneous over every side): their benches "
		"(perfdb bench) and their sessions (perfdb record, and the recorded runs of a bench). "
		"Sections: a summary of the significant changes; the setup of both sides, with a "
		"warning for anything but the kernel that differs; per metric the cells with each "
		"side's mean, %stddev, the %change and its 95% interval, marked * where the interval "
		"excludes 0 (Welch's t on the runs, or on the boots' means with 3 or more boots a "
		"side; simultaneous over all rows), with a chart of the runs; the durations; the "
		"evidence of the analyzers (context switches, flush IPIs, contended cachelines, the "
		"call graph with its differential flame graph); data quality; the commands that "
		"reproduce both sides.\n\n"
		"With -o FILE the report goes to FILE and, in md, its pictures (SVG) into FILE's name "
		"with .assets (or --assets DIR), linked from it. FILE and every picture are written "
		"beside their names and renamed over them once the whole report is written, so a "
		"failure leaves the old ones as they were; a symbolic link at one of those names is "
		"replaced, never followed. A name that is the database, another SQLite database, a "
		"perf.data recording or not a regular file is refused, and so is an --assets that is "
		"not a directory: exit 2, one line, nothing written.\n",
	.options = options,
	.default_format = FMT_MD,
	.run = run,
};
