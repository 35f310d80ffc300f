/* The "could not see" warnings and their findings entries: see unseen.h. */
#include <stdarg.h>
#include <stdlib.h>
#include "analyze/unseen.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* entry(d, what, key, sentence): the findings entry of sentence. */
static struct dval *entry(struct doc *d, const char *what, const char *key, const char *sentence)
{
	struct dval *f = doc_findings(d), *arr = dv_find(f, "unseen"), *e;
	if (!arr)
		arr = dv_arr(f, "unseen");
	e = dv_obj(arr, NULL);
	dv_str(e, "what", what);
	dv_str(e, key, sentence);
	return e;
}

/* unseen: see unseen.h. */
struct dval *unseen(struct doc *d, const char *what, const char *fmt, ...)
{
	struct strbuf b = STRBUF_INIT;
	struct dval *e;
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&b, fmt, ap);
	va_end(ap);
	e = entry(d, what, "warning", sb_str(&b));
	doc_warn(d, "%s", sb_str(&b));
	sb_free(&b);
	return e;
}

/* unseen_note: see unseen.h. */
struct dval *unseen_note(struct doc *d, const char *what, const char *fmt, ...)
{
	struct strbuf b = STRBUF_INIT;
	struct dval *e;
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&b, fmt, ap);
	va_end(ap);
	e = entry(d, what, "note", sb_str(&b));
	doc_note(d, "%s", sb_str(&b));
	sb_free(&b);
	return e;
}

/* unseen_carry: see unseen.h. */
void unseen_carry(struct doc *to, const struct doc *from, const char *part)
{
	const struct dval *arr = dv_get(doc_findings_c(from), "unseen");
	for (size_t i = 0; arr && i < dv_len(arr); i++) {
		const struct dval *e = dv_item(arr, i), *w = dv_get(e, "warning");
		const char *key = w ? "warning" : "note";
		const struct dval *session = dv_get(e, "session");
		char *line = xasprintf("%s: %s", part, dv_str_of(dv_get(e, key)));
		struct dval *c = entry(to, dv_str_of(dv_get(e, "what")), key, line);
		dv_str(c, "part", part);
		if (session && dv_kind(session) == DV_INT)
			dv_int(c, "session", dv_int_of(session));
		free(line);
	}
}
