/* A chart of runs as plain SVG (see svg_chart.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/stats.h"
#include "lib/strbuf.h"
#include "reports/svg_chart.h"

enum { LEFT = 86, RIGHT = 24, TOP = 50, PLOT_H = 220, BOTTOM = 40, SIDE_W = 60, MAX_SIDES = 8 };
static const char *const side_colors[MAX_SIDES] = { "#1f6fb4", "#e8710a", "#2ca02c", "#9467bd", "#8c564b",
	"#d62728", "#17becf", "#7f7f7f" };

/* One cell's values, per side. */
struct group {
	const char *cell;
	double *v[MAX_SIDES];
	size_t n[MAX_SIDES], cap[MAX_SIDES];
};

/* The chart being drawn: its sides in the order they first appear
 * ("base" first wherever it appears). */
struct chart {
	struct group *g;
	size_t ng, cap;
	const char *sides[MAX_SIDES];
	int nsides;
	double lo, hi;
};

/* sides_of(t, cside, c): the distinct sides of column cside into c;
 * -1 when there are more than MAX_SIDES. */
static int sides_of(const struct table *t, int cside, struct chart *c)
{
	for (size_t r = 0; r < table_nrows(t); r++) {
		const struct cell *s = table_cell(t, r, cside);
		int k = 0;
		if (s->kind != CELL_STR)
			continue;
		while (k < c->nsides && strcmp(c->sides[k], s->v.s))
			k++;
		if (k < c->nsides)
			continue;
		if (c->nsides == MAX_SIDES)
			return -1;
		if (!strcmp(s->v.s, "base")) {
			memmove(c->sides + 1, c->sides, (size_t)c->nsides * sizeof(*c->sides));
			k = 0;
		}
		c->sides[k] = s->v.s;
		c->nsides++;
	}
	return 0;
}

/* side_index(c, name): name's index among c's sides. */
static int side_index(const struct chart *c, const char *name)
{
	int k = 0;
	while (k < c->nsides - 1 && strcmp(c->sides[k], name))
		k++;
	return k;
}

/* group_of(c, cell): the group of cell, added when new. */
static struct group *group_of(struct chart *c, const char *cell)
{
	for (size_t i = 0; i < c->ng; i++)
		if (!strcmp(c->g[i].cell, cell))
			return &c->g[i];
	ALLOC_GROW(c->g, c->ng + 1, c->cap);
	c->g[c->ng] = (struct group){ .cell = cell };
	return &c->g[c->ng++];
}

/* gather(t, c): the table's finite values by cell and side; -1 without
 * the columns, or with more than MAX_SIDES sides. */
static int gather(const struct table *t, struct chart *c)
{
	int ccell = table_find_col(t, "cell"), cside = table_find_col(t, "side");
	int cval = table_find_col(t, "value");
	if (ccell < 0 || cside < 0 || cval < 0 || sides_of(t, cside, c))
		return -1;
	c->lo = INFINITY;
	c->hi = -INFINITY;
	for (size_t r = 0; r < table_nrows(t); r++) {
		const struct cell *x = table_cell(t, r, ccell), *s = table_cell(t, r, cside);
		const struct cell *v = table_cell(t, r, cval);
		if (x->kind != CELL_STR || s->kind != CELL_STR || (v->kind != CELL_REAL && v->kind != CELL_INT))
			continue;
		double val = v->kind == CELL_REAL ? v->v.r : (double)v->v.i;
		if (!isfinite(val))
			continue;	/* nothing to draw, and no axis to stretch */
		int k = side_index(c, s->v.s);
		struct group *g = group_of(c, x->v.s);
		ALLOC_GROW(g->v[k], g->n[k] + 1, g->cap[k]);
		g->v[k][g->n[k]++] = val;
		c->lo = fmin(c->lo, val);
		c->hi = fmax(c->hi, val);
	}
	if (!isfinite(c->lo))
		c->lo = 0, c->hi = 1;
	double pad = (c->hi - c->lo) * 0.08 + (c->hi == c->lo ? fabs(c->hi) * 0.05 + 1 : 0);
	c->lo -= pad;
	c->hi += pad;
	return 0;
}

/* nice_step(lo, hi): a tick step of 1, 2 or 5 times a power of 10 that
 * cuts lo..hi into about 4, and at least 3 ticks. */
