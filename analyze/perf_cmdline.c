/* A recording's perf command line as a user would type it: see
 * perf_cmdline.h. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/perf_cmdline.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* One word of the line: where it starts and how long it is. */
struct word {
	const char *s;
	size_t n;
};

/* word_len(s): the length of the word at s: up to a blank outside '...'. */
static size_t word_len(const char *s)
{
	bool quoted = false;
	size_t n = 0;
	for (; s[n] && (quoted || s[n] != ' '); n++)
		if (s[n] == '\'')
			quoted = !quoted;
	return n;
}

/* split(line, n): the words of line (*n of them), malloc'd. */
static struct word *split(const char *line, size_t *n)
{
	struct word *w = NULL;
	size_t cap = 0;
	*n = 0;
	while (*line) {
		size_t len = word_len(line);
		if (len) {
			ALLOC_GROW(w, *n + 1, cap);
			w[(*n)++] = (struct word){ line, len };
		}
		line += len + (line[len] == ' ');
	}
	return w;
}

/* is(w, s): whether the word w is s. */
static bool is(struct word w, const char *s)
{
	return strlen(s) == w.n && !memcmp(w.s, s, w.n);
}

/* wrapper_words(w, n, i): how many words the wrapper takes from word i
 * ("PATH record __exec STATUSFILE [quiet-metrics|quiet-output] --"), 0
 * when it does not start there. */
static size_t wrapper_words(const struct word *w, size_t n, size_t i)
{
	size_t k = i + 4;
	if (k >= n || !is(w[i + 1], "record") || !is(w[i + 2], "__exec"))
		return 0;
	if (is(w[k], "quiet-metrics") || is(w[k], "quiet-output"))
		k++;
	return k < n && is(w[k], "--") ? k + 1 - i : 0;
}

/* temp_output(w, n, i): whether words i and i + 1 are "-o" and a
 * perf.data right inside a temporary directory of perfdb record. */
static bool temp_output(const struct word *w, size_t n, size_t i)
{
	static const char dir[] = "/.perfdb-record-", file[] = "/perf.data";
	if (i + 1 >= n || !is(w[i], "-o") || w[i + 1].n <= strlen(file))
		return false;
	const char *p = w[i + 1].s, *end = p + w[i + 1].n - strlen(file);
	const char *d = memmem(p, (size_t)(end - p), dir, strlen(dir));
	return d && !memcmp(end, file, strlen(file)) && !memchr(d + 1, '/', (size_t)(end - d - 1));
}

/* perf_cmdline_shown: see perf_cmdline.h. */
char *perf_cmdline_shown(const char *line)
{
	size_t n, skip;
	bool wrapped = false, cut = false;
	struct strbuf b = STRBUF_INIT;
	if (!line)
		return NULL;
	struct word *w = split(line, &n);
	for (size_t i = 0; i < n; i++) {
		if (!wrapped && (skip = wrapper_words(w, n, i))) {
			wrapped = cut = true;
			i += skip - 1;
		} else if (!wrapped && temp_output(w, n, i)) {
			cut = true;
			i++;
		} else {
			sb_printf(&b, "%s%.*s", b.len ? " " : "", (int)w[i].n, w[i].s);
		}
	}
	free(w);
	if (cut)
		return sb_take(&b);
	sb_free(&b);
	return xstrdup(line);
}
