/* Differential flame graphs as SVG: see svg_flame.h. The frames table is
 * read into an array first; layout: a frame's x is its parent's x plus the
 * widths of the siblings before it, its row is its depth counted from the
 * bottom. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "reports/svg_flame.h"

#define ROW_PX 16
#define TOP_PX 56
#define BOTTOM_PX 62	/* the legend's three lines */
#define PAD_PX 10
#define LABEL_PAD 3	/* a label's left and right margin in its frame */
#define CHAR_PX 6.8	/* advance of an 11px monospace character, rounded up
			 * (DejaVu Sans Mono: 6.62, Liberation Mono: 6.60) */
#define NEUTRAL "rgb(221,221,221)"	/* frames without a significant change */

/* One frame, as read from the table. */
struct frame {
	int parent;		/* index of the parent frame; -1: bottom row */
	const char *name;
	double width;		/* fraction of the graph's width, 0..1 */
	double base_pct, new_pct, delta_pct;
	double ci_lo, ci_hi;	/* NaN: none */
	double change;		/* what the colour shows: "change", else delta_pct */
	bool in_base, significant;
	/* with --per: each side's value, new - base and its interval in the
	 * table's unit (caption 3); NaN: none (shares only) */
	double base_abs, new_abs, delta_abs, abs_lo, abs_hi;
};

/* Per-frame layout. */
struct place {
	double x, next;		/* left edge; where its next child starts (pixels) */
	int depth;
	bool drawn;
};

/* xml_text: the first n bytes of s escaped for XML text and attributes
 * (bytes outside printable ASCII become '?', one character each). */
static void xml_text(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default: fputc(c >= 0x20 && c < 0x7f ? c : '?', out);
		}
	}
}

/* xml_all(out, s): all of s, escaped. */
static void xml_all(FILE *out, const char *s)
{
	xml_text(out, s, strlen(s));
}

/* label_chars(name, w): how many characters of name a label in a frame w
 * pixels wide shows: all of it when it fits, else as many as fit with an
 * ellipsis after them (at least 3), else 0. *cut: an ellipsis follows. */
static size_t label_chars(const char *name, double w, bool *cut)
{
	double room = (w - 2 * LABEL_PAD) / CHAR_PX;
	size_t len = strlen(name), fit = room > 0 ? (size_t)room : 0;
	*cut = len > fit;
	if (!*cut)
		return len;
	return fit >= 4 ? fit - 1 : 0;
}

/* color: the fill for a change c where the largest significant |change|
 * is scale: red growing, blue shrinking, from a quarter of full strength
 * (the smallest change) to full (scale); the neutral grey when the change
 * is not significant. */
static void color(FILE *out, double c, bool significant, double scale)
{
	double t = scale > 0 ? 0.25 + 0.75 * fmin(1, fabs(c) / scale) : 1;
	int r, g, b;
	if (!significant || c == 0 || isnan(c)) {
		fputs(NEUTRAL, out);
		return;
	}
	if (c > 0) {
		r = (int)lround(240 - 25 * t);
		g = b = (int)lround(240 - 200 * t);
	} else {
		r = (int)lround(240 - 195 * t);
		g = (int)lround(240 - 150 * t);
		b = (int)lround(240 - 20 * t);
	}
	fprintf(out, "rgb(%d,%d,%d)", r, g, b);
}

/* caption(t, i): the table's caption i, or "" when it has none. */
static const char *caption(const struct table *t, size_t i)
{
	return i < table_ncaptions(t) ? table_caption_at(t, i) : "";
}

/* tooltip(out, f, unit, level): the <title> of a frame; unit: of the
 * absolute values, level: of the intervals ("95%"). */
static void tooltip(FILE *out, const struct frame *f, const char *unit, const char *level)
{
	bool abs = !isnan(f->delta_abs);
	double lo = abs ? f->abs_lo : f->ci_lo, hi = abs ? f->abs_hi : f->ci_hi;
	fputs("<title>", out);
	xml_all(out, f->name);
	if (abs) {
		fprintf(out, "\nbase %.4g  new %.4g  delta %+.4g ", f->base_abs, f->new_abs, f->delta_abs);
		xml_all(out, unit);
		fprintf(out, "\nshares: base %.2f%%  new %.2f%%", f->base_pct, f->new_pct);
	} else if (f->in_base) {
		fprintf(out, "\nbase %.2f%%  new %.2f%%  delta %+.2f points", f->base_pct,
			f->new_pct, f->delta_pct);
	} else {
		fprintf(out, "\nbase -  new %.2f%%  delta %+.2f points", f->new_pct, f->delta_pct);
	}
	if (!isnan(lo) && !isnan(hi)) {
		fputs("\n", out);
		xml_all(out, level);
		fprintf(out, abs ? " interval of delta [%+.4g, %+.4g]%s" : " interval of delta [%+.2f, %+.2f]%s",
			lo, hi, (lo > 0 || hi < 0) ? ", excludes 0" : "");
	}
	fprintf(out, "\n%s", f->significant ? "significant change" : "no significant change");
	fputs("</title>", out);
}