static double nice_step(double lo, double hi)
{
	double raw = (hi - lo) / 4, p = pow(10, floor(log10(raw))), f = raw / p;
	double step = (f <= 1.5 ? 1 : f <= 3 ? 2 : f <= 7 ? 5 : 10) * p;
	for (int i = 0; i < 3 && floor(hi / step) - ceil(lo / step) < 2; i++) {
		double d = pow(10, floor(log10(step))), m = step / d;
		step = m < 1.5 ? 0.5 * d : m < 3 ? d : 2 * d;	/* 1 -> 0.5, 2 -> 1, 5 -> 2 */
	}
	return step;
}

/* The ticks' labels: a scale (k, M, G, T) from the largest value and as
 * many decimals as the step needs, so that no two ticks look alike and
 * none is in exponent form. */
struct ticks {
	double scale;
	const char *suffix;
	int decimals;
};

/* ticks_of(lo, hi, step): the labels' form for ticks of step in lo..hi. */
static struct ticks ticks_of(double lo, double hi, double step)
{
	static const struct { double f; const char *s; } sfx[] = { { 1e12, "T" }, { 1e9, "G" },
		{ 1e6, "M" }, { 1e4, "k" } };
	double a = fmax(fabs(lo), fabs(hi));
	struct ticks t = { 1, "", 0 };
	for (size_t i = 0; i < sizeof(sfx) / sizeof(*sfx); i++)
		if (a >= sfx[i].f) {
			t = (struct ticks){ sfx[i].f == 1e4 ? 1e3 : sfx[i].f, sfx[i].s, 0 };
			break;
		}
	t.decimals = (int)ceil(-log10(step / t.scale) - 1e-9);
	t.decimals = t.decimals < 0 ? 0 : t.decimals > 15 ? 15 : t.decimals;
	return t;
}

/* tick_label(b, t, v): v as the ticks show it. */
static void tick_label(struct strbuf *b, const struct ticks *t, double v)
{
	double x = v / t->scale;
	sb_printf(b, "%.*f%s", t->decimals, fabs(x) < 0.5 * pow(10, -t->decimals) ? 0.0 : x, t->suffix);
}

/* y_of(c, v): the y pixel of value v. */
static double y_of(const struct chart *c, double v)
{
	return TOP + PLOT_H - (v - c->lo) / (c->hi - c->lo) * PLOT_H;
}

/* text(b, x, y, anchor, size, s): an escaped text element. */
static void text(struct strbuf *b, double x, double y, const char *anchor, int size, const char *s)
{
	sb_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">", x, y, anchor, size);
	esc_append(b, s, ESC_XML);
	sb_puts(b, "</text>\n");
}

/* axis(b, c, width, unit): the y axis with ticks at round values and the
 * frame. */
static void axis(struct strbuf *b, const struct chart *c, int width, const char *unit)
{
	sb_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n",
		  LEFT, TOP, width - LEFT - RIGHT, PLOT_H);
	double step = nice_step(c->lo, c->hi), first = ceil(c->lo / step) * step;
	struct ticks tk = ticks_of(c->lo, c->hi, step);
	for (int i = 0; i < 12 && isfinite(first + i * step) && first + i * step <= c->hi + step * 1e-9; i++) {
		double v = first + i * step, y = y_of(c, v);	/* by index: v += step may not move v */
		struct strbuf t = STRBUF_INIT;
		tick_label(&t, &tk, v);
		sb_printf(b, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", LEFT, y,
			  width - RIGHT, y);
		text(b, LEFT - 6, y + 4, "end", 11, sb_str(&t));
		sb_free(&t);
	}
	if (unit && *unit) {
		sb_printf(b, "<text x=\"14\" y=\"%d\" font-size=\"11\" transform=\"rotate(-90 14 %d)\" "
			  "text-anchor=\"middle\">", TOP + PLOT_H / 2, TOP + PLOT_H / 2);
		esc_append(b, unit, ESC_XML);
		sb_puts(b, "</text>\n");
	}
}

