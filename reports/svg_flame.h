/* Differential flame graphs as standalone SVG (no JavaScript): callers at
 * the bottom, callees stacked above, each frame as wide as its share of
 * the NEW side, red where its share grew and blue where it shrank, the
 * color's strength scaled to the largest |delta| in the graph. Every
 * frame's tooltip (an SVG <title>, shown by browsers on hover) gives its
 * name, both shares and the delta with its interval. */
#ifndef PERFDB_SVG_FLAME_H
#define PERFDB_SVG_FLAME_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* One frame of the graph. Frames come parents first (pre-order); the
 * children of a frame are drawn left to right in the order given, each
 * starting where its previous sibling ended. */
struct flame_frame {
	int parent;		/* index of the parent frame; -1: bottom row */
	const char *name;
	double width;		/* fraction of the graph's width, 0..1 */
	double base_pct, new_pct, delta_pct;	/* for the tooltip and the color */
	double ci_lo, ci_hi;	/* interval of delta in points; NaN: none */
	bool in_base;		/* false: the path is absent on the base side */
};

struct flame_opts {
	const char *title;	/* top line; NULL: "Differential flame graph" */
	const char *subtitle;	/* second line (what the shares are of), or NULL */
	int width_px;		/* image width; <= 0: 1200 */
};

/* svg_flame_write(out, f, n, o): writes the SVG document of frames
 * f[0..n-1] to out. Frames narrower than 0.1 pixel are left out, with
 * their descendants; names are cut to fit their frame ("..") and XML
 * escaped (bytes outside printable ASCII become '?'). Returns 0, or -1
 * when a parent index is invalid or writing failed. */
int svg_flame_write(FILE *out, const struct flame_frame *f, size_t n, const struct flame_opts *o);
#endif
