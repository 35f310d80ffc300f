/* Caller-order call trees: see calltree.h. A run is loaded in two passes:
 * one scan of the session's sample range sums the selected samples per
 * (stack, symbol) in a hash (a session has few distinct stacks, however
 * many samples; SQL's GROUP BY would sort every row), each distinct stack is
 * mapped to a tree node by walking the stack trie towards its outermost
 * caller (memoized), then every group's weight is added along its path.
 * A --comm/--pid/--tid selection is an SQL function over (thread, time)
 * backed by a sorted list of (thread, time span) entries. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analyze/callgraph/calltree.h"
#include "lib/alloc.h"
#include "lib/search.h"
#include "lib/symtab.h"
#include "schema/db.h"

/* One (stack, symbol) group of selected samples. */
struct group {
	int64_t stack, symbol;	/* 0: NULL in the database */
	int64_t count;
	double w, w2;		/* sum of periods, of squared periods */
	int32_t leaf;		/* its tree node */
};

/* A time span [t0, t1) during which a thread's samples are selected. */
struct span {
	int64_t thread, t0, t1;
};

/* The selection of one run: spans sorted by thread, or all when !active. */
struct keep {
	bool active;
	struct span *v;
	size_t n, cap;
};

/* State of one ct_add_run call. */
struct loader {
	struct calltree *t;
	sqlite3 *db;
	sqlite3_stmt *stack_st, *sym_st;
	struct hashmap stack_node;	/* (stack id, 0) -> node */
	struct hashmap sym_frame;	/* (symbol id, 0) -> frame */
	char *err;
	size_t errlen;
};

/* ---- tree storage ------------------------------------------------------ */

/* ct_new: see calltree.h. */
struct calltree *ct_new(void)
{
	struct calltree *t = xcalloc(1, sizeof(*t));
	ALLOC_GROW(t->nodes, 1, t->node_cap);
	t->nodes[0] = (struct ct_node){ -1, -1, -1, -1, -1 };
	t->nnodes = 1;
	hm_init(&t->child);
	hm_init(&t->names);
	return t;
}

/* run_free: frees the arrays of one run. */
static void run_free(struct ct_run *r)
{
	free(r->incl);
	free(r->self);
	free(r->nincl);
	free(r->nself);
	free(r->fincl);
	free(r->incl_sq);
	free(r->fincl_sq);
	free(r->fself_sq);
	free(r->fself);
}

/* ct_free: see calltree.h. */
void ct_free(struct calltree *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->nruns; i++)
		run_free(&t->runs[i]);
	for (size_t i = 0; i < t->nframes; i++)
		free(t->frames[i]);
	free(t->runs);
	free(t->frames);
	free(t->frame_unknown);
	free(t->nodes);
	hm_free(&t->child);
	hm_free(&t->names);
	free(t);
}

/* name_hash: FNV-1a of s. */
static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* ct_frame: see calltree.h. */
int32_t ct_frame(const struct calltree *t, const char *name)
{
	uint64_t h = name_hash(name), f;
	for (uint64_t probe = 0; hm_get(&t->names, h, probe, &f); probe++)
		if (!strcmp(t->frames[f], name))
			return (int32_t)f;
	return -1;
}

/* intern: the frame called name, added when new. */
static int32_t intern(struct calltree *t, const char *name, bool unknown)
{
	uint64_t h = name_hash(name), probe = 0, f;
	size_t cap = t->frame_cap;
	for (; hm_get(&t->names, h, probe, &f); probe++)
		if (!strcmp(t->frames[f], name))
			return (int32_t)f;
	ALLOC_GROW(t->frames, t->nframes + 1, t->frame_cap);
	if (t->frame_cap != cap)
		t->frame_unknown = xreallocarray(t->frame_unknown, t->frame_cap, sizeof(bool));
	t->frames[t->nframes] = xstrdup(name);
	t->frame_unknown[t->nframes] = unknown;
	hm_put(&t->names, h, probe, t->nframes);
	return (int32_t)t->nframes++;
}