/* draw(out, t, f, p, w, height, scale): one frame's group of table t:
 * rectangle, tooltip, label. */
static void draw(FILE *out, const struct table *t, const struct frame *f, const struct place *p,
		 double w, int height, double scale)
{
	double y = height - BOTTOM_PX - (p->depth + 1) * ROW_PX;
	fprintf(out, "<g>");
	tooltip(out, f, caption(t, 3), *caption(t, 4) ? caption(t, 4) : "95%");
	bool cut;
	size_t n = label_chars(f->name, w, &cut);
	fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" rx=\"2\" fill=\"",
		p->x, y, w, ROW_PX - 1);
	color(out, f->change, f->significant, scale);
	fputs("\"/>", out);
	if (n) {
		bool dark = f->significant && scale > 0 && fabs(f->change) > scale / 2;
		fprintf(out, "<text x=\"%.2f\" y=\"%.1f\"%s>", p->x + LABEL_PAD, y + ROW_PX - 5,
			dark ? " style=\"fill: #fff\"" : "");
		xml_text(out, f->name, n);
		fputs(cut ? "\xe2\x80\xa6</text>" : "</text>", out);
	}
	fputs("</g>\n", out);
}

/* layout: places every frame; returns the number of rows. */
static int layout(const struct frame *f, size_t n, struct place *p, double width)
{
	double root_next = PAD_PX;
	int rows = 0;
	for (size_t i = 0; i < n; i++) {
		int par = f[i].parent;	/* an earlier frame (read_frame checked) */
		double *cursor = par < 0 ? &root_next : &p[par].next;
		p[i].x = p[i].next = *cursor;
		p[i].depth = par < 0 ? 0 : p[par].depth + 1;
		p[i].drawn = (par < 0 || p[par].drawn) && f[i].width * width >= 0.1;
		*cursor += f[i].width * width;
		if (p[i].drawn && p[i].depth + 1 > rows)
			rows = p[i].depth + 1;
	}
	return rows;
}


/* header: the SVG prologue, style and titles. */
static void header(FILE *out, const struct table *t, int w, int h)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\">\n"
		"<style>text { font-family: monospace; font-size: 11px; fill: #000; }\n"
		".title { font-size: 16px; } .sub { font-size: 12px; fill: #333; }\n"
		"rect { stroke: #fff; stroke-width: 0.5; }</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\" stroke=\"none\"/>\n",
		w, h, w, h, w, h);
	fprintf(out, "<text class=\"title\" x=\"%d\" y=\"20\" text-anchor=\"middle\">", w / 2);
	xml_all(out, table_title(t) ? table_title(t) : "Differential flame graph");
	fputs("</text>\n", out);
	if (table_ncaptions(t)) {
		fprintf(out, "<text class=\"sub\" x=\"%d\" y=\"38\" text-anchor=\"middle\">", w / 2);
		xml_all(out, caption(t, 0));
		fputs("</text>\n", out);
	}
}

/* swatch(out, x, y, c, significant, scale, label): a legend square
 * coloured as a frame of change c, and its label; the x after them. */
static double swatch(FILE *out, double x, int y, double c, bool significant, double scale,
		     const char *label)
{
	fprintf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"", x, y - 10);
	color(out, c, significant, scale);
	fprintf(out, "\"/><text class=\"sub\" x=\"%.1f\" y=\"%d\">", x + 16, y);
	xml_all(out, label);
	fputs("</text>\n", out);
	return x + 16 + 7.4 * (double)strlen(label) + 14;
}

/* legend: the sides (captions 1 and 2), the colours and the scale (in
 * the unit of caption 3, "points" when none). */
static void legend(FILE *out, const struct table *t, int w, int h, double scale)
{
	const char *unit = *caption(t, 3) ? caption(t, 3) : "points";
	char a[160], b[160];
	double x = PAD_PX;
	for (int s = 0; s < 2; s++) {
		fprintf(out, "<text class=\"sub\" x=\"%d\" y=\"%d\">", s ? w / 2 : PAD_PX, h - 44);
		xml_all(out, caption(t, 1 + (size_t)s));
		fputs("</text>\n", out);
	}
	if (scale > 0) {
		snprintf(a, sizeof(a), "-%.4g %s", scale, unit);
		snprintf(b, sizeof(b), "+%.4g %s", scale, unit);
		x = swatch(out, x, h - 24, -scale, true, scale, a);
		x = swatch(out, x, h - 24, -scale * 1e-9, true, scale, "small decrease");
		x = swatch(out, x, h - 24, 0, false, scale, "no significant change");
		x = swatch(out, x, h - 24, scale * 1e-9, true, scale, "small increase");
		swatch(out, x, h - 24, scale, true, scale, b);
	} else {
		swatch(out, x, h - 24, 0, false, scale, "no significant change anywhere");
	}
	fprintf(out, "<text class=\"sub\" x=\"%d\" y=\"%d\">width: share of NEW; coloured: a change whose ",
		PAD_PX, h - 6);
	xml_all(out, *caption(t, 4) ? caption(t, 4) : "95%");
	fputs(" interval (simultaneous over the rows) excludes 0; full colour: the largest</text>\n", out);
}