/* side(b, c, g, k, x): one side of a group: whisker, points, median. */
static void side(struct strbuf *b, const struct chart *c, const struct group *g, int k, double x)
{
	size_t n = g->n[k];
	double lo = INFINITY, hi = -INFINITY;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		lo = fmin(lo, g->v[k][i]), hi = fmax(hi, g->v[k][i]);
	sb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1\"/>\n",
		  x, y_of(c, lo), x, y_of(c, hi), side_colors[k]);
	for (int e = 0; e < 2; e++)
		sb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x - 5,
			  y_of(c, e ? hi : lo), x + 5, y_of(c, e ? hi : lo), side_colors[k]);
	for (size_t i = 0; i < n; i++)
		sb_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\" fill-opacity=\"0.55\"/>\n",
			  x - 9 + 18.0 * ((double)i + 0.5) / (double)n, y_of(c, g->v[k][i]), side_colors[k]);
	double med = stats_median(g->v[k], n);
	sb_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\">"
		  "<title>", x - 13, y_of(c, med), x + 13, y_of(c, med), side_colors[k]);
	esc_append(b, c->sides[k], ESC_XML);
	sb_printf(b, " median %g (%zu runs)</title></line>\n", med, n);
}

/* legend_width(c): the legend's width in pixels. */
static double legend_width(const struct chart *c)
{
	double w = 6;
	for (int k = 0; k < c->nsides; k++)
		w += 8 + 7.5 * (double)utf8_width(c->sides[k]) + 22;
	return w;
}

/* legend(b, c): which colour is which side, under the title (the chart
 * is made wide enough for it). */
static void legend(struct strbuf *b, const struct chart *c)
{
	double x = LEFT + 6;
	for (int k = 0; k < c->nsides; k++) {
		sb_printf(b, "<circle cx=\"%.1f\" cy=\"34\" r=\"4\" fill=\"%s\"/>\n", x, side_colors[k]);
		text(b, x + 8, 38, "start", 12, c->sides[k]);
		x += 8 + 7.5 * (double)utf8_width(c->sides[k]) + 22;
	}
}

/* label_of(s): a malloc'd cell label: s, or when longer than 28
 * characters its first 25 and "...", cut at a character boundary. */
static char *label_of(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	if (utf8_width(s) <= 28)
		return xstrdup(s);
	for (int n = 0; *p && n < 25; n++)
		do
			p++;
		while ((*p & 0xC0) == 0x80);
	struct strbuf b = STRBUF_INIT;
	sb_putn(&b, s, (size_t)((const char *)p - s));
	sb_puts(&b, "...");
	return sb_take(&b);
}

/* chart_free(c): frees the groups. */
static void chart_free(struct chart *c)
{
	for (size_t i = 0; i < c->ng; i++)
		for (int k = 0; k < MAX_SIDES; k++)
			free(c->g[i].v[k]);
	free(c->g);
}

/* svg_chart_write: see svg_chart.h. */
int svg_chart_write(const struct table *t, FILE *out)
{
	struct chart c = { 0 };
	struct strbuf b = STRBUF_INIT;
	if (gather(t, &c))
		return -1;
	int group_w = SIDE_W * (c.nsides > 2 ? c.nsides : 2);
	int width = LEFT + RIGHT + (int)(c.ng ? c.ng : 1) * group_w, height = TOP + PLOT_H + BOTTOM;
	if (width < 420)
		width = 420;
	if (width < LEFT + RIGHT + (int)legend_width(&c))
		width = LEFT + RIGHT + (int)legend_width(&c);
	double gw = (double)(width - LEFT - RIGHT) / (double)(c.ng ? c.ng : 1);
	sb_printf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		  "font-family=\"sans-serif\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
		  width, height, width, height);
	text(&b, LEFT, 18, "start", 14, table_title(t) ? table_title(t) : table_name(t));
	axis(&b, &c, width, table_ncaptions(t) ? table_caption_at(t, 0) : NULL);
	legend(&b, &c);
	for (size_t i = 0; i < c.ng; i++) {
		double x = LEFT + gw * ((double)i + 0.5);
		for (int k = 0; k < c.nsides; k++)	/* 2 sides: at -0.2 and +0.2 of the group */
			side(&b, &c, &c.g[i], k, x + gw * 0.8 * (((double)k + 0.5) / c.nsides - 0.5));
		char *label = label_of(c.g[i].cell);
		text(&b, x, TOP + PLOT_H + 18, "middle", 11, label);
		free(label);
	}
	sb_puts(&b, "</svg>\n");
	fputs(sb_str(&b), out);
	sb_free(&b);
	chart_free(&c);
	return ferror(out) ? -1 : 0;
}