/* ct_child: see calltree.h. */
int32_t ct_child(const struct calltree *t, int32_t parent, int32_t frame)
{
	uint64_t v;
	return hm_get(&t->child, (uint64_t)parent, (uint64_t)frame, &v) ? (int32_t)v : -1;
}

/* child_make: the child of parent with frame, created when new; an
 * [unknown] frame under the same [unknown] frame is that parent. -1 when
 * the tree already has INT32_MAX nodes. */
static int32_t child_make(struct calltree *t, int32_t parent, int32_t frame)
{
	int32_t c = ct_child(t, parent, frame);
	struct ct_node *p;
	if (c >= 0)
		return c;
	if (t->frame_unknown[frame] && t->nodes[parent].frame == frame)
		return parent;
	if (t->nnodes >= INT32_MAX)
		return -1;
	ALLOC_GROW(t->nodes, t->nnodes + 1, t->node_cap);
	c = (int32_t)t->nnodes++;
	p = &t->nodes[parent];
	t->nodes[c] = (struct ct_node){ parent, frame, -1, p->first_child, p->depth + 1 };
	p->first_child = c;
	hm_put(&t->child, (uint64_t)parent, (uint64_t)frame, (uint64_t)c);
	return c;
}

/* ct_path: see calltree.h. */
size_t ct_path(const struct calltree *t, int32_t node, int32_t *frames, size_t max)
{
	size_t len = node > 0 ? (size_t)t->nodes[node].depth + 1 : 0;
	for (size_t i = len; node > 0; node = t->nodes[node].parent)
		if (--i < max)
			frames[i] = t->nodes[node].frame;
	return len;
}

/* ---- events ------------------------------------------------------------ */

enum { SAMPLE_CALLCHAIN = 1 << 5 };	/* PERF_SAMPLE_CALLCHAIN in an event's sample_type */

/* An event name with its totals over the sessions asked about. */
struct ev_total {
	char name[256];
	bool callchain;
	long long samples;
};

/* better: true when a should be picked before b. */
static bool better(const struct ev_total *a, const struct ev_total *b)
{
	if (a->callchain != b->callchain)
		return a->callchain;
	if (a->samples != b->samples)
		return a->samples > b->samples;
	return strcmp(a->name, b->name) < 0;
}

/* ev_add: adds one event row to the totals v[0..*n). */
static void ev_add(struct ev_total **v, size_t *n, size_t *cap, const char *name,
		   bool callchain, long long samples)
{
	size_t i = 0;
	while (i < *n && strcmp((*v)[i].name, name))
		i++;
	if (i == *n) {
		ALLOC_GROW(*v, *n + 1, *cap);
		(*v)[i] = (struct ev_total){ .samples = 0 };
		snprintf((*v)[i].name, sizeof((*v)[i].name), "%s", name);
		(*n)++;
	}
	(*v)[i].callchain |= callchain;
	(*v)[i].samples += samples;
}

/* ct_pick_event: see calltree.h. */
int ct_pick_event(sqlite3 *db, const int64_t *sessions, int n, char *name, size_t len)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT name, coalesce(sample_type, 0), nr_samples "
				      "FROM event WHERE session_id = ?");
	struct ev_total *v = NULL, *best = NULL;
	size_t nv = 0, cap = 0;
	int rc = -1;
	for (int i = 0; st && i < n; i++) {
		sqlite3_bind_int64(st, 1, sessions[i]);
		while (sqlite3_step(st) == SQLITE_ROW)
			ev_add(&v, &nv, &cap, (const char *)sqlite3_column_text(st, 0),
			       sqlite3_column_int64(st, 1) & SAMPLE_CALLCHAIN,
			       sqlite3_column_int64(st, 2));
		sqlite3_reset(st);
	}
	for (size_t i = 0; i < nv; i++)
		if (!best || better(&v[i], best))
			best = &v[i];
	if (best) {
		snprintf(name, len, "%s", best->name);
		rc = 0;
	}
	sqlite3_finalize(st);
	free(v);
	return rc;
}

