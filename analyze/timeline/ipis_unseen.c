/* Sessions whose flush IPIs cannot be seen: their kallsyms' paravirtualized
 * flush functions, the warning and the findings (see ipis_unseen.h). */
#include <stdlib.h>
#include <string.h>
#include "analyze/timeline/ipis_unseen.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "schema/session_kallsyms.h"

/* ipis_unseen_add: see ipis_unseen.h. */
void ipis_unseen_add(struct ipis_unseen *u, sqlite3 *db, int64_t session, const struct ipi_seen *s)
{
	enum ipi_visibility v = ipis_visibility(s);
	u->all.remote_flushes += s->remote_flushes;
	u->all.ipis_to_running += s->ipis_to_running;
	u->nseen += v == IPIS_SEEN;
	if (v != IPIS_NOT_SEEN)
		return;
	size_t len = 0;
	char *text = db_session_kallsyms(db, session, &len);
	ALLOC_GROW(u->v, u->n + 1, u->cap);
	struct unseen_session *x = &u->v[u->n++];
	*x = (struct unseen_session){ .id = session, .seen = *s, .kallsyms = text != NULL };
	if (text)
		kallsyms_flush_no_ipi(text, len, &x->pv);
	free(text);
}

/* ipis_unseen_any: see ipis_unseen.h. */
bool ipis_unseen_any(const struct ipis_unseen *u)
{
	return u->n > 0;
}

/* ipis_unseen_all: see ipis_unseen.h. */
bool ipis_unseen_all(const struct ipis_unseen *u)
{
	return u->n > 0 && !u->nseen;
}

/* ipis_unseen_has: see ipis_unseen.h. */
bool ipis_unseen_has(const struct ipis_unseen *u, int64_t session)
{
	for (size_t i = 0; i < u->n; i++)
		if (u->v[i].id == session)
			return true;
	return false;
}

/* ipis_unseen_ids: see ipis_unseen.h. */
char *ipis_unseen_ids(const struct ipis_unseen *u)
{
	struct strbuf b = STRBUF_INIT;
	for (size_t i = 0; i < u->n; i++)
		sb_printf(&b, "%s%lld", i ? ", " : "", (long long)u->v[i].id);
	return sb_take(&b);
}

/* ipis_unseen_findings: see ipis_unseen.h. */
void ipis_unseen_findings(const struct ipis_unseen *u, struct dval *f)
{
	if (!u->n)
		return;
	dv_bool(f, "flush_ipis_visible", false);
	struct dval *c = dv_obj(f, "flush_ipi_check"), *arr;
	dv_int(c, "min_flushes", IPIS_UNSEEN_MIN);
	arr = dv_arr(c, "sessions");
	for (size_t i = 0; i < u->n; i++) {
		struct dval *s = dv_obj(arr, NULL), *names;
		dv_int(s, "session", u->v[i].id);
		dv_int(s, "flushes_remote_running", u->v[i].seen.remote_flushes);
		dv_int(s, "ipis_to_remote_running", u->v[i].seen.ipis_to_running);
		if (!u->v[i].kallsyms) {
			dv_null(s, "pv_flush_functions");
			continue;
		}
		names = dv_arr(s, "pv_flush_functions");
		for (size_t k = 0; k < u->v[i].pv.n; k++)
			dv_str(names, NULL, u->v[i].pv.v[k]);
	}
}

/* pv_words(u, b): what the unseen sessions' kallsyms say of their flush
 * functions, into b. */
static void pv_words(const struct ipis_unseen *u, struct strbuf *b)
{
	struct ksym_names all = { 0 };
	bool missing = false;
	for (size_t i = 0; i < u->n; i++) {
		missing |= !u->v[i].kallsyms;
		for (size_t k = 0; k < u->v[i].pv.n; k++)
			ksym_names_add(&all, u->v[i].pv.v[k], strlen(u->v[i].pv.v[k]));
	}
	if (all.n) {
		sb_puts(b, "; this kernel has ");
		kallsyms_flush_no_ipi_words(&all, b);
	} else if (!missing) {
		sb_puts(b, "; its kallsyms has no paravirtualized flush_tlb_multi nor broadcast_tlb_flush");
	}
	if (missing)
		sb_puts(b, " (a session without kallsyms does not say which flush functions its kernel has)");
	ksym_names_free(&all);
}

/* ipis_unseen_warn: see ipis_unseen.h. */
void ipis_unseen_warn(const struct ipis_unseen *u, struct doc *d)
{
	struct strbuf b = STRBUF_INIT;
	long long flushes = 0, ipis = 0;
	if (!u->n)
		return;
	for (size_t i = 0; i < u->n; i++) {
		flushes += u->v[i].seen.remote_flushes;
		ipis += u->v[i].seen.ipis_to_running;
	}
	char *ids = ipis_unseen_ids(u);
	sb_printf(&b, "flush IPIs not seen: in session%s %s, %lld flushes (tlb_flush reason 4) of an mm "
		  "that a task on another CPU was running sent ", u->n > 1 ? "s" : "", ids, flushes);
	if (ipis)
		sb_printf(&b, "only %lld flush IPI%s (fewer than 1 in %d)", ipis, ipis > 1 ? "s" : "",
			  IPIS_UNSEEN_PER);
	else
		sb_puts(&b, "no flush IPI");
	sb_puts(&b, " to such a CPU: the kernel flushed other CPUs' TLBs without IPIs");
	pv_words(u, &b);
	if (ipis_unseen_all(u))
		sb_puts(&b, ". Flush IPIs cannot be seen on the machine that recorded it, so the counts of "
			"flush IPIs, wasted ones and their classes are not measurements (null in json, "
			"\"not seen\" in text), not zeros");
	else
		sb_printf(&b, ". Flush IPIs cannot be seen on the machine that recorded %s, so the counts of "
			  "flush IPIs and wasted ones are those of the other sessions only",
			  u->n > 1 ? "them" : "it");
	doc_warn(d, "%s", sb_str(&b));
	sb_free(&b);
	free(ids);
}

/* ipis_unseen_free: see ipis_unseen.h. */
void ipis_unseen_free(struct ipis_unseen *u)
{
	for (size_t i = 0; i < u->n; i++)
		ksym_names_free(&u->v[i].pv);
	free(u->v);
	memset(u, 0, sizeof(*u));
}