/* Column names of the frames table, in the order of enum fcol. */
static const char *const col_names[] = { "id", "parent", "name", "width", "base_pct", "new_pct",
	"delta_pct", "ci95_low", "ci95_high", "in_base", "significant", "change", "base_per", "new_per",
	"delta_per", "per_ci95_low", "per_ci95_high" };
enum fcol { C_ID, C_PARENT, C_NAME, C_WIDTH, C_BASE, C_NEW, C_DELTA, C_LO, C_HI, C_IN_BASE, C_SIG,
	C_CHANGE, C_BASE_ABS, C_NEW_ABS, C_DELTA_ABS, C_LO_ABS, C_HI_ABS, C_N };
#define C_FIRST_OPTIONAL C_SIG	/* this column and those after it may be missing */

/* num(t, r, c): cell (r, c) as a number; NaN when NULL or a string. */
static double num(const struct table *t, size_t r, int c)
{
	const struct cell *x = table_cell(t, r, c);
	return x->kind == CELL_INT ? (double)x->v.i : x->kind == CELL_REAL ? x->v.r : NAN;
}

/* opt_num(t, r, c): cell (r, c) of an optional column c (-1: missing,
 * then NaN). */
static double opt_num(const struct table *t, size_t r, int c)
{
	return c >= 0 ? num(t, r, c) : NAN;
}

/* read_frame(t, r, col, f): row r into f; -1 when its id is not r, its
 * parent not an earlier row or its name missing. */
static int read_frame(const struct table *t, size_t r, const int *col, struct frame *f)
{
	const struct cell *name = table_cell(t, r, col[C_NAME]);
	double parent = num(t, r, col[C_PARENT]);
	if (num(t, r, col[C_ID]) != (double)r || name->kind != CELL_STR ||
	    (!isnan(parent) && !(parent >= 0 && parent < (double)r)))
		return -1;
	*f = (struct frame){ .parent = isnan(parent) ? -1 : (int)parent, .name = name->v.s,
		.width = num(t, r, col[C_WIDTH]), .base_pct = num(t, r, col[C_BASE]),
		.new_pct = num(t, r, col[C_NEW]), .delta_pct = num(t, r, col[C_DELTA]),
		.ci_lo = num(t, r, col[C_LO]), .ci_hi = num(t, r, col[C_HI]),
		.in_base = num(t, r, col[C_IN_BASE]) != 0,
		.significant = col[C_SIG] >= 0 && num(t, r, col[C_SIG]) == 1 };
	f->change = col[C_CHANGE] >= 0 ? num(t, r, col[C_CHANGE]) : f->delta_pct;
	f->base_abs = opt_num(t, r, col[C_BASE_ABS]);
	f->new_abs = opt_num(t, r, col[C_NEW_ABS]);
	f->delta_abs = opt_num(t, r, col[C_DELTA_ABS]);
	f->abs_lo = opt_num(t, r, col[C_LO_ABS]);
	f->abs_hi = opt_num(t, r, col[C_HI_ABS]);
	if (isnan(f->width) || f->width < 0)
		f->width = 0;
	return 0;
}

/* read_frames(t, n): the frames of table t, malloc'ed (*n of them), or
 * NULL when a column is missing or a row is not as svg_flame.h says. */
static struct frame *read_frames(const struct table *t, size_t *n)
{
	int col[C_N];
	struct frame *f;
	*n = table_nrows(t);
	for (int c = 0; c < C_N; c++)
		if ((col[c] = table_find_col(t, col_names[c])) < 0 && c < C_FIRST_OPTIONAL)
			return NULL;
	f = xcalloc(*n, sizeof(*f));
	for (size_t r = 0; r < *n; r++)
		if (read_frame(t, r, col, &f[r])) {
			free(f);
			return NULL;
		}
	return f;
}

/* svg_flame_write: see svg_flame.h. */
int svg_flame_write(FILE *out, const struct table *frames, int width_px)
{
	int w = width_px > 0 ? width_px : 1200, rows, h;
	size_t n;
	struct frame *f = read_frames(frames, &n);
	struct place *p;
	double scale = 0;
	if (!f)
		return -1;
	p = xcalloc(n, sizeof(*p));
	rows = layout(f, n, p, w - 2 * PAD_PX);
	for (size_t i = 0; i < n; i++)
		if (p[i].drawn && f[i].significant && !isnan(f[i].change))
			scale = fmax(scale, fabs(f[i].change));
	h = TOP_PX + rows * ROW_PX + BOTTOM_PX;
	header(out, frames, w, h);
	legend(out, frames, w, h, scale);
	for (size_t i = 0; i < n; i++)
		if (p[i].drawn)
			draw(out, frames, &f[i], &p[i], f[i].width * (w - 2 * PAD_PX), h, scale);
	fputs("</svg>\n", out);
	free(p);
	free(f);
	return ferror(out) ? -1 : 0;
}