/* ct_has_callchains: see calltree.h. */
bool ct_has_callchains(sqlite3 *db, int64_t session, const char *event)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT 1 FROM event WHERE session_id = ? AND name = ? "
				      "AND nr_samples > 0 AND coalesce(sample_type, 0) & ? != 0");
	bool yes = false;
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		sqlite3_bind_text(st, 2, event, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, SAMPLE_CALLCHAIN);
		yes = sqlite3_step(st) == SQLITE_ROW;
	}
	sqlite3_finalize(st);
	return yes;
}

/* ---- selection --------------------------------------------------------- */

/* keep_add: appends the span [t0, t1) of thread. */
static void keep_add(struct keep *k, int64_t thread, int64_t t0, int64_t t1)
{
	if (t0 >= t1)
		return;
	ALLOC_GROW(k->v, k->n + 1, k->cap);
	k->v[k->n++] = (struct span){ thread, t0, t1 };
}

/* thread_before(sp, thread): whether span sp is of a thread below *thread. */
static bool thread_before(const void *sp, const void *thread)
{
	return ((const struct span *)sp)->thread < *(const int64_t *)thread;
}

/* keep_has: whether thread's sample at time tm is selected. */
static bool keep_has(const struct keep *k, int64_t thread, int64_t tm)
{
	size_t i = lower_bound(k->v, k->n, sizeof(*k->v), &thread, thread_before);
	for (; i < k->n && k->v[i].thread == thread; i++)	/* the spans of thread */
		if (tm >= k->v[i].t0 && tm < k->v[i].t1)
			return true;
	return false;
}

/* keep_fn: SQL perfdb_ct_keep(thread_id, time): 1 when selected. A sample
 * without a time counts as at the end of the recording. */
static void keep_fn(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	const struct keep *k = sqlite3_user_data(cx);
	int64_t tm = INT64_MAX - 1;
	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
		sqlite3_result_int(cx, 0);
		return;
	}
	if (sqlite3_value_type(argv[1]) != SQLITE_NULL)
		tm = sqlite3_value_int64(argv[1]);
	sqlite3_result_int(cx, keep_has(k, sqlite3_value_int64(argv[0]), tm));
}

/* same_comm: whether comm (may be NULL: unknown) is want. */
static bool same_comm(const unsigned char *comm, const char *want)
{
	return comm && !strcmp((const char *)comm, want);
}

/* comm_spans: adds the spans of thread during which its comm is want,
 * from its comm rows (st, positioned on its first row or past it; *more
 * tells whether st has a current row). initial is its comm before its
 * first row; the last row's comm lasts to the end. */
static void comm_spans(struct keep *k, sqlite3_stmt *st, bool *more, int64_t thread,
		       const unsigned char *initial, const char *want)
{
	int64_t start = INT64_MIN;
	bool cur = same_comm(initial, want);
	while (*more && sqlite3_column_int64(st, 0) == thread) {
		int64_t t = sqlite3_column_type(st, 1) == SQLITE_NULL ? INT64_MIN :
			    sqlite3_column_int64(st, 1);
		if (cur)
			keep_add(k, thread, start, t);
		start = t;
		cur = same_comm(sqlite3_column_text(st, 2), want);
		*more = sqlite3_step(st) == SQLITE_ROW;
	}
	if (cur)
		keep_add(k, thread, start, INT64_MAX);
}

/* thread_wanted: whether the thread row of st passes the pid/tid filter. */
static bool thread_wanted(sqlite3_stmt *th, const struct ct_filter *f)
{
	return (f->pid < 0 || sqlite3_column_int64(th, 1) == f->pid) &&
	       (f->tid < 0 || sqlite3_column_int64(th, 2) == f->tid);
}

static const char threads_sql[] =
	"SELECT t.id, t.pid, t.tid, t.comm, p.comm FROM thread t "
	"LEFT JOIN process p ON p.id = t.process_id WHERE t.session_id = ? ORDER BY t.id";
static const char comms_sql[] =
	"SELECT c.thread_id, c.time, c.comm FROM comm c JOIN thread t ON t.id = c.thread_id "
	"WHERE t.session_id = ? ORDER BY c.thread_id, c.time IS NOT NULL, c.time, c.rowid";

