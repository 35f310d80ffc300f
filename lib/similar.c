/* "Did you mean": see similar.h. */
#include <stdlib.h>
#include <string.h>
#include "lib/alloc.h"
#include "lib/similar.h"

/* min3(a, b, c): the least of the three. */
static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

/* str_distance: see similar.h. Three rows of the edit table: the row
 * before the previous one is what a swap of neighbours costs from. */
size_t str_distance(const char *a, size_t na, const char *b, size_t nb)
{
	size_t *pp = xcalloc(nb + 1, sizeof(size_t)), *p = xcalloc(nb + 1, sizeof(size_t));
	size_t *c = xcalloc(nb + 1, sizeof(size_t)), *t, d;
	for (size_t j = 0; j <= nb; j++)
		p[j] = j;
	for (size_t i = 1; i <= na; i++) {
		c[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			c[j] = min3(p[j] + 1, c[j - 1] + 1, p[j - 1] + (a[i - 1] != b[j - 1]));
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && pp[j - 2] + 1 < c[j])
				c[j] = pp[j - 2] + 1;
		}
		t = pp, pp = p, p = c, c = t;
	}
	d = p[nb];
	free(pp);
	free(p);
	free(c);
	return d;
}

/* similar_init: see similar.h. */
void similar_init(struct similar *s, const char *word, size_t len)
{
	*s = (struct similar){ .word = word, .len = len, .best = (size_t)-1 };
}

/* similar_offer: see similar.h. */
void similar_offer(struct similar *s, const char *cand)
{
	size_t d = str_distance(s->word, s->len, cand, strlen(cand));
	size_t most = s->len / 3 > 1 ? s->len / 3 : 1;
	if (s->len >= 2 && !strncmp(cand, s->word, s->len) && d > 1)
		d = 1;		/* the start of it: as near as one typo */
	if (d > most || d > s->best)
		return;
	if (d < s->best) {
		s->best = d;
		s->n = 0;
	}
	if (s->n < sizeof(s->near) / sizeof(*s->near))
		s->near[s->n] = cand;
	s->n++;
}

/* similar_text: see similar.h. */
bool similar_text(const struct similar *s, const char *prefix, struct strbuf *b)
{
	size_t n = s->n < sizeof(s->near) / sizeof(*s->near) ? s->n : sizeof(s->near) / sizeof(*s->near);
	if (!n)
		return false;
	sb_puts(b, "did you mean ");
	for (size_t i = 0; i < n; i++)
		sb_printf(b, "%s'%s%s'", !i ? "" : i + 1 < n ? ", " : " or ", prefix, s->near[i]);
	sb_putc(b, '?');
	return true;
}
