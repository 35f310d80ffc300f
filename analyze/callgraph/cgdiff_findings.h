/* `perfdb cgdiff`, `tree` and `folded` as findings: a computed call-graph
 * diff or single tree (analyze/callgraph/cgdiff.h) turned into a findings document
 * (lib/doc.h), the differential flame graph's frames as a table for
 * reports/svg_flame.h, and a tree's call stacks as folded lines. Nothing
 * here reads the database or prints. */
#ifndef PERFDB_CGDIFF_FINDINGS_H
#define PERFDB_CGDIFF_FINDINGS_H
#include <stdbool.h>
#include "analyze/callgraph/cgdiff.h"
#include "lib/doc.h"
#include "lib/table.h"

/* cgdiff_findings(d, doc): d (a cgdiff_run result) into doc's findings:
 * scalars mode ("tree", "self", "children"), event, comm, pid, tid (null
 * when not selected), weight ("period"), percent_limit; with two sides
 * also interval ("newcombe-pooled", "student-t-runs", "welch-t-runs"),
 * confidence, row_confidence, per ("share", "run", "second", "op"), unit
 * (of the --per values: "ms", "events" ...), with --per op metric and
 * operations ("count" or "rate times recording length"),
 * min_row_samples, min_side_samples, too_few_side_samples and the object
 * totals_per_run (base, new, ci95_low, ci95_high, differ: the totals'
 * test that the share header reports); the side objects base and new (one
 * side: session) with spec, label, sessions, runs, samples,
 * effective_samples; and the main table "nodes", one row per row of d.
 *
 * "nodes" for two sides: for people "=>", base%, new%, delta, the
 * interval as text, "*" and the frame indented by its shown depth, with a
 * "[N frames]" row for each elided straight chain (text and md only, in
 * place of the chain's middle rows, which csv and json have); for
 * programs symbol, path (the frames from the outermost caller, joined by
 * ';'), depth, base_pct, new_pct, delta_pct, ci95_low, ci95_high,
 * significant (of the comparison shown: shares, or with --per the
 * absolute values), marked, mark ("increase", "decrease" or null),
 * in_base, in_new, too_few (0 or 1; too_few: no interval, ci95 null);
 * with --per base_per, new_per, delta_per, per_ci95_low, per_ci95_high
 * (in unit) and share_significant; and in tree mode node, parent (the
 * parent row's node, null at depth 0), base_samples, new_samples. With
 * --per the human columns are base/run, new/run (or /s, /op), delta and
 * its interval in unit; "too few samples" in place of an interval. One side: pct, symbol,
 * path, depth, and in tree mode node, parent, samples. The header lines
 * (sides, what the shares are of, the interval method, the legend) are the
 * table's captions. */
void cgdiff_findings(const struct cgdiff *d, struct doc *doc);

/* cgdiff_selection_findings(f, d): the scalars of d's selection under the
 * object f: event, comm, pid, tid (null when not selected). */
void cgdiff_selection_findings(struct dval *f, const struct cgdiff *d);

/* cgdiff_flame(d): the frames of d's differential flame graph (d has two
 * sides), for reports/svg_flame.h: a table "flame" titled "cgdiff: BASE
 * -> NEW" with the selection as its caption, one row per tree node with
 * samples on the new side, in pre-order (children by name) under an "all"
 * root: id (the row's index), parent (an earlier row's id; null for the
 * root), name, width (the new share as a fraction of the graph's width),
 * base_pct, new_pct, delta_pct, ci95_low, ci95_high (NaN for the root),
 * in_base, significant, change (what the colour shows: delta_pct, or
 * with --per delta_per). Captions: the selection, "base: SIDE, N runs, N
 * samples", the same for new, and the unit of change ("points", "ms per
 * run"). The caller frees it (table_free). */
struct table *cgdiff_flame(const struct cgdiff *d);

/* cgdiff_folded_findings(d, period, rows, doc): the call stacks of d (one side,
 * loaded by cgdiff_load) as the main table "stacks" of doc (TABLE_PLAIN:
 * "a;b;c COUNT" lines in text, outermost caller first, as flamegraph.pl
 * reads them): one row per distinct path with samples ending there,
 * sorted by line; columns stack (frames joined by ';', a ';' in a frame
 * name written ':' and a line break ' ') and count (samples, or the sum
 * of their periods when period is true); with rows > 0 only the rows
 * heaviest lines (a caption says how many were left out). Scalars event,
 * comm, pid, tid, weight ("samples" or "period"), samples. */
void cgdiff_folded_findings(const struct cgdiff *d, bool period, long long rows, struct doc *doc);
#endif