/* keep_threads(k, th, cm, f): the spans of every thread row of th (its
 * comm rows in cm) that f selects; 0, or -1 when a step failed. */
static int keep_threads(struct keep *k, sqlite3_stmt *th, sqlite3_stmt *cm, const struct ct_filter *f)
{
	int rc, crc = sqlite3_step(cm);
	bool more = crc == SQLITE_ROW;
	while ((rc = sqlite3_step(th)) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(th, 0);
		const unsigned char *initial = NULL;
		while (more && sqlite3_column_int64(cm, 0) < id)
			more = sqlite3_step(cm) == SQLITE_ROW;
		if (!thread_wanted(th, f))
			continue;
		if (!f->comm) {
			keep_add(k, id, INT64_MIN, INT64_MAX);
			continue;
		}
		if (!more || sqlite3_column_int64(cm, 0) != id)
			initial = sqlite3_column_text(th, 3);	/* never renamed */
		else if (sqlite3_column_int64(th, 1) != sqlite3_column_int64(th, 2))
			initial = sqlite3_column_text(th, 4);
		comm_spans(k, cm, &more, id, initial, f->comm);
	}
	return rc == SQLITE_DONE && (crc == SQLITE_ROW || crc == SQLITE_DONE) ? 0 : -1;
}

/* keep_build: the selection of session under f. A thread's comm before its
 * first COMM record is its process's comm (a thread inherits its creator's
 * name) unless it is the main thread, whose earlier name is unknown.
 * 0, or -1 on a database error. */
static int keep_build(struct keep *k, sqlite3 *db, int64_t session, const struct ct_filter *f)
{
	sqlite3_stmt *th, *cm;
	int rc;
	k->active = f->comm || f->pid >= 0 || f->tid >= 0;
	if (!k->active)
		return 0;
	th = db_prepare(db, threads_sql);
	cm = db_prepare(db, comms_sql);
	rc = th && cm ? 0 : -1;
	if (!rc) {
		sqlite3_bind_int64(th, 1, session);
		sqlite3_bind_int64(cm, 1, session);
		rc = keep_threads(k, th, cm, f);
	}
	sqlite3_finalize(th);
	sqlite3_finalize(cm);
	return rc;
}

/* ---- loading ----------------------------------------------------------- */

/* fail: writes a message to the loader's err and returns -1. */
static int fail(struct loader *L, const char *what)
{
	snprintf(L->err, L->errlen, "%s: %s", what, sqlite3_errmsg(L->db));
	return -1;
}

/* base_name: the last path component of p. */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s && s[1] ? s + 1 : p;
}

/* symbol_name(s, dso, unknown): the frame name of a symbol row (name s,
 * may be NULL; its DSO's path, may be NULL), malloc'ed; *unknown: an
 * unresolved address. */
static char *symbol_name(const char *s, const char *dso, bool *unknown)
{
	char *name;
	size_t n;
	*unknown = !strcmp(s ? s : "[unknown]", "[unknown]");
	if (*unknown && !dso)
		return xstrdup("[unknown]");	/* no map at all */
	if (*unknown)
		return xasprintf("[unknown] (%s)", base_name(dso));
	n = sym_normalize(s, NULL, 0);
	name = xmalloc(n + 1);
	sym_normalize(s, name, n + 1);
	return name;
}

/* frame_of_symbol: the frame of symbol row sym (0: none), memoized. */
static int32_t frame_of_symbol(struct loader *L, int64_t sym)
{
	uint64_t f;
	char *name;
	bool unknown = true;
	if (hm_get(&L->sym_frame, (uint64_t)sym, 0, &f))
		return (int32_t)f;
	sqlite3_bind_int64(L->sym_st, 1, sym);
	if (sym && sqlite3_step(L->sym_st) == SQLITE_ROW)
		name = symbol_name((const char *)sqlite3_column_text(L->sym_st, 0),
				   (const char *)sqlite3_column_text(L->sym_st, 1), &unknown);
	else
		name = xstrdup("[unknown]");
	sqlite3_reset(L->sym_st);
	f = (uint64_t)intern(L->t, name, unknown);
	free(name);
	hm_put(&L->sym_frame, (uint64_t)sym, 0, f);
	return (int32_t)f;
}

