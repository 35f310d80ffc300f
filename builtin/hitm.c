/* perfdb hitm: which struct fields of which cachelines move between CPUs,
 * from memory samples (perf c2c's cachelines, attributed to fields) or,
 * for sessions recorded with -r watch, from watchpoint traps
 * (analyze/hitm/hitm_findings.h). Only reads the database: perfdb layout
 * stores the objects and layouts it uses. */
#include <stdio.h>
#include <stdlib.h>
#include "analyze/hitm/hitm_findings.h"
#include "analyze/hitm/watch_load.h"
#include "builtin/builtin.h"

static const char *const usage[] = {
	"perfdb hitm [DB] [-s SESSION] [-d tot|lcl|rmt|peer] [-t TYPE] [--show-all] [-n ROWS] "
	"[--format F]",
	NULL,
};

static int display = -1;
static const char *type;
static bool show_all;

static const struct opt options[] = {
	OPT_SESSION(),
	OPT_CHOICE('d', "display", &display, "tot|lcl|rmt|peer", hitm_display_names,
		   "sort and select cachelines on total (tot, the default; peer on arm64), local "
		   "(lcl) or remote (rmt) HITMs, or peer snoops (peer), as perf c2c report -d"),
	OPT_STRING('t', "type", &type, "TYPE",
		   "only cachelines and fields of objects of struct TYPE (e.g. mm_struct)"),
	OPT_BOOL_F(0, "show-all", &show_all,
		   "every cacheline, not only those with >= 0.1% of the HITMs (peer snoops)", PO_NONEG),
	OPT_ROWS("all", "cachelines: the first in the -d order, with their fields"),
	OPT_FORMAT(),
	OPT_END(),
};

/* need_evidence(ctx): whether every session has memory or watchpoint
 * samples; else one line saying why not and false. */
static bool need_evidence(const struct verb_ctx *ctx)
{
	for (int i = 0; i < ctx->sessions.n; i++) {
		char *why = hitm_no_evidence(ctx->db, ctx->sessions.ids[i], "record them with perfdb "
					     "record -r c2c, or -r watch on machines without PEBS, IBS or SPE");
		if (!why)
			continue;
		fprintf(stderr, "%s: %s: session %lld %s\n", ctx->prog, ctx->dbpath,
			(long long)ctx->sessions.ids[i], why);
		free(why);
		return false;
	}
	return true;
}

/* run: every session's evidence as one document. */
static int run(struct verb_ctx *ctx)
{
	struct hitm_opts o = {
		.c2c = { .display = display, .show_all = show_all, .type = type,
			 .rows = verb_rows(0), .dbpath = ctx->dbpath },
		.watch = { .min_transfers = WATCH_MIN_TRANSFERS, .site_rows = 5, .rows = verb_rows(0) },
	};
	char err[512];
	if (!need_evidence(ctx))
		return EXIT_FAIL;
	if (hitm_findings(ctx->db, ctx->sessions.ids, ctx->sessions.n, &o, ctx->doc, err,
			  sizeof(err))) {
		return verb_fail(ctx, err);
	}
	return EXIT_OK;
}

const struct verb verb_hitm = {
	.name = "hitm",
	.summary = "cacheline HITMs (perf c2c) attributed to struct fields, false sharing",
	.usage = usage,
	.examples = (const struct verb_item[]){
		{ "perfdb hitm -s c2c", "The contended cachelines of the session labelled c2c, by "
		  "struct field" },
		{ "perfdb hitm -s c2c -d rmt -t mm_struct -n 5", "The five lines of mm_structs with the "
		  "most remote HITMs" },
		{ "perfdb hitm -s c2c --format csv --table fields", "Every line's fields, as csv" },
		{ NULL, NULL },
	},
	.files = (const struct verb_item[]){ VERB_FILE_DB_READ, { NULL, NULL } },
	.description =
		"Reads a session's memory samples (perf c2c record, perf mem record, perfdb record "
		"-r c2c) and groups them into cachelines as perf c2c report does: per line the "
		"HITMs, peer snoops, loads and stores by level, every count equal to perf's. Each "
		"sample's data address is attributed to a field of the object it falls in (the "
		"mm_structs the mmap_lock tracepoints name, kernel data symbols, and the objects "
		"and DWARF variables perfdb layout stored) and each line gets a verdict: true "
		"sharing, false sharing, both, or none seen. Layouts and objects come from the "
		"session: a note names the perfdb layout command that stores a missing one.\n\n"
		"On a session recorded with -r watch (watchpoint traps, no memory samples) the "
		"same tables come from the watched fields, as perfdb watch shows them. The table "
		"\"cachelines\" is the main one; \"fields\" holds each line's fields (joined on "
		"idx), then summary, types and offsets (memory samples) or windows, cpus, sites "
		"and rates (watchpoints).\n\n"
		"A session that sampled no store (so no line's writers were seen), no load (so no "
		"HITM), or only some CPUs (-C) gets a warning saying what its tables cannot show, "
		"and an entry of the json's findings array unseen.\n",
	.options = options,
	.run = run,
};
