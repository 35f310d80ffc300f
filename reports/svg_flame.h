/* Differential flame graphs as standalone SVG (no JavaScript): callers at
 * the bottom, callees stacked above, each frame as wide as its share of
 * the NEW side; a frame whose change is significant red where it grew and
 * blue where it shrank, from a quarter of full strength up to full at the
 * largest significant |change| in the graph; every other frame one
 * neutral grey, rgb(221,221,221). A legend at the bottom names both sides
 * and their samples and shows the colours with the scale. Every frame's
 * tooltip (an SVG <title>, shown by browsers on hover) gives its name,
 * both shares, the delta with its interval (or, when the table has them,
 * both sides' absolute values, their difference and its interval in the
 * unit of the scale) and whether the change is significant. The frames come as a table (lib/table.h) that an analyzer
 * fills. */
#ifndef PERFDB_SVG_FLAME_H
#define PERFDB_SVG_FLAME_H
#include <stdio.h>
#include "lib/table.h"

/* svg_flame_write(out, frames, width_px): writes the SVG document of the
 * frames table to out, width_px wide (<= 0: 1200). The table's title is
 * the top line ("Differential flame graph" when it has none) and its first
 * caption, if any, the second; captions 2 and 3 name the sides in the
 * legend, caption 4 is the unit of the scale ("points" when absent) and
 * caption 5 the intervals' level ("95%" when absent).
 * Its columns, by name: id (the row's index),
 * parent (an earlier row's id; NULL: the bottom row), name, width (the
 * fraction of the graph's width, 0..1), base_pct, new_pct, delta_pct (for
 * the tooltip and the color), ci95_low, ci95_high (the interval of delta
 * in points; NaN or NULL: none), in_base (0: the path is absent on the
 * base side) and, optionally, significant (1: the change is significant;
 * absent: none is), change (the colour's value; absent: delta_pct) and
 * base_per, new_per, delta_per, per_ci95_low, per_ci95_high (as cgdiff
 * --per names them in its nodes table: each side's absolute
 * value, the difference and its interval in the caption-4 unit; NaN or
 * NULL in a row: that row's tooltip gives shares only).
 * Frames come parents first; the children of a frame are drawn left to
 * right in row order, each starting where its previous sibling ended.
 * Frames narrower than 0.1 pixel are left out, with their descendants;
 * a label is the whole name when it fits its frame at 6.8 px a character
 * (11px monospace, rounded up), else as much as fits followed by an
 * ellipsis (U+2026), at least 3 characters, else none; names are XML
 * escaped (bytes outside printable ASCII become '?'). Returns 0, or -1
 * when a column is missing,
 * an id or parent is not as described, or writing failed. */
int svg_flame_write(FILE *out, const struct table *frames, int width_px);
#endif