/* A stack row on the way from a leaf to a memoized node or the root. */
struct hop {
	int64_t id, symbol;
};

/* climb: pushes the stack rows from stack up to the first memoized one
 * (its node in *top, else the root) onto *v; -1 with err set when a row
 * is missing or the chain does not end. */
static int climb(struct loader *L, int64_t stack, struct hop **v, size_t *n, size_t *cap,
		 int32_t *top)
{
	uint64_t node;
	*top = 0;
	for (int64_t s = stack; s; ) {
		if (hm_get(&L->stack_node, (uint64_t)s, 0, &node)) {
			*top = (int32_t)node;
			return 0;
		}
		if (*n > 1000000) {
			snprintf(L->err, L->errlen, "stack %lld: deeper than 1000000 frames (a cycle?)",
				 (long long)stack);
			return -1;
		}
		sqlite3_bind_int64(L->stack_st, 1, s);
		if (sqlite3_step(L->stack_st) != SQLITE_ROW) {
			sqlite3_reset(L->stack_st);
			snprintf(L->err, L->errlen, "stack %lld: no such stack row", (long long)s);
			return -1;
		}
		ALLOC_GROW(*v, *n + 1, *cap);
		(*v)[(*n)++] = (struct hop){ s, sqlite3_column_int64(L->stack_st, 1) };
		s = sqlite3_column_int64(L->stack_st, 0);	/* NULL parent reads as 0 */
		sqlite3_reset(L->stack_st);
	}
	return 0;
}

/* too_many(L): the message of a tree that outgrew its node ids; -1. */
static int too_many(struct loader *L)
{
	snprintf(L->err, L->errlen, "more than %d call-tree nodes", INT32_MAX);
	return -1;
}

/* node_of_stack: the tree node of stack row stack, memoized; -1 with
 * err set. */
static int32_t node_of_stack(struct loader *L, int64_t stack)
{
	struct hop *v = NULL;
	size_t n = 0, cap = 0;
	int32_t node;
	if (climb(L, stack, &v, &n, &cap, &node)) {
		free(v);
		return -1;
	}
	while (n-- && node >= 0) {	/* from the outermost new row down */
		node = child_make(L->t, node, frame_of_symbol(L, v[n].symbol));
		if (node >= 0)
			hm_put(&L->stack_node, (uint64_t)v[n].id, 0, (uint64_t)node);
	}
	free(v);
	return node < 0 ? too_many(L) : node;
}

static const char samples_sql[] =
	"SELECT stack_id, symbol_id, period FROM sample WHERE id BETWEEN ?1 AND ?2 "
	"AND event_id IN (SELECT id FROM event WHERE session_id = ?3 AND name = ?4)%s";

/* group_add: adds one sample to its (stack, symbol) group in g[0..*n),
 * found through idx. */
static void group_add(struct hashmap *idx, struct group **g, size_t *n, size_t *cap,
		      int64_t stack, int64_t sym, double period)
{
	uint64_t i;
	if (!hm_get(idx, (uint64_t)stack, (uint64_t)sym, &i)) {
		ALLOC_GROW(*g, *n + 1, *cap);
		i = (*n)++;
		(*g)[i] = (struct group){ stack, sym, 0, 0, 0, -1 };
		hm_put(idx, (uint64_t)stack, (uint64_t)sym, i);
	}
	(*g)[i].count++;
	(*g)[i].w += period;
	(*g)[i].w2 += period * period;
}

/* session_range: the first and last sample ids of session (1, 0 when it
 * has none). */
static void session_range(sqlite3 *db, int64_t session, int64_t *first, int64_t *last)
{
	sqlite3_stmt *st = db_prepare(db, "SELECT first_sample_id, last_sample_id FROM session WHERE id = ?");
	*first = 1;
	*last = 0;
	if (st) {
		sqlite3_bind_int64(st, 1, session);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
			*first = sqlite3_column_int64(st, 0);
			*last = sqlite3_column_int64(st, 1);
		}
	}
	sqlite3_finalize(st);
}

