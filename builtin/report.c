/* perfdb report: the changelog-ready A/B write-up of two labels
 * (analyze/report/report.h makes it; reports/ renders it, its pictures as SVG
 * files next to the report or inline in html). */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "analyze/report/report.h"
#include "analyze/session_info.h"
#include "builtin/builtin.h"
#include "lib/alloc.h"
#include "lib/outfile.h"
#include "reports/render.h"

static const char *const usage[] = {
	"perfdb report [DB] --base LABEL --new LABEL [-o FILE] [--format md|html|json|text|csv]",
	"              [--assets DIR] [--comm C] [--metric NAME]...",
	NULL,
};

static const char *out_path, *assets, *comm;
static struct string_list metrics;
static int format = -1;

static const struct opt options[] = {
	OPT_STRING(0, "base", &common.base, "LABEL", "the sessions and benches before the change"),
	OPT_STRING(0, "new", &common.new, "LABEL", "the sessions and benches after the change"),
	OPT_STRING('o', "output", &out_path, "FILE", "write the report to FILE (default: standard output)"),
	OPT_CHOICE('f', "format", &format, NULL, out_format_names,
		   "md (default), html (one self-contained page), json (every number), text or csv"),
	OPT_STRING(0, "assets", &assets, "DIR",
		   "md: write the pictures (SVG) into DIR (default: FILE's name with .assets, next "
		   "to it; none when the report goes to standard output)"),
	OPT_STRING(0, "comm", &comm, "C", "the call graph of threads named C (default: the workload's)"),
	OPT_STRING_LIST(0, "metric", &metrics, "NAME", "only this metric in the results (default: all)"),
	OPT_END(),
};

/* default_assets(path): FILE.assets for the report file path, malloc'ed. */
static char *default_assets(const char *path)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	size_t n = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
	return xasprintf("%.*s.assets", (int)n, path);
}

/* href_of(dir, report): how the report refers to dir (relative to the
 * report's directory when dir is inside it). */
static const char *href_of(const char *dir, const char *report)
{
	const char *slash = report ? strrchr(report, '/') : NULL;
	size_t n = slash ? (size_t)(slash - report) + 1 : 0;
	return n && !strncmp(dir, report, n) ? dir + n : dir;
}

/* render_to(ctx, d, f, ro, o): writes the report to o (already open, see
 * lib/outfile.h: complete or not at all) or, when o is NULL, to stdout. */
static int render_to(struct verb_ctx *ctx, const struct doc *d, enum out_format f,
		     const struct render_opts *ro, struct outfile *o)
{
	char err[1200];
	if (!o) {
		if (render_doc_opts(d, f, NULL, ro, stdout) || fflush(stdout)) {
			fprintf(stderr, "%s: stdout: cannot write the report\n", ctx->prog);
			return EXIT_FAIL;
		}
		return EXIT_OK;
	}
	if (render_doc_opts(d, f, NULL, ro, o->f)) {
		outfile_abort(o);
		fprintf(stderr, "%s: %s: cannot write the report\n", ctx->prog, out_path);
		return EXIT_FAIL;
	}
	if (outfile_commit(o, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", ctx->prog, err);
		return EXIT_FAIL;
	}
	fprintf(stderr, "%s: wrote %s%s%s\n", ctx->prog, out_path, ro->assets_dir ? " and pictures in " : "",
		ro->assets_dir ? ro->assets_dir : "");
	return EXIT_OK;
}

/* assets_dir(ctx, f, ro): for md with a file or --assets, the pictures'
 * directory (created; malloc'ed, set in ro), else NULL. */
static char *assets_dir(struct verb_ctx *ctx, enum out_format f, struct render_opts *ro)
{
	char *dir;
	if (f != FMT_MD || (!assets && !out_path))
		return NULL;
	dir = assets ? xstrdup(assets) : default_assets(out_path);
	if (mkdir(dir, 0755) && errno != EEXIST)
		fprintf(stderr, "%s: %s: %s; no pictures\n", ctx->prog, dir, strerror(errno));
	else
		*ro = (struct render_opts){ dir, href_of(dir, out_path) };
	return dir;
}

/* run: the report's findings, rendered. The output file is opened first,
 * so a refused -o (the database itself, say) costs nothing. */
static int run(struct verb_ctx *ctx)
{
	struct report_opts o = { common.base, common.new, comm, metrics.v, metrics.n, ctx->dbpath };
	enum out_format f = format < 0 ? FMT_MD : (enum out_format)format;
	struct doc *d = doc_new("report");
	char err[1200], *dir = NULL;
	struct render_opts ro = { 0 };
	struct outfile out = { 0 };
	int rc = EXIT_FAIL;
	if (!common.base || !common.new) {
		fprintf(stderr, "%s: which labels? give --base LABEL --new LABEL\n", ctx->prog);
		rc = EXIT_USAGE;
	} else if (out_path && outfile_open(&out, out_path, 0644, ctx->dbpath, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", ctx->prog, err);
	} else if (report_findings(ctx->db, &o, d, err, sizeof(err))) {
		fprintf(stderr, "%s: %s: %s\n", ctx->prog, ctx->dbpath, err);
		outfile_abort(&out);
	} else {
		dir = assets_dir(ctx, f, &ro);
		rc = render_to(ctx, d, f, &ro, out_path ? &out : NULL);
	}
	free(dir);
	doc_free(d);
	string_list_clear(&metrics);
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
	.required = (const char *const[]){ "base", "new", NULL },
	.description =
		"Compares two labels (for example the base and the patched kernel): their benches "
		"(perfdb bench) and their sessions (perfdb record, and the recorded runs of a bench). "
		"Sections: a summary of the significant changes; the setup of both sides, with a "
		"warning for anything but the kernel that differs; per metric the cells with each "
		"side's mean, %stddev, the %change and its 95% interval, marked * where the interval "
		"excludes 0 (Welch's t on the runs, or on the boots' means with 3 or more boots a "
		"side; simultaneous over all rows), with a chart of the runs; the durations; the "
		"evidence of the analyzers (context switches, flush IPIs, contended cachelines, the "
		"call graph with its differential flame graph); data quality; the commands that "
		"reproduce both sides.\n",
	.options = options,
	.run = run,
};
