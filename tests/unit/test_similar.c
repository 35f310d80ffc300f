/* Unit tests for lib/similar.h: the edit distance and which candidates
 * "did you mean" names. */
#include <string.h>
#include "lib/similar.h"
#include "tap.h"

/* dist(a, b): str_distance of two C strings. */
static size_t dist(const char *a, const char *b)
{
	return str_distance(a, strlen(a), b, strlen(b));
}

/* mean(word, cands): the "did you mean" text for word among the
 * NULL-terminated cands, or "" when none is near. Static buffer. */
static const char *mean(const char *word, const char *const *cands)
{
	static char out[256];
	struct strbuf b = STRBUF_INIT;
	struct similar s;
	similar_init(&s, word, strlen(word));
	for (int i = 0; cands[i]; i++)
		similar_offer(&s, cands[i]);
	out[0] = 0;
	if (similar_text(&s, "", &b))
		snprintf(out, sizeof(out), "%s", sb_str(&b));
	sb_free(&b);
	return out;
}

/* test_distance: each kind of edit counts 1. */
static void test_distance(void)
{
	is_int(dist("sched", "sched"), 0, "the same word: 0");
	is_int(dist("shed", "sched"), 1, "an insertion: 1");
	is_int(dist("scheed", "sched"), 1, "a deletion: 1");
	is_int(dist("schad", "sched"), 1, "a substitution: 1");
	is_int(dist("shced", "sched"), 1, "a swap of neighbours: 1");
	is_int(dist("", "tree"), 4, "from nothing: the length");
	is_int(dist("bogus", "help"), 5, "unrelated words: many");
}

/* test_near: what is near enough to name, and in which order. */
static void test_near(void)
{
	static const char *const verbs[] = { "record", "import", "bench", "report", "results", "sched",
		"sessions", "tree", "help", NULL };
	is_str(mean("shed", verbs), "did you mean 'sched'?", "shed: sched");
	is_str(mean("recrod", verbs), "did you mean 'record'?", "a swap: record");
	is_str(mean("rep", verbs), "did you mean 'report'?", "the start of one word: it");
	is_str(mean("re", verbs), "did you mean 'record', 'report' or 'results'?",
	       "the start of several: all, in the order offered");
	is_str(mean("bogus", verbs), "", "nothing near: nothing said");
	is_str(mean("x", verbs), "", "one letter is the start of nothing");
	is_str(mean("tre", verbs), "did you mean 'tree'?", "a short word: one edit");
}

int main(void)
{
	test_distance();
	test_near();
	printf("1..%d\n", tap_n);
	return tap_failed != 0;
}