/* load_groups: the (stack, symbol) groups of session's selected samples,
 * summed here in one pass over the session's sample range (a hash by
 * group is faster than SQL's GROUP BY, which sorts every row). */
static int load_groups(struct loader *L, int64_t session, const struct ct_filter *f,
		       bool keep, struct group **g, size_t *n)
{
	char sql[512];
	struct hashmap idx;
	sqlite3_stmt *st;
	int64_t first, last;
	size_t cap = 0;
	int rc;
	session_range(L->db, session, &first, &last);
	snprintf(sql, sizeof(sql), samples_sql, keep ? " AND perfdb_ct_keep(thread_id, time)" : "");
	if (!(st = db_prepare(L->db, sql)))
		return fail(L, "samples");
	sqlite3_bind_int64(st, 1, first);
	sqlite3_bind_int64(st, 2, last);
	sqlite3_bind_int64(st, 3, session);
	sqlite3_bind_text(st, 4, f->event, -1, SQLITE_STATIC);
	hm_init(&idx);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		group_add(&idx, g, n, &cap, sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
			  sqlite3_column_double(st, 2));
	hm_free(&idx);
	if (rc != SQLITE_DONE)
		fail(L, "samples");
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* resolve_groups: the leaf tree node of every group; -1 with err set. */
static int resolve_groups(struct loader *L, struct group *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (g[i].stack)
			g[i].leaf = node_of_stack(L, g[i].stack);
		else if ((g[i].leaf = child_make(L->t, 0, frame_of_symbol(L, g[i].symbol))) < 0)
			too_many(L);
		if (g[i].leaf < 0)
			return -1;
	}
	return 0;
}

/* widen: resizes run r's arrays from nn nodes and nf frames to the given
 * counts, zeroing the new entries. */
static void widen(struct ct_run *r, size_t nn, size_t nf, size_t nodes, size_t frames)
{
	double **d[] = { &r->incl, &r->self, &r->incl_sq }, **fd[] = { &r->fincl, &r->fself };
	double **fq[] = { &r->fincl_sq, &r->fself_sq };
	int64_t **c[] = { &r->nincl, &r->nself };
	*d[2] = xreallocarray(*d[2], nodes, sizeof(double));
	memset(*d[2] + nn, 0, (nodes - nn) * sizeof(double));
	for (int i = 0; i < 2; i++) {
		*fq[i] = xreallocarray(*fq[i], frames, sizeof(double));
		memset(*fq[i] + nf, 0, (frames - nf) * sizeof(double));
		*d[i] = xreallocarray(*d[i], nodes, sizeof(double));
		*c[i] = xreallocarray(*c[i], nodes, sizeof(int64_t));
		*fd[i] = xreallocarray(*fd[i], frames, sizeof(double));
		memset(*d[i] + nn, 0, (nodes - nn) * sizeof(double));
		memset(*c[i] + nn, 0, (nodes - nn) * sizeof(int64_t));
		memset(*fd[i] + nf, 0, (frames - nf) * sizeof(double));
	}
}

/* accumulate: adds the groups' weights to run r along their paths. */
static void accumulate(struct calltree *t, struct ct_run *r, const struct group *g, size_t n)
{
	uint64_t *stamp = xcalloc(t->nframes, sizeof(*stamp));
	for (size_t i = 0; i < n; i++) {
		double w = r->by_count ? (double)g[i].count : g[i].w;
		double w2 = r->by_count ? (double)g[i].count : g[i].w2;
		int32_t leaf = g[i].leaf;
		r->self[leaf] += w;
		r->nself[leaf] += g[i].count;
		r->fself[t->nodes[leaf].frame] += w;
		r->fself_sq[t->nodes[leaf].frame] += w2;
		for (int32_t x = leaf; x > 0; x = t->nodes[x].parent) {
			int32_t f = t->nodes[x].frame;
			r->incl[x] += w;
			r->incl_sq[x] += w2;
			r->nincl[x] += g[i].count;
			if (stamp[f] != i + 1) {	/* once per sample per frame */
				stamp[f] = i + 1;
				r->fincl[f] += w;
				r->fincl_sq[f] += w2;
			}
		}
		r->incl[0] += w;
		r->incl_sq[0] += w2;
		r->nincl[0] += g[i].count;
	}
	free(stamp);
}

