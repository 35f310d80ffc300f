/* Differential flame graphs as SVG: see svg_flame.h. Layout: a frame's x is
 * its parent's x plus the widths of the siblings before it, its row is its
 * depth counted from the bottom. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "reports/svg_flame.h"

#define ROW_PX 16
#define TOP_PX 56
#define BOTTOM_PX 24
#define PAD_PX 10
#define CHAR_PX 6.6	/* advance of an 11px monospace character */

/* Per-frame layout. */
struct place {
	double x, next;		/* left edge; where its next child starts (pixels) */
	int depth;
	bool drawn;
};

/* xml_text: s escaped for XML text and attributes, at most max chars
 * (cut with ".." when longer; max < 3 writes nothing). */
static void xml_text(FILE *out, const char *s, size_t max)
{
	size_t len = strlen(s), n = len <= max ? len : (max >= 3 ? max - 2 : 0);
	if (max < 3 && len > max)
		return;
	for (size_t i = 0; i < n; i++) {
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
	if (n < len)
		fputs("..", out);
}

/* color: the fill for delta d where the largest |delta| is scale: light
 * grey at 0, red growing, blue shrinking. */
static void color(FILE *out, double d, double scale)
{
	double t = scale > 0 ? fmin(1, fabs(d) / scale) : 0;
	int r, g, b;
	if (d > 0) {
		r = (int)lround(240 - 25 * t);
		g = b = (int)lround(240 - 200 * t);
	} else {
		r = (int)lround(240 - 195 * t);
		g = (int)lround(240 - 150 * t);
		b = (int)lround(240 - 20 * t);
	}
	fprintf(out, "rgb(%d,%d,%d)", r, g, b);
}

/* tooltip: the <title> of a frame. */
static void tooltip(FILE *out, const struct flame_frame *f)
{
	fputs("<title>", out);
	xml_text(out, f->name, (size_t)-1);
	if (f->in_base)
		fprintf(out, "\nbase %.2f%%  new %.2f%%  delta %+.2f points", f->base_pct,
			f->new_pct, f->delta_pct);
	else
		fprintf(out, "\nbase -  new %.2f%%  delta %+.2f points", f->new_pct, f->delta_pct);
	if (!isnan(f->ci_lo))
		fprintf(out, "\n95%% interval of delta [%+.2f, %+.2f]", f->ci_lo, f->ci_hi);
	fputs("</title>", out);
}

/* frame: one frame's group: rectangle, tooltip, label. */
static void frame(FILE *out, const struct flame_frame *f, const struct place *p, double w,
		  int height, double scale)
{
	double y = height - BOTTOM_PX - (p->depth + 1) * ROW_PX;
	fprintf(out, "<g>");
	tooltip(out, f);
	fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" rx=\"2\" fill=\"",
		p->x, y, w, ROW_PX - 1);
	color(out, f->delta_pct, scale);
	fputs("\"/>", out);
	if (w > 3 * CHAR_PX) {
		fprintf(out, "<text x=\"%.2f\" y=\"%.1f\">", p->x + 3, y + ROW_PX - 5);
		xml_text(out, f->name, (size_t)((w - 6) / CHAR_PX));
		fputs("</text>", out);
	}
	fputs("</g>\n", out);
}

/* layout: places every frame; returns the number of rows, -1 on a bad
 * parent index. */
static int layout(const struct flame_frame *f, size_t n, struct place *p, double width)
{
	double root_next = PAD_PX;
	int rows = 0;
	for (size_t i = 0; i < n; i++) {
		int par = f[i].parent;
		double *cursor;
		if (par >= (int)i || par < -1)
			return -1;
		cursor = par < 0 ? &root_next : &p[par].next;
		p[i].x = p[i].next = *cursor;
		p[i].depth = par < 0 ? 0 : p[par].depth + 1;
		p[i].drawn = (par < 0 || p[par].drawn) && f[i].width * width >= 0.1;
		*cursor += f[i].width * width;
		if (p[i].drawn && p[i].depth + 1 > rows)
			rows = p[i].depth + 1;
	}
	return rows;
}

/* header: the SVG prologue, style, titles and legend. */
static void header(FILE *out, const struct flame_opts *o, int w, int h, double scale)
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
	xml_text(out, o && o->title ? o->title : "Differential flame graph", (size_t)-1);
	fputs("</text>\n", out);
	if (o && o->subtitle) {
		fprintf(out, "<text class=\"sub\" x=\"%d\" y=\"38\" text-anchor=\"middle\">", w / 2);
		xml_text(out, o->subtitle, (size_t)-1);
		fputs("</text>\n", out);
	}
	fprintf(out, "<text class=\"sub\" x=\"%d\" y=\"%d\">width: share of NEW; "
		"red: grew, blue: shrank; full color = %.2f points (the largest |delta|)</text>\n",
		PAD_PX, h - 7, scale);
}

/* svg_flame_write: see svg_flame.h. */
int svg_flame_write(FILE *out, const struct flame_frame *f, size_t n, const struct flame_opts *o)
{
	int w = o && o->width_px > 0 ? o->width_px : 1200, rows, h;
	struct place *p = calloc(n ? n : 1, sizeof(*p));
	double scale = 0;
	if (!p)
		return -1;
	if ((rows = layout(f, n, p, w - 2 * PAD_PX)) < 0) {
		free(p);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (p[i].drawn)
			scale = fmax(scale, fabs(f[i].delta_pct));
	h = TOP_PX + rows * ROW_PX + BOTTOM_PX;
	header(out, o, w, h, scale);
	for (size_t i = 0; i < n; i++)
		if (p[i].drawn)
			frame(out, &f[i], &p[i], f[i].width * (w - 2 * PAD_PX), h, scale);
	fputs("</svg>\n", out);
	free(p);
	return ferror(out) ? -1 : 0;
}
