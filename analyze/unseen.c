/* The "could not see" warnings and their findings entries: see unseen.h. */
#include <stdarg.h>
#include "analyze/unseen.h"
#include "lib/strbuf.h"

/* unseen: see unseen.h. */
struct dval *unseen(struct doc *d, const char *what, const char *fmt, ...)
{
	struct strbuf b = STRBUF_INIT;
	struct dval *f = doc_findings(d), *arr = dv_find(f, "unseen"), *e;
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(&b, fmt, ap);
	va_end(ap);
	if (!arr)
		arr = dv_arr(f, "unseen");
	e = dv_obj(arr, NULL);
	dv_str(e, "what", what);
	dv_str(e, "warning", sb_str(&b));
	doc_warn(d, "%s", sb_str(&b));
	sb_free(&b);
	return e;
}