/* totals: the run's sample count and weights from its groups. */
static void totals(struct ct_run *r, const struct group *g, size_t n)
{
	double w = 0;
	for (size_t i = 0; i < n; i++) {
		r->samples += g[i].count;
		w += g[i].w;
		r->weight_sq += g[i].w2;
	}
	r->by_count = w <= 0;
	r->weight = r->by_count ? (double)r->samples : w;
	if (r->by_count)
		r->weight_sq = (double)r->samples;
}

/* add_groups: a new run of t made of the groups; its index. */
static int add_groups(struct calltree *t, int64_t session, const struct group *g, size_t n)
{
	struct ct_run *r;
	t->runs = xreallocarray(t->runs, (size_t)t->nruns + 1, sizeof(*t->runs));
	r = &t->runs[t->nruns];
	*r = (struct ct_run){ .session = session };
	widen(r, 0, 0, t->nnodes, t->nframes);
	totals(r, g, n);
	accumulate(t, r, g, n);
	return t->nruns++;
}

/* widen_all: brings every run but the last up to the tree's size (they
 * had nodes0 nodes and frames0 frames). */
static void widen_all(struct calltree *t, size_t nodes0, size_t frames0)
{
	for (int i = 0; i < t->nruns - 1; i++)
		widen(&t->runs[i], nodes0, frames0, t->nnodes, t->nframes);
}

/* loader_open: prepares the per-run statements. */
static int loader_open(struct loader *L, struct calltree *t, sqlite3 *db, char *err, size_t errlen)
{
	*L = (struct loader){ .t = t, .db = db, .err = err, .errlen = errlen };
	err[0] = '\0';
	hm_init(&L->stack_node);
	hm_init(&L->sym_frame);
	L->stack_st = db_prepare(db, "SELECT parent_id, symbol_id FROM stack WHERE id = ?");
	L->sym_st = db_prepare(db, "SELECT s.name, d.path FROM symbol s "
			       "LEFT JOIN dso d ON d.id = s.dso_id WHERE s.id = ?");
	return L->stack_st && L->sym_st ? 0 : fail(L, "prepare");
}

/* loader_close: releases what loader_open made. */
static void loader_close(struct loader *L)
{
	sqlite3_finalize(L->stack_st);
	sqlite3_finalize(L->sym_st);
	hm_free(&L->stack_node);
	hm_free(&L->sym_frame);
}

/* load: the groups of the selection, resolved to tree nodes. */
static int load(struct loader *L, int64_t session, const struct ct_filter *f,
		struct group **g, size_t *n)
{
	struct keep k = { 0 };
	int rc = -1;
	if (keep_build(&k, L->db, session, f)) {
		fail(L, "threads");
	} else if (k.active && sqlite3_create_function(L->db, "perfdb_ct_keep", 2,
			SQLITE_UTF8 | SQLITE_DETERMINISTIC, &k, keep_fn, NULL, NULL) != SQLITE_OK) {
		fail(L, "selection");
	} else {
		rc = load_groups(L, session, f, k.active, g, n);
		if (!rc)
			rc = resolve_groups(L, *g, *n);
	}
	if (k.active)
		sqlite3_create_function(L->db, "perfdb_ct_keep", 2, SQLITE_UTF8, NULL, NULL, NULL, NULL);
	free(k.v);
	return rc;
}

/* ct_add_run: see calltree.h. */
int ct_add_run(struct calltree *t, sqlite3 *db, int64_t session,
	       const struct ct_filter *f, char *err, size_t errlen)
{
	struct loader L;
	struct group *g = NULL;
	size_t n = 0, nodes0 = t->nnodes, frames0 = t->nframes;
	int run = -1;
	if (!loader_open(&L, t, db, err, errlen) && !load(&L, session, f, &g, &n)) {
		run = add_groups(t, session, g, n);
		widen_all(t, nodes0, frames0);
	}
	loader_close(&L);
	free(g);
	return run;
}
