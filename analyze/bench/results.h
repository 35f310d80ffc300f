/* `perfdb results` as findings: per label, cell and metric, the runs (and
 * boots) of the label's benches summarized: the median of each boot's
 * runs averaged over the boots (what the LKML posts call "median of 5
 * runs, averaged over 2 boots"), mean, standard deviation (also as % of
 * the mean), min, max, and the mean user, system and elapsed time per
 * run; a table per boot; recorded against bare runs (the perturbation of
 * recording); the failed runs. Only runs that ended well count, and only
 * bare runs count in the headline. */
#ifndef PERFDB_RESULTS_H
#define PERFDB_RESULTS_H
#include <sqlite3.h>
#include <stddef.h>
#include "lib/doc.h"

/* results_findings(db, labels, nlabels, metrics, nmetrics, stat, d, err,
 * errlen): the tables "results" (main), "boots", "perturbation" (when
 * there are recorded runs) and "failures" (when a run failed) of the
 * labels' benches (every label with a bench when nlabels is 0; a label
 * LABEL:NAME=V,... is some cells of LABEL's, bench_data_narrow), only the
 * metrics named (all when nmetrics is 0), a distribution's runs taken by
 * their stat (a bd_stats word, NULL: the mean; a note says which);
 * warnings for failed runs and
 * cells with fewer than 3 runs. Returns 0, or -1 with one line in err (a
 * label without a bench, a metric no run printed). */
int results_findings(sqlite3 *db, const char *const *labels, size_t nlabels,
		     const char *const *metrics, size_t nmetrics, const char *stat, struct doc *d, char *err,
		     size_t errlen);
#endif
