/* A chart of runs as plain SVG (no JavaScript, readable in a browser and
 * a repository's markdown viewer): per cell, each side's values as points,
 * its median as a bar and its min..max as a whisker, a colour a side (up
 * to 8; "base" first, the others in the order they appear). Drawn from a
 * TABLE_CHART table (lib/table.h): one row per value, columns "cell"
 * (the cell's text), "side" (its name: "base", "new", a label) and "value"; its title
 * heads the chart, its first caption (the unit) labels the y axis. */
#ifndef PERFDB_SVG_CHART_H
#define PERFDB_SVG_CHART_H
#include <stdio.h>
#include "lib/table.h"

/* svg_chart_write(t, out): the chart of t. 0, or -1 when t lacks the
 * columns, has more than 8 sides, or writing failed. */
int svg_chart_write(const struct table *t, FILE *out);
#endif
